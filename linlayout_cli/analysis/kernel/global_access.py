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


def buffer_op(ctx: Context, op) -> Finding:
    """AMD buffer loads and stores: a base pointer plus a tensor of offsets, vectorised up to the `contiguity`
    the compiler recorded on the op."""
    vt = ctx.parse_type(op_type(op, "result", 0) if op.result_types else op_type(op, "operand", 0))
    ll = ctx.linear(vt)
    bits = vt.element_bits
    dim, layout_contig, regs = layout_facts(ctx, vt, ll)
    contig = op.int_attr("contiguity") or 1
    limits = {"128-bit cap": max(1, 128 // bits), "layout": layout_contig, "pointer contiguity": contig}
    vec = max(1, min(limits.values()))
    instructions = max(1, regs // vec)
    bound = binding_limits(limits, vec)
    facts = GlobalAccess(vec, vec * bits, instructions, contiguity=contig, limited_by=bound[0], bound_by=tuple(bound),
                         limits=limits)
    return finding(ctx, op, Category.GLOBAL, (vt,), vt, float(instructions), ideal_instructions(regs, bits),
                   facts=facts)


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
LIMITS = ("128-bit cap", "mask", "pointer divisibility", "pointer contiguity", "layout")


def binding_limits(limits: dict, vec: int) -> list[str]:
    """The limits that allow no more than `vec` elements, named in `LIMITS` order (the first is `limited_by`).

    >>> binding_limits({"128-bit cap": 4, "layout": 4, "pointer divisibility": 4, "mask": 1}, 1)
    ['mask']
    >>> binding_limits({"128-bit cap": 8, "layout": 8, "mask": 16}, 8)
    ['128-bit cap', 'layout']
    """
    return [name for name in LIMITS if name in limits and limits[name] <= vec]
