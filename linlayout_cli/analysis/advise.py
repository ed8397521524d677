"""`advise`: the layout changes that make a kernel cheaper, each priced on the whole kernel by the audit model.

For every layout alias of a module (`#blocked1 = ...`), the search builds alternatives that keep the module valid
for Triton 3.9 (`eligibility`: which ops use the alias and whether each accepts another layout), redefines the
alias (`Module.with_aliases`: the dump is not read again), audits the whole module again with one shared cache of
analyses, and compares the kernel's static per-thread instruction counts (`Finding.counts`, summed) and its shared
memory. The ranking weighs them (`Weights`, docs/advise_model.md); the report shows the counts themselves.

Candidates, in a fixed order and at most `MAX_CANDIDATES` per alias:

- distributed aliases: the layout on the other side of each `convert_layout` (the convert becomes a no-op), that
  layout with its registers regrouped to hold a 128-bit vector along the alias's fastest dim (the convert becomes
  a register move or warp shuffles, the global accesses stay wide), the module's other layouts of the same rank
  (the classic "store in the accumulator's layout"), and Triton's coalesced blocked layouts for the alias's
  largest shape (global vectors widen, sectors per warp drop);
- shared aliases: the swizzle search's best for each writer/reader pair (`analysis/swizzle.py`), the best
  `nvmma_shared` on NVIDIA, the best padding (never a misaligned one), or, for a buffer that wgmma / tcgen05
  reads, the other legal `nvmma_shared` swizzles;
- two aliases changed together: both ends of a convert given one layout, and the best single changes combined
  (at most `MAX_PAIRS`), reported when the pair beats each of its halves.

A candidate the audit cannot price like the original (an op that becomes "not analysed" or "not modelled") or
that Triton 3.9 would reject (a `cp.async` narrower than 4 bytes) is refused, and counted as such.
"""
from __future__ import annotations

from ..errors import TTLayoutError
from ..records import frozen
from .advise_candidates import (  # noqa: F401  (re-exported: importers keep their path)
    FREE_OPS,
    FREE_PREFIXES,
    MAX_CANDIDATES,
    Candidate,
    Fixed,
    Usage,
    _encoding_text,
    _largest,
    coalesced_blocked,
    distributed_candidates,
    layout_aliases,
    regrouped,
    shared_candidates,
    usages,
)
from .kernel.audit import analyze_audit
from .kernel.context import Memo
from .kernel.facts import AsyncCopy, Convert, GlobalAccess, Reduction, SharedAccess
from .kernel.findings import COUNT_CLASSES
from .kernel.weights import WEIGHTS, Weights, kernel_cost, op_cost  # noqa: F401  (re-exported)
from .kinds import Category
from .targets import Target

MAX_PRICED = 256                # candidates priced per module (each one audits the whole module): past it the
                                # search stops and says so, so the time stays linear in the module's size
MAX_PAIRS = 12                  # two-alias changes priced per module


SHARED_CLASSES = ("shared_loads", "shared_stores", "shuffles", "barriers")


@frozen
class AliasChange:
    """One alias redefined: its name, its value before and after (canonical text), why it was a candidate, the new
    attribute and the largest shape it is used at (for the Gluon constructor)."""
    alias: str
    before: str
    after: str
    source: str
    attr: object
    shape: tuple[int, ...]


@frozen
class OpChange:
    """An op whose cost or lowering changes: its facts before and after (`facts`)."""
    op: str
    line: int
    loc: str | None
    loops: int
    before: dict
    after: dict


@frozen
class Change:
    """A priced change of one or two aliases: the ops it touches, the kernel's counts before and after
    (`COUNT_CLASSES` summed over the ops, plus `shared_bytes`) and the weighted costs (reports/advise.py words the
    trade-offs from the ops' facts)."""
    aliases: tuple[AliasChange, ...]
    ops: tuple[OpChange, ...]
    retyped: int                      # ops whose types name a changed alias but whose cost is the same
    totals_before: dict
    totals_after: dict
    cost_before: float
    cost_after: float

    @property
    def saving(self) -> float:
        return self.cost_before - self.cost_after


@frozen
class Refusal:
    """Why a priced candidate cannot be proposed (reports/advise.py words it): an op at `line` the audit could read
    before and cannot now (its `status` and `problem`), or a cp.async that would move `bits` per lane, which Triton
    3.9 cannot lower."""
    line: int
    op: str
    status: str = ""
    problem: str = ""
    bits: int = 0


@frozen
class Advice:
    """What `advise` found for one module: the changes that lower its cost (best first), how many candidates
    were priced and refused, and which aliases cannot change (and why)."""
    index: int
    first_line: int
    kernel: str
    target: str
    changes: tuple[Change, ...]
    candidates_priced: int
    refused: tuple[tuple[str, str, str | Refusal], ...]   # (alias, candidate text, the error's message or Refusal)
    ineligible: tuple[tuple[str, Fixed], ...]       # (alias, why: reports/advise.py words the code)
    totals: dict
    cost: float
    not_counted: tuple[int, ...]                    # lines of ops whose counts the model does not have
    not_priced: int = 0                             # candidates left out by the MAX_PRICED bound
    aliases: tuple[AliasOutcome, ...] = ()          # every layout alias of the module, in file order


# what became of an alias (`AliasOutcome.status`), in the order a report lists them
STATUSES = ("changed", "priced-worse", "refused", "not-priced", "no-candidate", "ineligible")


@frozen
class AliasOutcome:
    """What the search did with one layout alias: `status` (STATUSES): `changed` (the changes that redefine it,
    numbered from 1), `priced-worse` (candidates priced, none cheaper: `best_saving` is the best of them, <= 0),
    `refused` (every candidate refused), `not-priced` (the MAX_PRICED bound left its candidates out), `no-candidate`
    (no alternative could be built), `ineligible` (`fixed`: the op that fixes it). The counts say how many
    candidates were built, priced, refused and left out; `conflicts`: bank conflicts of the ops using it now."""
    alias: str
    kind: str                                       # "distributed" or "shared"
    status: str
    changes: tuple[int, ...] = ()
    candidates: int = 0
    priced: int = 0
    refused: int = 0
    not_priced: int = 0
    best_saving: float | None = None
    fixed: Fixed | None = None
    conflicts: int = 0


# ----------------------------------------------------------------------------------------- cost and counts


def totals(audit) -> dict:
    """The kernel's static per-thread counts in the assembly's classes (each op's `Finding.counts` summed; an op
    the model does not count adds nothing) and its shared memory in bytes (`shared_bytes`)."""
    out = dict.fromkeys(COUNT_CLASSES, 0)
    for f in audit.findings:
        for k, v in (f.counts or {}).items():
            out[k] = out.get(k, 0) + v
    out["shared_bytes"] = audit.shared.total
    return out


def facts(f) -> dict:
    """What the report shows of one op, before or after a change: the convert's path and scratch, the op's
    counts, bank conflicts, vector width, instructions and sectors per warp access (whichever the op has)."""
    if f.problem:
        return {"problem": f.problem}
    facts = f.facts
    out: dict = {}
    if isinstance(facts, Convert):
        out["path"] = facts.path
        out["scratch_bytes"] = facts.scratch_bytes
    for k, v in (f.counts or {}).items():
        if v or isinstance(facts, Convert) and k in SHARED_CLASSES:
            out[k] = v
    if isinstance(facts, (Convert, SharedAccess, AsyncCopy)):
        out["bank_conflicts"] = facts.bank_conflicts
    if isinstance(facts, (GlobalAccess, SharedAccess, AsyncCopy)):
        out["vector_bits"] = facts.vector_bits
        out["instructions_per_thread"] = facts.instructions_per_thread
        if not isinstance(facts, SharedAccess) and facts.sectors_per_warp_access is not None:
            out["sectors_per_warp_access"] = facts.sectors_per_warp_access
    if isinstance(facts, Reduction):
        out["scratch_bytes"] = facts.scratch_bytes
    if f.category == Category.BUFFER and f.buffer is not None:
        out["bytes"] = f.buffer.bytes
    return out


# ----------------------------------------------------------------------------------------- pricing


class Pricer:
    """Audits a module under alias redefinitions, with one cache of analyses; remembers refusals."""

    def __init__(self, module, target: Target | None, memo: Memo):
        self.module, self.target, self.memo = module, target, memo
        self.priced = self.tried = 0
        self.refused: list[tuple[str, str, str | Refusal]] = []
        self.base = self.audit({})
        self.base_problems = {(f.line, f.op) for f in self.base.findings if f.problem}
        self.base_cost, self.base_totals = kernel_cost(self.base), totals(self.base)

    def audit(self, values: dict):
        module = self.module.with_aliases(values) if values else self.module
        return analyze_audit([module], self.target, memo=self.memo)[0]

    def price(self, candidates: tuple[Candidate, ...]):
        """The audit under the candidates, or None (refused: the reason is kept)."""
        self.tried += 1
        values = {c.alias: c.attr for c in candidates}
        label = " + ".join(f"#{c.alias}" for c in candidates)
        text = " ; ".join(str(c.attr) for c in candidates)
        try:
            audit = self.audit(values)
        except TTLayoutError as e:
            self.refused.append((label, text, str(e)))
            return None
        why = refusal(audit, self.base_problems)
        if why is not None:
            self.refused.append((label, text, why))
            return None
        self.priced += 1
        return audit


def refusal(audit, base_problems: set) -> Refusal | None:
    """Why a priced module cannot be proposed: an op the audit could read before and cannot now, or an async copy
    Triton 3.9 cannot lower (cp.async moves 4, 8 or 16 bytes per lane; LoadStoreOpToLLVM asserts otherwise)."""
    for f in audit.findings:
        if f.problem and (f.line, f.op) not in base_problems:
            return Refusal(f.line, f.op, f.status, f.problem)
        if isinstance(f.facts, AsyncCopy) and audit.target.vendor == "nvidia":
            bits = f.facts.vector_bits
            if bits not in (32, 64, 128):
                return Refusal(f.line, f.op, bits=bits)
    return None


def touched(base, after, changed: set) -> tuple[tuple[OpChange, ...], int]:
    """The ops whose facts differ between two audits of one module, and how many other rows name a changed
    alias (retyped at no cost)."""
    ops, retyped = [], 0
    for b, a in zip(base.findings, after.findings):
        fb, fa = facts(b), facts(a)
        if fb != fa:
            ops.append(OpChange(b.op, b.line, b.loc, b.loops, fb, fa))
        elif any(f"#{n}" in t for n in changed for t in b.layouts):
            retyped += 1
    return tuple(ops), retyped


# ----------------------------------------------------------------------------------------- the search


def _kernel_name(module) -> str:
    names = []
    for op in module.ops:
        if op.name in ("tt.func", "func.func"):
            symbol = op.symbol()
            if symbol:
                names.append(symbol)
    return ", ".join(names) or "?"


def _convert_ends(module, usages_: dict) -> dict[str, list]:
    """Per alias, the layouts on the other side of each convert_layout whose source or result is in the alias:
    [(attribute, shape, element bits, line)], in op order."""
    out: dict[str, list] = {n: [] for n in usages_}
    for op in module.ops:
        if op.name != "ttg.convert_layout" or not op.operand_types or not op.result_types:
            continue
        src, dst = module.value_type(op.operand_types[0]), module.value_type(op.result_types[0])
        if src.encoding is None or dst.encoding is None:
            continue
        try:
            bits = src.element_bits
        except TTLayoutError:
            continue
        for mine, other in ((dst, src), (src, dst)):
            name = mine.encoding_text[1:] if mine.encoding_text.startswith("#") else None
            if name in out:
                out[name].append((other.encoding, mine.shape, bits, op.line))
    return out


def _change(pricer: Pricer, candidates: tuple[Candidate, ...], audit, usages_: dict) -> Change:
    base = pricer.base
    ops, retyped = touched(base, audit, {c.alias for c in candidates})
    before, after = pricer.base_totals, totals(audit)
    aliases = tuple(AliasChange(c.alias, str(usages_[c.alias].attr), str(c.attr), c.source, c.attr,
                                _largest(usages_[c.alias].shapes) or ()) for c in candidates)
    return Change(aliases, ops, retyped, before, after, pricer.base_cost, kernel_cost(audit))


def advise_module(module, index: int = 0, target: Target | None = None, memo: Memo | None = None) -> Advice:
    """The advice for one module (see the module's docstring): every candidate priced, the changes that lower the
    weighted cost kept, best first (ties in the order they were priced)."""
    memo = memo if memo is not None else Memo()
    pricer = Pricer(module, target, memo)
    base = pricer.base
    tgt = base.target
    use = usages(module)
    ends = _convert_ends(module, use)
    warps, lanes = module.num_warps or 4, module.threads_per_warp or tgt.warp_size
    ineligible: list[tuple[str, Fixed]]                     # (alias, why)
    singles: dict[str, list[tuple[float, Candidate]]]       # alias -> (cost, candidate) of each one priced
    combo: tuple[Candidate, ...]                            # a pair from _pairs, then any entry of `priced`
    ineligible, singles = [], {}
    base_cost = pricer.base_cost
    # the best change per set of aliases, kept as its `Change` (the ops it touches), never as a whole audit: the
    # memory stays linear in the module however many candidates are priced
    best: dict[tuple[str, ...], tuple[float, int, Change]] = {}
    order = 0

    def keep(combo: tuple[Candidate, ...], audit, cost: float) -> None:
        nonlocal order
        order += 1
        key = tuple(c.alias for c in combo)
        if cost < base_cost - 1e-9 and (key not in best or cost < best[key][0]):
            best[key] = (cost, order, _change(pricer, combo, audit, use))
    changeable = [n for n, u in use.items() if u.constraint in (None, "nvmma") and u.ops]
    quota = max(1, min(MAX_CANDIDATES, MAX_PRICED // max(1, len(changeable))))
    conflicts = _conflicts_by_alias(base, use)
    not_priced = 0
    counted: dict[str, list[int]] = {}                      # alias -> [built, priced, refused, not priced]
    for name, u in use.items():
        if u.constraint not in (None, "nvmma"):
            assert isinstance(u.constraint, Fixed)          # by the test above (mypy does not narrow `not in`)
            ineligible.append((name, u.constraint))
            continue
        if not u.ops:
            ineligible.append((name, Fixed("unused")))
            continue
        if getattr(u.attr, "kind", None) == "distributed":
            cands = distributed_candidates(module, u, ends.get(name, []), warps, lanes)
        else:
            cands = shared_candidates(module, u, tgt)
        room = max(0, min(quota, MAX_PRICED - pricer.tried))
        if not room and cands and conflicts.get(name):
            room = 1          # a conflicted shared alias gets its first candidate (the swizzle's) past the bound
        not_priced += max(0, len(cands) - room)
        tally = counted[name] = [len(cands), 0, 0, max(0, len(cands) - room)]
        for c in cands[:room]:
            audit = pricer.price((c,))
            if audit is None:
                tally[2] += 1
                continue
            tally[1] += 1
            cost = kernel_cost(audit)
            singles.setdefault(name, []).append((cost, c))
            keep((c,), audit, cost)
    single_cost = {(c.alias, str(c.attr)): cost for name in singles for cost, c in singles[name]}
    for combo in _pairs(module, use, singles):
        if pricer.tried >= MAX_PRICED + MAX_PAIRS:
            not_priced += 1
            continue
        audit = pricer.price(combo)
        if audit is not None:
            # kept when the two together save more than the two apart (independent changes are listed each)
            halves = sum(single_cost.get((c.alias, str(c.attr)), base_cost) for c in combo) - base_cost
            cost = kernel_cost(audit)
            if cost < halves - 1e-9:
                keep(combo, audit, cost)
    changes = tuple(change for _, _, change in sorted(best.values(), key=lambda v: (v[0], v[1])))
    not_counted = tuple(f.line for f in base.findings if f.counts is None)
    outcomes = _outcomes(use, dict(ineligible), counted, singles, changes, base_cost, conflicts)
    return Advice(index, module.first_line, _kernel_name(module), tgt.name, changes, pricer.priced,
                  tuple(pricer.refused), tuple(ineligible), totals(base), base_cost, not_counted, not_priced,
                  outcomes)


def _conflicts_by_alias(base, use: dict) -> dict[str, int]:
    """Per alias, the bank conflicts of the rows (shared accesses, async copies, converts) whose layouts name it."""
    out: dict[str, int] = {}
    for f in base.findings:
        facts = f.facts
        c = getattr(facts, "bank_conflicts", None) if isinstance(facts, (Convert, SharedAccess, AsyncCopy)) else None
        n = sum(v or 0 for v in c.values()) if isinstance(c, dict) else (c or 0)
        if n:
            for name in use:
                if f"#{name}" in f.layouts:
                    out[name] = out.get(name, 0) + n
    return out


def _outcomes(use: dict, ineligible: dict, counted: dict, singles: dict, changes, base_cost: float,
              conflicts: dict) -> tuple[AliasOutcome, ...]:
    """Every alias's `AliasOutcome`, in file order."""
    out = []
    for name, u in use.items():
        kind = "shared" if getattr(u.attr, "kind", None) == "shared" else "distributed"
        if name in ineligible:
            out.append(AliasOutcome(name, kind, "ineligible", fixed=ineligible[name],
                                    conflicts=conflicts.get(name, 0)))
            continue
        built, priced, refused, left = counted.get(name, [0, 0, 0, 0])
        numbers = tuple(k for k, c in enumerate(changes, 1) if any(a.alias == name for a in c.aliases))
        best = max((base_cost - cost for cost, _ in singles.get(name, [])), default=None)
        status = ("changed" if numbers else "priced-worse" if priced else "not-priced" if left
                  else "refused" if refused else "no-candidate")
        out.append(AliasOutcome(name, kind, status, numbers, built, priced, refused, left, best,
                                conflicts=conflicts.get(name, 0)))
    return tuple(out)


def _pairs(module, use: dict, singles: dict) -> list[tuple[Candidate, Candidate]]:
    """Two-alias changes to price, at most MAX_PAIRS, in a fixed order: both ends of a convert between two
    changeable aliases given one layout (each end's best candidates, and each end's own layout), then the best
    single candidates of the aliases that have some, two by two."""
    out: list[tuple[Candidate, Candidate]] = []
    seen = set()

    def add(a: Candidate, b: Candidate):
        key = tuple(sorted(((a.alias, str(a.attr)), (b.alias, str(b.attr)))))
        if a.alias != b.alias and key not in seen and len(out) < MAX_PAIRS:
            seen.add(key)
            out.append((a, b) if a.alias < b.alias else (b, a))
    free = {n for n, u in use.items() if u.constraint is None and u.attr.kind == "distributed"}
    for op in module.ops:
        if op.name != "ttg.convert_layout" or not op.operand_types or not op.result_types:
            continue
        src = _encoding_text(op.operand_types[0]) or ""
        dst = _encoding_text(op.result_types[0]) or ""
        x, y = src[1:], dst[1:]
        if x in free and y in free and x != y:
            for _cost, c in sorted(singles.get(x, []) + singles.get(y, []), key=lambda t: t[0])[:3]:
                add(Candidate(x, c.attr, c.source), Candidate(y, c.attr, c.source))
    tops = sorted(((min(singles[n], key=lambda t: t[0])[0], n) for n in singles), key=lambda t: (t[0], t[1]))[:4]
    for i in range(len(tops)):
        for j in range(i + 1, len(tops)):
            a = min(singles[tops[i][1]], key=lambda t: t[0])[1]
            b = min(singles[tops[j][1]], key=lambda t: t[0])[1]
            add(a, b)
    return out


def analyze_advise(modules, target: Target | None = None) -> list[Advice]:
    """`advise_module` for every module of a dump (`modules`: the parsed modules, read one by one), with one cache
    of analyses for them all."""
    memo = Memo()
    return [advise_module(m, i, target, memo) for i, m in enumerate(modules)]
