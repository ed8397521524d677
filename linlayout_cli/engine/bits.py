"""Powers of two, the arithmetic every layout size needs (sizes, strides and vector widths are powers of two).

Imports nothing: the print path loads it at start-up.
"""

from __future__ import annotations

__all__ = ["is_pow2", "log2", "next_pow2", "popcount"]


def is_pow2(x: int) -> bool:
    """True for 1, 2, 4, 8, ...; False for 0, negative numbers and everything else.

    >>> [x for x in range(-2, 10) if is_pow2(x)]
    [1, 2, 4, 8]
    """
    return x > 0 and x & (x - 1) == 0


def log2(x: int) -> int:
    """The exponent of a power of two: log2(2**k) == k.

    Any other x >= 1 gives floor(log2(x)), the index of its highest set bit, and 0 gives -1
    (``x.bit_length() - 1``): callers that clamp with ``max(1, ...)`` or compare the result rely on it.

    >>> log2(1), log2(16), log2(1 << 40)
    (0, 4, 40)
    >>> log2(24), log2(0)               # not powers of two: floor, and -1 for 0
    (4, -1)
    """
    return x.bit_length() - 1


def next_pow2(x: int) -> int:
    """LLVM's ``NextPowerOf2``: the smallest power of two strictly greater than x (0 -> 1).

    Triton infers an out-dim size from basis components with it: a component c needs a size above c.

    >>> next_pow2(0), next_pow2(1), next_pow2(4), next_pow2(5)
    (1, 2, 8, 8)
    """
    return 1 << int(x).bit_length()


def popcount(x: int) -> int:
    """How many bits of a non-negative x are set: a flattened basis with popcount 1 is a plain stride, one with
    more mixes dimensions (an XOR).

    >>> popcount(0), popcount(8), popcount(0b1011)
    (0, 1, 3)
    """
    return bin(x).count("1")
