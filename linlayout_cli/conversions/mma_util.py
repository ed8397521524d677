"""Helpers shared by the tensor-core conversions (MMA, dot operands, WMMA, MFMA)."""
from __future__ import annotations

from collections.abc import Sequence

from ..engine import LinearLayout
from ..engine.bits import is_pow2
from ..errors import VerifyError
from .common import cga_layout, check_rank


def dim(d: int) -> str:
    return f"dim{d}"


def require_pow2(value: int, what: str) -> int:
    """Triton builds identity1D/zeros1D from these values and aborts unless they are powers of two."""
    if not is_pow2(value):
        raise VerifyError(f"{what} must be a power of two, got {value}")
    return value


def require_pow2_all(values: Sequence[int], what: str) -> None:
    for v in values:
        require_pow2(v, what)


def identity(size: int, in_dim: str, out_dim: str) -> LinearLayout:
    """identity1D where size 0 means "nothing" (Triton's integer-division repeats), else a power of two."""
    if size == 0:
        return LinearLayout.empty()
    return LinearLayout.identity1D(require_pow2(size, f"the number of {in_dim} repeats along {out_dim}"),
                                   in_dim, out_dim)


def broadcast_along_k(sizes: Sequence[int], order: Sequence[int], k_dim: int, in_dim: str) -> LinearLayout:
    """Triton's broadcastedDotOperandLayout: `sizes` spread over the dims in `order`, but zeros along K."""
    layout = LinearLayout.empty()
    for d in order:
        size = require_pow2(sizes[d], f"{in_dim}s along dim {d}")
        make = LinearLayout.zeros1D if d == k_dim else LinearLayout.identity1D
        layout = layout * make(size, in_dim, dim(d))
    return layout


def k_dim_of(op_idx: int, rank: int) -> int:
    """The reduction (K) dim of a dot operand: last dim of A (opIdx 0), second to last of B (opIdx 1)."""
    return rank - 1 if op_idx == 0 else rank - 2


def dot_cga(cga: Sequence[Sequence[int]], rank: int, op_idx: int) -> LinearLayout:
    """The dot operand's CGA: the parent's CGA with the K dim resized to 1 (CTAs along K replicate)."""
    k = k_dim_of(op_idx, rank)
    bases = [tuple(0 if d == k else c for d, c in enumerate(b)) for b in cga]
    return cga_layout(bases, rank)


def check_cga_rank(cga: Sequence[Sequence[int]], rank: int, what: str) -> None:
    for b in cga:
        if len(b) != rank:
            raise VerifyError(f"'CGALayout' entry length does not match rank {rank} of the {what} layout")


def check_layout_rank(rank: int, shape: Sequence[int], what: str, cga=()) -> None:
    """Tensor rank must equal the layout rank (Triton asserts rank == getRank())."""
    check_rank(rank, shape, what)
    check_cga_rank(cga, rank, what)
