"""#ttg.slice -> LinearLayout: the parent's layout with one tensor dim (of size 1) dropped.

Threads keep their place in the parent; every register basis that is then all zero (those that
moved only along the dropped dim, and any the parent already had) is removed.
"""
from __future__ import annotations

from ..attributes.encodings import SliceEncoding
from ..engine import LinearLayout
from .common import check_rank, standard_out_dims


def slice_to_ll(attr: SliceEncoding, shape, to_ll):
    check_rank(attr.rank, shape, "slice")
    parent_shape = list(shape)
    parent_shape.insert(attr.dim, 1)
    parent = to_ll(attr.parent, parent_shape)
    keep = [i for i in range(len(parent_shape)) if i != attr.dim]
    bases = {}
    for in_dim, in_bases in parent.get_bases().items():
        sliced = [tuple(b[i] for i in keep) for b in in_bases]
        if in_dim == "register":
            sliced = [b for b in sliced if any(b)]
        bases[in_dim] = sliced
    outs = standard_out_dims(len(shape))
    return LinearLayout(bases, list(zip(outs, shape)))
