"""#ttg.linear and #ttg.generic_linear -> LinearLayout.

The bases are given verbatim.  A larger tensor repeats them in more registers (dims taken in the
order the register bases first move along); a smaller one drops the surplus registers.
"""
from __future__ import annotations

from ..attributes.encodings import LinearEncoding
from ..engine import LinearLayout
from .common import check_rank, ensure_not_larger, ensure_not_smaller, standard_out_dims


def stored_layout(attr: LinearEncoding) -> LinearLayout:
    """The attribute's own bases with out sizes inferred (surjectivity is checked here)."""
    bases = {"register": attr.register, "lane": attr.lane, "warp": attr.warp, "block": attr.block}
    return LinearLayout(bases, standard_out_dims(attr.rank))


def rep_order(attr: LinearEncoding) -> list[int]:
    """Dims in the order register bases first move along them, then the rest from the last dim down."""
    order = []
    for basis in attr.register:
        for d, c in enumerate(basis):
            if c:
                if d not in order:
                    order.append(d)
                break
    return order + [d for d in range(attr.rank - 1, -1, -1) if d not in order]


def linear_to_ll(attr: LinearEncoding, shape):
    check_rank(attr.rank, shape, "linear")
    outs = standard_out_dims(attr.rank)
    named = dict(zip(outs, shape))
    layout = stored_layout(attr).transpose_outs([outs[d] for d in rep_order(attr)])
    layout = ensure_not_smaller(layout, named)
    layout = ensure_not_larger(layout, named, broadcast_registers=False)
    return layout.transpose_outs(outs)
