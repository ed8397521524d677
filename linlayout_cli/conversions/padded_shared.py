"""#ttg.padded_shared -> its linear component (offset, block -> tensor), and the padding it inserts in memory.

AMD's LDS padding: after every `interval` elements of a buffer, `padding` unused elements follow; where several
intervals divide a position their paddings add up, and nothing follows the buffer's last element. Triton keeps
this outside the linear layout (main's `paddedLinearLayout`; `applyPadding`/`getPaddedSize` in 3.9's library).
"""
from __future__ import annotations

from ..attributes.encodings import PaddedSharedEncoding
from ..engine import LinearLayout
from ..errors import ShapeError
from ..records import frozen
from .common import check_rank, standard_out_dims


@frozen
class Padding:
    """The interval-padding pairs of a padded_shared layout (all powers of two), in the attribute's order."""
    intervals: tuple[int, ...]
    paddings: tuple[int, ...]

    def padded_offset(self, offset: int) -> int:
        """Memory position of linear offset `offset`: it plus the padding of every interval it has passed.

        [2:+1, 4:+2]: offset 4 -> 4 + 4//2*1 + 4//4*2 = 8 (e0 e1 p e2 e3 p p p e4)."""
        return offset + sum((offset // i) * p for i, p in zip(self.intervals, self.paddings))

    def pads_before(self, offset: int) -> list[tuple[int, int]]:
        """The (interval, padding) pairs that insert padding right before `offset` (those dividing it)."""
        if offset == 0:
            return []
        return [(i, p) for i, p in zip(self.intervals, self.paddings) if offset % i == 0]

    def padded_size(self, count: int) -> int:
        """Elements a buffer of `count` linear offsets occupies: no padding after its last element."""
        return self.padded_offset(count - 1) + 1 if count else 0


def padding_of(attr: PaddedSharedEncoding) -> Padding:
    return Padding(tuple(attr.intervals), tuple(attr.paddings))


def linear_component(attr: PaddedSharedEncoding) -> LinearLayout:
    """The attribute's offset and block bases, over the shape they span (the layout's own, fixed shape)."""
    bases = {"offset": attr.offset, "block": attr.block}
    return LinearLayout(bases, list(zip(standard_out_dims(attr.rank), attr.out_sizes())))


def check_shape(attr: PaddedSharedEncoding, shape, what: str = "tensor shape") -> None:
    sizes = attr.out_sizes()
    if list(shape) != sizes:
        raise ShapeError(f"{what} {'x'.join(map(str, shape))} must equal the padded_shared layout's shape "
                         f"{'x'.join(map(str, sizes))} (Triton: Mismatch in expected shape)")


def padded_to_ll(attr: PaddedSharedEncoding, shape) -> LinearLayout:
    check_rank(attr.rank, shape, "padded_shared")
    check_shape(attr, shape)
    return linear_component(attr)
