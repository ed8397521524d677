"""Tensor view and hardware view of a distributed layout (register/lane/warp/block -> tensor), byte-identical to
Triton's getLayoutStr, streamed in bounded chunks."""
from __future__ import annotations

import numpy as np

from .apply import images, span_table, split_coords
from .chars import (blank, coord_cells, digits, join_cells, num_digits, number_table, put_char,
                    put_number)
from .preimage import solve

HW_DIMS = ("register", "lane", "warp", "block")
CHUNK = 1 << 16          # entries formatted per numpy batch


def hw_sizes(layout):
    return [layout.get_in_dim_size(d) if layout.has_in_dim(d) else 1 for d in HW_DIMS]


def hw_ordered(layout):
    return layout.transpose_ins([d for d in HW_DIMS if layout.has_in_dim(d)])


def out_sizes(layout):
    return [layout.get_out_dim_size(d) for d in layout.out_dims]


class EntryText:
    """'  B<b>:T<t + w*T>:<k>' for flat hardware indices, right-aligned to one width (Triton's padding rule).

    The text right of 'T<tid>' is ':<k>', whose length only depends on the digit count of k, so entries are
    grouped by that count and both halves are gathered from tables formatted once per layout."""

    def __init__(self, R: int, T: int, W: int, B: int):
        self.reg_bits = R.bit_length() - 1
        self.R = R
        self.width = digits(W * T) + digits(R) + 2 + (digits(B) + 2 if B > 1 else 0)
        self.threads = thread_table(T * W, B, self.width - 2)     # right-aligned 'B<b>:T<tid>'
        self.regs = number_table(R, digits(R))

    def __call__(self, hw: np.ndarray) -> np.ndarray:
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
    layout = hw_ordered(layout)
    R, T, W, B = hw_sizes(layout)
    sizes = out_sizes(layout)
    rank = len(sizes)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    fb = row_major.flat_bases()
    n = int(np.prod(sizes))
    pre, kernel = solve(fb, n.bit_length() - 1)
    coset = np.sort(span_table(np.array(kernel, dtype=np.int64)))
    if any(p is None for p in pre):
        return _tensor_view_partial(layout, fb, pre, coset, write)
    pre_fb = np.array(pre, dtype=np.int64)
    entry_text = EntryText(R, T, W, B)
    row_len = sizes[-1]
    nrows = n // row_len

    def cell_text(elems):
        hw = images(pre_fb, elems)[:, None] ^ coset[None, :]
        hw.sort(axis=1)
        entries = entry_text(hw.reshape(-1)).reshape(len(elems), len(coset), -1)
        return join_cells(entries, b"|")

    _emit_rows(sizes, rank, nrows, row_len, len(coset), cell_text, b", ", write)


def _emit_rows(sizes, rank, nrows, row_len, per_cell, cell_text, sep, write):
    """Write every last-dim row as '[..[  cells  ]..]\\n' with Triton's bracket rule, in bounded batches."""
    strides = np.cumprod([1] + list(reversed(sizes[:-1])))[1:]   # rows per block of each leading dim

    def brackets(q):
        # 1 + number of trailing zero indices among the leading dims of row q (rank when q wraps to 0)
        q = q % nrows
        return 1 + sum(1 for s in strides if q % s == 0)

    cells_per_batch = max(1, CHUNK // per_cell)
    if row_len <= cells_per_batch:
        rows_per_batch = max(1, cells_per_batch // row_len)
        for q0 in range(0, nrows, rows_per_batch):
            q1 = min(nrows, q0 + rows_per_batch)
            elems = np.arange(q0 * row_len, q1 * row_len, dtype=np.int64)
            body = join_cells(cell_text(elems).reshape(q1 - q0, row_len, -1), sep)
            parts = []
            for i, q in enumerate(range(q0, q1)):
                o = brackets(q)
                parts.append(b"[" * o + b" " * (rank - o))
                parts.append(body[i].tobytes())
                parts.append(b"]" * brackets(q + 1) + b"\n")
            write(b"".join(parts))
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
        write(b"]" * brackets(q + 1) + b"\n")


def _tensor_view_partial(layout, fb, pre, coset, write):
    """Layouts that do not reach every element (never produced by Triton's conversions): cells may be empty."""
    R, T, W, B = hw_sizes(layout)
    sizes = out_sizes(layout)
    pre_fb = np.array([p or 0 for p in pre], dtype=np.int64)
    entry_text = EntryText(R, T, W, B)
    n = int(np.prod(sizes))
    row_len = sizes[-1]

    def cell_text(elems):
        x0 = images(pre_fb, elems)
        hit = images(fb, x0) == elems
        hw = np.sort(x0[:, None] ^ coset[None, :], axis=1)
        entries = entry_text(hw.reshape(-1)).reshape(len(elems), len(coset), -1)
        return [b"|".join(e.tobytes() for e in cell) if ok else b"" for cell, ok in zip(entries, hit)]

    strides = np.cumprod([1] + list(reversed(sizes[:-1])))[1:]
    nrows = n // row_len
    rank = len(sizes)
    for q in range(nrows):
        o = 1 + sum(1 for s in strides if q % s == 0)
        c = 1 + sum(1 for s in strides if (q + 1) % nrows % s == 0)
        cells = cell_text(np.arange(q * row_len, (q + 1) * row_len, dtype=np.int64))
        write(b"[" * o + b" " * (rank - o) + b", ".join(cells) + b"]" * c + b"\n")


def hardware_view(layout, write) -> None:
    layout = hw_ordered(layout)
    R, T, W, B = hw_sizes(layout)
    sizes = out_sizes(layout)
    fb = layout.flat_bases()
    regs_per_batch = max(1, CHUNK // T)
    grid = (np.arange(T, dtype=np.int64) * R)[None, :]
    for b in range(B):
        if B > 1:
            write(f"Block{b}:\n".encode())
        for w in range(W):
            write(f"Warp{w}:\n".encode())
            base = (b * W + w) * T * R
            for k0 in range(0, R, regs_per_batch):
                k1 = min(R, k0 + regs_per_batch)
                hw = (base + np.arange(k0, k1, dtype=np.int64)[:, None] + grid).reshape(-1)
                cells = coord_cells(split_coords(images(fb, hw), sizes), sizes, ",")
                lines = join_cells(cells.reshape(k1 - k0, T, -1), b", ")
                write(_with_newlines(lines))


def _with_newlines(lines: np.ndarray) -> bytes:
    out = np.empty((lines.shape[0], lines.shape[1] + 1), dtype=np.uint8)
    out[:, :-1] = lines
    out[:, -1] = ord("\n")
    return out.tobytes()
