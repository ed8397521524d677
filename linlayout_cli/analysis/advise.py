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
from ..parsing.module import alias_references, slice_parent, type_shape
from ..records import frozen
from .kernel.audit import analyze_audit
from .kernel.context import Memo
from .kernel.facts import AsyncCopy, Convert, GlobalAccess, Reduction, SharedAccess
from .kernel.findings import COUNT_CLASSES, LOOP_WEIGHT
from .kernel.ops import DOT_OPS
from .kinds import Category

MAX_CANDIDATES = 10             # per alias
MAX_PRICED = 256                # candidates priced per module (each one audits the whole module): past it the
                                # search stops and says so, so the time stays linear in the module's size
MAX_PAIRS = 12                  # two-alias changes priced per module
MAX_SHARED_PAIRS = 2            # writer/reader pairs a shared alias's swizzle search is run for


@frozen
class Weights:
    """What one unit of each count costs in the ranking (docs/advise_model.md gives the sources): a shared-memory
    wavefront (an instruction and each extra wavefront its bank conflicts add), a barrier, a shuffle, a global
    memory instruction, each 32-byte sector a warp's global store (or atomic, cp.async) writes through to L2, and
    each 128-byte line a warp's global load touches in L1 (one L1 data-stage cycle, like a wavefront)."""
    wavefront: float = 1.0
    barrier: float = 8.0
    shuffle: float = 1.0
    global_instruction: float = 1.0
    sector: float = 2.0
    load_line: float = 1.0


WEIGHTS = Weights()
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
class Advice:
    """What `advise` found for one module: the changes that lower its cost (best first), how many candidates
    were priced and refused, and which aliases cannot change (and why)."""
    index: int
    first_line: int
    kernel: str
    target: str
    changes: tuple[Change, ...]
    candidates_priced: int
    refused: tuple[tuple[str, str, str], ...]      # (alias, candidate text, why)
    ineligible: tuple[tuple[str, str], ...]         # (alias, why)
    totals: dict
    cost: float
    not_counted: tuple[int, ...]                    # lines of ops whose counts the model does not have
    not_priced: int = 0                             # candidates left out by the MAX_PRICED bound


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


def op_cost(f, w: Weights = WEIGHTS) -> float:
    """One op's weighted cost per execution: wavefronts (shared instructions times one plus their conflicts),
    shuffles, barriers, and for global accesses (asynchronous copies included) instructions plus the sectors each
    warp store touches (the 128-byte lines each warp load touches). An op the model does not count costs what the
    audit's own `cost` column says."""
    facts = f.facts
    counts = f.counts
    if counts is None:
        return f.cost / (LOOP_WEIGHT if f.loops else 1)
    conflicts = facts.bank_conflicts if isinstance(facts, (Convert, SharedAccess, AsyncCopy)) else None
    if isinstance(conflicts, dict):
        store, load = conflicts.get("store") or 0, conflicts.get("load") or 0
    else:
        store = load = conflicts or 0
    cost = (w.wavefront * (counts.get("shared_stores", 0) * (1 + store) + counts.get("shared_loads", 0) * (1 + load))
            + w.shuffle * counts.get("shuffles", 0) + w.barrier * counts.get("barriers", 0))
    if isinstance(facts, (AsyncCopy, GlobalAccess)):
        n = facts.instructions_per_thread
        lines = facts.lines_per_warp_access if isinstance(facts, GlobalAccess) else None
        if lines is not None and f.op in ("tt.load", "amdg.buffer_load"):
            cost += n * (w.global_instruction + w.load_line * lines)
        else:
            sectors = facts.sectors_per_warp_access
            cost += n * (w.global_instruction + w.sector * (sectors if sectors is not None else 1))
        if isinstance(facts, AsyncCopy):
            cost += w.wavefront * n * (1 + facts.bank_conflicts)
    return cost


def kernel_cost(audit, w: Weights = WEIGHTS) -> float:
    """The weighted cost of a whole module: every op's `op_cost`, x LOOP_WEIGHT inside a loop."""
    return sum(op_cost(f, w) * (LOOP_WEIGHT if f.loops else 1) for f in audit.findings)


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


# ----------------------------------------------------------------------------------------- which aliases may change

# ops that accept any layout, or relate layouts only through the same alias name (an elementwise op's operands
# and result, a reduction's slice of its operand's layout, expand_dims' slice and parent)
FREE_OPS = ("tt.splat", "tt.addptr", "tt.make_range", "tt.load", "tt.store", "tt.atomic_rmw",
            "tt.atomic_cas", "tt.reduce", "tt.reduce.return", "tt.scan", "tt.scan.return", "tt.expand_dims",
            "tt.bitcast", "tt.fp_to_fp", "tt.int_to_ptr", "tt.ptr_to_int", "tt.clampf", "tt.precise_sqrt",
            "tt.precise_divf", "tt.mulhiui", "tt.extern_elementwise", "tt.return", "tt.func", "tt.call",
            "tt.assert", "tt.print", "ttg.convert_layout", "ttg.local_alloc", "ttg.local_load", "ttg.local_store",
            "ttg.local_dealloc", "ttg.async_copy_global_to_local", "ttg.async_commit_group", "ttg.async_wait",
            "ttg.memdesc_index", "ttg.memdesc_subslice", "ttng.warp_group_dot_wait", "ttng.fence_async_shared",
            "amdg.buffer_load", "amdg.buffer_store", "scf.for", "scf.yield", "scf.if", "scf.while",
            "scf.condition", "ttg.warp_specialize", "ttg.warp_yield", "ttg.warp_return",
            "ttg.warp_specialize.partitions")
FREE_PREFIXES = ("arith.", "math.")


@frozen
class Usage:
    """How a module uses one layout alias: the ops whose types name it (indices), the shapes it is used at, and
    the constraint that decides what it may become: None (free), "nvmma" (a wgmma / tcgen05 operand buffer: a
    legal nvmma_shared only) or the reason it cannot change."""
    name: str
    attr: object
    ops: tuple[int, ...]
    shapes: tuple[tuple[int, ...], ...]
    constraint: str | None


def _names(texts) -> set:
    return {name for t in texts for name in alias_references(t)}


def _encoding_text(text: str) -> str | None:
    """The layout part of a type's text ('tensor<128xi32, #ttg.slice<...>>' -> '#ttg.slice<...>')."""
    inner = text.strip()
    if "<" not in inner or not inner.endswith(">"):
        return None
    inner = inner[inner.index("<") + 1:-1]
    comma = _top_level_comma(inner)
    if comma is None:
        return None
    rest = inner[comma + 1:]
    end = _top_level_comma(rest)
    return (rest[:end] if end is not None else rest).strip()


def _top_level_comma(text: str) -> int | None:
    """The index of the first comma outside every bracket of `text`, or None.

    >>> _top_level_comma("128x64xf16, #ttg.blocked<{a = [1, 2]}>"), _top_level_comma("#a<{b = [1, 2]}>")
    (10, None)
    """
    depth = 0
    for i, c in enumerate(text):
        if c in "<{[(":
            depth += 1
        elif c in ">}])":
            depth -= 1
        elif c == "," and depth == 0:
            return i
    return None


def _constraint(op, name: str, attr) -> str | None:
    """None when `op` accepts any layout for alias `name`, "nvmma" for a shared buffer a wgmma / tcgen05 reads,
    else why the alias cannot change."""
    where = f"{op.name} at line {op.line}"
    if op.name in DOT_OPS:
        if getattr(attr, "kind", None) == "shared" and op.name != "tt.dot":
            return "nvmma"
        return f"it is an operand or the accumulator layout of {where}"
    if op.name == "tt.expand_dims" and op.operand_types and op.result_types:
        sliced = slice_parent(_encoding_text(op.operand_types[0]) or "")
        if not sliced or sliced[1] != _encoding_text(op.result_types[0]):
            return f"{where} relates it to another layout"
        return None
    if op.name == "tt.broadcast" and op.operand_types and op.result_types:
        if _encoding_text(op.operand_types[0]) != _encoding_text(op.result_types[0]):
            return f"{where} relates it to another layout"
        return None
    if op.name == "tt.reduce" and op.operand_types and op.result_types:
        src = _encoding_text(op.operand_types[0])
        for t in op.result_types:
            enc = _encoding_text(t)
            parent = slice_parent(enc) if enc is not None else None
            if enc is not None and (parent is None or parent[1] != src):
                return f"{where} relates it to another layout"
        return None
    if op.name == "tt.elementwise_inline_asm":
        packed = op.int_attr("packed_element")
        return f"{where} packs elements" if packed is not None and packed > 1 else None
    if op.name in FREE_OPS or op.name.startswith(FREE_PREFIXES):
        return None
    return f"{where} fixes its layout (advise changes only layouts every op using them accepts)"


def layout_aliases(module) -> dict:
    """name -> attribute of the module's layout aliases (distributed or shared), in file order; the `#loc`
    lines are not read."""
    table = getattr(module.aliases, "table", None)
    if table is not None and hasattr(table, "layouts"):
        defs = [(d.name, d.attr) for d in table.layouts()]
    else:
        defs = [(n, module.aliases[n]) for n in module.aliases if not n.startswith("loc")]
    return {n: a for n, a in defs if not isinstance(a, Exception) and getattr(a, "kind", None) in
            ("distributed", "shared")}


def usages(module) -> dict[str, Usage]:
    """Every layout alias of a module (distributed or shared) with its ops, shapes and constraint, in file order.
    Tensor-memory layouts and aliases whose definition failed to read are left out."""
    layouts = layout_aliases(module)
    ops: dict[str, list[int]] = {n: [] for n in layouts}
    shapes: dict[str, list] = {n: [] for n in layouts}
    constraint: dict[str, str | None] = dict.fromkeys(layouts)
    for i, op in enumerate(module.ops):
        types = op.operand_types + op.result_types
        if not types:
            continue
        for name in _names(types) & layouts.keys():
            ops[name].append(i)
            for t in types:
                if _encoding_text(t) == f"#{name}":
                    shape = type_shape(t)
                    if shape is not None and shape not in shapes[name]:
                        shapes[name].append(shape)
            why = _constraint(op, name, layouts[name])
            if why is not None and constraint[name] in (None, "nvmma"):
                constraint[name] = why
    for name, attr in layouts.items():
        if constraint[name] is None and getattr(attr, "kind", None) == "distributed" and \
                type(attr).__name__ in ("DotOperandEncoding", "NvidiaMmaEncoding", "AMDMfmaEncoding",
                                        "AMDWmmaEncoding"):
            constraint[name] = "a dot's own layout (kept for the dots that produce or take it)"
    return {n: Usage(n, layouts[n], tuple(ops[n]), tuple(shapes[n]), constraint[n]) for n in layouts}


# ----------------------------------------------------------------------------------------- candidates


@frozen
class Candidate:
    alias: str
    attr: object
    source: str


def _rank(attr) -> int | None:
    rank = getattr(attr, "rank", None)
    if isinstance(rank, int):
        return rank
    if hasattr(attr, "order"):
        return len(attr.order)
    if hasattr(attr, "size_per_thread"):
        return len(attr.size_per_thread)
    if hasattr(attr, "warps_per_cta"):
        return len(attr.warps_per_cta)
    if hasattr(attr, "parent") and hasattr(attr, "dim"):
        parent = _rank(attr.parent)
        return None if parent is None else parent - 1
    return None


def _largest(shapes) -> tuple[int, ...] | None:
    """The shape with the most elements (the first of equals)."""
    best = None
    for s in shapes:
        n = 1
        for d in s:
            n *= d
        if best is None or n > best[0]:
            best = (n, s)
    return best[1] if best else None


def coalesced_blocked(shape, order, vec: int, warps: int, lanes: int):
    """Triton's default blocked layout for a tensor of `shape` (`BlockedEncodingAttr::get` with `sizePerThread`
    `vec` along `order[0]`): lanes, then warps, spread along `order`, the last dim taking what is left.

    >>> str(coalesced_blocked((64, 64), (1, 0), 4, 4, 32))
    '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>'
    """
    from ..attributes.encodings import BlockedEncoding
    rank = len(shape)
    spt = [1] * rank
    spt[order[0]] = max(1, min(vec, shape[order[0]]))
    tpw, wpc = [1] * rank, [1] * rank
    lanes_left, threads_left, warps_left = lanes, warps * lanes, warps
    prev_lanes = prev_warps = 1
    for d in order[:-1]:
        per_cta = max(1, min(threads_left, max(1, shape[d] // spt[d])))
        tpw[d] = max(1, min(per_cta, lanes_left))
        wpc[d] = max(1, min(per_cta // tpw[d], warps_left))
        warps_left //= wpc[d]
        lanes_left //= tpw[d]
        threads_left //= per_cta
        prev_lanes *= tpw[d]
        prev_warps *= wpc[d]
    tpw[order[-1]] = lanes // prev_lanes
    wpc[order[-1]] = warps // prev_warps
    return BlockedEncoding(tuple(spt), tuple(tpw), tuple(wpc), tuple(order))


def regrouped(ll, dim: int, vec: int):
    """`ll` (a distributed linear layout) with its first registers holding `vec` consecutive elements along `dim`,
    the bases that make room for them moved to where those elements were (lanes): the same warps hold the same
    elements, so converting between the two stays inside each warp, and a global access in the new layout is
    `vec` wide. None when the elements are not all in registers and lanes of `ll`.

    >>> from linlayout_cli.engine import LinearLayout
    >>> ll = LinearLayout({"register": [[1, 0], [0, 4]], "lane": [[0, 1], [0, 2], [2, 0]]}, [("dim0", 4), ("dim1", 8)])
    >>> str(regrouped(ll, 1, 4))
    '#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [1, 0], [2, 0]], warp = [], block = []}>'
    """
    from ..attributes.encodings import LinearEncoding
    from ..engine.bits import log2
    rank = ll.num_out_dims
    bases = {d: [tuple(b) for b in ll.get_in_dim_bases(d)] if ll.has_in_dim(d) else []
             for d in ("register", "lane", "warp", "block")}
    regs, lanes = bases["register"], bases["lane"]
    units = [tuple((1 << k) if j == dim else 0 for j in range(rank)) for k in range(log2(vec))]
    if any(u not in regs and u not in lanes for u in units) or not units:
        return None
    others = [b for b in regs if b not in units]
    need = sum(1 for u in units if u in lanes)
    if len(others) < need:
        return None
    along = [b for b in others if b[dim] and not any(c for j, c in enumerate(b) if j != dim)]
    leaving = (along + [b for b in others if b not in along])[:need]
    moved = iter(leaving)
    new_lanes = tuple(next(moved) if b in units else b for b in lanes)
    new_regs = tuple(units) + tuple(b for b in regs if b not in units and b not in leaving)
    return LinearEncoding(new_regs, new_lanes, tuple(bases["warp"]), tuple(bases["block"]))


def _linear(attr, shape):
    from ..conversions import analysable_layout
    return analysable_layout(attr, shape)


def _is_dot_layout(attr) -> bool:
    return type(attr).__name__ == "DotOperandEncoding"


def distributed_candidates(module, usage: Usage, convert_ends: list, warps: int, lanes: int) -> list[Candidate]:
    """The alternatives of a distributed alias, in the order they are priced (see the module's docstring)."""
    from .info import layout_order
    name, attr = usage.name, usage.attr
    rank = _rank(attr)
    shape = _largest(usage.shapes)
    out: list[Candidate] = []
    seen = {str(attr)}

    def add(candidate, source):
        if candidate is None or _is_dot_layout(candidate) or _rank(candidate) != rank or str(candidate) in seen:
            return
        seen.add(str(candidate))
        out.append(Candidate(name, candidate, source))
    for other, other_shape, bits, line in convert_ends:
        add(other, f"the other side of the convert at line {line} (it becomes a no-op)")
        try:
            own = layout_order(_linear(attr, other_shape))[0]
            add(regrouped(_linear(other, other_shape), own, max(1, 128 // bits)),
                f"the convert's other side at line {line}, its registers regrouped for {128 // bits}-element vectors")
        except TTLayoutError:
            pass
    for other_name, other in layout_aliases(module).items():
        if len(out) >= MAX_CANDIDATES:                # the rest would be cut below: a module of n aliases
            return out                                # costs n steps per alias, not n string forms
        if other_name != name and other.kind == "distributed":
            add(other, f"the layout of #{other_name}")
    if shape is not None and warps and lanes and hasattr(attr, "order"):
        orders = [tuple(attr.order)] + ([tuple(reversed(attr.order))] if rank == 2 else [])
        for bits in sorted({b for b in _global_bits(module, usage)}) or [32]:
            for order in orders:
                for vec in (128 // bits, 64 // bits):
                    if vec >= 1:
                        add(coalesced_blocked(shape, order, vec, warps, lanes),
                            f"Triton's coalesced blocked layout for {vec} x {bits}-bit vectors along dim {order[0]}")
    return out[:MAX_CANDIDATES]


def _global_bits(module, usage: Usage) -> set:
    """Element widths of the global accesses (loads, stores, async copies) that use the alias."""
    out = set()
    for i in usage.ops:
        op = module.ops[i]
        if op.name in ("tt.load", "tt.store", "ttg.async_copy_global_to_local") and op.operand_types:
            vt = module.value_type(op.operand_types[0])
            if vt.kind == "tensor" and vt.is_pointer:
                try:
                    out.add(vt.pointee_bits)
                except TTLayoutError:
                    pass
    return out


def shared_candidates(module, usage: Usage, target) -> list[Candidate]:
    """The alternatives of a shared alias: nvmma_shared swizzles for a wgmma / tcgen05 operand; else the swizzle
    search's best, the best nvmma_shared (NVIDIA) and the best padding for each writer / reader pair."""
    from ..attributes.encodings import NVMMASharedEncoding
    from ..records import replace
    name, attr = usage.name, usage.attr
    out: list[Candidate] = []
    seen = {str(attr)}

    def add(candidate, source):
        if candidate is not None and str(candidate) not in seen:
            seen.add(str(candidate))
            out.append(Candidate(name, candidate, source))
    if usage.constraint == "nvmma":
        if isinstance(attr, NVMMASharedEncoding):
            for swizzle in (128, 64, 32):
                candidate = replace(attr, swizzling_byte_width=swizzle)
                if all(_fits(candidate, s) for s in usage.shapes):
                    add(candidate, f"an nvmma_shared with a {swizzle}-byte swizzle (what wgmma / tcgen05 accept)")
        return out[:MAX_CANDIDATES]
    writers, readers = _accesses(module, usage)
    ranks = {len(s) for s in usage.shapes}
    pairs = [(w, r) for w in writers for r in readers] or [(w, None) for w in writers]
    for (w_ll, bits, shape), read in pairs[:MAX_SHARED_PAIRS]:
        r_ll = read[0] if read else None
        exact = ranks == {len(shape)} and all(s == shape for s in usage.shapes)
        for candidate, source in _shared_for_pair(w_ll, r_ll, bits, target, shape, exact):
            add(candidate, source)
    return out[:MAX_CANDIDATES]


def _fits(attr, shape) -> bool:
    try:
        _linear(attr, shape)
        return True
    except TTLayoutError:
        return False


def _accesses(module, usage: Usage):
    """The register layouts that write (local_alloc with a value, local_store, async copies) and read
    (local_load) buffers in the alias: [(linear layout, element bits, shape)], distinct ones in op order."""
    writers: list[tuple]                # (linear layout, element bits, shape)
    readers: list[tuple]
    writers, readers, seen = [], [], set()
    for i in usage.ops:
        op = module.ops[i]
        if op.name not in ("ttg.local_alloc", "ttg.local_store", "ttg.local_load", "ttg.async_copy_global_to_local"):
            continue
        if op.name == "ttg.local_load":
            reg_text, side = (op.result_types or ("",))[0], readers
        elif op.operands and op.operand_types:
            reg_text, side = op.operand_types[0], writers
        else:
            continue
        reg = module.value_type(reg_text)
        if reg.kind != "tensor" or reg.encoding is None:
            continue
        try:
            bits = reg.pointee_bits
            key = (str(reg.encoding), reg.shape, bits, id(side))
            if key in seen:
                continue
            seen.add(key)
            side.append((_linear(reg.encoding, reg.shape), bits, reg.shape))
        except TTLayoutError:
            continue
    return writers, readers


def _shared_for_pair(w_ll, r_ll, bits: int, target, shape, exact: bool):
    """(attribute, why) of the shared layouts the swizzle search proposes for one writer / reader pair;
    shape-bound ones (shared_linear, padded) only where every buffer in the alias has this very shape."""
    from ..attributes.encodings import SharedLinearEncoding, SwizzledSharedEncoding
    from ..engine import unflatten
    from .swizzle import analyze_swizzle, best_nvmma, best_padding, padding_candidates, swizzled_candidates
    if r_ll is not None:
        try:
            s = analyze_swizzle(w_ll, r_ll, bits, target)
        except TTLayoutError:
            s = None
        if s is not None and s.kind == "swizzled_shared":
            params = next((p for p, offs in swizzled_candidates(list(shape)) if tuple(offs) == tuple(s.offsets)),
                          None)
            if params is not None:
                yield SwizzledSharedEncoding(params[0], params[1], params[2], tuple(params[3])), \
                    "the swizzle search's best for its writer and reader"
        elif s is not None and exact and getattr(target, "vendor", "") == "nvidia":
            bases = tuple(tuple(unflatten(x, list(shape))) for x in s.offsets)
            yield SharedLinearEncoding(bases, (), 16), "the swizzle search's best (Triton's generic swizzling)"
    if getattr(target, "vendor", "") == "nvidia" and len(shape) >= 2:
        try:
            found = best_nvmma(w_ll, r_ll, bits, target)
        except TTLayoutError:
            found = None
        if found is not None:
            yield found[0], "the best nvmma_shared for its writer and reader"
    if r_ll is not None and exact:
        try:
            best, _ = best_padding(w_ll, r_ll, bits, target)
        except TTLayoutError:
            best = None
        if best is not None:
            for _, _, attr in padding_candidates(w_ll, r_ll, bits, target):
                if str(attr) == best.layout:
                    yield attr, "the best padding for its writer and reader (row stride plus padding)"
                    break


# ----------------------------------------------------------------------------------------- pricing


class Pricer:
    """Audits a module under alias redefinitions, with one cache of analyses; remembers refusals."""

    def __init__(self, module, target, memo: Memo):
        self.module, self.target, self.memo = module, target, memo
        self.priced = self.tried = 0
        self.refused: list[tuple[str, str, str]] = []
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


def refusal(audit, base_problems: set) -> str | None:
    """Why a priced module cannot be proposed: an op the audit could read before and cannot now, or an async copy
    Triton 3.9 cannot lower (cp.async moves 4, 8 or 16 bytes per lane; LoadStoreOpToLLVM asserts otherwise)."""
    for f in audit.findings:
        if f.problem and (f.line, f.op) not in base_problems:
            return f"line {f.line}: {f.op} would be {f.verdict}: {f.problem}"
        if isinstance(f.facts, AsyncCopy) and audit.target.vendor == "nvidia":
            bits = f.facts.vector_bits
            if bits not in (32, 64, 128):
                return (f"line {f.line}: the cp.async would move {bits} bits per lane (Triton 3.9 lowers only 4, 8 "
                        f"or 16 bytes)")
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


def advise_module(module, index: int = 0, target: str | None = None, memo: Memo | None = None) -> Advice:
    """The advice for one module (see the module's docstring): every candidate priced, the changes that lower the
    weighted cost kept, best first (ties in the order they were priced)."""
    memo = memo if memo is not None else Memo()
    pricer = Pricer(module, target, memo)
    base = pricer.base
    tgt = base.target
    use = usages(module)
    ends = _convert_ends(module, use)
    warps, lanes = module.num_warps or 4, module.threads_per_warp or tgt.warp_size
    ineligible: list[tuple[str, str]]                       # (alias, why)
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
    not_priced = 0
    for name, u in use.items():
        if u.constraint not in (None, "nvmma"):
            assert u.constraint is not None                 # by the test above (mypy does not narrow `not in`)
            ineligible.append((name, u.constraint))
            continue
        if not u.ops:
            ineligible.append((name, "no op uses it"))
            continue
        if getattr(u.attr, "kind", None) == "distributed":
            cands = distributed_candidates(module, u, ends.get(name, []), warps, lanes)
        else:
            cands = shared_candidates(module, u, tgt)
        room = max(0, min(quota, MAX_PRICED - pricer.tried))
        not_priced += max(0, len(cands) - room)
        for c in cands[:room]:
            audit = pricer.price((c,))
            if audit is not None:
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
    return Advice(index, module.first_line, _kernel_name(module), tgt.name, changes, pricer.priced,
                  tuple(pricer.refused), tuple(ineligible), totals(base), base_cost, not_counted, not_priced)


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


def analyze_advise(modules, target: str | None = None) -> list[Advice]:
    """`advise_module` for every module of a dump (`modules`: the parsed modules, read one by one), with one cache
    of analyses for them all."""
    memo = Memo()
    return [advise_module(m, i, target, memo) for i, m in enumerate(modules)]
