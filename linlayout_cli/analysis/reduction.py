"""The shared-memory scratch of a `tt.reduce`, as Triton 3.9's allocator sizes it (`ReduceOpHelper::
getScratchSizeInBytes`, lib/Analysis/Utility.cpp), written afresh over our linear layouts.

A reduction first combines what one thread holds along the axis, then what the lanes of a warp hold (shuffles).
What is left along the axis lives in different warps (or CTAs): Triton moves it into lanes with a
`convert_layout` through shared memory and shuffles again, as often as needed. The scratch is the largest of
those conversions, each sized like any conversion's scratch (`getNumScratchElemsSwizzledCvt`: the swizzled
buffer's elements divided by its repeats), times the bytes of every operand. Checked against the compiler on
`tests/data/reduce_scratch.json` (`scripts/make_reduce_reference.py`).

Layouts here may be non-surjective: the reduced axis shrinks as bases are zeroed, and its size is inferred from
the bases left (Triton's `LinearLayout(bases, outDimNames)`).
"""
from __future__ import annotations

from ..engine import LinearLayout

REG, LANE, WARP, BLOCK = "register", "lane", "warp", "block"


def _layout(bases: dict, out_names: list[str]) -> LinearLayout:
    """A layout from bases alone, each out dim as large as its largest basis needs (Triton's inferred sizes)."""
    sizes = []
    for k, _ in enumerate(out_names):
        top = max((b[k] for vs in bases.values() for b in vs), default=0)
        sizes.append(1 << top.bit_length())
    return LinearLayout({d: [list(b) for b in vs] for d, vs in bases.items()},
                        list(zip(out_names, sizes)), require_surjective=False)


def _bases(ll: LinearLayout) -> dict:
    return {d: [list(b) for b in ll.get_in_dim_bases(d)] for d in ll.in_dims}


def _names(ll: LinearLayout) -> list[str]:
    return [name for name, _ in ll.get_out_dims()]


def without_broadcast_registers(ll: LinearLayout) -> LinearLayout:
    """Triton's `actionRemoveBroadcastedRegs`: the register bases that are zero dropped."""
    return ll.remove_zero_bases_along_dim(REG) if ll.has_in_dim(REG) else ll


def axis_registers_first(ll: LinearLayout, axis: int) -> LinearLayout:
    """`moveAxisBasesToFront`: the register bases that move along the axis first, the others after them."""
    bases = _bases(ll)
    regs = bases.get(REG, [])
    bases[REG] = [b for b in regs if b[axis]] + [b for b in regs if not b[axis]]
    return _layout(bases, _names(ll))


def zero_along_axis(ll: LinearLayout, axis: int, dim: str) -> LinearLayout:
    """`zeroBasesAlongDimAndReorder`: `dim`'s bases lose their axis component (what they held is combined),
    and the bases still moving along the axis are renumbered 1, 2, 4, ... in the order of the in dims.

    >>> ll = _layout({"register": [[1, 0]], "lane": [[2, 0], [0, 1]], "warp": [[4, 0]]}, ["dim0", "dim1"])
    >>> [zero_along_axis(ll, 0, "register").get_in_dim_bases(d) for d in ("register", "lane", "warp")]
    [((0, 0),), ((1, 0), (0, 1)), ((2, 0),)]
    """
    bases = _bases(ll)
    for b in bases.get(dim, []):
        b[axis] = 0
    step = 1
    for vs in bases.values():
        for b in vs:
            if b[axis]:
                b[axis] = step
                step *= 2
    return _layout(bases, _names(ll))


def reduced_register_lane_layout(ll: LinearLayout, axis: int) -> LinearLayout:
    """`reducedRegLaneLayout`: the layout once each thread and then each warp has combined its own elements."""
    ll = without_broadcast_registers(ll)
    ll = axis_registers_first(ll, axis)
    ll = zero_along_axis(ll, axis, REG)
    ll = without_broadcast_registers(ll)
    return zero_along_axis(ll, axis, LANE)


def inter_warp_layout(ll: LinearLayout, axis: int) -> LinearLayout:
    """`getInterLayout`: the warp (and block) bases along the axis swapped into lanes: into zero lanes when there
    are enough (one conversion finishes the reduction), else into the first lanes (the warps take those lanes'
    bases), as many as fit."""
    bases = _bases(ll)
    lanes, warps, blocks = (bases.setdefault(d, []) for d in (LANE, WARP, BLOCK))
    warp_axis = [i for i, b in enumerate(warps) if b[axis]]
    block_axis = [i for i, b in enumerate(blocks) if b[axis]]
    zero_lanes = [i for i, b in enumerate(lanes) if not any(b)]
    moving = [(warps, i) for i in warp_axis] + [(blocks, i) for i in block_axis]
    if len(zero_lanes) >= len(moving):
        targets = zero_lanes
    elif len(moving) <= len(lanes):
        targets = list(range(len(lanes)))
    else:
        targets = list(range(len(lanes)))
        moving = [(warps, i) for i in warp_axis][:len(lanes)]
    for (source, i), lane in zip(moving, targets):
        lanes[lane], source[i] = source[i], lanes[lane]
    return _layout({d: vs for d, vs in bases.items() if vs or ll.has_in_dim(d)}, _names(ll))


def _axis_size(ll: LinearLayout, axis: int) -> int:
    return ll.get_out_dims()[axis][1]


def conversion_scratch_elements(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> int:
    """`getNumScratchElemsSwizzledCvt`: elements of the swizzled buffer of a conversion (32 banks, plain ld/st
    tiles) divided by its repeats and by the CTAs that split the source."""
    from .access import Threads
    from .convert_smem import ldst_swizzle
    src, dst = without_broadcast_registers(src), without_broadcast_registers(dst)
    dim = src.get_total_out_dim_size_log2()
    smem = ldst_swizzle(Threads.of(src), Threads.of(dst), bitwidth, dim)
    blocks = sum(1 for b in src.get_in_dim_bases(BLOCK) if any(b)) if src.has_in_dim(BLOCK) else 0
    return 1 << max(0, dim - len(smem.reps) - blocks)


def reduce_scratch_bytes(ll: LinearLayout, axis: int, bitwidths) -> int:
    """Bytes of shared memory Triton 3.9 allocates for a reduction of a tensor in layout `ll` along `axis`, with
    one operand of each width in `bitwidths` (0 when the reduction stays within warps)."""
    reg = reduced_register_lane_layout(ll, axis)
    most = 0
    while _axis_size(reg, axis) != 1:
        tmp = inter_warp_layout(reg, axis)
        most = max(most, sum(conversion_scratch_elements(reg, tmp, bits) * (bits // 8) for bits in bitwidths))
        reg = zero_along_axis(tmp, axis, LANE)
    return most
