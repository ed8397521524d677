"""`advise`'s search space: which layout aliases of a module may change (`usages`: the ops that use each and
whether every one accepts another layout) and the alternatives built for each (`distributed_candidates`,
`shared_candidates`). `advise` prices them on the whole kernel."""
from __future__ import annotations

from ..errors import TTLayoutError
from ..parsing.module import alias_references, slice_parent, type_shape
from ..records import frozen
from .kernel.ops import DOT_OPS

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    from .targets import Target

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

MAX_CANDIDATES = 10             # per alias
MAX_SHARED_PAIRS = 2            # writer/reader pairs a shared alias's swizzle search is run for



@frozen
class Fixed:
    """Why an alias cannot change, as a code (reports/advise.py words it) and the op that fixes it:
    `dot-operand` (an operand or the accumulator of a dot), `related` (expand_dims, broadcast or reduce ties it to
    another alias), `packs` (inline asm packing elements), `fixed-op` (an op that takes no other layout), `dot-layout`
    (an mma / dot_op / mfma / wmma layout itself), `unused` (no op names it)."""
    code: str
    op: str | None = None
    line: int | None = None


@frozen
class Usage:
    """How a module uses one layout alias: the ops whose types name it (indices), the shapes it is used at, and
    the constraint that decides what it may become: None (free), "nvmma" (a wgmma / tcgen05 operand buffer: a
    legal nvmma_shared only) or why it cannot change (`Fixed`)."""
    name: str
    attr: object
    ops: tuple[int, ...]
    shapes: tuple[tuple[int, ...], ...]
    constraint: str | Fixed | None


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


def _constraint(op, name: str, attr) -> str | Fixed | None:
    """None when `op` accepts any layout for alias `name`, "nvmma" for a shared buffer a wgmma / tcgen05 reads,
    else why the alias cannot change (`Fixed`, naming `op`)."""
    if op.name in DOT_OPS:
        if getattr(attr, "kind", None) == "shared" and op.name != "tt.dot":
            return "nvmma"
        return Fixed("dot-operand", op.name, op.line)
    related = Fixed("related", op.name, op.line)
    if op.name == "tt.expand_dims" and op.operand_types and op.result_types:
        sliced = slice_parent(_encoding_text(op.operand_types[0]) or "")
        if not sliced or sliced[1] != _encoding_text(op.result_types[0]):
            return related
        return None
    if op.name == "tt.broadcast" and op.operand_types and op.result_types:
        if _encoding_text(op.operand_types[0]) != _encoding_text(op.result_types[0]):
            return related
        return None
    if op.name == "tt.reduce" and op.operand_types and op.result_types:
        src = _encoding_text(op.operand_types[0])
        for t in op.result_types:
            enc = _encoding_text(t)
            parent = slice_parent(enc) if enc is not None else None
            if enc is not None and (parent is None or parent[1] != src):
                return related
        return None
    if op.name == "tt.elementwise_inline_asm":
        packed = op.int_attr("packed_element")
        return Fixed("packs", op.name, op.line) if packed is not None and packed > 1 else None
    if op.name in FREE_OPS or op.name.startswith(FREE_PREFIXES):
        return None
    return Fixed("fixed-op", op.name, op.line)


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
    constraint: dict[str, str | Fixed | None] = dict.fromkeys(layouts)
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
            constraint[name] = Fixed("dot-layout")
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


def shared_candidates(module, usage: Usage, target: Target) -> list[Candidate]:
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
    """Whether the layout describes a buffer of `shape`; a multi-buffered one (3 x 128 x 64: stages lead) is
    checked on one stage, the tile wgmma / tcgen05 reads."""
    if len(shape) > 2 and shape[0] & (shape[0] - 1):
        shape = shape[1:]
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


def _shared_for_pair(w_ll, r_ll, bits: int, target: Target, shape, exact: bool):
    """(attribute, why) of the shared layouts the swizzle search proposes for one writer / reader pair;
    shape-bound ones (shared_linear, padded) only where every buffer in the alias has this very shape."""
    from ..attributes.encodings import SharedLinearEncoding, SwizzledSharedEncoding
    from ..engine import unflatten
    from .swizzle import (
        analyze_swizzle,
        best_nvmma,
        best_padding,
        best_swizzled,
        padding_candidates,
        swizzled_candidates,
    )
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
        elif s is not None:
            if exact and target.vendor == "nvidia":
                bases = tuple(tuple(unflatten(x, list(shape))) for x in s.offsets)
                yield SharedLinearEncoding(bases, (), 16), "the swizzle search's best (Triton's generic swizzling)"
            # the best swizzled_shared as well: it fits every shape of the alias and every target lowers it
            try:
                found = best_swizzled(w_ll, r_ll, bits, target)
            except TTLayoutError:
                found = None
            if found is not None:
                params = found[0]
                yield SwizzledSharedEncoding(params[0], params[1], params[2], tuple(params[3])), \
                    "the swizzle search's best swizzled_shared for its writer and reader"
    if target.vendor == "nvidia" and len(shape) >= 2:
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
