"""Fixed-width text built in numpy byte matrices: one row per cell, digits written right-aligned in bulk."""
from __future__ import annotations

import functools

import numpy as np

SPACE = ord(" ")


def num_digits(values: np.ndarray) -> np.ndarray:
    values = np.asarray(values, dtype=np.int64)
    nd = np.ones(values.shape, dtype=np.int64)
    p = 10
    while True:
        more = values >= p
        if not more.any():
            return nd
        nd += more
        p *= 10


def digits(n: int) -> int:
    return len(str(n))


def blank(rows: int, width: int) -> np.ndarray:
    return np.full((rows, width), SPACE, dtype=np.uint8)


def put_number(buf: np.ndarray, end, values: np.ndarray) -> np.ndarray:
    """Write `values` in decimal so that each number's last digit is at column end-1; return each start column."""
    values = np.asarray(values, dtype=np.int64)
    rows = np.arange(len(values))
    end = np.broadcast_to(np.asarray(end, dtype=np.int64), values.shape)
    nd = num_digits(values)
    v = values.copy()
    for d in range(int(nd.max()) if len(values) else 0):
        live = d < nd
        if live.all():
            buf[rows, end - 1 - d] = 48 + v % 10
        else:
            buf[rows[live], (end - 1 - d)[live]] = 48 + v[live] % 10
        v //= 10
    return end - nd


def put_char(buf: np.ndarray, col, char: str) -> None:
    rows = np.arange(buf.shape[0])
    buf[rows, np.broadcast_to(np.asarray(col, dtype=np.int64), rows.shape)] = ord(char)


def number_table(count: int, width: int) -> np.ndarray:
    """Row v = decimal v right-aligned in `width` columns, for v in 0..count-1 (gathered instead of re-formatted)."""
    table = blank(count, width)
    put_number(table, width, np.arange(count, dtype=np.int64))
    return table


TABLE_SIZE = 1 << 16     # dimensions up to this size are formatted once (cached) and gathered


@functools.lru_cache(maxsize=64)
def _cached_number_table(count: int, width: int) -> np.ndarray:
    table = number_table(count, width)
    table.flags.writeable = False
    return table


def coord_cells(coords: np.ndarray, sizes, sep: str) -> np.ndarray:
    """'(c0<sep>c1...)' for each column of coords (shape rank x n), component i right-aligned to the width of sizes[i]."""
    widths = [digits(s) for s in sizes]
    width = 2 + sum(widths) + len(widths) - 1
    buf = np.empty((coords.shape[1], width), dtype=np.uint8)
    buf[:, 0] = ord("(")
    buf[:, width - 1] = ord(")")
    start = 1
    for i, (size, w) in enumerate(zip(sizes, widths)):
        if size <= TABLE_SIZE:
            rows = _cached_number_table(size, w).view(f"V{w}")[:, 0]     # 1-D gather of w-byte items
            buf[:, start:start + w] = rows[coords[i]].view(np.uint8).reshape(-1, w)
        else:
            # a long dimension: format this batch directly (a table would cost O(size) per batch)
            field = buf[:, start:start + w]
            field[...] = SPACE
            put_number(field, w, coords[i])
        start += w
        if i + 1 < len(widths):
            buf[:, start] = ord(sep)
            start += 1
    return buf


def join_cells(cells: np.ndarray, sep: bytes) -> np.ndarray:
    """cells (..., k, w) -> (..., k*w + (k-1)*len(sep)): the k cells of each row joined by sep."""
    *lead, k, w = cells.shape
    if not sep:
        return cells.reshape(*lead, k * w)
    s = np.frombuffer(sep, dtype=np.uint8)
    out = np.empty((*lead, k, w + len(s)), dtype=np.uint8)
    out[..., :w] = cells
    out[..., w:] = s
    return out.reshape(*lead, k * (w + len(s)))[..., : k * (w + len(s)) - len(s)]


@functools.lru_cache(maxsize=8)
def _padded_table(k: int) -> np.ndarray:
    """Row v = v in decimal, zero-padded to k digits, for v in 0..10^k-1."""
    v = np.arange(10 ** k, dtype=np.int64)
    table = np.empty((10 ** k, k), dtype=np.uint8)
    for d in range(k):
        table[:, k - 1 - d] = 48 + (v // 10 ** d) % 10
    table.flags.writeable = False
    return table


def fixed_digits(out: np.ndarray, values: np.ndarray) -> None:
    """Write values, which all have exactly out.shape[1] digits, into the columns of out (gathered 4 digits at a
    time from a table: one row gather per 4 digits instead of a divide per digit)."""
    width = out.shape[1]
    v = np.asarray(values, dtype=np.int64)
    end = width
    while end > 0:
        k = min(4, end)
        chunk = v % (10 ** k) if end > k else v
        rows = _padded_table(k).view(f"V{k}")[:, 0]          # one k-byte item per row: a 1-D gather
        out[:, end - k:end] = rows[chunk].view(np.uint8).reshape(-1, k)
        v = v // (10 ** k)
        end -= k


def right_aligned(values: np.ndarray, width: int) -> np.ndarray:
    """values in decimal right-aligned in `width` columns (spaces on the left), one row each: gathered from a
    cached table below TABLE_SIZE, else written zero-padded 4 digits at a time and the leading zeros blanked
    (a column of digits per pass instead of a masked write per digit, as `put_number` does).

    >>> right_aligned(np.array([7, 120000, 0]), 6).view("S6").ravel().tolist()
    [b'     7', b'120000', b'     0']
    """
    values = np.asarray(values, dtype=np.int64)
    if len(values) and int(values.max()) < TABLE_SIZE:
        rows = _cached_number_table(int(values.max()) + 1, width).view(f"V{width}")[:, 0]
        return rows[values].view(np.uint8).reshape(-1, width)
    out = np.empty((len(values), width), dtype=np.uint8)
    fixed_digits(out, values)
    leading = np.arange(width)[None, :] < (width - num_digits(values))[:, None]
    out[leading] = SPACE
    return out


class Ragged:
    """Lines of different lengths, one item each, built in one byte matrix and written out without a Python string
    per item.

    Fields are added left to right, each in its own run of columns as wide as its widest value: a constant
    text (on all items or those `where` selects), one of a few texts per item (`choice`), a decimal number, or a
    row of a fixed-width cell matrix. What a field leaves unused stays NUL (numbers are right-aligned in NULs),
    and `bytes()` drops every NUL, so each item keeps exactly its own text; the texts themselves hold no NUL.
    Example: 3 items, text b"x", number [5, 10, 7] where [T, T, F], text b";" -> b"x5;x10;x;"."""

    def __init__(self, count: int):
        self.count = count
        self.fields: list = []

    def _rows(self, where):
        if where is None:
            return None
        where = np.asarray(where)
        return np.flatnonzero(where) if where.dtype == bool else where.astype(np.int64)

    def text(self, data: bytes, where=None) -> None:
        if data:
            self.fields.append((True, self._rows(where), np.frombuffer(data, dtype=np.uint8)[None, :]))

    def choice(self, texts, index) -> None:
        """texts[index[i]] for item i, nothing where index[i] < 0."""
        index = np.asarray(index, dtype=np.int64)
        width = max(map(len, texts), default=0)
        if not width or not len(index):
            return
        table = np.zeros((len(texts) + 1, width), dtype=np.uint8)    # the last row: nothing (index -1)
        for k, t in enumerate(texts):
            table[k, :len(t)] = np.frombuffer(t, dtype=np.uint8)
        index = np.where(index < 0, len(texts), index)
        major = int(np.bincount(index).argmax())
        rows = np.flatnonzero(index != major)           # the most common text goes to all items in one pass
        self.fields.append((True, None, table[major][None, :]))
        self.fields.append((False, rows, table[index[rows]]))

    def number(self, values, where=None) -> None:
        values = np.asarray(values, dtype=np.int64)
        nd = num_digits(values)
        width = int(nd.max()) if len(values) else 1
        out = np.empty((len(values), width), dtype=np.uint8)
        fixed_digits(out, values)
        np.multiply(out, np.arange(width) >= (width - nd)[:, None], out=out)   # leading zeros -> NUL
        self.fields.append((True, self._rows(where), out))

    def cells(self, matrix: np.ndarray, where=None) -> None:
        self.fields.append((True, self._rows(where), matrix))

    def bytes(self) -> bytes:
        width = sum(data.shape[1] for new, _, data in self.fields if new)
        buf = np.zeros((self.count, width), dtype=np.uint8)
        at = 0
        for new, rows, data in self.fields:
            w = data.shape[1]
            if not new:                                   # overwrites the previous field's columns
                buf[rows, at - w:at] = data
                continue
            if rows is None:
                buf[:, at:at + w] = data
            else:
                buf[rows, at:at + w] = data
            at += w
        flat = buf.reshape(-1)
        return flat[flat != 0].tobytes()
