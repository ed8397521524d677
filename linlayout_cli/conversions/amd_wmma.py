"""#ttg.amd_wmma (RDNA3 v1, RDNA4 v2, gfx1250 v3) and its dot operands -> LinearLayout.

Warps have 32 lanes.  A 16x16 accumulator tile gives each lane 8 values of column lane % 16:
v1 on every other row (lanes 16-31 take the odd rows); v2/v3 on 8 consecutive rows (lanes 16-31
take rows 8-15), plus 8 more registers 16 rows down for v3's 32x16 tile.  isTranspose swaps rows
and columns.  Operands: kWidth K values per register group, 16 lanes along M or N, the two
half-warps along K (v1: both halves hold the same K).  Register repeats and warps come from the
ctaLayout attribute.
"""
from __future__ import annotations

from ..attributes.encodings import AMDWmmaEncoding, DotOperandEncoding
from ..engine import LinearLayout
from ..errors import VerifyError
from .common import cga_layout, combine, dot_order, matrix_order, standard_out_dims, wmma_dot_keeps_k_ctas
from .mma_util import check_layout_rank, dim, dot_cga, identity, require_pow2

WARP_SIZE = 32
WMMA_TILE = 16
INSTR_SHAPES = {1: ((16, 16, 16),), 2: ((16, 16, 16), (16, 16, 32)),
                3: ((16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128), (32, 16, 64), (32, 16, 128))}


def _check(attr: AMDWmmaEncoding, max_rank: int | None = 3) -> None:
    """Version, instruction shape and rank (the accumulator has rank 2 or 3; its dot operands any rank >= 2)."""
    if attr.version not in INSTR_SHAPES:
        raise VerifyError("WMMA version must be in the [1, 3] range")
    if tuple(attr.instr_shape) not in INSTR_SHAPES[attr.version]:
        raise VerifyError(f"invalid WMMA v{attr.version} instruction shape")
    if attr.rank < 2 or (max_rank is not None and attr.rank > max_rank):
        raise VerifyError(f"amd_wmma layouts have rank 2 or 3, got rank {attr.rank}")


def cta_layout(attr: AMDWmmaEncoding) -> LinearLayout:
    """The ctaLayout attribute (register and warp bases) as a layout onto dim0..dim{r-1}, sizes inferred."""
    for basis in tuple(attr.cta_register) + tuple(attr.cta_warp):
        if len(basis) != attr.rank:
            raise VerifyError("Serialized rank and rank deduced from LL need to match")
    return LinearLayout({"register": [tuple(b) for b in attr.cta_register],
                         "warp": [tuple(b) for b in attr.cta_warp]}, standard_out_dims(attr.rank))


def _tile_2d(attr: AMDWmmaEncoding) -> tuple[list, list]:
    """Register and lane bases of one instruction tile as (fast, slow) thread-order pairs."""
    if attr.version == 1:
        return [(0, 2), (0, 4), (0, 8)], [(1, 0), (2, 0), (4, 0), (8, 0), (0, 1)]
    regs = [(0, 1), (0, 2), (0, 4)]
    if tuple(attr.instr_shape[:2]) == (32, 16):   # two 16x16 tiles stacked, extra registers for the second
        regs.append((0, 16))
    return regs, [(1, 0), (2, 0), (4, 0), (8, 0), (0, 8)]


def tile_layout(attr: AMDWmmaEncoding) -> LinearLayout:
    """One WMMA output tile; isTranspose swaps which of M/N the lanes run along first."""
    rank = attr.rank
    to = matrix_order(rank, row_major=not attr.is_transpose)
    regs, lanes = _tile_2d(attr)
    tile = LinearLayout({"register": regs, "lane": lanes}, [dim(to[0]), dim(to[1])])
    if rank == 3:
        tile = tile * LinearLayout.identity1D(1, "register", "dim0") * LinearLayout.identity1D(1, "lane", "dim0")
    return tile.transpose_outs(standard_out_dims(rank))


def wmma_to_ll(attr: AMDWmmaEncoding, shape) -> LinearLayout:
    """Instruction tile times the ctaLayout (register repeats, then warps), then the CGA."""
    _check(attr)
    rank = attr.rank
    check_layout_rank(rank, shape, "amd_wmma", attr.cga)
    layout = tile_layout(attr) * cta_layout(attr)
    layout = layout.transpose_outs([dim(d) for d in matrix_order(rank, row_major=True)])
    return combine(layout, cga_layout(attr.cga, rank), shape)


def _check_k_width(attr: DotOperandEncoding, version: int) -> None:
    kw = attr.k_width
    if version == 1 and kw not in (8, 16):
        raise VerifyError("ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed cases "
                          "for `scaled_dot`)")
    if version == 2 and kw not in (4, 8, 16):
        raise VerifyError("ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including packed cases "
                          "for `scaled_dot`)")
    if kw == 0:
        raise VerifyError("ttg.dot_op kWidth parameter is mandatory for WMMA v3 ")
    require_pow2(kw, "kWidth")


def operand_non_k_dim(attr: AMDWmmaEncoding, op_idx: int) -> int:
    """M (opIdx 0) or N (opIdx 1) of the instruction; isTranspose swaps them when they differ."""
    m, n = attr.instr_shape[0], attr.instr_shape[1]
    if attr.is_transpose and m != n:
        m, n = n, m
    return m if op_idx == 0 else n


def wmma_dot_to_ll(attr: DotOperandEncoding, shape) -> LinearLayout:
    """WMMA operand: kWidth K registers, 16 lanes along M/N, the two half-warps along K (v1 duplicates),
    then the parent's ctaLayout with its K component removed."""
    wmma = attr.parent
    assert isinstance(wmma, AMDWmmaEncoding)             # dot_operand.dot_to_ll dispatched on the parent
    _check(wmma, max_rank=None)
    rank = wmma.rank
    check_layout_rank(rank, shape, "dot_op", wmma.cga)
    _check_k_width(attr, wmma.version)
    order = dot_order(attr.op_idx, rank)
    dim_k, dim_non_k = dim(order[0]), dim(order[1])
    kw, depth = attr.k_width, WARP_SIZE // WMMA_TILE
    depth_layout = LinearLayout.zeros1D if wmma.version == 1 else LinearLayout.identity1D
    tile = (LinearLayout.identity1D(kw, "register", dim_k) * LinearLayout.identity1D(WMMA_TILE, "lane", dim_non_k)
            * depth_layout(depth, "lane", dim_k) * identity(wmma.instr_shape[2] // (depth * kw), "register", dim_k))
    non_k_repeat = operand_non_k_dim(wmma, attr.op_idx) // WMMA_TILE
    if non_k_repeat > 1:
        tile = tile * LinearLayout.identity1D(non_k_repeat, "register", dim_non_k)
    layout = (tile * _cta_without_k(wmma, order[0])).transpose_outs([dim(d) for d in order])
    cga = cga_layout(wmma.cga, rank) if wmma_dot_keeps_k_ctas() else dot_cga(wmma.cga, rank, attr.op_idx)
    return combine(layout, cga, shape)


def _cta_without_k(wmma: AMDWmmaEncoding, k: int) -> LinearLayout:
    """ctaLayout with the K component of every basis zeroed, then the all-zero register bases dropped."""
    cta = cta_layout(wmma)
    bases = {name: [tuple(0 if d == k else c for d, c in enumerate(b)) for b in vecs]
             for name, vecs in cta.get_bases().items()}
    return LinearLayout(bases, standard_out_dims(wmma.rank)).remove_zero_bases_along_dim("register")
