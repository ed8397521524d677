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
from ..engine.bits import log2

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    from .targets import Target

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


# ----------------------------------------------------------------------------------------- instructions

COUNTED = ("shared_loads", "shared_stores", "shuffles", "barriers")

# Combiners the hardware reduces across lanes in one instruction: NVIDIA `redux.sync` (integers of at most 32 bits
# from sm80, f32 minimum / maximum from sm100), AMD's DPP wave reduction (a full 64-lane reduction of one 32-bit
# operand: row_shr 8, 4, 2, 1, row_bcast 15, row_bcast 31).
REDUX_INT = ("arith.addi", "arith.andi", "arith.ori", "arith.xori", "arith.minsi", "arith.minui", "arith.maxsi",
             "arith.maxui")
REDUX_F32 = ("arith.maxnumf", "arith.minnumf", "arith.maximumf", "arith.minimumf")
DPP_WAVE = ("arith.addf", "arith.addi", "arith.maxnumf", "arith.minnumf", "arith.maximumf", "arith.minimumf",
            "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui")
DPP_WAVE_STEPS = 6


def _lane_bits_along(ll: LinearLayout, axis: int) -> list[int]:
    """The lane bits whose basis moves along `axis` (Triton's reduceLaneIdMask, bit by bit)."""
    return [i for i, b in enumerate(ll.get_in_dim_bases(LANE)) if b[axis]] if ll.has_in_dim(LANE) else []


def _registers(ll: LinearLayout) -> int:
    return ll.get_in_dim_size(REG) if ll.has_in_dim(REG) else 1


def _memory_bits(bits: int) -> int:
    """Sub-byte values (i1) go through shared memory as bytes."""
    return max(8, bits)


def _words(bits: int) -> int:
    """32-bit shuffles one value takes (a 64-bit value is two)."""
    return 2 if bits > 32 else 1


def within_thread(ll: LinearLayout, axis: int) -> LinearLayout:
    """The layout once each thread has combined its registers along `axis` (broadcast registers dropped)."""
    ll = axis_registers_first(without_broadcast_registers(ll), axis)
    return without_broadcast_registers(zero_along_axis(ll, axis, REG))


def warp_reduce_shuffles(lane_bits: list[int], widths, target: Target, combiner: str | None) -> int:
    """Shuffle instructions of one accumulator's reduction across the lane bits `lane_bits` (Triton's
    `warpReduce`): one xor shuffle per lane bit and operand (AMD: `convert.shuffle_instructions`; 64-bit values
    twice), none where NVIDIA's `redux.sync` does it, six DPP steps for AMD's full-wave reduction.

    >>> from linlayout_cli.analysis.targets import KNOWN
    >>> sm90, sm100, sm80, gfx942 = KNOWN["sm90"], KNOWN["sm100"], KNOWN["sm80"], KNOWN["gfx942"]
    >>> warp_reduce_shuffles([0, 1, 2, 3], (32,), sm90, "arith.addf"), warp_reduce_shuffles([0, 1], (16, 32), sm90, None)
    (4, 4)
    >>> warp_reduce_shuffles([0, 1, 2, 3], (32,), sm100, "arith.maxnumf"), warp_reduce_shuffles([4], (32,), sm80, "arith.addi")
    (0, 0)
    >>> warp_reduce_shuffles([0, 1, 2, 3, 4, 5], (32,), gfx942, "arith.addf"), warp_reduce_shuffles([2, 3], (32,), gfx942, None)
    (6, 3)
    """
    from .convert import get_lowering, shuffle_instructions
    if not lane_bits:
        return 0
    low = get_lowering(target)
    single = combiner is not None and len(widths) == 1
    if low.vendor == "nvidia" and single:
        cc = int(low.name[2:])
        if (combiner in REDUX_INT and widths[0] <= 32) or (combiner in REDUX_F32 and widths[0] == 32 and cc >= 100):
            return 0
    if (low.vendor == "amd" and single and combiner in DPP_WAVE and widths[0] == 32 and low.name != "gfx1200"
            and len(lane_bits) == log2(low.warp_size)):
        return DPP_WAVE_STEPS
    per_value = sum(shuffle_instructions("xor", 1 << b, low) for b in lane_bits)
    return sum(per_value * _words(bits) for bits in widths)


def _add(total: dict, counts: dict, times: int = 1) -> None:
    for k in COUNTED:
        total[k] += counts.get(k, 0) * times


def _convert_counts(src: LinearLayout, dst: LinearLayout, widths, target: Target) -> dict:
    """A convert_layout Triton emits inside a reduction, once per operand (`convertLayoutValues`)."""
    from .convert import analyze_convert, assembly_counts
    total = dict.fromkeys(COUNTED, 0)
    for bits in widths:
        _add(total, assembly_counts(analyze_convert(src, dst, _memory_bits(bits), target)))
    return total


def without_axis(ll: LinearLayout, axis: int) -> LinearLayout:
    """`removeStandardDim`: a layout whose `axis` has size 1, with that out dim removed (dims renumbered)."""
    names = [n for k, (n, _) in enumerate(ll.get_out_dims()) if k != axis]
    sizes = [s for k, (_, s) in enumerate(ll.get_out_dims()) if k != axis]
    bases = {d: [[c for k, c in enumerate(b) if k != axis] for b in ll.get_in_dim_bases(d)] for d in ll.in_dims}
    renamed = [f"dim{k}" for k in range(len(names))] if all(n.startswith("dim") for n in names) else names
    return LinearLayout(bases, list(zip(renamed, sizes)), require_surjective=False)


def reduce_counts(ll: LinearLayout, axis: int, widths, out_ll: LinearLayout | None, target: Target,
                  combiner: str | None = None) -> dict:
    """Shared loads and stores, shuffles and barriers per thread of a `tt.reduce` of operands of `widths` bits
    in layout `ll` along `axis` into `out_ll` (None for a scalar result), as Triton 3.9 lowers it
    (`ReduceOpConversion`): registers first (no instruction of these classes), then the lanes (`warpReduce`,
    per accumulator), then while warps still hold parts of the axis a convert_layout through shared memory into
    lanes (`getInterLayout`; a barrier before each round after the first) and the lanes again; last, when the
    reduced layout is not the result's, a barrier and a convert into it."""
    total = dict.fromkeys(COUNTED, 0)
    reg = within_thread(ll, axis)
    total["shuffles"] += _registers(reg) * warp_reduce_shuffles(_lane_bits_along(reg, axis), widths, target,
                                                                 combiner)
    reg = zero_along_axis(reg, axis, LANE)
    rounds = 0
    while _axis_size(reg, axis) != 1 and rounds < 8:
        tmp = inter_warp_layout(reg, axis)
        if rounds:
            total["barriers"] += 1
        _add(total, _convert_counts(reg, tmp, widths, target))
        total["shuffles"] += _registers(tmp) * warp_reduce_shuffles(_lane_bits_along(tmp, axis), widths, target,
                                                                     combiner)
        reg = zero_along_axis(tmp, axis, LANE)
        rounds += 1
    if out_ll is not None:
        reg = without_axis(reg, axis)
        if reg != out_ll:
            total["barriers"] += 1
            _add(total, _convert_counts(reg, out_ll, widths, target))
    return total


def _scan_facts(ll: LinearLayout, axis: int) -> dict:
    """What Triton's ScanLoweringHelper reads off a layout: elements one thread holds contiguously along the axis,
    their repeats along it (scan blocks), lanes and warps along it (with distinct data), registers."""
    ll = without_broadcast_registers(ll)
    regs = [b[axis] for b in ll.get_in_dim_bases(REG)] if ll.has_in_dim(REG) else []
    contiguous = 0
    while contiguous < len(regs) and regs[contiguous] == 1 << contiguous:
        contiguous += 1
    along = sum(1 for r in regs if r)
    lanes = len(_lane_bits_along(ll, axis))
    warps = sum(1 for b in ll.get_in_dim_bases(WARP) if b[axis]) if ll.has_in_dim(WARP) else 0
    return {"elements": 1 << contiguous, "blocks": 1 << (along - contiguous), "lanes": 1 << lanes,
            "warps": 1 << warps, "registers": _registers(ll)}


def scan_counts(ll: LinearLayout, axis: int, widths, target: Target) -> dict:
    """Shared loads and stores, shuffles and barriers per thread of a `tt.scan` along `axis` (Triton 3.9's
    `ScanOpConversion`): per chunk (the last of a thread's contiguous elements) a shuffle-up per lane bit along
    the axis (`warpScan`); with several warps along the axis each chunk's partial goes to shared memory, a
    barrier, and every chunk reads the partials of the warps before it (`AddPartialReduce`: the last warp's
    partial only where a later scan block uses it) and shuffles up once to finish its other elements; with one
    warp, one shuffle-up per chunk (and a shuffle-idx per scan block after the first) finishes them
    (`AddPartialReduceOneWarp`). Code whose result is unused (one element per thread) is dropped, as LLVM does."""
    f = _scan_facts(ll, axis)
    chunks = f["registers"] // f["elements"]
    ops = len(widths)
    lane_steps = log2(f["lanes"])
    total = dict.fromkeys(COUNTED, 0)
    total["shuffles"] += chunks * lane_steps * sum(_words(b) for b in widths)
    more = f["elements"] > 1
    if f["warps"] > 1:
        total["shared_stores"] += chunks * ops
        total["barriers"] += 1
        last_block = chunks // f["blocks"]                 # chunks in the last scan block
        total["shared_loads"] += ops * ((chunks - last_block) * f["warps"] + last_block * (f["warps"] - 1))
        if more:
            total["shuffles"] += chunks * sum(_words(b) for b in widths)
    elif f["registers"] > 1 and f["lanes"] > 1:
        if more:
            total["shuffles"] += chunks * sum(_words(b) for b in widths)
        total["shuffles"] += (chunks - chunks // f["blocks"]) * sum(_words(b) for b in widths)
    return total
