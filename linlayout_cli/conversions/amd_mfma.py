"""#ttg.amd_mfma and its dot operands -> LinearLayout.

AMD warps have 64 lanes.  MFMA 32x32 accumulator (32-bit elements): lane l holds column l % 32,
16 values per lane; its registers cover 4 consecutive rows, then jump 8 rows, and lanes 32-63
sit 4 rows below lanes 0-31.  16x16: 4 registers (rows 0-3), 16 lanes per row, the four lane
groups 4 rows apart.  64-bit elements: one row per register group.  isTransposed swaps rows and
columns.  Tiles run along N over the whole tensor before stepping along M.  Operands: kWidth
consecutive K values per lane, nonKDim lanes along M or N, the other 64 / nonKDim along K.
"""
from __future__ import annotations

from ..attributes.encodings import AMDMfmaEncoding, DotOperandEncoding
from ..engine import LinearLayout
from ..errors import VerifyError
from .common import cga_layout, combine, dot_order, identity_nd, matrix_order
from .mma_util import check_layout_rank, dim, identity, k_dim_of, require_pow2, require_pow2_all

WARP_SIZE = 64
MFMA_SHAPES = ((32, 32), (16, 16), (64, 4), (4, 64))


def _instr_mn(attr: AMDMfmaEncoding) -> tuple[int, int]:
    """(mDim, nDim); the verifier allows only the four MFMA output shapes."""
    mn = tuple(attr.instr_shape[:2])
    if len(mn) < 2 or mn not in MFMA_SHAPES:
        raise VerifyError(f"invalid (mDim, nDim) combination: ({', '.join(map(str, mn))})")
    return mn[0], mn[1]


def tiles_per_warp(attr: AMDMfmaEncoding) -> tuple[int, ...]:
    """Explicit tilesPerWarp, else Triton's default: ones, one per instrShape entry (not per tensor dim)."""
    return tuple(attr.tiles_per_warp) or (1,) * len(attr.instr_shape)


def _tile_entry(tpw, index: int, attr) -> int:
    """tilesPerWarp[index]; Triton reads past the end (and aborts) when the list is too short."""
    if index >= len(tpw):
        raise VerifyError(f"tilesPerWarp {list(tpw)} has no entry for dim {index} of the rank-{attr.rank} "
                          f"amd_mfma layout (give tilesPerWarp or instrShape {attr.rank} entries)")
    return require_pow2(tpw[index], "every tilesPerWarp entry")


def _check(attr: AMDMfmaEncoding) -> None:
    if not 0 <= attr.version <= 4:
        raise VerifyError("version must be in the [0, 4] range")
    if attr.element_bit_width not in (32, 64):
        raise VerifyError("elementBitWidth must be 32 or 64")
    require_pow2_all(attr.warps_per_cta, "every warpsPerCTA entry")


def _instr_tile(attr: AMDMfmaEncoding, m: int, n: int, dim_m: str, dim_n: str) -> LinearLayout:
    """One MFMA output tile: `height` consecutive rows per register group, lanes along N then M (swapped
    roles when transposed); out dims [N, M]."""
    height = 1 if attr.element_bit_width == 64 else 4
    tiles = m * n // (WARP_SIZE * height)
    if not attr.is_transposed:
        tile = (LinearLayout.identity1D(height, "register", dim_m) * LinearLayout.identity1D(n, "lane", dim_n)
                * LinearLayout.identity1D(WARP_SIZE // n, "lane", dim_m) * identity(tiles, "register", dim_m))
    else:
        tile = (LinearLayout.identity1D(height, "register", dim_n) * LinearLayout.identity1D(m, "lane", dim_m)
                * LinearLayout.identity1D(WARP_SIZE // m, "lane", dim_n) * identity(tiles, "register", dim_n))
    return tile.transpose_outs([dim_n, dim_m])


def mfma_to_ll(attr: AMDMfmaEncoding, shape) -> LinearLayout:
    """MFMA accumulator: tiles N-contiguous over the whole N extent of the tensor before stepping along M."""
    _check(attr)
    rank = attr.rank
    check_layout_rank(rank, shape, "amd_mfma", attr.cga)
    if rank not in (2, 3):
        raise VerifyError(f"amd_mfma layouts have rank 2 or 3, got rank {rank}")
    m, n = _instr_mn(attr)
    if (m, n) == (64, 4) and not attr.is_transposed:
        raise VerifyError("64x4 mfma must be transposed (isTransposed = true)")
    m_idx, n_idx = rank - 2, rank - 1
    dim_m, dim_n = dim(m_idx), dim(n_idx)
    tpw, wpc = tiles_per_warp(attr), attr.warps_per_cta
    tpw_m, tpw_n = _tile_entry(tpw, m_idx, attr), _tile_entry(tpw, n_idx, attr)
    layout = (_instr_tile(attr, m, n, dim_m, dim_n)
              * LinearLayout.identity1D(tpw_n, "register", dim_n)
              * LinearLayout.identity1D(wpc[n_idx], "warp", dim_n)
              * identity(shape[n_idx] // (n * wpc[n_idx] * tpw_n), "register", dim_n)
              * LinearLayout.identity1D(tpw_m, "register", dim_m)
              * LinearLayout.identity1D(wpc[m_idx], "warp", dim_m))
    if rank == 3:
        layout = layout * _batch(wpc[0])
    return combine(layout, cga_layout(attr.cga, rank), shape)


def _batch(warps: int) -> LinearLayout:
    """The batch dim (dim0) of rank-3 layouts: no registers or lanes, `warps` warps."""
    return (LinearLayout.identity1D(1, "register", "dim0") * LinearLayout.identity1D(1, "lane", "dim0")
            * LinearLayout.identity1D(warps, "warp", "dim0"))


def mfma_dot_to_ll(attr: DotOperandEncoding, shape) -> LinearLayout:
    """MFMA operand: kWidth K elements per lane, nonKDim lanes along M/N then the rest along K; the parent's
    CGA is used unchanged (no broadcast along K)."""
    mfma = attr.parent
    assert isinstance(mfma, AMDMfmaEncoding)             # dot_operand.dot_to_ll dispatched on the parent
    _check(mfma)
    rank = mfma.rank
    check_layout_rank(rank, shape, "dot_op", mfma.cga)
    if rank < 2:
        raise VerifyError(f"ttg.dot_op of an amd_mfma layout needs rank 2 or 3, got rank {rank}")
    if attr.k_width == 0:
        raise VerifyError("ttg.dot_op kWidth parameter is mandatory for MFMA parent")
    m, n = _instr_mn(mfma)
    op = attr.op_idx
    tpw_non_k = _tile_entry(tiles_per_warp(mfma), rank - 2 if op == 0 else rank - 1, mfma)
    non_k = m if op == 0 else n
    order = dot_order(op, rank)
    dim_k, dim_non_k = dim(order[0]), dim(order[1])
    k_width = require_pow2(attr.k_width, "kWidth")
    tile = (LinearLayout.identity1D(k_width, "register", dim_k) * LinearLayout.identity1D(non_k, "lane", dim_non_k)
            * LinearLayout.identity1D(WARP_SIZE // non_k, "lane", dim_k))
    k_tile = WARP_SIZE // non_k * k_width
    if (m, n, op) in ((64, 4, 0), (4, 64, 1)):   # the 64x64 operand of a 64x4 / 4x64 MFMA
        tile = tile * LinearLayout.identity1D(16, "register", dim_k)
        k_tile *= 16
    k_size = shape[k_dim_of(op, rank)]
    if k_size > k_tile:
        tile = tile * identity(k_size // k_tile, "register", dim_k)
    tile = (tile * LinearLayout.identity1D(tpw_non_k, "register", dim_non_k)).transpose_outs([dim_k, dim_non_k])
    if rank == 3:
        tile = tile * LinearLayout.identity1D(1, "register", "dim0") * LinearLayout.identity1D(1, "lane", "dim0")
    warps = identity_nd("warp", mfma.warps_per_cta, matrix_order(rank, row_major=True))
    return combine(tile * warps, cga_layout(mfma.cga, rank), shape)
