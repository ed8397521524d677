"""Tensor view and hardware view of a distributed layout (register/lane/warp/block -> tensor), byte-identical to
Triton's getLayoutStr, streamed in bounded chunks."""
from __future__ import annotations

import numpy as np

from ..engine import gf2
from ..engine.bits import log2
from ..engine.gf2 import null_space, reduced_echelon, span_array
from ..engine.gf2 import solve as gf2_solve
from .apply import images, split_coords
from .chars import blank, coord_cells, digits, join_cells, num_digits, number_table, put_char, put_number
from .small import hardware_dims, out_sizes, row_brackets

CHUNK = 1 << 16          # entries formatted per numpy batch
TABLE_LIMIT = 1 << 20    # largest thread / register count formatted as a look-up table


class EntryText:
    """'  B<b>:T<t + w*T>:<k>' for flat hardware indices, right-aligned to one width (Triton's padding rule).

    The text right of 'T<tid>' is ':<k>', whose length only depends on the digit count of k, so entries are
    grouped by that count and both halves are gathered from tables formatted once per layout."""

    def __init__(self, R: int, T: int, W: int, B: int):
        self.reg_bits = log2(R)
        self.R = R
        self.width = digits(W * T) + digits(R) + 2 + (digits(B) + 2 if B > 1 else 0)
        self.T, self.W, self.B = T, W, B
        # tables formatted once per layout; with very many threads (a table as large as the output) each
        # batch is formatted directly instead
        self.threads = thread_table(T * W, B, self.width - 2) if T * W * B <= TABLE_LIMIT else None
        self.regs = number_table(R, digits(R)) if R <= TABLE_LIMIT else None

    def __call__(self, hw: np.ndarray) -> np.ndarray:
        if self.threads is None or self.regs is None:
            return self._direct(hw)
        width, dr = self.width, self.regs.shape[1]
        buf = np.empty((len(hw), width), dtype=np.uint8)
        regs = hw & (self.R - 1)
        who = hw >> self.reg_bits
        nd = num_digits(regs)
        groups = np.unique(nd)
        for g in map(int, groups):
            rows = slice(None) if len(groups) == 1 else (nd == g)
            buf[rows, : width - g - 1] = self.threads[who[rows], g - 1:]
            buf[rows, width - g - 1] = ord(":")
            buf[rows, width - g:] = self.regs[regs[rows], dr - g:]
        return buf


    def _direct(self, hw: np.ndarray) -> np.ndarray:
        buf = blank(len(hw), self.width)
        who = hw >> self.reg_bits
        start = put_number(buf, self.width, hw & (self.R - 1))
        put_char(buf, start - 1, ":")
        start = put_number(buf, start - 1, who % (self.T * self.W))
        put_char(buf, start - 1, "T")
        if self.B > 1:
            put_char(buf, start - 2, ":")
            start = put_number(buf, start - 2, who // (self.T * self.W))
            put_char(buf, start - 1, "B")
        return buf


def thread_table(threads: int, blocks: int, width: int) -> np.ndarray:
    """Row b*threads + tid = 'B<b>:T<tid>' (or 'T<tid>' for one block), right-aligned in `width` columns."""
    table = blank(threads * blocks, width)
    ids = np.arange(threads * blocks, dtype=np.int64)
    start = put_number(table, width, ids % threads)
    put_char(table, start - 1, "T")
    if blocks > 1:
        put_char(table, start - 2, ":")
        start = put_number(table, start - 2, ids // threads)
        put_char(table, start - 1, "B")
    return table


def tensor_view(layout, write) -> None:
    layout, R, T, W, B = hardware_dims(layout)
    holders_view(layout, EntryText(R, T, W, B), write)


def holders_view(layout, entry_text, write) -> None:
    """Each element's holders, in the order of their flat hardware index (the layout's in dims, first lowest),
    formatted by `entry_text` (flat indices -> a fixed-width byte matrix), joined by '|' in Triton's tensor view
    framing; an element no one holds is an empty cell. Streamed in bounded chunks whatever the layout."""
    sizes = out_sizes(layout)
    rank = len(sizes)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    fb = row_major.flat_bases()
    n = int(np.prod(sizes))
    columns = [int(b) for b in fb]
    pre = gf2_solve(columns, [1 << j for j in range(log2(n))])
    kernel = null_space(columns)
    row_len = sizes[-1]
    nrows = n // row_len
    if (1 << len(kernel)) > CHUNK and all(p is not None for p in pre):
        # very replicated layout (e.g. one element held by millions of threads): stream each cell in
        # sorted chunks instead of materialising and sorting the whole coset
        return _tensor_view_streamed(sizes, rank, nrows, row_len, pre, kernel, entry_text, write)
    coset = np.sort(span_array(kernel))
    if any(p is None for p in pre):
        return _tensor_view_partial(sizes, fb, pre, coset, entry_text, write)
    pre_fb = np.array(pre, dtype=np.int64)

    def cell_text(elems):
        hw = images(pre_fb, elems)[:, None] ^ coset[None, :]
        hw.sort(axis=1)
        entries = entry_text(hw.reshape(-1)).reshape(len(elems), len(coset), -1)
        return join_cells(entries, b"|")

    _emit_rows(sizes, rank, nrows, row_len, len(coset), cell_text, b", ", write)


def _tensor_view_streamed(sizes, rank, nrows, row_len, pre, kernel, entry_text, write):
    """Tensor view for layouts whose cells hold more than CHUNK entries, one bounded chunk at a time.

    With a reduced echelon kernel basis k_0 < k_1 < ... and x0 reduced by it (zero at every leading bit),
    x0 ^ (XOR of k_j over the set bits j of c) increases with c, so the coset comes out sorted by walking
    c = 0, 1, 2, ...: low bits from a CHUNK-entry table, high bits one at a time."""
    basis = reduced_echelon(kernel)
    low_bits = log2(CHUNK)
    low = span_array(basis[:low_bits])
    high = [int(x) for x in span_array(basis[low_bits:])]
    brackets = row_brackets(sizes)

    def write_cell(elem):
        x0 = gf2.apply(pre, elem)
        for b in basis:                       # clear every leading bit of the basis
            if x0 & (1 << (b.bit_length() - 1)):
                x0 ^= b
        for i, h in enumerate(high):
            text = join_cells(entry_text(low ^ (x0 ^ h))[None], b"|")[0].tobytes()
            write(b"|" + text if i else text)

    for q in range(nrows):
        o = brackets(q)
        write(b"[" * o + b" " * (rank - o))
        for c in range(row_len):
            if c:
                write(b", ")
            write_cell(q * row_len + c)
        write(b"]" * brackets(q + 1) + b"\n")


def _emit_rows(sizes, rank, nrows, row_len, per_cell, cell_text, sep, write, comma: bool = False):
    """Write every last-dim row as '[..[  cells  ]..]\\n' with Triton's bracket rule, in bounded batches; cell_text(elems)
    gives each cell's text as one row of a (len(elems), width) byte matrix. `comma`: a ',' ends every row but the
    last (the same nesting read as JSON arrays)."""
    strides = np.cumprod([1] + list(reversed(sizes[:-1])))[1:]   # rows per block of each leading dim
    brackets = row_brackets(sizes)
    # a cell's text (a shared layout's coordinates) and a row's frame grow with the rank: fewer cells a batch
    # above rank 4 keep a batch's arrays the same size (rank 24: ~10,000 cells, ~20 MB, not 70)
    cells_per_batch = max(1, CHUNK * 4 // max(4, rank) // per_cell)
    if row_len <= cells_per_batch:
        rows_per_batch = max(1, cells_per_batch // row_len)
        for q0 in range(0, nrows, rows_per_batch):
            q1 = min(nrows, q0 + rows_per_batch)
            elems = np.arange(q0 * row_len, q1 * row_len, dtype=np.int64)
            cells = cell_text(elems)
            body = join_cells(cells.reshape(q1 - q0, row_len, cells.shape[-1]), sep)
            write(_framed_rows(body, np.arange(q0, q1, dtype=np.int64), nrows, strides, rank, comma))
        return
    for q in range(nrows):
        o = brackets(q)
        write(b"[" * o + b" " * (rank - o))
        for c0 in range(0, row_len, cells_per_batch):
            c1 = min(row_len, c0 + cells_per_batch)
            elems = np.arange(q * row_len + c0, q * row_len + c1, dtype=np.int64)
            if c0:
                write(sep)
            write(join_cells(cell_text(elems)[None], sep)[0].tobytes())
        write(b"]" * brackets(q + 1) + (b",\n" if comma and q + 1 < nrows else b"\n"))


def _framed_rows(body: np.ndarray, q: np.ndarray, nrows: int, strides, rank: int, comma: bool = False) -> bytes:
    """Rows q of the tensor view, '[' * o + ' ' * (rank - o) + body + ']' * c + '\\n' each (o, c: Triton's
    bracket rule for row q and row q + 1), built in one numpy pass: every row is laid out in a matrix with
    room for `rank` closing brackets, and the unused columns are dropped when it is flattened."""
    opens = 1 + sum((q % s == 0).astype(np.int64) for s in strides) if len(strides) else np.ones_like(q)
    nxt = (q + 1) % nrows
    closes = 1 + sum((nxt % s == 0).astype(np.int64) for s in strides) if len(strides) else np.ones_like(q)
    n, bw = body.shape
    out = np.empty((n, rank + bw + rank + 1), dtype=np.uint8)
    cols = np.arange(rank)[None, :]
    out[:, :rank] = np.where(cols < opens[:, None], ord("["), ord(" "))
    out[:, rank:rank + bw] = body
    tail = np.arange(rank + 1)[None, :]
    out[:, rank + bw:] = np.where(tail < closes[:, None], ord("]"), ord("\n"))
    if comma:                                    # room for ',' before the newline, kept on every row but the last
        out = np.concatenate([out, np.full((n, 1), ord("\n"), dtype=np.uint8)], axis=1)
        rows = np.arange(n)
        out[rows, rank + bw + closes] = np.where(q + 1 < nrows, ord(","), ord("\n"))
        keep = np.arange(out.shape[1])[None, :] <= (rank + bw + closes + (q + 1 < nrows))[:, None]
        return out[keep].tobytes()
    keep = np.arange(out.shape[1])[None, :] <= (rank + bw + closes)[:, None]
    return out[keep].tobytes()


def _tensor_view_partial(sizes, fb, pre, coset, entry_text, write):
    """Layouts that do not reach every element (e.g. amd_wmma with warp bases [[0, 2], [0, 3]]): empty cells."""
    pre_fb = np.array([p or 0 for p in pre], dtype=np.int64)
    n = int(np.prod(sizes))
    row_len = sizes[-1]

    def cell_text(elems):
        x0 = images(pre_fb, elems)
        hit = images(fb, x0) == elems
        hw = np.sort(x0[:, None] ^ coset[None, :], axis=1)
        entries = entry_text(hw.reshape(-1)).reshape(len(elems), len(coset), -1)
        return [b"|".join(e.tobytes() for e in cell) if ok else b"" for cell, ok in zip(entries, hit)]

    brackets = row_brackets(sizes)
    rank = len(sizes)
    for q in range(n // row_len):
        o = brackets(q)
        cells = cell_text(np.arange(q * row_len, (q + 1) * row_len, dtype=np.int64))
        write(b"[" * o + b" " * (rank - o) + b", ".join(cells) + b"]" * brackets(q + 1) + b"\n")


def hardware_view(layout, write) -> None:
    layout, R, T, W, B = hardware_dims(layout)
    sizes = out_sizes(layout)
    fb = layout.flat_bases()
    grid = (np.arange(T, dtype=np.int64) * R)[None, :]

    def lines_of(hw):
        cells = coord_cells(split_coords(images(fb, hw.reshape(-1)), sizes), sizes, ",")
        return _with_newlines(join_cells(cells.reshape(-1, T, cells.shape[-1]), b", "))

    def header(g):
        b, w = divmod(g, W)
        return (f"Block{b}:\nWarp{w}:\n" if B > 1 and w == 0 else f"Warp{w}:\n").encode()

    if R * T > CHUNK:
        # big warps: one warp at a time, its registers in batches
        regs_per_batch = max(1, CHUNK // T)
        for g in range(B * W):
            write(header(g))
            for k0 in range(0, R, regs_per_batch):
                k1 = min(R, k0 + regs_per_batch)
                write(lines_of(g * T * R + np.arange(k0, k1, dtype=np.int64)[:, None] + grid))
        return
    # small warps: many (block, warp) groups per numpy batch, so a layout with very many warps or
    # blocks costs one numpy pass per CHUNK entries instead of one per warp
    groups_per_batch = max(1, CHUNK // (R * T))
    regs = np.arange(R, dtype=np.int64)[:, None] + grid                  # (R, T) offsets inside a warp
    for g0 in range(0, B * W, groups_per_batch):
        g1 = min(B * W, g0 + groups_per_batch)
        groups = np.arange(g0, g1, dtype=np.int64)[:, None, None] * (T * R)
        text = lines_of(groups + regs[None])
        per_group = len(text) // (g1 - g0)
        view = memoryview(text)
        write(b"".join(part for g in range(g0, g1)
                       for part in (header(g), view[(g - g0) * per_group:(g - g0 + 1) * per_group])))


def _with_newlines(lines: np.ndarray) -> bytes:
    out = np.empty((lines.shape[0], lines.shape[1] + 1), dtype=np.uint8)
    out[:, :-1] = lines
    out[:, -1] = ord("\n")
    return out.tobytes()
