"""The tensor and hardware views as JSON, streamed in bounded batches like the text views.

One object per layout: {"layout", "shape", "view", "kind", then the grid}. The grid nests like the tensor:
- distributed tensor view: "elements"[i][j]... = every holder of that element, each [block, warp, lane, register];
- shared tensor view: "elements"[i][j]... = every place holding that element, each [block, offset];
- distributed hardware view: "hardware"[block][warp][register][lane] = the element's coordinates;
- shared hardware view: "hardware"[block][offset] = the element's coordinates.
Numbers are right-aligned with spaces (JSON allows whitespace), so every cell of a batch is built as one fixed-width
numpy byte row, as in the text views.
"""
from __future__ import annotations

import json

import numpy as np

from ..engine.bits import log2
from ..engine.gf2 import null_space, reduced_echelon, span_array
from . import distributed
from .apply import images, split_coords
from .chars import coord_cells, digits, join_cells, right_aligned
from .distributed import _emit_rows
from .small import hardware_dims, out_sizes, shared_dims

DISTRIBUTED_HOLDER = ("block", "warp", "lane", "register")
SHARED_HOLDER = ("block", "offset")


def _in_sizes(layout) -> dict:
    return {d: layout.get_in_dim_size(d) for d in layout.in_dims}


def _header(header: dict, key: str) -> bytes:
    return (json.dumps(header)[:-1] + f', "{key}":\n').encode()


def _tuples(values: list[np.ndarray], maxima: list[int]) -> np.ndarray:
    """'[a,b,c]' for each column, component i right-aligned to the digits of maxima[i]."""
    widths = [digits(m) for m in maxima]
    width = 2 + sum(widths) + len(widths) - 1
    buf = np.empty((len(values[0]), width), dtype=np.uint8)
    buf[:, 0], buf[:, width - 1] = ord("["), ord("]")
    end = 1
    for i, (v, w) in enumerate(zip(values, widths)):
        buf[:, end:end + w] = right_aligned(v, w)
        end += w
        if i + 1 < len(widths):
            buf[:, end] = ord(",")
            end += 1
    return buf


def _solver(columns: list[int]):
    """Batch solve of A x = e over GF(2): (x, e is in the image) for an array of flattened elements."""
    rows: list[tuple[int, int]] = []                  # (vector with a unique leading bit, input combination)
    for i, c in enumerate(columns):
        tag = 1 << i
        for v, t in rows:
            if c >> (v.bit_length() - 1) & 1:
                c, tag = c ^ v, tag ^ t
        if c:
            rows.append((c, tag))
    rows.sort(key=lambda r: -r[0].bit_length())

    def solve(elems: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        e, x = elems.copy(), np.zeros_like(elems)
        for v, t in rows:
            hit = (e >> (v.bit_length() - 1)) & 1
            e ^= hit * v
            x ^= hit * t
        return x, np.equal(e, 0)
    return solve


def _holder_cells(x: np.ndarray, ok: np.ndarray, coset: np.ndarray, split) -> np.ndarray:
    """One cell per element: '[holder,holder,...]' (unreached elements: '[' spaces ']')."""
    hw = np.sort(x[:, None] ^ coset[None, :], axis=1)
    holders = split(hw.reshape(-1))
    cells = join_cells(holders.reshape(len(x), len(coset), -1), b",")
    out = np.empty((len(x), cells.shape[1] + 2), dtype=np.uint8)
    out[:, 0], out[:, -1] = ord("["), ord("]")
    out[:, 1:-1] = np.where(ok[:, None], cells, ord(" "))
    return out


def tensor_json(layout, header: dict, write, holder=None) -> None:
    """'elements': the holders of every element, nested like the tensor. `holder`: (layout, names, split) for
    other input spaces (the memory views): the layout whose flat inputs are the holders, the holder's field names
    and split(flat inputs) -> their '[a,b,...]' cells."""
    shared = layout.has_in_dim("offset")
    if holder is not None:
        layout, names, split = holder
    elif shared:
        layout = layout.transpose_ins([d for d in ("offset", "block") if layout.has_in_dim(d)])
        sizes_in = [layout.get_in_dim_size(d) if layout.has_in_dim(d) else 1 for d in ("offset", "block")]
        names = SHARED_HOLDER

        def split(hw):
            return _tuples([hw // sizes_in[0], hw % sizes_in[0]], [sizes_in[1] - 1, sizes_in[0] - 1])
    else:
        layout, R, T, W, B = hardware_dims(layout)
        names = DISTRIBUTED_HOLDER

        def split(hw):
            return _tuples([hw // (R * T * W), (hw // (R * T)) % W, (hw // R) % T, hw % R], [B - 1, W - 1, T - 1, R - 1])
    sizes = out_sizes(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    columns = [int(b) for b in row_major.flat_bases()]
    kernel = null_space(columns)
    solve = _solver(columns)
    write(_header(dict(header, holder=list(names), sizes=_in_sizes(layout)), "elements"))
    n = int(np.prod(sizes))
    if (1 << len(kernel)) > distributed.CHUNK:
        _huge_cosets(sizes, solve, kernel, split, write)
    else:
        coset = np.sort(span_array(kernel))
        def cells(elems: np.ndarray) -> np.ndarray:
            x, ok = solve(elems)
            return _holder_cells(x, ok, coset, split)
        _emit_rows(sizes, len(sizes), n // sizes[-1], sizes[-1], len(coset), cells, b",", write, comma=True)
    write(b"}\n")


def _huge_cosets(sizes, solve, kernel, split, write) -> None:
    """Cells with more than CHUNK holders each (a heavily broadcast layout), written one bounded chunk at a time in
    ascending order (the reduced echelon trick of the text view)."""
    from .small import row_brackets
    basis = reduced_echelon(kernel)
    low_bits = log2(distributed.CHUNK)
    low = span_array(basis[:low_bits])
    high = [int(h) for h in span_array(basis[low_bits:])]
    brackets, row_len = row_brackets(sizes), sizes[-1]
    nrows = int(np.prod(sizes)) // row_len
    for q in range(nrows):
        write(b"[" * brackets(q))
        for c in range(row_len):
            x, ok = solve(np.array([q * row_len + c], dtype=np.int64))
            x0 = int(x[0])
            for b in basis:
                if x0 & (1 << (b.bit_length() - 1)):
                    x0 ^= b
            write(b"," if c else b"")
            write(b"[")
            if ok[0]:
                for i, h in enumerate(high):
                    write((b"," if i else b"") + join_cells(split(low ^ (x0 ^ h))[None], b",")[0].tobytes())
            write(b"]")
        write(b"]" * brackets(q + 1) + (b",\n" if q + 1 < nrows else b"\n"))


def hardware_json(layout, header: dict, write) -> None:
    """'hardware': the element at every hardware index, nested [block][warp][register][lane] (shared layouts:
    [block][offset])."""
    write(_header(dict(header, sizes=_in_sizes(layout)), "hardware"))
    if layout.has_in_dim("offset"):
        layout, sizes, offsets, blocks, _, _ = shared_dims(layout)
        fb = layout.flat_bases()
        write(b"[")
        for b in range(blocks):
            write(b"[" if b == 0 else b",\n[")
            for o0 in range(0, offsets, distributed.CHUNK):
                hw = b * offsets + np.arange(o0, min(offsets, o0 + distributed.CHUNK), dtype=np.int64)
                write((b"," if o0 else b"") + join_cells(_coords(fb, hw, sizes)[None], b",")[0].tobytes())
            write(b"]")
        write(b"]}\n")
        return
    layout, R, T, W, B = hardware_dims(layout)
    fb, sizes = layout.flat_bases(), out_sizes(layout)
    lanes = (np.arange(T, dtype=np.int64) * R)[None, :]
    regs_per_batch = max(1, distributed.CHUNK // T)
    write(b"[")
    for b in range(B):
        write(b"[" if b == 0 else b",\n[")
        for w in range(W):
            write(b"[" if w == 0 else b",\n[")
            base = (b * W + w) * T * R
            for k0 in range(0, R, regs_per_batch):
                k1 = min(R, k0 + regs_per_batch)
                hw = base + np.arange(k0, k1, dtype=np.int64)[:, None] + lanes
                rows = join_cells(_coords(fb, hw.reshape(-1), sizes).reshape(k1 - k0, T, -1), b",")
                write((b",\n" if k0 else b"") + b",\n".join(b"[" + r.tobytes() + b"]" for r in rows))
            write(b"]")
        write(b"]")
    write(b"]}\n")


def _coords(fb, hw: np.ndarray, sizes) -> np.ndarray:
    """'[i,j]' for the element at each flattened hardware index."""
    cells = coord_cells(split_coords(images(fb, hw), sizes), sizes, ",")
    cells[:, 0], cells[:, -1] = ord("["), ord("]")
    return cells


def render_json(layout, use_hw_view: bool, header: dict, write) -> None:
    (hardware_json if use_hw_view else tensor_json)(layout, header, write)
