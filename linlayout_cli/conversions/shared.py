"""Swizzled, AMD rotating and linear shared layouts -> LinearLayout; in dims offset, block.

swizzled_shared: offsets walk a row along order[0], then rows along order[1]; row r's columns are
XORed with vec * ((r / perPhase) % maxPhase) (modulo the row length), so perPhase rows share a
phase and maxPhase phases repeat.  amd_rotating_shared also XORs in the row block number
(r / (perPhase * maxPhase)) % maxPhase, over the whole tensor rather than one CTA's part.
shared_linear is its bases verbatim.
"""
from __future__ import annotations

from ..attributes.encodings import AMDRotatingSharedEncoding, SharedLinearEncoding, SwizzledSharedEncoding
from ..engine import LinearLayout
from ..engine.bits import is_pow2
from ..errors import ShapeError, VerifyError
from .common import cga_layout, check_rank, combine, shape_per_cta, standard_out_dims, swizzles_whole_tensor


def _check_shape(shape):
    for s in shape:
        if not is_pow2(s):
            raise ShapeError(f"shared layouts need every tensor dimension to be a positive power of two, got {s}")


def _row_column(attr, r: int, num_cols: int) -> int:
    if attr.per_phase <= 0 or attr.max_phase <= 0:
        raise VerifyError(f"perPhase and maxPhase must be positive to swizzle more than one row "
                          f"(perPhase = {attr.per_phase}, maxPhase = {attr.max_phase})")
    phase = (r // attr.per_phase) % attr.max_phase
    if isinstance(attr, AMDRotatingSharedEncoding):
        phase ^= (r // (attr.max_phase * attr.per_phase)) % attr.max_phase
    return (attr.vec * phase) % num_cols


def swizzled_to_ll(attr: SwizzledSharedEncoding, shape):
    check_rank(attr.rank, shape, "shared")
    _check_shape(shape)
    if sorted(attr.order) != list(range(attr.rank)):
        # amd_rotating_shared has no verifier in Triton 3.9 (it indexes the shape with the order unchecked)
        raise VerifyError(f"order must be a permutation of 0..(rank-1), but was [{', '.join(map(str, attr.order))}]")
    rank = len(shape)
    spc = shape_per_cta(attr.cga, shape)
    outs = standard_out_dims(rank)
    # The AMD rotating layout swizzles over the whole tensor, not one CTA's slice (as every layout did in 3.2, 3.3).
    sizes = shape if isinstance(attr, AMDRotatingSharedEncoding) or swizzles_whole_tensor() else spc
    if rank == 1:
        cta = LinearLayout.identity1D(shape[0] if swizzles_whole_tensor() else spc[0], "offset", "dim0")
    else:
        col, row = attr.order[0], attr.order[1]
        num_cols, num_rows = sizes[col], sizes[row]
        bases = [(0, c) for c in _powers(num_cols)]
        bases += [(r, _row_column(attr, r, num_cols)) for r in _powers(num_rows)]
        cta = LinearLayout({"offset": bases}, [outs[row], outs[col]])
        for d in attr.order[2:]:
            cta = cta * LinearLayout.identity1D(sizes[d], "offset", outs[d])
    return combine(cta, cga_layout(attr.cga, rank), shape)


def shared_linear_to_ll(attr: SharedLinearEncoding, shape):
    check_rank(attr.rank, shape, "shared_linear")
    layout = LinearLayout({"offset": attr.offset, "block": attr.block}, standard_out_dims(attr.rank))
    sizes = [layout.get_out_dim_size(o) for o in layout.out_dims]
    if list(shape) != sizes:
        raise ShapeError(f"tensor shape {'x'.join(map(str, shape))} must equal the shared_linear layout's shape "
                         f"{'x'.join(map(str, sizes))}")
    return layout


def _powers(n: int):
    p = 1
    while p < n:
        yield p
        p *= 2
