"""#ttg.nvidia_mma (Ampere v2, Hopper v3) and its dot operands -> LinearLayout.

mma.sync's m16n8 accumulator: lanes in 8 groups of 4, group g on row g, each lane 2 adjacent
columns (registers 0-1) of the top 8x8 block and the same columns 8 rows lower (registers 2-3).
Hopper's instrShape [16, N, K] repeats the 8x8 column blocks N / 8 times in registers.  Warps go
along N first on Ampere, along M first on Hopper (a wgmma warp group splits M).  Operands:
kWidth consecutive K values per register group, 4 lanes along K, 8 along M or N; warps
broadcast along K.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..attributes.encodings import DotOperandEncoding, NvidiaMmaEncoding
from ..engine import LinearLayout
from ..errors import VerifyError
from .common import cga_layout, combine, cta_split_num, dot_order, identity_nd, matrix_order
from .mma_util import (
    broadcast_along_k,
    check_layout_rank,
    dim,
    dot_cga,
    identity,
    k_dim_of,
    require_pow2,
    require_pow2_all,
)


def mma_tile(tile_shape: Sequence[int], k_width: int, order: Sequence[int], rep_order: Sequence[int]) -> LinearLayout:
    """Triton's nvidiaMmaTile: kWidth registers and 4 lanes along the inner dim, 8 lanes along the outer
    dim, then register repeats to cover tile_shape; out dims in rep_order."""
    rank = len(rep_order)
    if rank < 2:
        raise VerifyError(f"nvidia_mma layouts need rank >= 2, got rank {rank}")
    if len(tile_shape) != rank:
        raise VerifyError(f"nvidia_mma instrShape {list(tile_shape)} must have one entry per tensor dimension "
                          f"(rank {rank})")
    inner, outer = order[0], order[1]
    m, n = tile_shape[outer], tile_shape[inner]
    if m % 8 or n % (k_width * 4):
        raise VerifyError(f"nvidia_mma tile {list(tile_shape)} must be a multiple of 8 along dim {outer} and of "
                          f"{4 * k_width} (4 x kWidth) along dim {inner}")
    layout = identity_nd("register", [1] * rank, rep_order)
    return (layout
            * identity(require_pow2(k_width, "kWidth"), "register", dim(inner))
            * LinearLayout.identity1D(4, "lane", dim(inner))
            * LinearLayout.identity1D(8, "lane", dim(outer))
            * identity(m // 8, "register", dim(outer))
            * identity(n // (k_width * 4), "register", dim(inner)))


def _check_version(attr: NvidiaMmaEncoding) -> None:
    if attr.version_major not in (2, 3):
        raise VerifyError(f"versionMajor must be 2 (Ampere) or 3 (Hopper), got {attr.version_major}")


def _warp_order(attr: NvidiaMmaEncoding, rank: int) -> list[int]:
    """Ampere spreads warps along the last dim first, Hopper along dim 0 first."""
    return matrix_order(rank, row_major=(attr.version_major == 2))


def nvidia_mma_to_ll(attr: NvidiaMmaEncoding, shape) -> LinearLayout:
    """The accumulator layout: one m16n8 (v2) or instrShape[0:2] (v3) tile per warp, warps tiled on top."""
    _check_version(attr)
    rank = attr.rank
    check_layout_rank(rank, shape, "nvidia_mma", attr.cga)
    instr = list(attr.instr_shape)
    if attr.version_major == 3:
        if len(instr) < 2:
            raise VerifyError(f"Hopper nvidia_mma needs instrShape = [M, N, K], got {instr}")
        instr = instr[:2]
    order = matrix_order(rank, row_major=True)
    cta = mma_tile(instr, 2, order, order)
    require_pow2_all(attr.warps_per_cta, "every warpsPerCTA entry")
    warps = identity_nd("warp", attr.warps_per_cta, _warp_order(attr, rank)).transpose_outs(cta.out_dims)
    return combine(cta * warps, cga_layout(attr.cga, rank), shape)


def nvidia_dot_to_ll(attr: DotOperandEncoding, shape) -> LinearLayout:
    """A/B operand of mma.sync (and A of wgmma): kWidth consecutive K elements per register group; warps
    are the parent's, broadcast along K."""
    mma = attr.parent
    assert isinstance(mma, NvidiaMmaEncoding)             # dot_operand.dot_to_ll dispatched on the parent
    _check_version(mma)
    legacy_bits = getattr(attr, "legacy_element_bits", None)     # --triton 3.2 (attributes.releases.AmpereDot32)
    if legacy_bits is not None:
        return _ampere_dot_32(attr, shape, legacy_bits)
    rank = mma.rank
    check_layout_rank(rank, shape, "dot_op", mma.cga)
    if attr.k_width == 0:
        raise VerifyError("ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent")
    if mma.version_major == 3 and attr.op_idx != 0:
        raise VerifyError("ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA "
                          "only allows first operand to be in registers")
    if rank < 2 or len(mma.instr_shape) <= rank - 2:
        raise VerifyError(f"nvidia_mma instrShape {list(mma.instr_shape)} has no M entry for rank {rank}")
    instr_m = mma.instr_shape[rank - 2]
    k_tile = attr.k_width * (4 if instr_m == 8 else 8)   # fp64 m8n8k4 uses a smaller K tile
    tile = [1] * rank
    tile[rank - 2], tile[rank - 1] = (instr_m, k_tile) if attr.op_idx == 0 else (k_tile, 8)
    order = dot_order(attr.op_idx, rank)
    cta = mma_tile(tile, attr.k_width, order, order)
    warps = broadcast_along_k(mma.warps_per_cta, _warp_order(mma, rank), k_dim_of(attr.op_idx, rank), "warp")
    cta = cta * warps.transpose_outs(cta.out_dims)
    return combine(cta, dot_cga(mma.cga, rank, attr.op_idx), shape)


def _ampere_dot_32(attr: DotOperandEncoding, shape, element_bits: int) -> LinearLayout:
    """An nvidia_mma v2 operand as Triton 3.2 lays it out and prints it (rank 2; the release aborts on others).

    The tile is 3.9's, but named (dim1, dim0) for both operands, so B repeats along N before K; the warps along
    K are not in the layout (3.2's printer still counts them: their bits select nothing) and the CGA is the
    parent's. The grid then lists the registers 3.2's getTotalElemsPerThread counts, 4 per mma.sync repeat
    (16 x (64 / element bits) for A, (64 / element bits) x 16 for B), the first ones of the layout: B of
    tensor<256x16xf16> with one warp has 128 registers in the layout and 4 * (256 / 16) * (16 / 16) = 64 in
    the grid."""
    mma = attr.parent
    assert isinstance(mma, NvidiaMmaEncoding)
    check_layout_rank(mma.rank, shape, "dot_op", mma.cga)
    if mma.rank != 2:
        raise VerifyError("Triton 3.2 lays out nvidia_mma dot operands of rank 2 only")
    k = k_dim_of(attr.op_idx, 2)
    tile = [16, attr.k_width * 8] if attr.op_idx == 0 else [attr.k_width * 8, 8]
    cta = mma_tile(tile, attr.k_width, dot_order(attr.op_idx, 2), [1, 0])
    warps = [w if d != k else 1 for d, w in enumerate(mma.warps_per_cta)]
    require_pow2_all(mma.warps_per_cta, "every warpsPerCTA entry")
    cta = (cta * identity_nd("warp", warps, [1, 0]).transpose_outs(cta.out_dims)
           * LinearLayout.zeros1D(mma.warps_per_cta[k], "warp", cta.out_dims[0]))
    layout = combine(cta, cga_layout(mma.cga, 2), shape)
    split = cta_split_num(mma.cga, 2)
    per_cta = [max(1, s // c) for s, c in zip(shape, split)]
    k_step = 4 * 64 // element_bits
    if attr.op_idx == 0:
        count = 4 * max(1, per_cta[0] // (16 * mma.warps_per_cta[0])) * max(1, per_cta[1] // k_step)
    else:
        count = 4 * max(1, per_cta[0] // k_step) * max(1, max(1, per_cta[1] // (8 * mma.warps_per_cta[1])) // 2)
    return _with_registers(layout, count)


def _with_registers(layout: LinearLayout, count: int) -> LinearLayout:
    """`layout` with `count` registers (a power of two): its first register bases, or zero bases added."""
    bits = count.bit_length() - 1
    bases = layout.get_bases()
    regs = tuple(bases["register"][:bits]) + (tuple(0 for _ in layout.out_dims),) * max(0, bits - len(bases["register"]))
    return LinearLayout({d: (regs if d == "register" else b) for d, b in bases.items()}, [(o, layout.get_out_dim_size(o)) for o in layout.out_dims], require_surjective=False)
