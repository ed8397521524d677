"""#ttng.tensor_memory_encoding / #ttng.tensor_memory_scales_encoding -> LinearLayout (row, col, block -> tensor).

Blackwell tensor memory is 128 rows (PTX: lanes) x 512 columns of 32 bits per CTA; warp w of a warpgroup reaches
rows 32w..32w+31 only. Triton's `col` counts elements (col * bitwidth / 32 is the 32-bit column); a zero basis
at row 32 or 64 is a copy for another warp, any other zero basis an unused slot (Triton's "Zeros in TMEM").
"""
from __future__ import annotations

from ..attributes.encodings import TensorMemoryEncoding, TensorMemoryScalesEncoding
from ..engine import LinearLayout
from ..errors import ShapeError
from .common import cga_layout, ensure_not_larger, shape_per_cta, standard_out_dims

DIMS = standard_out_dims(2)
IN_DIMS = ("row", "col", "block")


def _check_2d(shape, what: str) -> None:
    if len(shape) != 2:
        raise ShapeError(f"{what} layouts describe 2-D tensors, got rank {len(shape)}")


def _m64_tile(block_n: int, spc, zeros: int) -> LinearLayout:
    """blockM = 64 (one CTA): 16 rows per warp; row 16 holds the next 64-row block, else the next blockN columns,
    else nothing."""
    tile = (LinearLayout.zeros1D(zeros, "col", DIMS[1]) * LinearLayout.identity1D(16, "row", DIMS[0])
            * LinearLayout.identity1D(block_n, "col", DIMS[1])).transpose_outs(DIMS)
    bases = tile.get_bases()
    extra = (64, 0) if spc[0] > 64 else (0, block_n) if spc[1] > block_n else (0, 0)
    rows = list(bases["row"]) + [extra, (16, 0), (32, 0)]
    return LinearLayout({"row": rows, "col": bases["col"]}, DIMS)


def tmem_to_ll(attr: TensorMemoryEncoding, shape) -> LinearLayout:
    _check_2d(shape, "tensor_memory_encoding")
    spc = shape_per_cta(attr.cga, shape)
    block_n = min(attr.block_n, spc[1])
    zeros = 2 if attr.fp4_padded else attr.col_stride         # unused columns around each element
    if attr.block_m == 64 and not attr.two_ctas:
        tile = _m64_tile(block_n, spc, zeros)
    else:
        tile = (LinearLayout.zeros1D(zeros, "col", DIMS[1]) * LinearLayout.identity1D(attr.block_m, "row", DIMS[0])
                * LinearLayout.identity1D(block_n, "col", DIMS[1]))
        if attr.block_m == 64:
            # two CTAs of 64 rows: the last column bit becomes row 64 (the other half of the 128-row MMA)
            rows, cols = list(tile.get_bases()["row"]), list(tile.get_bases()["col"])
            if not cols:
                raise ShapeError("a twoCTAs blockM = 64 tensor memory layout needs at least two columns")
            tile = LinearLayout({"row": rows + [cols[-1]], "col": cols[:-1]}, tile.get_out_dims(),
                                require_surjective=False)
    tile = tile.transpose_outs(DIMS)
    reps_m, reps_n = spc[0] // tile.get_out_dim_size(DIMS[0]), spc[1] // tile.get_out_dim_size(DIMS[1])
    if reps_m < 1 or reps_n < 1:
        raise ShapeError(f"tensor {shape[0]}x{shape[1]} ({spc[0]}x{spc[1]} per CTA) is smaller than the "
                         f"{tile.get_out_dim_size(DIMS[0])}x{tile.get_out_dim_size(DIMS[1])} tensor memory block "
                         "(Triton asserts repsM >= 1 && repsN >= 1)")
    tile = tile * LinearLayout.identity1D(reps_m, "col", DIMS[0]) * LinearLayout.identity1D(reps_n, "col", DIMS[1])
    return (tile * cga_layout(attr.cga, 2)).transpose_ins(IN_DIMS)


def tmem_scales_to_ll(attr: TensorMemoryScalesEncoding, shape) -> LinearLayout:
    """The MMA scale-factor layout: 32 rows x 4 scales, copied into the 4 warps' rows, 2 such tiles side by side
    along M in the next column; more tiles repeat along M then K (mnThenK), or K before the M beyond 128 rows
    (kThenMn)."""
    _check_2d(shape, "tensor_memory_scales_encoding")
    spc = shape_per_cta(attr.cga, shape)
    tile = (LinearLayout.identity1D(32, "row", DIMS[0]) * LinearLayout.zeros1D(4, "row", DIMS[0])
            * LinearLayout.identity1D(4, "col", DIMS[1]) * LinearLayout.identity1D(2, "col", DIMS[0]))
    m, k = -(-spc[0] // 64), -(-spc[1] // 4)
    counts = [(m, 0), (k, 1)]
    if attr.block_rep_order == "kThenMn":            # the second 64 rows (one 128-row MMA block) still come first
        counts = [(min(m, 2), 0), (k, 1), (m // min(m, 2), 0)]
    for count, d in counts:
        tile = tile * LinearLayout.identity1D(count, "col", DIMS[d])
    tile = (tile * LinearLayout.identity1D(1, "block", DIMS[0])).transpose_outs(DIMS)
    tile = ensure_not_larger(tile, dict(zip(DIMS, spc)))
    return (tile * cga_layout(attr.cga, 2)).transpose_ins(IN_DIMS)
