"""A CuTe layout (CUTLASS's `Shape:Stride`, optionally composed with a `Swizzle<B,M,S>`) as a frozen record, and its
canonical text in TLX's notation (`tlx.dump_layout` in facebookexperimental/triton): static integers written `_N`,
tuples in parentheses, no spaces.

The record only holds the notation; what it means for a Triton tensor (a thread-value layout or an element ->
offset map) is decided where it is read (`conversions/cute.py`) or written (`analysis/cute.py`). Shapes and
strides are ints or nested tuples of them, congruent (the same tree).

>>> str(CuteLayout(((32, 2, 2), 1), ((1, 32, 0), 0)))
'((_32,_2,_2),_1):((_1,_32,_0),_0)'
>>> str(CuteLayout((32, 32), (32, 1), Swizzle(2, 1, 5)))
'Swizzle<2,1,5> o (_32,_32):(_32,_1)'
"""
from __future__ import annotations

from ..records import frozen

IntTuple = int | tuple           # (not typing.Union: `typing` costs the audit's start-up ~5 ms)


def int_tuple_text(x: IntTuple) -> str:
    """CuTe's print of a static int tuple: `_N` for an int, `(a,b,...)` for a tuple.

    >>> int_tuple_text(((4, 8), 2)), int_tuple_text(((4, 8),))
    ('((_4,_8),_2)', '((_4,_8))')
    """
    if isinstance(x, int):
        return f"_{x}"
    return "(" + ",".join(int_tuple_text(e) for e in x) + ")"


def tuple_size(shape: IntTuple) -> int:
    """Number of coordinates of a shape: the product of its leaves."""
    if isinstance(shape, int):
        return shape
    n = 1
    for e in shape:
        n *= tuple_size(e)
    return n


def top_modes(x: IntTuple) -> tuple:
    """The top-level modes: an int is a layout of one mode."""
    return (x,) if isinstance(x, int) else tuple(x)


def leaves(x: IntTuple) -> list[int]:
    """The ints of a nested tuple, depth first: CuTe's colexicographic order (first leaf fastest)."""
    if isinstance(x, int):
        return [x]
    return [v for e in x for v in leaves(e)]


@frozen
class Swizzle:
    """CuTe's `Swizzle<B,M,S>`: offset bits [M + S, M + S + B) are XORed into bits [M, M + B) (for S < 0 the other
    way round), so that a row's vectors of 2^M elements land in different banks.

    >>> Swizzle(2, 1, 5).apply(64), Swizzle(2, 1, 5).apply(2)
    (66, 2)
    """
    bits: int       # B: how many bits are XORed
    base: int       # M: the lowest target bit (vectors of 2^M elements stay whole)
    shift: int      # S: distance from the target bits up to the source bits

    def source_mask(self) -> int:
        return ((1 << self.bits) - 1) << (self.base + max(0, self.shift))

    def target_mask(self) -> int:
        return ((1 << self.bits) - 1) << (self.base + max(0, -self.shift))

    def apply(self, offset: int) -> int:
        moved = offset & self.source_mask()
        return offset ^ (moved >> self.shift if self.shift >= 0 else moved << -self.shift)

    def __str__(self) -> str:
        return f"Swizzle<{self.bits},{self.base},{self.shift}>"


@frozen
class CuteLayout:
    """`shape:stride`, optionally `swizzle o shape:stride` (the swizzle applied to the offset the strides give)."""
    shape: IntTuple
    stride: IntTuple
    swizzle: Swizzle | None = None

    @property
    def size(self) -> int:
        return tuple_size(self.shape)

    def modes(self) -> list[tuple[IntTuple, IntTuple]]:
        """The top-level modes as (shape, stride) pairs."""
        return list(zip(top_modes(self.shape), top_modes(self.stride)))

    def __str__(self) -> str:
        text = f"{int_tuple_text(self.shape)}:{int_tuple_text(self.stride)}"
        return f"{self.swizzle} o {text}" if self.swizzle is not None else text


__all__ = ["CuteLayout", "Swizzle", "IntTuple", "int_tuple_text", "tuple_size", "top_modes", "leaves"]
