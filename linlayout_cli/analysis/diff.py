"""Two layouts at one shape, compared: whether they are the same linear layout, which input bits (hardware bits
of a distributed layout, offset bits of a shared one) map to other elements, and what the difference costs:
`convert`'s verdict for two distributed layouts; for two shared layouts, which offsets hold another element and
the bank conflicts of both against a register layout.

Two layouts are equal when their linear layouts at the shape are (Triton's `LinearLayout::operator==`: the same
bases of the same input dims onto the same tensor dims), so `#ttg.swizzled_shared<{vec = 8, perPhase = 1,
maxPhase = 8, order = [1, 0]}>` and the 128-byte `#ttg.nvmma_shared` of f16 are equal at 64x64.
"""
from __future__ import annotations

from ..engine import LinearLayout, unflatten
from ..engine.gf2 import apply, rank
from ..errors import TTLayoutError
from ..records import frozen
from .info import HARDWARE, TMEM_DIMS, Spread, spread

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: typing is never imported at run time
    from typing import Any

    from .targets import Target

SHARED_DIMS = ("offset", "block")
MAX_EXAMPLES = 8                # offsets listed that hold another element (the count covers them all)
MAX_SEARCH = 1 << 12            # offsets looked at past the first one that moves, for the examples


@frozen
class BitChange:
    """One input bit whose basis differs: its input dim and index, and the tensor coordinate it steps in each
    layout (None where that layout has no such bit)."""
    dim: str
    bit: int
    a: tuple[int, ...] | None
    b: tuple[int, ...] | None


@frozen
class OffsetMoves:
    """Shared pairs: of the `total` (block, offset) places, `moved` hold another element in B than in A;
    `examples` = the first few as (block, offset, element in A, element in B)."""
    total: int
    moved: int
    examples: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]


@frozen
class LayoutDiff:
    category_a: str                                 # distributed, shared or tensor memory
    category_b: str
    shape: tuple[int, ...]
    equal: bool                                     # the same linear layout at this shape
    changes: tuple[BitChange, ...]                  # every input bit that maps differently
    bits: int                                       # input bits compared (the larger layout's count)
    spread_a: tuple[Spread, ...]                    # how each tensor dim is spread (info's notation)
    spread_b: tuple[Spread, ...]
    convert: object | None = None                   # distributed pairs: analysis.convert.ConvertReport
    convert_error: str | None = None                # ... or why analyze_convert refused the pair
    offsets: OffsetMoves | None = None              # shared pairs
    banks: tuple | None = None                      # shared pairs with a register layout: (BankReport A, B)
    banks_error: str | None = None                  # ... or why the bank model refused
    padding_a: tuple[tuple[int, int], ...] = ()     # padded shared layouts: (interval, padding) pairs
    padding_b: tuple[tuple[int, int], ...] = ()
    partitioned: bool = False                       # either is partitioned: no offset-by-offset comparison

    @property
    def same_category(self) -> bool:
        return self.category_a == self.category_b


def category(ll: LinearLayout) -> str:
    """'distributed', 'shared' or 'tensor memory', by the layout's input dims."""
    return "tensor memory" if ll.has_in_dim("row") else "shared" if ll.has_in_dim("offset") else "distributed"


def input_dims(ll: LinearLayout) -> tuple[str, ...]:
    """The input dims info's notation names, in order: register, lane, warp, block (shared: offset, block;
    partitioned: offset, block, partition; tensor memory: row, col, block)."""
    if ll.has_in_dim("partition"):
        return SHARED_DIMS + ("partition",)
    return {"shared": SHARED_DIMS, "tensor memory": TMEM_DIMS}.get(category(ll), HARDWARE)


def bit_changes(a: LinearLayout, b: LinearLayout) -> tuple[tuple[BitChange, ...], int]:
    """(the input bits whose bases differ, how many bits were compared). Bits only one layout has count as
    changes too.

    >>> A = LinearLayout({"register": [[1]], "lane": [[2], [4]]}, ["dim0"])
    >>> B = LinearLayout({"register": [[4]], "lane": [[2], [1]]}, ["dim0"])
    >>> [(c.dim, c.bit, c.a, c.b) for c in bit_changes(A, B)[0]]
    [('register', 0, (1,), (4,)), ('lane', 1, (4,), (1,))]
    """
    out, compared = [], 0
    dims = dict.fromkeys(input_dims(a) + tuple(a.in_dims) + input_dims(b) + tuple(b.in_dims))
    for d in dims:
        xs = [tuple(v) for v in a.get_in_dim_bases(d)] if a.has_in_dim(d) else []
        ys = [tuple(v) for v in b.get_in_dim_bases(d)] if b.has_in_dim(d) else []
        compared += max(len(xs), len(ys))
        for i in range(max(len(xs), len(ys))):
            x = xs[i] if i < len(xs) else None
            y = ys[i] if i < len(ys) else None
            if x != y:
                out.append(BitChange(d, i, x, y))
    return tuple(out), compared


def moved_count(cols_a: list[int], cols_b: list[int]) -> int:
    """How many inputs x map to different outputs: A(x) != B(x) exactly off the kernel of A ^ B, so
    2^n - 2^(n - rank(A ^ B)).

    >>> moved_count([1, 2, 4], [1, 4, 2])     # bits 1 and 2 swapped: the inputs with bit 1 != bit 2 move
    4
    """
    n = len(cols_a)
    return (1 << n) - (1 << (n - rank(x ^ y for x, y in zip(cols_a, cols_b))))


def offset_moves(a: LinearLayout, b: LinearLayout) -> OffsetMoves:
    """Which (block, offset) places of two shared layouts of the same size hold different elements."""
    cols_a, cols_b = a.flat_columns(), b.flat_columns()
    n = len(cols_a)
    offsets = a.get_in_dim_size("offset")
    moved = moved_count(cols_a, cols_b)
    diff = [x ^ y for x, y in zip(cols_a, cols_b)]
    sizes = [size for _, size in a.get_out_dims()]
    examples: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []
    first = next((j for j, d in enumerate(diff) if d), None)
    if first is not None:
        x = 1 << first          # every smaller input maps alike: its bits are all below the first that differs
        while len(examples) < MAX_EXAMPLES and x < min(1 << n, (1 << first) + MAX_SEARCH):
            if apply(diff, x):
                examples.append((x // offsets, x % offsets, tuple(unflatten(apply(cols_a, x), sizes)),
                                 tuple(unflatten(apply(cols_b, x), sizes))))
            x += 1
    return OffsetMoves(1 << n, moved, tuple(examples))


def _same_space(a: LinearLayout, b: LinearLayout) -> bool:
    return a.in_dims == b.in_dims and all(a.get_in_dim_size(d) == b.get_in_dim_size(d) for d in a.in_dims)


def analyze_diff(a: LinearLayout, b: LinearLayout, bitwidth: int, convert_target: Target | None = None,
                 register: LinearLayout | None = None, bank_target: Target | None = None,
                 paddings=(None, None)) -> LayoutDiff:
    """Compare two layouts of the same tensor shape. Distributed pairs get `convert`'s verdict on
    `convert_target`; shared pairs the offsets that hold another element and, with a `register` layout, the
    bank report of each on `bank_target` (a refusal of either model is kept as its message). `paddings`: the
    padding of each padded shared layout (`a`, `b` their linear components); equal layouts pad alike."""
    from ..errors import ShapeError
    if a.get_out_dims() != b.get_out_dims():
        raise ShapeError("the two layouts cover different tensor shapes")
    changes, compared = bit_changes(a, b)
    ca, cb = category(a), category(b)
    out: dict[str, Any]                             # LayoutDiff's fields, of their several types
    pads = [tuple(zip(p.intervals, p.paddings)) if p is not None else () for p in paddings]
    out = dict(category_a=ca, category_b=cb, shape=tuple(size for _, size in a.get_out_dims()),
               equal=a == b and pads[0] == pads[1], changes=changes, bits=compared,
               spread_a=spread(a, input_dims(a)), spread_b=spread(b, input_dims(b)), padding_a=pads[0],
               padding_b=pads[1], partitioned=a.has_in_dim("partition") or b.has_in_dim("partition"))
    plain = not (pads[0] or pads[1] or a.has_in_dim("partition") or b.has_in_dim("partition"))
    if ca == cb == "distributed":
        from .convert import analyze_convert
        from .targets import DEFAULT
        try:
            out["convert"] = analyze_convert(a, b, bitwidth, convert_target or DEFAULT)
        except TTLayoutError as e:
            out["convert_error"] = str(e)
    elif ca == cb == "shared" and _same_space(a, b) and not a.has_in_dim("partition"):
        out["offsets"] = offset_moves(a, b)
        if register is not None and not plain:
            out["banks_error"] = "padded and partitioned pairs are priced one by one: ttlayout bank -r REG -s LAYOUT"
        elif register is not None:
            from .bank import analyze_bank
            from .targets import DEFAULT
            try:
                out["banks"] = (analyze_bank(register, a, bitwidth, bank_target or DEFAULT),
                                analyze_bank(register, b, bitwidth, bank_target or DEFAULT))
            except TTLayoutError as e:
                out["banks_error"] = str(e)
    return LayoutDiff(**out)


__all__ = ["LayoutDiff", "BitChange", "OffsetMoves", "analyze_diff", "bit_changes", "moved_count", "offset_moves"]
