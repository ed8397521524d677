"""#ttg.nvmma_shared -> LinearLayout: the shared layout of TMA "tiled" boxes and wgmma operands.

The box is the per-CTA shape clamped to 256 per dim.  With swizzling, its contiguous dim (the last,
or dim 0 when transposed) is cut to one swizzle row of swizzlingByteWidth bytes, and rows form 8-row
core matrices in which row r has its 16-byte chunks XORed with (r / perPhase) % maxPhase: 128-byte
swizzle gives every row its own phase (8 phases), 64-byte every 2 rows (4), 32-byte every 4 rows (2).
Without (width 0) the box is plain row-major, dim 0 fastest when transposed.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..attributes.encodings import NVMMASharedEncoding
from ..engine import LinearLayout
from ..engine.bits import is_pow2, log2
from ..errors import ShapeError, VerifyError
from .common import cga_layout, combine, ensure_not_smaller, shape_per_cta, standard_out_dims, swizzles_whole_tensor
from .mma_util import check_layout_rank

BOX_DIM_MAX = 256   # TMA boxes are at most 256 elements along every dim


def _check(attr: NVMMASharedEncoding, shape) -> None:
    if attr.element_bit_width <= 0:
        raise VerifyError("elementBitWidth must be non-zero")
    if attr.swizzling_byte_width not in (0, 32, 64, 128):
        raise VerifyError("swizzlingByteWidth must be 0, 32, 64, or 128")
    check_layout_rank(attr.rank, shape, "nvmma_shared", attr.cga)
    for s in shape:
        if not is_pow2(s):
            raise ShapeError(f"shared layouts need every tensor dimension to be a positive power of two, got {s}")


def tma_block_shape(attr: NVMMASharedEncoding, spc: Sequence[int]) -> list[int]:
    """Triton's getTMABlockShape (packed sizes): the per-CTA shape clamped to 256, the contiguous dim set
    to exactly one swizzle row (8 * swizzle bytes / element bits)."""
    box = list(spc)
    contig = 0 if attr.transposed else len(box) - 1
    if attr.fp4_padded:
        box[contig] *= 2
    box = [min(b, BOX_DIM_MAX) for b in box]
    if attr.swizzling_byte_width:
        row = 8 * attr.swizzling_byte_width // attr.element_bit_width
        if box[contig] < row:
            raise ShapeError(f"getTMABlockShape failed: invalid block shape for TMA operation (the contiguous "
                             f"dim {contig} has {box[contig]} elements per CTA, the {attr.swizzling_byte_width}-byte "
                             f"swizzle needs {row})")
        box[contig] = row
    if attr.fp4_padded:
        box[contig] //= 2
    if not all(is_pow2(b) for b in box):
        raise ShapeError(f"Illegal shared layout: TMA block shape {box} is not made of powers of two")
    return box


def _rotated(box: Sequence[int], transposed: bool) -> list[int]:
    """Box in memory order: a transposed layout stores dim0 innermost (dims rotated left by one)."""
    return list(box[1:]) + [box[0]] if transposed else list(box)


def _untranspose(layout: LinearLayout, rank: int) -> LinearLayout:
    """Triton's transposeLinearLayout with order [r-1, 0, .., r-2]: new component j = old order[j]."""
    order = [rank - 1] + list(range(rank - 1))
    bases = {name: [tuple(v[i] for i in order) for v in vecs] for name, vecs in layout.get_bases().items()}
    return LinearLayout(bases, layout.out_dims)


def _core_matrix(attr: NVMMASharedEncoding) -> LinearLayout:
    """One 8-row core matrix of one swizzle row; fp4Padded maps each 16 offsets onto 8 real columns."""
    e, s = attr.element_bit_width, attr.swizzling_byte_width
    vec, per_phase, max_phase = 128 // e, 128 // s, s // 16
    cols = 8 * max(16, s) // e
    pack = (lambda c: c // 16 * 8 + c % 8) if attr.fp4_padded else (lambda c: c)
    bases = [(0, pack(1 << k)) for k in range(log2(cols))]
    bases += [(r, pack(vec * ((r // per_phase) % max_phase))) for r in (1, 2, 4)]
    return LinearLayout({"offset": bases}, ["dim0", "dim1"])


def _swizzled(attr: NVMMASharedEncoding, box: list[int]) -> LinearLayout:
    """Core matrices tiled over the box collapsed to 2-D (rows x one swizzle row), reshaped to the box."""
    rank = len(box)
    if rank < 2:
        raise VerifyError(f"a swizzled nvmma_shared layout needs rank >= 2, got rank {rank}")
    collapsed = [1, box[-1]]
    for b in box[:-1]:
        collapsed[0] *= b
    if attr.transposed:
        collapsed.reverse()
    core = _core_matrix(attr)
    rows, cols = core.get_out_dim_size("dim0"), core.get_out_dim_size("dim1")
    pack = 2 if attr.fp4_padded else 1
    if collapsed[1] * pack < cols or collapsed[0] < rows:
        raise ShapeError(f"Illegal shared layout; expected collapsed shapePerCTA to be at least "
                         f"[{rows}, {cols // pack}], collapsedTmaShape: [{collapsed[0]}, {collapsed[1]}]")
    layout = ensure_not_smaller(core, {"dim0": collapsed[0], "dim1": collapsed[1]})
    memory_box = _rotated(box, attr.transposed)
    if layout.get_total_out_dim_size() != _product(memory_box):
        raise ShapeError(f"Illegal shared layout: the core matrices do not tile the TMA block shape {box}")
    layout = _reshape_row_major(layout, memory_box)
    return _untranspose(layout, rank) if attr.transposed else layout


def _reshape_row_major(layout: LinearLayout, sizes: Sequence[int]) -> LinearLayout:
    """Triton's reshapeLayout: view the outs as one row-major index (dim0 slowest), split it into `sizes`."""
    rank = len(sizes)
    old = list(reversed(layout.out_dims))
    new = [(f"dim{d}", sizes[d]) for d in reversed(range(rank))]
    return layout.transpose_outs(old).reshape_outs(new).transpose_outs(standard_out_dims(rank))


def _unswizzled(attr: NVMMASharedEncoding, box: list[int]) -> LinearLayout:
    """No swizzle: the box is plain row-major (dim r-1 fastest), or dim0 fastest when transposed."""
    rank = len(box)
    memory_box = _rotated(box, attr.transposed)
    layout = LinearLayout.empty()
    for d in reversed(range(rank)):
        layout = layout * LinearLayout.identity1D(memory_box[d], "offset", f"dim{d}")
    return _untranspose(layout, rank) if attr.transposed else layout


def nvmma_shared_to_ll(attr: NVMMASharedEncoding, shape) -> LinearLayout:
    """Offsets of one TMA box, repeated (extra offset bits) over the per-CTA shape, then the CTAs."""
    _check(attr, shape)
    rank = attr.rank
    spc = shape if swizzles_whole_tensor() else shape_per_cta(attr.cga, shape)
    box = tma_block_shape(attr, spc)
    layout = _swizzled(attr, box) if attr.swizzling_byte_width else _unswizzled(attr, box)
    layout = ensure_not_smaller(layout, dict(zip(standard_out_dims(rank), spc)))
    return combine(layout, cga_layout(attr.cga, rank), shape)


def _product(xs) -> int:
    p = 1
    for x in xs:
        p *= x
    return p
