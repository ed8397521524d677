"""Vectorised evaluation of a LinearLayout on many flattened inputs at once."""
from __future__ import annotations

import numpy as np

from ..engine.bits import log2
from ..engine.gf2 import span_array

_LOW_BITS = 12


def images(flat_bases: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """XOR of flat_bases[j] over the set bits j of every idx (two table look-ups per input)."""
    fb = np.asarray(flat_bases, dtype=np.int64)
    idx = np.asarray(idx, dtype=np.int64)
    low = span_array(fb[:_LOW_BITS])
    if len(fb) <= _LOW_BITS:
        return low[idx]
    high = span_array(fb[_LOW_BITS:])
    return low[idx & ((1 << _LOW_BITS) - 1)] ^ high[idx >> _LOW_BITS]


def split_coords(flat: np.ndarray, sizes) -> np.ndarray:
    """Flat out values (first size least significant) -> coordinates, shape (len(sizes), n)."""
    out = np.empty((len(sizes), len(flat)), dtype=np.int64)
    shift = 0
    for i, s in enumerate(sizes):
        out[i] = (flat >> shift) & (s - 1)
        shift += log2(s)
    return out
