"""#ttg.blocked -> LinearLayout.

A thread holds sizePerThread adjacent elements, a warp threadsPerWarp threads and a CTA warpsPerCTA
warps, each spread over the tensor dims fastest-first as listed in `order`.  A larger tensor repeats
this tile in more registers; a smaller one drops the surplus registers and replicates the surplus
lanes and warps.
"""
from __future__ import annotations

from ..attributes.encodings import BlockedEncoding
from .common import cga_layout, check_rank, combine, identity_nd, keeps_broadcast_registers


def blocked_to_ll(attr: BlockedEncoding, shape):
    check_rank(attr.rank, shape, "blocked")
    cta = (identity_nd("register", attr.size_per_thread, attr.order)
           * identity_nd("lane", attr.threads_per_warp, attr.order)
           * identity_nd("warp", attr.warps_per_cta, attr.order))
    return combine(cta, cga_layout(attr.cga, attr.rank), shape, broadcast_registers=keeps_broadcast_registers())
