"""Linear algebra over GF(2) on vectors packed into Python ints (bit k = coordinate k).

A matrix is a list of such ints, one per *column*: column c of a linear layout is the
flattened image of input bit c.  Everything here works column-first, which is what the
layout operations need:

* a column is a *pivot* column iff it is not in the span of the columns before it.  These
  are exactly the pivot columns of the reduced row echelon form (pivot = lowest column of
  each row, as in Triton's f2reduce), so the choices below coincide with Triton's;
* ``solve`` writes a target as a combination of the pivot columns only (free variables
  zero), which is the unique solution Triton's RREF-based ``lstsq`` reads off.

Sizes are tiny (at most 64 bits each way), so plain Python ints are faster than numpy; only
``span_array``, which builds look-up tables that index numpy arrays, imports numpy (when called).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:                 # numpy is imported only by span_array
    import numpy as np


class XorBasis:
    """Incremental echelon basis: each stored vector has a distinct leading (highest) bit.

    Every stored vector remembers which of the inserted vectors it is the XOR of, as a
    bitmask over insertion tags, so that reductions can report the combination used.

    >>> b = XorBasis()
    >>> b.insert(0b011, tag=0b01), b.insert(0b110, tag=0b10), b.insert(0b101)
    (True, True, False)
    >>> b.reduce(0b101)         # 0b101 = 0b011 ^ 0b110: residue 0, tags 0b01 and 0b10
    (0, 3)
    """

    __slots__ = ("_rows",)

    def __init__(self) -> None:
        self._rows: dict[int, tuple[int, int]] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def reduce(self, v: int) -> tuple[int, int]:
        """Return (residue, combo): v = residue ^ XOR of the inserted vectors in combo."""
        combo = 0
        rows = self._rows
        while v:
            row = rows.get(v.bit_length() - 1)
            if row is None:
                break
            v ^= row[0]
            combo ^= row[1]
        return v, combo

    def insert(self, v: int, tag: int = 0) -> bool:
        """Add v (known as the inserted vector with bitmask ``tag``); False if v was dependent."""
        residue, combo = self.reduce(v)
        if residue == 0:
            return False
        self._rows[residue.bit_length() - 1] = (residue, combo ^ tag)
        return True

    def contains(self, v: int) -> bool:
        return self.reduce(v)[0] == 0


def rank(columns: Iterable[int]) -> int:
    """Number of linearly independent columns.

    >>> rank([0b01, 0b10, 0b11])
    2
    """
    basis = XorBasis()
    for c in columns:
        basis.insert(c)
    return len(basis)


def apply(columns: Iterable[int], x: int) -> int:
    """A·x: the XOR of the columns selected by the set bits of x (``span(columns)[x]`` without
    the table).

    >>> apply([0b001, 0b010, 0b101], 0b110)    # columns 1 and 2: 0b010 ^ 0b101
    7
    """
    acc = 0
    for j, c in enumerate(columns):
        if x >> j & 1:
            acc ^= c
    return acc


def span(vectors: Iterable[int]) -> list[int]:
    """All 2^n XOR combinations of n vectors: element i is the XOR of vectors[j] over the set
    bits j of i, so a layout's flattened columns give the image of every flattened input in order.

    >>> span([0b001, 0b010, 0b101])     # 6 = 0b110: vectors[1] ^ vectors[2] = 0b010 ^ 0b101
    [0, 1, 2, 3, 5, 4, 7, 6]
    >>> span([])
    [0]
    """
    out = [0]
    for v in vectors:
        out += [x ^ v for x in out]
    return out


def span_array(vectors) -> np.ndarray:
    """``span`` as a numpy int64 table, for indexing arrays: a 1-D ``vectors`` gives the 1-D table;
    a 2-D one (rows, n) gives (rows, 2^n), column i = XOR of vectors[:, j] over the set bits j of i.

    >>> span_array([0b001, 0b010, 0b101]).tolist()
    [0, 1, 2, 3, 5, 4, 7, 6]
    >>> span_array([[1, 2], [4, 4]]).tolist()
    [[0, 1, 2, 3], [0, 4, 4, 0]]
    """
    import numpy as np

    vecs = np.asarray(vectors, dtype=np.int64)
    rows = vecs.reshape(1, -1) if vecs.ndim == 1 else vecs
    width = rows.shape[1]
    out = np.empty((rows.shape[0], 1 << width), dtype=np.int64)
    out[:, 0] = 0
    for k in range(width):
        w = 1 << k
        np.bitwise_xor(out[:, :w], rows[:, k:k + 1], out=out[:, w:2 * w])
    return out[0] if vecs.ndim == 1 else out


def pivot_mask(columns: Sequence[int]) -> int:
    """Bitmask of the columns that are not in the span of the columns before them.

    >>> bin(pivot_mask([0b01, 0b01, 0b10]))    # column 1 repeats column 0
    '0b101'
    """
    basis = XorBasis()
    mask = 0
    for i, c in enumerate(columns):
        if basis.insert(c):
            mask |= 1 << i
    return mask


def solve(columns: Sequence[int], targets: Iterable[int]) -> list[int | None]:
    """For each target t, the input bitmask x (supported on pivot columns only) with A·x = t,
    or None where t is not in the column space of A.

    >>> solve([0b01, 0b10, 0b11], [0b11, 0b100])   # 0b11 = col 0 ^ col 1 (col 2 left 0)
    [3, None]
    """
    basis = XorBasis()
    for i, c in enumerate(columns):
        basis.insert(c, 1 << i)
    out: list[int | None] = []
    for t in targets:
        residue, combo = basis.reduce(t)
        out.append(combo if residue == 0 else None)
    return out


def null_space(columns: Sequence[int]) -> list[int]:
    """A basis of {x : A·x = 0}: one vector per non-pivot column c (bit c plus the pivot
    columns that produce column c).

    >>> null_space([0b01, 0b10, 0b11])             # col 0 ^ col 1 ^ col 2 = 0
    [7]
    """
    basis = XorBasis()
    kernel: list[int] = []
    for i, c in enumerate(columns):
        residue, combo = basis.reduce(c)
        if residue:
            basis.insert(c, 1 << i)
        else:
            kernel.append(combo | (1 << i))
    return kernel


def rref(rows: Sequence[int], num_cols: int) -> tuple[list[int], list[int]]:
    """Reduced row echelon form of a row-major matrix (bit c of a row = column c), pivots
    at the lowest set bit as in f2reduce.  Returns (rows, pivot columns); zero rows last.

    >>> rref([0b11, 0b01, 0b10], 2)                # rows (1, 1), (1, 0), (0, 1), bit 0 first
    ([1, 2, 0], [0, 1])
    """
    m = list(rows)
    n = len(m)
    pivots: list[int] = []
    r = 0
    for c in range(num_cols):
        if r == n:                          # every row holds a pivot: no column after this one can
            break
        bit = 1 << c
        p = r
        while p < n and not m[p] & bit:     # a plain loop: this runs for every column of every call
            p += 1
        if p == n:
            continue
        pivot = m[p]
        m[p] = m[r]
        m[r] = pivot
        for i in range(n):
            if i != r and m[i] & bit:
                m[i] ^= pivot
        pivots.append(c)
        r += 1
    return m, pivots


def transpose(vectors: Sequence[int], length: int) -> list[int]:
    """Bit matrix transpose: vectors[i] bit j  ->  result[j] bit i.

    >>> transpose([0b01, 0b11], 2)
    [3, 2]
    """
    out = [0] * length
    for i, v in enumerate(vectors):
        while v:
            low = v & -v
            out[low.bit_length() - 1] |= 1 << i
            v ^= low
    return out


def reduced_echelon(vectors: Iterable[int]) -> list[int]:
    """Reduced row echelon basis of the span of `vectors` (ints as GF(2) bit vectors), sorted by leading bit
    ascending: every leading bit is set in exactly one basis vector. With x reduced by it (no leading bit set),
    x ^ (XOR of basis[j] over the set bits j of c) grows with c: the coset x + span comes out sorted.

    >>> reduced_echelon([0b110, 0b011])            # 0b110 ^ 0b011 = 0b101 keeps bit 1 in one vector only
    [3, 5]
    """
    basis: list[int] = []
    for v in vectors:
        for b in basis:
            if v ^ b < v:
                v ^= b
        if v:
            lead = 1 << (v.bit_length() - 1)
            basis = [b ^ v if b & lead else b for b in basis]
            basis.append(v)
    return sorted(basis)
