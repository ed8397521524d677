"""#ttg.dot_op -> LinearLayout: dispatch on the parent's kind; the blocked (FMA) operand lives here.

FMA operand: each thread's registers hold the whole K extent of its rows of A (or columns of B);
lanes and warps are the parent's, broadcast along K.
"""
from __future__ import annotations

from ..attributes.encodings import (
    AMDMfmaEncoding,
    AMDWmmaEncoding,
    BlockedEncoding,
    DotOperandEncoding,
    NvidiaMmaEncoding,
)
from ..errors import VerifyError
from .common import combine, identity_nd, standard_out_dims
from .mma_util import broadcast_along_k, check_layout_rank, dot_cga, k_dim_of, require_pow2_all


def dot_operand_to_ll(attr: DotOperandEncoding, shape):
    """The operand layout of the dot whose result has layout `attr.parent`."""
    from .amd_mfma import mfma_dot_to_ll
    from .amd_wmma import wmma_dot_to_ll
    from .nvidia_mma import nvidia_dot_to_ll
    if attr.op_idx not in (0, 1):
        raise VerifyError(f"ttg.dot_op opIdx parameter can be 0 or 1, got: {attr.op_idx}")
    parent = attr.parent
    if isinstance(parent, BlockedEncoding):
        return fma_dot_to_ll(attr, shape)
    if isinstance(parent, NvidiaMmaEncoding):
        return nvidia_dot_to_ll(attr, shape)
    if isinstance(parent, AMDMfmaEncoding):
        return mfma_dot_to_ll(attr, shape)
    if isinstance(parent, AMDWmmaEncoding):
        return wmma_dot_to_ll(attr, shape)
    raise VerifyError(f"ttg.dot_op unexpected parent layout: {parent}")


def fma_dot_to_ll(attr: DotOperandEncoding, shape):
    """FMA operand of a blocked dot: each thread holds the whole K extent; lanes and warps of the parent,
    broadcast along K; out dims ordered by the parent's order."""
    blocked = attr.parent
    assert isinstance(blocked, BlockedEncoding)             # dot_operand.dot_to_ll dispatched on the parent
    rank = blocked.rank
    check_layout_rank(rank, shape, "dot_op", blocked.cga)
    if attr.op_idx == 1 and rank < 2:
        raise VerifyError("ttg.dot_op with opIdx = 1 needs a parent of rank 2 or more (K is dim rank - 2)")
    if attr.k_width != 0:
        raise VerifyError("ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout")
    require_pow2_all(blocked.size_per_thread, "every sizePerThread entry")
    k = k_dim_of(attr.op_idx, rank)
    sizes = list(blocked.size_per_thread)
    sizes[k] = shape[k]
    order = list(blocked.order)
    rep = [standard_out_dims(rank)[d] for d in order]
    cta = (identity_nd("register", sizes, order).transpose_outs(rep)
           * broadcast_along_k(blocked.threads_per_warp, order, k, "lane").transpose_outs(rep)
           * broadcast_along_k(blocked.warps_per_cta, order, k, "warp").transpose_outs(rep))
    return combine(cta, dot_cga(blocked.cga, rank, attr.op_idx), shape)

