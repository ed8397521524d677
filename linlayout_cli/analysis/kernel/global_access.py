"""The cost of global loads, stores and atomics on tensors of pointers, and of AMD buffer loads and stores: the
vector width from the layout and the pointers' AxisInfo (analysis/axis.py), sectors per warp access from the
address pattern (analysis/global_sectors.py: 32-byte sectors on NVIDIA, 128-byte lines on AMD)."""
from __future__ import annotations

from ..global_sectors import AMD_LINE_BYTES, unit_bytes, warp_access
from ..kinds import Category
from .context import Context, Unreadable, finding, ideal_instructions, op_type
from .facts import GlobalAccess
from .findings import Finding


def _scalar_global(ctx: Context, op) -> Finding:
    """A load or store of one scalar (one instruction of its element's width)."""
    ptr = ctx.parse_type(op_type(op, "operand", 0))
    bits = ptr.pointee_bits
    facts = GlobalAccess(1, bits, 1, scalar=True, limited_by="scalar pointer")
    return finding(ctx, op, Category.GLOBAL, (), None, 1.0, 1.0, facts=facts)


# AMD buffer ops: operand index of the base pointer (the offsets tensor follows it), as Triton 3.9 prints them:
#   %v = amdg.buffer_load %ptr[%offsets], %mask, %other stride = %s {contiguity = 8 : i32} : !tt.ptr<f16> -> tensor<..>
#   amdg.buffer_store %v, %ptr[%offsets], %mask : !tt.ptr<f16> -> tensor<..>
#   %r = amdg.buffer_atomic_rmw fadd, acq_rel, gpu, %v, %ptr[%offsets], %mask : !tt.ptr<f32> -> tensor<..>
#   %r = amdg.buffer_atomic_cas acq_rel, gpu, %cmp, %v, %ptr[%offsets] : !tt.ptr<i64> -> tensor<..>
#   %t = amdg.buffer_load_to_local %ptr[%offsets] mask = %m into %buf : !tt.ptr<f16>[tensor<64x64xi32, #b>] -> <..>
BUFFER_POINTER = {"amdg.buffer_load": 0, "amdg.buffer_store": 1, "amdg.buffer_atomic_rmw": 1,
                  "amdg.buffer_atomic_cas": 2, "amdg.buffer_load_to_local": 0}


def _buffer_type(ctx: Context, op):
    """(the register tensor whose layout distributes the access, the element bits) of a buffer op: its result or
    stored value; for `buffer_load_to_local` the offsets tensor (`!tt.ptr<f16>[tensor<...>]`) and the pointee."""
    if op.name == "amdg.buffer_load_to_local":
        text = op_type(op, "operand", 0)
        if "[" not in text or not text.endswith("]"):
            raise Unreadable("buffer_load_to_local without its offsets type")
        ptr, offsets = text[:-1].split("[", 1)
        return ctx.parse_type(offsets.strip()), ctx.parse_type(ptr.strip()).pointee_bits
    vt = ctx.parse_type(op_type(op, "result", 0) if op.result_types else op_type(op, "operand", 0))
    return vt, vt.element_bits


def buffer_op(ctx: Context, op) -> Finding:
    """AMD buffer ops (load, store, atomics, load to shared): a scalar base pointer plus a tensor of offsets. The
    vector is at most the `contiguity` the compiler recorded on the op (Triton's ConvertToBufferOps writes the
    pointers' contiguity there); without it, Triton's rule for a base and offsets: the offsets' contiguity along the
    layout's fastest dim and the alignment of base + offsets. Atomics move one element per instruction. Lines per
    warp access come from the address pattern of the offsets (their AxisInfo, analysis/global_sectors.py)."""
    if op.name not in BUFFER_POINTER or len(op.operands) <= BUFFER_POINTER[op.name] + 1:
        raise Unreadable(f"{op.name} without its base pointer and offsets")
    vt, bits = _buffer_type(ctx, op)
    ll = ctx.linear(vt)
    dim, layout_contig, regs = layout_facts(ctx, vt, ll)
    rank = len(vt.shape)
    k = BUFFER_POINTER[op.name]
    base = ctx.axes.operand(op, k, 1)
    offsets = ctx.axes.operand(op, k + 1, rank)
    element_bytes = max(1, bits // 8)
    # base + offsets * element bytes: aligned to the smaller of the two (bytes)
    address_divisibility = min(base.divisibility[0], offsets.divisibility[dim] * element_bytes)
    recorded = op.int_attr("contiguity")
    if recorded:
        contig = recorded
        limits = {"128-bit cap": max(1, 128 // bits), "layout": layout_contig, "pointer contiguity": contig}
    else:
        contig = offsets.contiguity[dim]
        limits = {"128-bit cap": max(1, 128 // bits), "layout": layout_contig, "pointer contiguity": contig,
                  "pointer divisibility": max(1, address_divisibility // element_bytes)}
    if "atomic" in op.name:
        limits = {"atomic": 1}
    vec = max(1, min(limits.values()))
    instructions = max(1, regs // vec)
    bound = binding_limits(limits, vec)
    unit = unit_bytes(ctx.target.vendor)
    access = ctx.memo.get(("sectors",) + ctx.key(vt)[1:3] + (vec, bits, offsets.contiguity, offsets.constancy,
                                                             min(address_divisibility, unit), unit),
                          lambda: warp_access(ll, bits, vec, offsets.contiguity, offsets.constancy,
                                              address_divisibility, unit))
    lines = access.sectors if unit == AMD_LINE_BYTES else ctx.memo.get(
        ("lines",) + ctx.key(vt)[1:3] + (vec, bits, offsets.contiguity, offsets.constancy),
        lambda: warp_access(ll, bits, vec, offsets.contiguity, offsets.constancy, AMD_LINE_BYTES,
                            AMD_LINE_BYTES)).sectors
    facts = GlobalAccess(vec, vec * bits, instructions, sectors_per_warp_access=access.sectors,
                         ideal_sectors=access.ideal, contiguity=contig, divisibility=address_divisibility,
                         limited_by=bound[0], bound_by=tuple(bound), limits=limits, pointers=op.operands[k + 1],
                         sector_bytes=unit, lines_per_warp_access=lines, address_assumptions=access.reasons)
    return finding(ctx, op, Category.GLOBAL, (vt,), vt, instructions * access.sectors / max(1, access.ideal),
                   ideal_instructions(regs, bits), facts=facts)


def layout_facts(ctx: Context, vt, ll) -> tuple[int, int, int]:
    """(the fastest dim, contiguous elements per thread along it, distinct registers) of a layout, cached."""
    from ..info import contig_per_thread, layout_order

    def compute():
        dim = layout_order(ll)[0]
        return dim, contig_per_thread(ll)[dim], ll.remove_zero_bases_along_dim("register").get_in_dim_size("register")
    return ctx.memo.get(("facts",) + ctx.key(vt)[1:3], compute)


def global_op(ctx: Context, op) -> Finding:
    ptr = ctx.parse_type(op_type(op, "operand", 0))
    if ptr.kind != "tensor":
        return _scalar_global(ctx, op)
    if not ptr.is_pointer:
        raise Unreadable("not a tensor of pointers")
    if not op.operands:
        raise Unreadable(f"{op.name} has no operands")
    ll = ctx.linear(ptr)
    bits = ptr.pointee_bits
    dim, contig, regs = layout_facts(ctx, ptr, ll)
    rank = len(ptr.shape)
    axes = ctx.axes.operand(op, 0, rank)
    limits = {"128-bit cap": max(1, 128 // bits), "layout": contig, "pointer contiguity": axes.contiguity[dim],
              "pointer divisibility": max(1, axes.divisibility[dim] // max(1, bits // 8))}
    k = 2 if op.name == "tt.store" else 1
    mask = op.operands[k] if len(op.operands) > k and op.name in ("tt.load", "tt.store") else None
    if mask is not None:
        limits["mask"] = ctx.axes.operand(op, k, rank).constancy[dim]      # runs of equal mask bits along `dim`
    vec = max(1, min(limits.values()))
    bound = binding_limits(limits, vec)
    instructions = max(1, regs // vec)
    unit = unit_bytes(ctx.target.vendor)
    access = ctx.memo.get(("sectors",) + ctx.key(ptr)[1:3] + (vec, bits, axes.contiguity, axes.constancy,
                                                              min(axes.divisibility[dim], unit), unit),
                          lambda: warp_access(ll, bits, vec, axes.contiguity, axes.constancy,
                                              axes.divisibility[dim], unit))
    sectors, ideal = access.sectors, access.ideal
    # 128-byte lines a load touches (what L1 serves per cycle; advise prices loads by them)
    lines = access.sectors if unit == AMD_LINE_BYTES else ctx.memo.get(
        ("lines",) + ctx.key(ptr)[1:3] + (vec, bits, axes.contiguity, axes.constancy),
        lambda: warp_access(ll, bits, vec, axes.contiguity, axes.constancy, AMD_LINE_BYTES, AMD_LINE_BYTES)).sectors
    facts = GlobalAccess(vec, vec * bits, instructions, sectors_per_warp_access=sectors, ideal_sectors=ideal,
                         contiguity=axes.contiguity[dim], divisibility=axes.divisibility[dim], limited_by=bound[0],
                         bound_by=tuple(bound), limits=limits, pointers=op.operands[0], mask=mask,
                         sector_bytes=unit, lines_per_warp_access=lines, address_assumptions=access.reasons)
    return finding(ctx, op, Category.GLOBAL, (ptr,), ptr, instructions * sectors / max(1, ideal),
                   ideal_instructions(regs, bits), facts=facts)


# What may limit a global vector, in the order a tie is named: the hardware's cap first (nothing to gain), then the
# facts of the IR a kernel author can change.
LIMITS = ("128-bit cap", "atomic", "mask", "pointer divisibility", "pointer contiguity", "layout")


def binding_limits(limits: dict, vec: int) -> list[str]:
    """The limits that allow no more than `vec` elements, named in `LIMITS` order (the first is `limited_by`).

    >>> binding_limits({"128-bit cap": 4, "layout": 4, "pointer divisibility": 4, "mask": 1}, 1)
    ['mask']
    >>> binding_limits({"128-bit cap": 8, "layout": 8, "mask": 16}, 8)
    ['128-bit cap', 'layout']
    """
    return [name for name in LIMITS if name in limits and limits[name] <= vec]
