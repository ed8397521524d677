"""The `advise` report: per module, the kernel's counts now, then each change that lowers its cost (best first):
the alias text before and after, the Gluon constructor, why it was a candidate, the ops it touches (line, Python
line, facts before -> after), the whole kernel's counts and shared memory before -> after, the trade-offs in
words; then the aliases that cannot change and the candidates refused. Blocks and JSON."""
from __future__ import annotations

from ..analysis import advise as search
from ..analysis.advise import Advice, AliasOutcome, Change, OpChange, Refusal
from ..analysis.advise_candidates import Fixed
from ..analysis.kinds import Path
from ..attributes import TRITON
from ..records import frozen
from .blocks import BLANK, Fields, Table, line
from .common import COST_UNIT, cost_line, models, plural

SHOWN_REFUSED = 6


def gluon(change_alias) -> str | None:
    """The Gluon constructor of a changed alias's new layout (at the largest shape the alias is used at)."""
    from ..conversions import to_linear_layout
    from ..errors import TTLayoutError
    from .gluon import class_text, of_layout
    own = class_text(change_alias.attr)
    if own is not None or not change_alias.shape:
        return own
    try:
        return of_layout(change_alias.attr, to_linear_layout(change_alias.attr, list(change_alias.shape)))
    except TTLayoutError:
        return None


def _where(loc: str | None) -> str:
    """'matmul.py:26' from 'tests/data/kernels/src/matmul.py:26:5'."""
    if not loc:
        return "-"
    path, _, rest = loc.rpartition(":")
    path, _, line_no = path.rpartition(":")
    return f"{path.rsplit('/', 1)[-1]}:{line_no}" if path else loc


def facts_text(facts: dict) -> str:
    """One op's facts in a few words: 'shared_memory, 4096 B scratch, 8 ld / 8 st, 15 barriers'."""
    if "problem" in facts:
        return facts["problem"]
    parts = []
    if "path" in facts:
        parts.append(facts["path"])
    if facts.get("scratch_bytes"):
        parts.append(f"{facts['scratch_bytes']} B scratch")
    for key, word in (("shared_loads", "shared loads"), ("shared_stores", "shared stores")):
        if facts.get(key):
            parts.append(f"{facts[key]} {word}")
    for key, word in (("shuffles", "shuffles"), ("barriers", "barriers")):
        if facts.get(key):
            parts.append(f"{facts[key]} {word}")
    if "vector_bits" in facts:
        parts.append(f"{facts['vector_bits']}-bit x {facts.get('instructions_per_thread', '?')}")
    if "sectors_per_warp_access" in facts:
        parts.append(f"{facts['sectors_per_warp_access']} sectors/warp")
    conflicts = facts.get("bank_conflicts")
    if isinstance(conflicts, dict):
        conflicts = sum(v or 0 for v in conflicts.values())
    if conflicts:
        parts.append(f"{conflicts} conflicts")
    if "bytes" in facts:
        parts.append(f"{facts['bytes']} B")
    return ", ".join(parts) or "-"


def _op_rows(ops: tuple[OpChange, ...]) -> tuple:
    return tuple((o.op, str(o.line), _where(o.loc), facts_text(o.before), facts_text(o.after)) for o in ops)


def _totals_rows(c: Change) -> tuple:
    keys = [k for k in c.totals_before if k != "shared_bytes"]
    rows = []
    for k in keys + ["shared_bytes"]:
        b, a = c.totals_before.get(k, 0), c.totals_after.get(k, 0)
        mark = "" if a == b else f"  ({a - b:+d})"
        rows.append((COUNT_WORDS.get(k, k.replace("_", " ")), f"{b} -> {a}{mark}"))
    return tuple(rows)


def change_blocks(k: int, c: Change, cost: float) -> list:
    names = " and ".join(f"#{a.alias}" for a in c.aliases)
    out: list = [line(f"change {k}: {names} (saves {c.saving:g} of cost {cost:g})", "bold")]
    for a in c.aliases:
        rows = [("before", f"#{a.alias} = {a.before}"), ("after", f"#{a.alias} = {a.after}")]
        g = gluon(a)
        rows.append(("gluon", g if g is not None else "(Gluon 3.9 has no constructor for it)"))
        rows.append(("why", a.source))
        out.append(Fields(tuple(rows), label_width=10, indent="  "))
    words = tradeoffs(c)
    if words:
        out.append(Fields((("in words", words[0]),), label_width=10, indent="  "))
    if c.ops:
        out.append(Table(("op", "line", "python", "before", "after"), _op_rows(c.ops), "  "))
    if c.retyped:
        out.append(line(f"{plural(c.retyped, 'other op')} in the changed layout cost the same", indent="  "))
    out.append(line("kernel (static per-thread counts, as the assembly has them)", indent="  "))
    out.append(Fields(_totals_rows(c), label_width=16, indent="    "))
    return out


def module_blocks(a: Advice, path: str, several: bool = False) -> list:
    where = path + (f", module {a.index + 1} (line {a.first_line})" if several else "")
    out: list = [line(f"ttlayout advise {where}: {a.kernel}, {a.target}; {models()}", "bold"),
                 line(cost_line(), indent="  ")]
    counts = ", ".join(f"{COUNT_WORDS.get(k, k)} {v}" for k, v in a.totals.items() if k != "shared_bytes")
    out.append(Fields((("kernel now", f"{counts}; shared memory {a.totals['shared_bytes']} bytes; cost "
                                      f"{a.cost:g}"),
                       ("searched", f"{plural(a.candidates_priced, 'candidate')} priced, {len(a.refused)} refused; "
                                    f"{len(a.ineligible)} {'alias' if len(a.ineligible) == 1 else 'aliases'} "
                                    "cannot change")),
                      label_width=12, indent="  "))
    if a.not_priced:
        out.append(line(f"  search cut short: {plural(a.not_priced, 'candidate')} not priced (at most "
                        f"{search.MAX_PRICED} per module, each audits the whole module)"))
    if a.not_counted:
        out.append(line(f"  not counted by the model: {plural(len(a.not_counted), 'op')} (lines "
                        f"{', '.join(map(str, a.not_counted[:8]))}{' ...' if len(a.not_counted) > 8 else ''})"))
    out.append(BLANK)
    if not a.changes:
        out.append(line(f"no layout change lowers the cost: {plural(a.candidates_priced, 'candidate')} priced, "
                        "none cheaper", "bold"))
    for k, c in enumerate(a.changes, 1):
        out += change_blocks(k, c, a.cost)
        out.append(BLANK)
    if a.aliases:
        out.append(line("every alias", "bold"))
        out.append(Fields(tuple((f"#{o.alias}", outcome_text(o)) for o in a.aliases), label_width=12, indent="  "))
    if a.refused:
        out.append(line("candidates refused", "bold"))
        rows = tuple((alias, f"{_short(text, 60)}: {refusal_words(why)}") for alias, text, why in
                     a.refused[:SHOWN_REFUSED])
        out.append(Fields(rows, label_width=12, indent="  "))
        if len(a.refused) > SHOWN_REFUSED:
            out.append(line(f"... and {len(a.refused) - SHOWN_REFUSED} more (--json lists them)", indent="  "))
    return out


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def blocks(advice: list[Advice], path: str, written: str | None = None, pick: int = 0) -> list:
    out: list = []
    for k, a in enumerate(advice):
        if k:
            out.append(BLANK)
        out += module_blocks(a, path, several=len(advice) > 1)
    if written is not None:
        applied = [a for a in advice if len(a.changes) > pick]
        out.append(BLANK)
        if applied:
            out.append(line(f"written: {written} (change {pick + 1}"
                            + (f" of {plural(len(applied), 'module')}" if len(advice) > 1 else "")
                            + "; every other byte as in the input)", "bold"))
        else:
            out.append(line(f"nothing written to {written}: no change to apply", "bold"))
    return out


def _alias_json(a) -> dict:
    return {"alias": f"#{a.alias}", "before": a.before, "after": a.after, "gluon": gluon(a), "why": a.source}


def change_json(c: Change) -> dict:
    first = _alias_json(c.aliases[0])
    return {**{k: first[k] for k in ("alias", "before", "after", "gluon")},
            "aliases": [_alias_json(a) for a in c.aliases],
            "ops": [{"op": o.op, "line": o.line, "loc": o.loc, "loops": o.loops, "before": o.before,
                     "after": o.after} for o in c.ops],
            "retyped_ops": c.retyped,
            "totals_before": c.totals_before, "totals_after": c.totals_after,
            "cost_before": c.cost_before, "cost_after": c.cost_after, "saving": c.saving,
            "tradeoffs": list(tradeoffs(c))}


def refusal_words(why: str | Refusal) -> str:
    """Why a candidate was refused, in one line: the audit's error as it is, or the `Refusal` in words."""
    if isinstance(why, str):
        return why
    if why.bits:
        return (f"line {why.line}: the cp.async would move {why.bits} bits per lane (Triton 3.9 lowers only 4, 8 "
                "or 16 bytes)")
    return f"line {why.line}: {why.op} would be {why.status}: {why.problem}"


def module_json(a: Advice) -> dict:
    return {"module": a.index, "first_line": a.first_line, "kernel": a.kernel, "target": a.target, "triton": TRITON,
            "totals": a.totals, "cost": a.cost, "changes": [change_json(c) for c in a.changes],
            "candidates_priced": a.candidates_priced, "candidates_not_priced": a.not_priced,
            "refused": [{"alias": al, "after": text, "why": refusal_words(why)} for al, text, why in a.refused],
            "ineligible": [{"alias": f"#{n}", "why": fixed_text(why), **_fixed_json(why)} for n, why in a.ineligible],
            "aliases": [outcome_json(o) for o in a.aliases], "cost_unit": COST_UNIT,
            "not_counted_lines": list(a.not_counted)}


def json_text(advice: list[Advice], path: str, written: str | None = None, pick: int = 0) -> str:
    """One object; `modules` holds one entry per module; the first module's fields are repeated at the top;
    `written`: the file the changed dump went to (null if none), `applied_change`: which change (1 = the best)."""
    import json
    mods = [module_json(a) for a in advice]
    top = dict(mods[0]) if mods else {}
    return json.dumps({"file": path, **top, "written": written, "applied_change": pick + 1 if written else None,
                       "modules": mods}, indent=2) + "\n"


# ----------------------------------------------------------------------------------------- many kernels


@frozen
class KernelRun:
    """One kernel of `advise DIR | --cache`: its file, label and name, its advice, the file its changed dump went
    to (None: none written) and the one asked for (--write-dir's)."""
    path: str
    label: str
    name: str
    advice: list
    written: str | None
    destination: str | None


def _ranking_text(where: str, ranking: tuple[int, int]) -> str:
    top, total = ranking
    which = "the costliest" if top == 1 else f"the {top} costliest"
    return f"ttlayout advise {where}: {which} of {total} kernels as 'ttlayout audit' ranks them (--top N for more)"


def kernels_blocks(runs: list[KernelRun], where: str, ranking: tuple[int, int] | None, pick: int = 0) -> list:
    """Each kernel's report (`blocks`), under a line saying how they were chosen where audit's ranking did."""
    out: list = []
    if ranking is not None:
        out += [line(_ranking_text(where, ranking), "bold"), BLANK]
    for n, r in enumerate(runs):
        if n:
            out.append(BLANK)
        out += blocks(r.advice, f"{r.path} ({r.label})" if r.label != r.name else r.path, r.destination, pick)
    return out


def kernels_json(runs: list[KernelRun], where: str, ranking: tuple[int, int] | None, pick: int = 0) -> str:
    """One object: what was searched, how the kernels were chosen, and each kernel's advice (`json_text`'s
    object with its `label`)."""
    import json
    return json.dumps({"searched": where, "ranked_by": "ttlayout audit cost" if ranking else None,
                       "kernels_ranked": ranking[1] if ranking else None,
                       "kernels": [{"label": r.label, **json.loads(json_text(r.advice, r.path, r.written, pick))}
                                   for r in runs]}, indent=2) + "\n"


# ----------------------------------------------------------------------------------------- every alias

_FIXED = {"dot-operand": "it is an operand or the accumulator layout of {where}",
          "related": "{where} relates it to another layout (change them together: not searched)",
          "packs": "{where} packs elements",
          "fixed-op": "{where} fixes its layout (advise changes only layouts every op using them accepts)",
          "dot-layout": "a dot's own layout (kept for the dots that produce or take it)",
          "unused": "no op uses it"}


def fixed_text(fixed: Fixed) -> str:
    """Why an alias cannot change, naming the op that fixes it: 'tt.trans at line 12 relates it to ...'."""
    where = f"{fixed.op} at line {fixed.line}" if fixed.op else "an op"
    return _FIXED.get(fixed.code, fixed.code).format(where=where)


def _fixed_json(fixed: Fixed) -> dict:
    return {"code": fixed.code, "op": fixed.op, "op_line": fixed.line}


def outcome_text(o: AliasOutcome) -> str:
    """What became of one alias, in a line: 'changed (change 1, 3)', 'every candidate priced worse (4 priced,
    the best saves -12)', 'cannot change: tt.trans at line 12 relates it to another layout'."""
    if o.status == "ineligible":
        assert o.fixed is not None
        text = f"cannot change: {fixed_text(o.fixed)}"
    elif o.status == "changed":
        text = f"changed ({'change' if len(o.changes) == 1 else 'changes'} {', '.join(map(str, o.changes))})"
    elif o.status == "priced-worse":
        best = f", the best saves {o.best_saving:g}" if o.best_saving is not None else ""
        text = f"every candidate priced worse or equal ({o.priced} priced{best}{_also(o)})"
    elif o.status == "refused":
        text = f"every candidate refused ({o.refused} refused{_also(o)}; 'candidates refused' below)"
    elif o.status == "not-priced":
        text = (f"not priced: the search stopped at {search.MAX_PRICED} candidates per module ({o.not_priced} left out"
                f"{', ' + str(o.refused) + ' refused' if o.refused else ''})")
    else:
        text = "no candidate could be built for it"
    if o.conflicts and o.status != "changed":
        text += f"; its ops have {plural(o.conflicts, 'bank conflict')}"
    return text


def _also(o: AliasOutcome) -> str:
    parts = []
    if o.status != "refused" and o.refused:
        parts.append(f"{o.refused} refused")
    if o.not_priced:
        parts.append(f"{o.not_priced} not priced (at most {search.MAX_PRICED} per module)")
    return "".join(", " + p for p in parts)


def outcome_json(o: AliasOutcome) -> dict:
    return {"alias": f"#{o.alias}", "kind": o.kind, "status": o.status, "why": outcome_text(o),
            "changes": list(o.changes), "candidates": o.candidates, "priced": o.priced, "refused": o.refused,
            "not_priced": o.not_priced, "best_saving": o.best_saving,
            "fixed_by": _fixed_json(o.fixed) if o.fixed is not None else None, "bank_conflicts": o.conflicts}


# ----------------------------------------------------------------------------------------- trade-offs

COUNT_WORDS = {"shared_loads": "shared loads", "shared_stores": "shared stores", "shuffles": "shuffles",
               "barriers": "barriers", "global_loads": "global loads", "global_stores": "global stores"}
PATH_WORDS = {Path.NOOP: "disappears", Path.REGISTERS: "becomes a register move",
              Path.WARP_SHUFFLE: "becomes warp shuffles", Path.SHARED_MEMORY: "goes through shared memory",
              Path.CROSS_CTA: "crosses CTAs"}
_KIND = {"tt.load": "loads", "tt.store": "stores", "ttg.async_copy_global_to_local": "cp.async copies",
         "amdg.buffer_load": "buffer loads", "amdg.buffer_store": "buffer stores"}


def tradeoffs(c: Change) -> tuple[str, ...]:
    """A change's trade-offs in one sentence (none where no op and no total changes)."""
    if not c.ops and c.totals_before == c.totals_after:
        return ()
    return (sentence(*gains_and_losses(c.ops, c.totals_before, c.totals_after)),)


def gains_and_losses(ops: tuple[OpChange, ...], before: dict, after: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The change in words, (gains, losses): 'the convert at line 147 disappears', 'stores at line 148 narrow from
    128 to 32 bits', 'the local_load at line 100 needs 8 shared loads instead of 16', 'shared memory grows from 0
    to 4096 bytes'."""
    gains: list[str]
    losses: list[str]
    gains, losses = [], []

    def say(better: bool, text: str):
        (gains if better else losses).append(text)
    for o in ops:
        b, a = o.before, o.after
        name = "the convert" if o.op == "ttg.convert_layout" else f"the {o.op.split('.', 1)[-1]}"
        name += f" at line {o.line}"
        if "path" in b and b.get("path") != a.get("path"):
            path = a.get("path")
            say(_rank_path(path) < _rank_path(b.get("path")), f"{name} {PATH_WORDS[path] if path in PATH_WORDS else path}")
            continue
        for k in COUNT_WORDS:
            if b.get(k, 0) != a.get(k, 0):
                say(a.get(k, 0) < b.get(k, 0), f"{name} needs {_count(a.get(k, 0), k)} instead of {b.get(k, 0)}")
        vb, va = b.get("vector_bits"), a.get("vector_bits")
        if vb and va and vb != va:
            kind = _KIND.get(o.op, f"{name}'s accesses")
            where = f" at line {o.line}" if o.op in _KIND else ""
            say(va > vb, f"{kind}{where} {'widen' if va > vb else 'narrow'} from {vb} to {va} bits")
        sb, sa = _sectors(b), _sectors(a)
        if sb and sa and sb != sa:
            say(sa < sb, f"{name} touches {sa} sectors per warp instead of {sb}")
        cb, ca = _conflicts(b), _conflicts(a)
        if cb != ca and cb is not None and ca is not None:
            say(ca < cb, f"bank conflicts at line {o.line} go from {cb} to {ca}")
    sb, sa = before.get("shared_bytes", 0), after.get("shared_bytes", 0)
    if sb != sa:
        say(sa < sb, f"shared memory {'shrinks' if sa < sb else 'grows'} from {sb} to {sa} bytes")
    return tuple(gains), tuple(losses)


def _count(n: int, key: str) -> str:
    """'1 barrier', '8 shared loads'."""
    word = COUNT_WORDS[key]
    return f"{n} {word[:-1] if n == 1 and word.endswith('s') else word}"


def _sectors(facts_: dict) -> int | None:
    """32-byte sectors a warp's whole access touches: sectors per access times accesses."""
    per = facts_.get("sectors_per_warp_access")
    return per * facts_.get("instructions_per_thread", 1) if per else None


def _rank_path(path) -> int:
    return tuple(Path).index(path) if path in PATH_WORDS else 5


def _conflicts(facts_: dict):
    c = facts_.get("bank_conflicts")
    if isinstance(c, dict):
        return sum(v or 0 for v in c.values())
    return c


def sentence(gains: tuple[str, ...], losses: tuple[str, ...]) -> str:
    """'the convert at line 147 disappears, but stores at line 148 narrow from 128 to 32 bits'."""
    g, lo = ", ".join(gains), ", ".join(losses)
    if g and lo:
        return f"{g}, but {lo}"
    return g or lo or "no op changes its instructions"
