"""GF(2) linear layouts: a Python port of Triton's ``LinearLayout`` (Triton 3.9).

A linear layout L maps named input dimensions (where a value lives: register, lane, warp,
block, or a shared-memory offset) to named output dimensions (which tensor element it is:
dim0, dim1, ...), every size a power of two.  L is linear over GF(2), whose addition is XOR:

    L(x ^ y) = L(x) ^ L(y)

so it is fixed by its *bases*: basis i of input dimension d is L(d = 2**i, all others 0),
with one component per output dimension.  Any other value is the XOR of the bases of the
set bits of the inputs.  Each component is smaller than the size of its output dimension.

    >>> L = LinearLayout({"lane": [[0, 1], [0, 2], [1, 0]]}, ["dim0", "dim1"])
    >>> L.apply({"lane": 5})            # 5 = 1 + 4: (0, 1) ^ (1, 0)
    [('dim0', 1), ('dim1', 1)]

XOR rather than + is what lets one formula describe swizzles: with bases
row=2**i -> (2**i, 2**i) and col=2**i -> (0, 2**i), input (r, c) holds element (r, r ^ c),
each row's columns permuted differently:

    >>> S = LinearLayout({"col": [[0, 1], [0, 2]], "row": [[1, 1], [2, 2]]}, ["r", "c"])
    >>> S.apply({"row": 3, "col": 1})   # (3, 3) ^ (0, 1)
    [('r', 3), ('c', 2)]

Flattening.  Input bits are numbered in in-dim order, low bits first; output bits likewise,
output dimension j occupying the bits from (sum of log2 sizes of earlier out dims).  Under
this numbering L is a (total out bits) x (total in bits) bit matrix whose column c is the
flattened image of input bit c.  Rank, surjectivity (rank = out bits), injectivity
(rank = in bits), free variables and solving all act on that matrix (see ``gf2``).
For S above, r fills out bits 0-1 and c bits 2-3:

    >>> S.flat_bases().tolist()         # col 1, col 2, row 1, row 2
    [4, 8, 5, 10]

Dimension order matters only where dims are flattened (reshapes, ``apply_all``), and for
equality, which compares in-dim order, bases, out-dim order and out sizes.

Errors Triton reports with an assertion or ``report_fatal_error`` raise ``LayoutError``,
with Triton's wording where Triton has a message.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence

from ..errors import LayoutError
from . import gf2
from .bits import is_pow2, log2, next_pow2

TYPE_CHECKING = False
if TYPE_CHECKING:                 # numpy is imported only by the methods that build arrays
    import numpy as np

__all__ = ["LinearLayout", "bit_shifts", "divide_left", "flatten", "lstsq", "unflatten"]

_MAX_BITS = 64
_MAX_ENUMERATE_BITS = 32

Basis = tuple[int, ...]
DimBases = tuple[Basis, ...]


def bit_shifts(sizes: Iterable[int]) -> list[int]:
    """Where each dim starts in a flattened coordinate, for dims of these power-of-two sizes, the
    first lowest: [0, log2(size0), log2(size0 * size1), ...].

    >>> bit_shifts([16, 32, 4])         # dim0 bits 0-3, dim1 bits 4-8, dim2 bits 9-10
    [0, 4, 9]
    """
    shifts, s = [], 0
    for size in sizes:
        shifts.append(s)
        s += log2(size)
    return shifts


def flatten(coords: Iterable[Sequence[int]], shifts: Sequence[int]) -> list[int]:
    """Each coordinate (one component per dim) as one int, component i shifted left by shifts[i]:
    bases or tensor elements in the layout's flattened bit view (see ``bit_shifts``).

    >>> flatten([(3, 1), (0, 2)], [0, 4])   # 3 | 1 << 4, 2 << 4
    [19, 32]
    """
    return [sum(c << s for c, s in zip(v, shifts)) for v in coords]


def unflatten(x: int, sizes: Iterable[int]) -> list[int]:
    """A flattened int back to one component per dim, for dims of these power-of-two sizes, the
    first in the lowest bits; the inverse of ``flatten`` of one coordinate.

    >>> unflatten(19, [16, 32])         # 19 = 3 | 1 << 4
    [3, 1]
    """
    coords = []
    for size in sizes:
        coords.append(x & (size - 1))
        x >>= log2(size)
    return coords


def _join(names: Iterable[str]) -> str:
    return ", ".join(names)


def _as_names(dims: str | Iterable[str]) -> list[str]:
    return [dims] if isinstance(dims, str) else list(dims)


def _as_pairs(items) -> list[tuple]:
    return list(items.items()) if isinstance(items, Mapping) else [tuple(p) for p in items]


def _check_same_dims(a: Sequence[str], b: Sequence[str]) -> None:
    if set(a) != set(b):
        raise LayoutError("Dimensions must match, ignoring order, but they don't.  "
                          f"Got dims: [{_join(a)}] and [{_join(b)}]")


def _check_subset(small: Sequence[str], big: Sequence[str]) -> None:
    if not set(small) <= set(big):
        raise LayoutError("Dimensions must be a subset, ignoring order, but they aren't.  "
                          f"Got dims: [{_join(small)}] and [{_join(big)}]")


def _check_unique(names: Sequence[str], what: str) -> None:
    for name in names:
        if not isinstance(name, str):
            raise LayoutError(f"{what} dimension names must be strings, got {name!r}")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise LayoutError(f"duplicate {what} dimension '{dup}'")


def _check_sizes(dims: Sequence[tuple[str, int]], total: int, what: str) -> None:
    _check_unique([n for n, _ in dims], what)
    product = 1
    for name, size in dims:
        if not is_pow2(size):
            raise LayoutError(f"{what} dimension '{name}' has size {size}; sizes must be powers of 2")
        product *= size
    if product != total:
        raise LayoutError(f"cannot reshape: new {what} sizes multiply to {product}, "
                          f"but the layout's total {what} size is {total}")


def _supremum(x: Sequence[str], y: Sequence[str]) -> list[str]:
    """Triton's ordered supremum of two dim lists: keeps the relative order of each list,
    preferring x's order where both are possible.  (Triton's "Supremum does not exist"
    branches are unreachable, so contradictory orders simply follow x.)"""
    if x == y or not y:                  # the common cases of a product: the same dims, or nothing to merge
        return list(x)
    if not x or set(x).isdisjoint(y):    # disjoint lists: the loop below takes all of x, then all of y
        return list(x) + list(y)
    pos_x = {e: k for k, e in enumerate(x)}
    pos_y = {e: k for k, e in enumerate(y)}
    result: dict[str, None] = {}
    i = j = 0
    inf = len(x) + len(y) + 1
    while True:
        while i < len(x) and x[i] in result:
            i += 1
        while j < len(y) and y[j] in result:
            j += 1
        if i >= len(x) and j >= len(y):
            return list(result)
        if i < len(x) and j < len(y) and x[i] == y[j]:
            result[x[i]] = None
            i += 1
            j += 1
            continue
        cand_x = pos_y[x[i]] if i < len(x) and pos_y.get(x[i], -1) >= j else inf
        cand_y = pos_x[y[j]] if j < len(y) and pos_x.get(y[j], -1) >= i else inf
        if i < len(x) and cand_x == inf:
            result[x[i]] = None
            i += 1
        elif j < len(y) and cand_y == inf:
            result[y[j]] = None
            j += 1
        elif cand_x <= cand_y:
            result[x[i]] = None
            i += 1
        else:
            result[y[j]] = None
            j += 1


class LinearLayout:
    """An immutable, hashable linear layout.  Method names follow Triton's, in snake_case.

    ``LinearLayout(bases, out_dims, require_surjective=True)``: ``bases`` maps each in dim
    (in order) to its list of basis vectors, one component per out dim.  ``out_dims`` is
    either a list of names, whose sizes are then inferred (the smallest power of two above
    every component) and surjectivity is always required, as in Triton; or a list of
    (name, size) pairs, surjectivity then being checked only if ``require_surjective``.

    >>> LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, ["dim0", "dim1"]).get_out_dims()
    [('dim0', 4), ('dim1', 2)]
    """

    __slots__ = ("_bases", "_outs", "_in_pos", "_out_pos", "_cols", "_rank")
    # set by _init through object.__setattr__ (assignment is refused); _cols and _rank are filled in on first use
    _bases: tuple[tuple[str, DimBases], ...]
    _outs: tuple[tuple[str, int], ...]
    _in_pos: dict[str, int]
    _out_pos: dict[str, int]
    _cols: tuple[int, ...] | None
    _rank: int | None

    def __init__(self, bases, out_dims, *, require_surjective: bool = True):
        in_items = [(name, tuple(tuple(operator.index(c) for c in v) for v in vecs))
                    for name, vecs in _as_pairs(bases)]
        _check_unique([n for n, _ in in_items], "in")
        out_list = list(out_dims)
        explicit = [not isinstance(o, str) for o in out_list]
        if any(explicit) and not all(explicit):
            raise LayoutError("out_dims must be all names or all (name, size) pairs")
        if all(explicit) and out_list:
            outs = tuple((name, operator.index(size)) for name, size in out_list)
        else:
            _check_unique(out_list, "out")
            sizes = dict.fromkeys(out_list, 1)
            for _, vecs in in_items:
                for v in vecs:
                    for name, c in zip(out_list, v):
                        if c >= 0:
                            sizes[name] = max(sizes[name], next_pow2(c))
            outs = tuple((name, sizes[name]) for name in out_list)
            require_surjective = True
        _check_unique([n for n, _ in outs], "out")
        self._init(tuple(in_items), outs)
        self._check_invariants(require_surjective)

    def _init(self, bases: tuple[tuple[str, DimBases], ...], outs: tuple[tuple[str, int], ...]):
        setattr_ = object.__setattr__
        setattr_(self, "_bases", bases)
        setattr_(self, "_outs", outs)
        setattr_(self, "_in_pos", {name: k for k, (name, _) in enumerate(bases)})
        setattr_(self, "_out_pos", {name: k for k, (name, _) in enumerate(outs)})
        setattr_(self, "_cols", None)
        setattr_(self, "_rank", None)

    def __setattr__(self, name, value):
        raise AttributeError("LinearLayout is immutable")

    def __reduce__(self):
        return LinearLayout._raw, (self._bases, self._outs)

    def _check_bit_limits(self) -> None:
        # the totals of get_total_in/out_dim_size_log2, summed inline: every new layout passes here
        in_bits = sum([len(vecs) for _, vecs in self._bases])
        out_bits = sum([size.bit_length() - 1 for _, size in self._outs])
        if in_bits > _MAX_BITS or out_bits > _MAX_BITS:
            raise LayoutError(f"LinearLayout too large: {in_bits} input bits and {out_bits} "
                              f"output bits (at most {_MAX_BITS} each)")

    @classmethod
    def _raw(cls, bases, outs) -> LinearLayout:
        """Build from already valid parts (used by operations that preserve the invariants)."""
        ll = object.__new__(cls)
        ll._init(tuple([(n, tuple(vecs)) for n, vecs in bases]), tuple(outs))
        ll._check_bit_limits()
        return ll

    def _check_invariants(self, require_surjective: bool) -> None:
        for name, vecs in self._bases:
            if any(c < 0 for v in vecs for c in v):
                raise LayoutError(
                    "Invalid bases passed to LinearLayout.  Expected all basis values to be "
                    f"non-negative, but found a negative value for in dimension '{name}'.  "
                    f"Full list of bases:{self}")
        n_out = len(self._outs)
        for name, vecs in self._bases:
            if any(len(v) != n_out for v in vecs):
                raise LayoutError(
                    "Invalid bases passed to LinearLayout.  Expect all bases to have the same "
                    f"size, equal to outDimNames.size() ({n_out}).  But this failed for in "
                    f"dimension '{name}'.  Full list of bases:{self}")
        for name, size in self._outs:
            if not is_pow2(size):
                raise LayoutError(f"Invalid out-dim size {size} for out-dim '{name}'.  "
                                  "Out-dim sizes must be powers of 2.")
        for name, vecs in self._bases:
            for v in vecs:
                for c, (out_name, size) in zip(v, self._outs):
                    if c >= size:
                        raise LayoutError(
                            f"Invalid basis {c} for in-dim '{name}' and out-dim '{out_name}'.  "
                            "Basis must be less than the out-dim size.")
        self._check_bit_limits()
        if require_surjective and not self.is_surjective():
            raise LayoutError(
                "Layout is expected to be surjective, i.e. every `out` coordinate can be "
                f"reached by some `in` coordinate, but was not:{self}")

    # ----------------------------------------------------------------- constructors

    @staticmethod
    def empty() -> LinearLayout:
        return LinearLayout._raw((), ())

    @staticmethod
    def strided1D(size: int, stride: int, in_dim: str, out_dim: str) -> LinearLayout:
        """L(x) = stride * x for x < size, into an out dim of size stride * size (surjective
        only for stride 1).  Size 0 gives the empty layout.

        >>> LinearLayout.strided1D(4, 2, "i", "o")
        LinearLayout({'i': [[2], [4]]}, [('o', 8)])
        """
        if size == 0:
            return LinearLayout.empty()
        if not is_pow2(size):
            raise LayoutError(f"layout size {size} is not a power of 2")
        bases = [(1 << k) * stride for k in range(log2(size))]
        if type(stride) is int and type(size) is int and is_pow2(stride) \
                and type(in_dim) is str and type(out_dim) is str:
            # valid by construction (non-negative bases below a power-of-two size; stride 1 is onto): skip the
            # checks, the surjectivity one a rank computation, that the conversions would pay for every dim
            return LinearLayout._raw(((in_dim, tuple((b,) for b in bases)),), ((out_dim, stride * size),))
        return LinearLayout({in_dim: [[b] for b in bases]}, [(out_dim, stride * size)],
                            require_surjective=stride == 1)

    @staticmethod
    def identity1D(size: int, in_dim: str, out_dim: str) -> LinearLayout:
        """L(x) = x for x < size: bases 1, 2, 4, ..., size/2.  Size 1 gives an in dim with no
        bases (and an out dim of size 1); size 0 the empty layout.

        >>> LinearLayout.identity1D(8, "lane", "dim1")
        LinearLayout({'lane': [[1], [2], [4]]}, [('dim1', 8)])
        """
        return LinearLayout.strided1D(size, 1, in_dim, out_dim)

    @staticmethod
    def zeros1D(size: int, in_dim: str, out_dim: str, out_dim_size: int = 1) -> LinearLayout:
        """L(x) = 0 for x < size: every input holds element 0 (broadcast).  An ``out_dim_size``
        above 1 gives a non-surjective layout onto that larger out dim.

        >>> LinearLayout.zeros1D(4, "warp", "dim0")
        LinearLayout({'warp': [[0], [0]]}, [('dim0', 1)])
        """
        if size == 0:
            return LinearLayout.empty()
        if not is_pow2(size):
            raise LayoutError(f"layout size {size} is not a power of 2")
        return LinearLayout({in_dim: [[0]] * log2(size)}, [(out_dim, out_dim_size)],
                            require_surjective=out_dim_size == 1)

    # ----------------------------------------------------------------- dims and sizes

    @property
    def in_dims(self) -> list[str]:
        return [name for name, _ in self._bases]

    @property
    def out_dims(self) -> list[str]:
        return [name for name, _ in self._outs]

    @property
    def num_in_dims(self) -> int:
        return len(self._bases)

    @property
    def num_out_dims(self) -> int:
        return len(self._outs)

    def has_in_dim(self, dim: str) -> bool:
        return dim in self._in_pos

    def has_out_dim(self, dim: str) -> bool:
        return dim in self._out_pos

    def _in_index(self, dim: str) -> int:
        k = self._in_pos.get(dim)
        if k is None:
            raise LayoutError(f"in dimension '{dim}' is not in the layout (in dims: [{_join(self.in_dims)}])")
        return k

    def _out_index(self, dim: str) -> int:
        k = self._out_pos.get(dim)
        if k is None:
            raise LayoutError(f"out dimension '{dim}' is not in the layout (out dims: [{_join(self.out_dims)}])")
        return k

    def get_in_dim_size_log2(self, dim: str) -> int:
        return len(self._bases[self._in_index(dim)][1])

    def get_in_dim_size(self, dim: str) -> int:
        return 1 << self.get_in_dim_size_log2(dim)

    def get_out_dim_size(self, dim: str) -> int:
        return self._outs[self._out_index(dim)][1]

    def get_out_dim_size_log2(self, dim: str) -> int:
        return log2(self.get_out_dim_size(dim))

    def get_total_in_dim_size_log2(self) -> int:
        return sum(len(vecs) for _, vecs in self._bases)

    def get_total_in_dim_size(self) -> int:
        return 1 << self.get_total_in_dim_size_log2()

    def get_total_out_dim_size_log2(self) -> int:
        return sum(log2(size) for _, size in self._outs)

    def get_total_out_dim_size(self) -> int:
        return 1 << self.get_total_out_dim_size_log2()

    def get_in_dims(self) -> list[tuple[str, int]]:
        return [(name, 1 << len(vecs)) for name, vecs in self._bases]

    def get_out_dims(self) -> list[tuple[str, int]]:
        return list(self._outs)

    def get_out_dim_sizes(self) -> dict[str, int]:
        return dict(self._outs)

    def get_bases(self) -> dict[str, DimBases]:
        return dict(self._bases)

    def get_in_dim_bases(self, dim: str) -> DimBases:
        return self._bases[self._in_index(dim)][1]

    def get_basis(self, in_dim: str, pos: int, out_dim: str | None = None):
        """Basis ``pos`` of ``in_dim`` (a tuple), or its component along ``out_dim``."""
        vecs = self.get_in_dim_bases(in_dim)
        if not 0 <= pos < len(vecs):
            raise LayoutError(f"basis {pos} of in dimension '{in_dim}' does not exist "
                              f"(it has {len(vecs)})")
        return vecs[pos] if out_dim is None else vecs[pos][self._out_index(out_dim)]

    # ----------------------------------------------------------------- flattened view

    def out_shifts(self) -> list[int]:
        """Where each out dim starts in a flattened output, the first out dim lowest.

        >>> LinearLayout.identity1D(16, "lane", "dim0").reshape_outs([("dim0", 4), ("dim1", 4)]).out_shifts()
        [0, 2]
        """
        return bit_shifts(size for _, size in self._outs)

    def _columns(self) -> tuple[int, ...]:
        """``flat_columns``, computed once (the layout is immutable)."""
        if self._cols is None:
            cols = tuple(flatten([v for _, vecs in self._bases for v in vecs], self.out_shifts()))
            object.__setattr__(self, "_cols", cols)
            return cols
        return self._cols

    def flat_columns(self) -> list[int]:
        """Every input basis (in-dim order, then bit order) as one flattened int, the first out
        dim in the low bits: the columns of the layout's bit matrix.  ``gf2.span`` of them is
        the image of every flattened input.

        >>> S = LinearLayout({"col": [[0, 1], [0, 2]], "row": [[1, 1], [2, 2]]}, ["r", "c"])
        >>> S.flat_columns()                # r in bits 0-1, c in bits 2-3
        [4, 8, 5, 10]
        """
        return list(self._columns())

    def flat_in_dim(self, dim: str) -> list[int]:
        """The bases of one in dim as flattened ints, like ``flat_columns``; [] if the layout has
        no such in dim.

        >>> S = LinearLayout({"col": [[0, 1], [0, 2]], "row": [[1, 1], [2, 2]]}, ["r", "c"])
        >>> S.flat_in_dim("row"), S.flat_in_dim("block")
        ([5, 10], [])
        """
        k = self._in_pos.get(dim)
        if k is None:
            return []
        return flatten(self._bases[k][1], self.out_shifts())

    def _flat_basis_rows(self) -> np.ndarray:
        """All bases as rows of an int64 array (total_in_bits, num_out_dims)."""
        import numpy as np

        rows = [v for _, vecs in self._bases for v in vecs]
        return np.array(rows, dtype=np.int64).reshape(len(rows), len(self._outs))

    def flat_bases(self) -> np.ndarray:
        """Every basis (in-dim order, then bit order) as one int64, the first out dim least
        significant: the columns of the layout's bit matrix."""
        import numpy as np

        out_bits = self.get_total_out_dim_size_log2()
        if out_bits > 63:
            raise LayoutError(f"cannot flatten {out_bits} output bits into int64")
        return np.array(self._columns(), dtype=np.int64)

    def _check_enumerable(self) -> int:
        bits = self.get_total_in_dim_size_log2()
        if bits > _MAX_ENUMERATE_BITS:
            raise LayoutError(f"layout has 2^{bits} inputs, too many to enumerate")
        return bits

    def apply_all(self) -> np.ndarray:
        """Images of every input, shape (num_out_dims, total_in_size); column x is the
        flattened input x (first in dim least significant)."""
        self._check_enumerable()
        return gf2.span_array(self._flat_basis_rows().T)

    def apply_all_flat(self) -> np.ndarray:
        """Like ``apply_all`` with the outputs flattened (first out dim least significant)."""
        self._check_enumerable()
        return gf2.span_array(self.flat_bases())

    def apply_flat(self, x) -> np.ndarray:
        """Images of flattened inputs ``x`` (any integer array): shape (num_out_dims, *x.shape)."""
        import numpy as np

        x = np.asarray(x, dtype=np.int64)
        rows = self._flat_basis_rows().T
        out = np.zeros((len(self._outs),) + x.shape, dtype=np.int64)
        for k in range(0, rows.shape[1], 8):
            chunk = rows[:, k:k + 8]
            table = gf2.span_array(chunk)
            out ^= table[:, (x >> k) & ((1 << chunk.shape[1]) - 1)]
        return out

    def apply(self, ins) -> list[tuple[str, int]]:
        """L(ins): ``ins`` gives a value for every in dim (a mapping or (name, value) pairs);
        the result is (out dim, value) pairs in out-dim order.

        >>> L = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [1, 0]]}, ["dim0", "dim1"])
        >>> L.apply({"register": 1, "lane": 3})     # (0, 1) ^ (0, 2) ^ (1, 0)
        [('dim0', 1), ('dim1', 3)]
        """
        pairs = _as_pairs(ins)
        _check_same_dims([n for n, _ in pairs], self.in_dims)
        result = [0] * len(self._outs)
        for name, value in pairs:
            value = operator.index(value)
            for k, v in enumerate(self.get_in_dim_bases(name)):
                if value >> k & 1:
                    result = [a ^ b for a, b in zip(result, v)]
        return [(name, r) for (name, _), r in zip(self._outs, result)]

    # ----------------------------------------------------------------- rank and friends

    def get_matrix_rank(self) -> int:
        if self._rank is None:
            rank = gf2.rank(self._columns())
            object.__setattr__(self, "_rank", rank)
            return rank
        return self._rank

    def is_surjective(self) -> bool:
        return self.get_matrix_rank() == self.get_total_out_dim_size_log2()

    def is_injective(self) -> bool:
        return self.get_matrix_rank() == self.get_total_in_dim_size_log2()

    def is_invertible(self) -> bool:
        return self.is_surjective() and self.get_total_in_dim_size_log2() == self.get_total_out_dim_size_log2()

    def get_free_variable_masks(self) -> dict[str, int]:
        """Per in dim, the bits whose basis lies in the span of the bases of earlier bits (in
        dims in order, low bits first): flipping such a bit never reaches a new output.  All
        masks are zero iff the layout is injective.

        >>> L = LinearLayout({"register": [[1], [2]], "lane": [[1], [4], [3]]}, ["dim0"])
        >>> L.get_free_variable_masks()     # lane 1 repeats register 1; lane 4 gives 1 ^ 2
        {'register': 0, 'lane': 5}
        """
        pivots = gf2.pivot_mask(self._columns())
        masks, offset = {}, 0
        for name, vecs in self._bases:
            n = len(vecs)
            masks[name] = ~(pivots >> offset) & ((1 << n) - 1)
            offset += n
        return masks

    # ----------------------------------------------------------------- reshaping

    def transpose_ins(self, names: Sequence[str]) -> LinearLayout:
        """The same map with the in dims reordered (a permutation of them); only flattening
        and equality see the difference.

        >>> L = LinearLayout({"lane": [[1]], "warp": [[2]]}, ["dim0"])
        >>> L.transpose_ins(["warp", "lane"])
        LinearLayout({'warp': [[2]], 'lane': [[1]]}, [('dim0', 4)])
        """
        names = _as_names(names)
        _check_same_dims(names, self.in_dims)
        return LinearLayout._raw([(n, self.get_in_dim_bases(n)) for n in dict.fromkeys(names)],
                                 self._outs)

    def transpose_outs(self, names: Sequence[str]) -> LinearLayout:
        """The same map with the out dims reordered; every basis's components follow.

        >>> L = LinearLayout({"lane": [[0, 1], [1, 0], [2, 0]]}, ["dim0", "dim1"])
        >>> L.transpose_outs(["dim1", "dim0"])
        LinearLayout({'lane': [[1, 0], [0, 1], [0, 2]]}, [('dim1', 2), ('dim0', 4)])
        """
        names = list(dict.fromkeys(_as_names(names)))
        _check_same_dims(names, self.out_dims)
        perm = [self._out_pos[n] for n in names]
        if perm == list(range(len(perm))):          # already in that order (invert_and_compose's usual case)
            return LinearLayout._raw(self._bases, self._outs)
        bases = [(n, tuple(tuple(v[p] for p in perm) for v in vecs)) for n, vecs in self._bases]
        return LinearLayout._raw(bases, [self._outs[p] for p in perm])

    def reshape_ins(self, new_in_dims: Sequence[tuple[str, int]]) -> LinearLayout:
        """New in dims (name, size) of the same total size: the bases, taken in in-dim order,
        low bits first, are dealt out to the new dims in order.

        >>> L = LinearLayout({"register": [[1]], "lane": [[2], [4]]}, ["dim0"])
        >>> L.reshape_ins([("x", 4), ("y", 2)])
        LinearLayout({'x': [[1], [2]], 'y': [[4]]}, [('dim0', 8)])
        """
        new_in_dims = [(n, operator.index(s)) for n, s in _as_pairs(new_in_dims)]
        _check_sizes(new_in_dims, self.get_total_in_dim_size(), "in")
        flat = [v for _, vecs in self._bases for v in vecs]
        bases, k = [], 0
        for name, size in new_in_dims:
            n = log2(size)
            bases.append((name, tuple(flat[k:k + n])))
            k += n
        return LinearLayout._raw(bases, self._outs)

    def reshape_outs(self, new_out_dims: Sequence[tuple[str, int]]) -> LinearLayout:
        """New out dims (name, size) of the same total size: each basis is flattened (first
        out dim in the low bits) and split again, the first new dim taking the low bits.

        >>> L = LinearLayout({"lane": [[1, 0], [0, 1], [0, 2]]}, ["dim0", "dim1"])
        >>> L.reshape_outs([("x", 4), ("y", 2)])    # flat = dim0 + 2 * dim1 = x + 4 * y
        LinearLayout({'lane': [[1, 0], [2, 0], [0, 1]]}, [('x', 4), ('y', 2)])
        """
        new_out_dims = [(n, operator.index(s)) for n, s in _as_pairs(new_out_dims)]
        _check_sizes(new_out_dims, self.get_total_out_dim_size(), "out")
        sizes = [size for _, size in new_out_dims]
        new_shifts = list(zip(bit_shifts(sizes), [size - 1 for size in sizes]))
        cols = iter(self._columns())
        bases = [(name, tuple(tuple((c >> sh) & m for sh, m in new_shifts)
                              for c in (next(cols) for _ in vecs)))
                 for name, vecs in self._bases]
        return LinearLayout._raw(bases, new_out_dims)

    def flatten_ins(self) -> LinearLayout:
        """One in dim, named like the first, holding all the bases in order.

        >>> LinearLayout({"register": [[1]], "lane": [[2]]}, ["dim0"]).flatten_ins()
        LinearLayout({'register': [[1], [2]]}, [('dim0', 4)])
        """
        if not self._bases:
            return self.reshape_ins([])
        return self.reshape_ins([(self._bases[0][0], self.get_total_in_dim_size())])

    def flatten_outs(self) -> LinearLayout:
        """One out dim, named like the first; the first out dim gives the low bits.

        >>> L = LinearLayout({"lane": [[0, 1], [1, 0]]}, ["dim0", "dim1"])
        >>> L.flatten_outs()                        # (dim0, dim1) -> dim0 + 2 * dim1
        LinearLayout({'lane': [[2], [1]]}, [('dim0', 4)])
        """
        if not self._outs:
            return self.reshape_outs([])
        return self.reshape_outs([(self._outs[0][0], self.get_total_out_dim_size())])

    # ----------------------------------------------------------------- restriction

    def sublayout(self, in_dims: str | Iterable[str], out_dims: str | Iterable[str]) -> LinearLayout:
        """Only these in dims (others set to 0) and out dims (others dropped), in self's
        order.  Out sizes are kept, so the result need not be surjective.

        >>> L = LinearLayout({"lane": [[0, 1], [1, 0]], "warp": [[2, 0]]}, ["dim0", "dim1"])
        >>> L.sublayout(["lane"], ["dim0"])
        LinearLayout({'lane': [[0], [1]]}, [('dim0', 4)])
        """
        in_list, out_list = _as_names(in_dims), _as_names(out_dims)
        _check_subset(in_list, self.in_dims)
        _check_subset(out_list, self.out_dims)
        ins, outs = set(in_list), set(out_list)
        keep = [k for k, (n, _) in enumerate(self._outs) if n in outs]
        if len(keep) == len(self._outs):            # every out dim kept: the bases stay as they are
            bases = [(n, vecs) for n, vecs in self._bases if n in ins]
        else:
            bases = [(n, tuple(tuple(v[k] for k in keep) for v in vecs))
                     for n, vecs in self._bases if n in ins]
        return LinearLayout._raw(bases, [self._outs[k] for k in keep])

    def sublayout_is_zero(self, in_dims: str | Iterable[str], out_dims: str | Iterable[str]) -> bool:
        """Whether these in dims move no component of these out dims."""
        sub = self.sublayout(in_dims, out_dims)
        return all(c == 0 for _, vecs in sub._bases for v in vecs for c in v)

    def resize_in_dim(self, dim: str, new_size: int) -> LinearLayout:
        """Drop the highest bases of ``dim``, or append zero bases (broadcast inputs).

        >>> L = LinearLayout({"register": [[1], [2]]}, ["dim0"])
        >>> L.resize_in_dim("register", 8)
        LinearLayout({'register': [[1], [2], [0]]}, [('dim0', 4)])
        >>> L.resize_in_dim("register", 2)
        LinearLayout({'register': [[1]]}, [('dim0', 4)])
        """
        k = self._in_index(dim)
        if not is_pow2(new_size):
            raise LayoutError(f"new size {new_size} of in dimension '{dim}' is not a power of 2")
        n = log2(new_size)
        vecs = self._bases[k][1]
        vecs = vecs[:n] + ((0,) * len(self._outs),) * (n - len(vecs))
        bases = list(self._bases)
        bases[k] = (dim, vecs)
        return LinearLayout._raw(bases, self._outs)

    def resize_out_dim(self, dim: str, new_size: int) -> LinearLayout:
        """Shrink ``dim`` to ``new_size``: components >= new_size become 0 rather than being
        masked, so inputs past the new extent replicate element 0.

        >>> L = LinearLayout({"lane": [[1], [2], [5]]}, ["dim0"])
        >>> L.resize_out_dim("dim0", 4)             # 5 becomes 0, not 1
        LinearLayout({'lane': [[1], [2], [0]]}, [('dim0', 4)])
        """
        j = self._out_index(dim)
        if not is_pow2(new_size) or new_size > self._outs[j][1]:
            raise LayoutError(f"cannot resize out dimension '{dim}' of size {self._outs[j][1]} "
                              f"to {new_size} (must be a power of 2, not larger)")
        bases = [(n, tuple(v[:j] + ((v[j] if v[j] < new_size else 0),) + v[j + 1:] for v in vecs))
                 for n, vecs in self._bases]
        outs = list(self._outs)
        outs[j] = (dim, new_size)
        return LinearLayout._raw(bases, outs)

    def remove_zero_bases_along_dim(self, dim: str) -> LinearLayout:
        """``dim`` without its all-zero bases, e.g. the broadcast registers of a layout.

        >>> L = LinearLayout({"register": [[1], [0], [2]]}, ["dim0"])
        >>> L.remove_zero_bases_along_dim("register")
        LinearLayout({'register': [[1], [2]]}, [('dim0', 4)])
        """
        self._in_index(dim)
        bases = [(n, tuple(v for v in vecs if any(v)) if n == dim else vecs)
                 for n, vecs in self._bases]
        return LinearLayout._raw(bases, self._outs)

    def concat_ins(self, other: LinearLayout) -> LinearLayout:
        """Self's in dims then other's, over the same out dims (in the same order and sizes).

        >>> a = LinearLayout({"lane": [[1]]}, [("dim0", 4)], require_surjective=False)
        >>> b = LinearLayout({"warp": [[2]]}, [("dim0", 4)], require_surjective=False)
        >>> a.concat_ins(b)
        LinearLayout({'lane': [[1]], 'warp': [[2]]}, [('dim0', 4)])
        """
        if self._outs != other._outs:
            raise LayoutError("concat_ins: layouts must have the same output dimensions")
        _check_unique(self.in_dims + other.in_dims, "in")
        return LinearLayout._raw(self._bases + other._bases, self._outs)

    def concat_outs(self, other: LinearLayout) -> LinearLayout:
        """Self's out dims then other's, over the same in dims (in the same order and sizes):
        each basis is self's components followed by other's.

        >>> a = LinearLayout({"lane": [[1], [2]]}, ["dim0"])
        >>> b = LinearLayout({"lane": [[0], [1]]}, ["dim1"])
        >>> a.concat_outs(b)
        LinearLayout({'lane': [[1, 0], [2, 1]]}, [('dim0', 4), ('dim1', 2)])
        """
        if self.get_in_dims() != other.get_in_dims():
            raise LayoutError("concat_outs: layouts must have the same input dimensions")
        _check_unique(self.out_dims + other.out_dims, "out")
        bases = [(n, tuple(a + b for a, b in zip(va, vb)))
                 for (n, va), (_, vb) in zip(self._bases, other._bases)]
        return LinearLayout._raw(bases, self._outs + other._outs)

    # ----------------------------------------------------------------- algebra

    def __mul__(self, outer: LinearLayout) -> LinearLayout:
        """Triton's ``inner * outer``: both layouts side by side, self on the low bits.

        In and out dims are merged (common names keep their relative order; ties follow
        self).  In a common in dim, self's bases come first (the low input bits); in a
        common out dim, outer's components are shifted above self's size, so outer counts
        in units of self's extent.  Out sizes multiply.  Not commutative.

        >>> regs = LinearLayout.identity1D(2, "register", "dim0")
        >>> regs * LinearLayout.identity1D(4, "lane", "dim0")      # 2 adjacent elements per lane
        LinearLayout({'register': [[1]], 'lane': [[2], [4]]}, [('dim0', 8)])
        >>> i4 = LinearLayout.identity1D(4, "i", "o")
        >>> i4 * LinearLayout.zeros1D(2, "i", "o")                 # x -> x % 4
        LinearLayout({'i': [[1], [2], [0]]}, [('o', 4)])
        >>> LinearLayout.zeros1D(2, "i", "o") * i4                 # x -> x // 2
        LinearLayout({'i': [[0], [1], [2]]}, [('o', 4)])
        """
        if not isinstance(outer, LinearLayout):
            return NotImplemented
        inner = self
        in_names = _supremum(inner.in_dims, outer.in_dims)
        out_names = _supremum(inner.out_dims, outer.out_dims)
        inner_out, outer_out = inner.get_out_dim_sizes(), outer.get_out_dim_sizes()
        shifts = [log2(inner_out.get(o, 1)) for o in out_names]
        pick_inner = [inner._out_pos.get(o) for o in out_names]
        pick_outer = [outer._out_pos.get(o) for o in out_names]
        n_inner = len(inner._outs)
        # inner's out dims lead the merged list in its own order (the usual case): its bases only gain zeros
        pad = (0,) * (len(out_names) - n_inner) if pick_inner[:n_inner] == list(range(n_inner)) else None
        # ... and outer's follow in its own order, none shared (so unshifted): its bases only gain leading zeros
        lead = (0,) * n_inner if pad is not None and pick_outer[n_inner:] == list(range(len(outer._outs))) \
            and len(out_names) == n_inner + len(outer._outs) else None
        bases = []
        for d in in_names:
            vecs = []
            if d in inner._in_pos:
                if pad is not None:
                    vecs += [v + pad for v in inner.get_in_dim_bases(d)]
                else:
                    vecs += [tuple(0 if p is None else v[p] for p in pick_inner)
                             for v in inner.get_in_dim_bases(d)]
            if d in outer._in_pos:
                if lead is not None:
                    vecs += [lead + v for v in outer.get_in_dim_bases(d)]
                else:
                    vecs += [tuple(0 if p is None else v[p] << s for p, s in zip(pick_outer, shifts))
                             for v in outer.get_in_dim_bases(d)]
            bases.append((d, tuple(vecs)))
        outs = [(o, inner_out.get(o, 1) * outer_out.get(o, 1)) for o in out_names]
        return LinearLayout._raw(bases, outs)

    def compose(self, outer: LinearLayout) -> LinearLayout:
        """outer ∘ self, x -> outer(self(x)): self's out dims are outer's in dims (any order),
        each no larger there.  Result: self's in dims -> outer's out dims.

        >>> regs = LinearLayout({"register": [[0, 1], [1, 0]]}, ["dim0", "dim1"])
        >>> row_major = LinearLayout({"dim0": [[2]], "dim1": [[1]]}, ["index"])  # 2 * dim0 + dim1
        >>> regs.compose(row_major)
        LinearLayout({'register': [[1], [2]]}, [('index', 4)])
        """
        _check_same_dims(self.out_dims, outer.in_dims)
        for name, size in self._outs:
            if size > outer.get_in_dim_size(name):
                raise LayoutError(f"compose: out dimension '{name}' has size {size}, larger than "
                                  f"the outer layout's in dimension ({outer.get_in_dim_size(name)})")
        outer_bases = [outer.get_in_dim_bases(name) for name, _ in self._outs]
        zero = (0,) * len(outer._outs)

        def image(v: Basis) -> Basis:
            acc = zero
            for c, obases in zip(v, outer_bases):
                k = 0
                while c:
                    if c & 1:
                        acc = tuple(a ^ b for a, b in zip(acc, obases[k]))
                    c >>= 1
                    k += 1
            return acc

        bases = [(n, tuple(image(v) for v in vecs)) for n, vecs in self._bases]
        return LinearLayout._raw(bases, outer._outs)

    def invert_and_compose(self, outer: LinearLayout) -> LinearLayout:
        """C with outer(C(x)) = self(x) for all x (outer need not be injective).

        With self a register layout and outer a shared one (both onto the tensor), C gives
        each register the shared offset holding its element.  In dims that have identical
        bases in both layouts map to themselves; the rest is ``lstsq(outer, self)``
        restricted to the other in dims, i.e. the solution with all free variables of
        outer zero.  Result: self's in dims -> outer's in dims.

        >>> regs = LinearLayout({"register": [[0, 1], [1, 0]]}, ["dim0", "dim1"])
        >>> smem = LinearLayout({"offset": [[1, 0], [0, 1]]}, ["dim0", "dim1"])  # column-major
        >>> regs.invert_and_compose(smem)
        LinearLayout({'register': [[2], [1]]}, [('offset', 4)])
        """
        B = self
        out_names = B.out_dims
        _check_same_dims(out_names, outer.out_dims)
        A = outer.transpose_outs(out_names)
        for name in out_names:
            if A.get_out_dim_size(name) < B.get_out_dim_size(name):
                raise LayoutError(
                    f"A.invertAndCompose(B) called with incompatible output shapes in {name}: "
                    f"{A.get_out_dim_size(name)} >= {B.get_out_dim_size(name)}")
        identity_dims = [d for d in A.in_dims
                         if B.has_in_dim(d) and A.get_in_dim_bases(d) == B.get_in_dim_bases(d)]
        a_reduced = A.sublayout([d for d in A.in_dims if d not in identity_dims], out_names)
        b_reduced = B.sublayout([d for d in B.in_dims if d not in identity_dims], out_names)
        ret = lstsq(a_reduced, b_reduced)
        if ret is None:
            raise LayoutError("invertAndCompose: the image of this layout is not contained in "
                              f"the image of the outer layout:{B}\nouter:{outer}")
        for d in identity_dims:
            ret = ret * LinearLayout.identity1D(A.get_in_dim_size(d), d, d)
        return ret.transpose_ins(B.in_dims).transpose_outs(A.in_dims)

    def _identity_on_outs(self) -> LinearLayout:
        ident = LinearLayout.empty()
        for name, size in self._outs:
            ident = ident * LinearLayout.identity1D(size, name, name)
        return ident

    def pseudoinvert(self) -> LinearLayout:
        """Out dims -> in dims, picking for each output the preimage whose free input bits
        (``get_free_variable_masks``) are zero.  Requires surjectivity.

        >>> L = LinearLayout({"lane": [[1], [1], [2]]}, ["dim0"])  # lanes 1 and 2 agree
        >>> L.pseudoinvert()                                       # element 2 -> lane 4
        LinearLayout({'dim0': [[1], [4]]}, [('lane', 8)])
        """
        if not self.is_surjective():
            raise LayoutError("A linear layout must be surjective to compute its pseudoinverse")
        return self._identity_on_outs().invert_and_compose(self)

    def invert(self) -> LinearLayout:
        """The inverse of a bijective layout (surjective, as many in bits as out bits).

        >>> LinearLayout({"offset": [[2], [1]]}, ["dim0"]).invert()
        LinearLayout({'dim0': [[2], [1]]}, [('offset', 4)])
        """
        if not self.is_invertible():
            raise LayoutError("A linear layout must be surjective and square to be invertible")
        return self.pseudoinvert()

    # ----------------------------------------------------------------- comparison, printing

    def equal_ignoring_out_dim_sizes(self, other: LinearLayout) -> bool:
        return self.out_dims == other.out_dims and self._bases == other._bases

    def __eq__(self, other) -> bool:
        if not isinstance(other, LinearLayout):
            return NotImplemented
        return self._bases == other._bases and self._outs == other._outs

    def __hash__(self) -> int:
        return hash((self._bases, self._outs))

    def __str__(self) -> str:
        outs = "[" + ", ".join(f"{n} (size {s})" for n, s in self._outs) + "]"
        if not self._bases:
            return "\n(empty layout)" if not self._outs else f"\n(empty layout with out-dims {outs})"
        parts = ["\n"]
        for name, vecs in self._bases:
            if not vecs:
                parts.append(f" - {name} is a size 1 dimension\n")
                continue
            entries = (f"{name}={1 << k} -> ({', '.join(map(str, v))})" for k, v in enumerate(vecs))
            parts.append(" - " + "\n   ".join(entries) + "\n")
        parts.append("where out dims are: " + outs)
        return "".join(parts)

    to_string = __str__

    def __repr__(self) -> str:
        bases = {n: [list(v) for v in vecs] for n, vecs in self._bases}
        return f"LinearLayout({bases}, {list(self._outs)})"


def lstsq(A: LinearLayout, B: LinearLayout) -> LinearLayout | None:
    """X with A ∘ X = B (X: B's in dims -> A's in dims), free variables of A set to zero.

    Requires the same out-dim set with B's sizes <= A's; None if that fails or if B's image
    is not contained in A's.

    >>> A = LinearLayout({"offset": [[1], [2], [3]]}, ["dim0"])     # offset 4 gives 1 ^ 2
    >>> lstsq(A, LinearLayout({"lane": [[3], [2]]}, ["dim0"]))      # 3: offset 3, not offset 4
    LinearLayout({'lane': [[3], [2]]}, [('offset', 8)])
    >>> half = LinearLayout({"offset": [[1]]}, [("dim0", 4)], require_surjective=False)
    >>> lstsq(half, LinearLayout.identity1D(4, "lane", "dim0")) is None   # 2 is not reached
    True
    """
    if set(A.out_dims) != set(B.out_dims):
        return None
    if any(B.get_out_dim_size(n) > size for n, size in A.get_out_dims()):
        return None
    a_shift = dict(zip(A.out_dims, A.out_shifts()))
    targets = flatten([v for _, vecs in B._bases for v in vecs], [a_shift[n] for n in B.out_dims])
    found = gf2.solve(A._columns(), targets)
    xs = [x for x in found if x is not None]
    if len(xs) != len(found):
        return None
    splits, offset = [], 0
    for _, vecs in A._bases:
        splits.append((offset, (1 << len(vecs)) - 1))
        offset += len(vecs)
    sols = iter(xs)
    bases = [(n, tuple(tuple((x >> o) & m for o, m in splits) for x in (next(sols) for _ in vecs)))
             for n, vecs in B._bases]
    return LinearLayout._raw(bases, A.get_in_dims())


def divide_left(A: LinearLayout, B: LinearLayout) -> LinearLayout | None:
    """C with A == B * C, or None.  C has A's in and out dims; exists iff, per in dim, A's
    first bases equal B's and A's remaining bases are zero in the bits B occupies.  (Where
    Triton would then hit its ``B * C == A`` assertion, e.g. dims ordered differently,
    this returns None.)

    >>> A = LinearLayout({"register": [[1], [2], [8]], "lane": [[4]]}, ["dim0"])
    >>> divide_left(A, LinearLayout.identity1D(4, "register", "dim0"))   # strip 4-element vectors
    LinearLayout({'register': [[2]], 'lane': [[1]]}, [('dim0', 4)])
    >>> divide_left(A, LinearLayout.identity1D(8, "register", "dim0")) is None
    True
    """
    if not set(B.in_dims) <= set(A.in_dims) or not set(B.out_dims) <= set(A.out_dims):
        return None
    b_out_log2 = {n: log2(s) for n, s in B.get_out_dims()}
    c_outs = []
    for name, size in A.get_out_dims():
        c_log2 = log2(size) - b_out_log2.get(name, 0)
        if c_log2 < 0:
            return None
        c_outs.append((name, 1 << c_log2))
    b_pick = [B._out_pos.get(n) for n in A.out_dims]
    low_bits = [b_out_log2.get(n, 0) for n in A.out_dims]
    c_bases = []
    for name, vecs in A._bases:
        b_vecs = B.get_in_dim_bases(name) if B.has_in_dim(name) else ()
        if len(b_vecs) > len(vecs):
            return None
        for a, b in zip(vecs, b_vecs):
            if a != tuple(0 if p is None else b[p] for p in b_pick):
                return None
        rest = vecs[len(b_vecs):]
        if any(c & ((1 << s) - 1) for v in rest for c, s in zip(v, low_bits)):
            return None
        c_bases.append((name, tuple(tuple(c >> s for c, s in zip(v, low_bits)) for v in rest)))
    C = LinearLayout._raw(c_bases, c_outs)
    return C if B * C == A else None
