"""The padded / partitioned shared memory and tensor memory views as JSON (--json, --format json), streamed in
bounded batches like `json_view`, whose grid shapes they follow.

- shared memory tensor view: "elements"[i][j]... = every place holding that element, each [block, partition,
  offset, position] (position: the offset plus the padding before it, what the hardware view prints);
- shared memory hardware view: "hardware"[block][partition][position] = the element's coordinates, null for a
  padding slot;
- tensor memory tensor view: "elements"[i][j] = every place holding that element, each [block, row, column,
  slot] (column: the 32-bit column, slot: the element's place in it), unused slots left out as in the text view;
- tensor memory hardware view: "hardware"[block][row][col] = the element in each element slot (`col` counts
  slots, "per_column" of them per 32-bit column), null where the slot is unused.
"""
from __future__ import annotations

import numpy as np

from . import distributed
from .apply import images
from .json_view import _coords, _header, _tuples, tensor_json
from .memory import _padded, _spread

SHARED_PLACE = ("block", "partition", "offset", "position")
TMEM_PLACE = ("block", "row", "column", "slot")


def _null_cells(count: int, width: int) -> np.ndarray:
    cells = np.full((count, width), ord(" "), dtype=np.uint8)
    cells[:, -4:] = np.frombuffer(b"null", dtype=np.uint8)
    return cells


def _in_size(layout, dim: str) -> int:
    return layout.get_in_dim_size(dim) if layout.has_in_dim(dim) else 1


def shared_memory_json(layout, padding, use_hw_view: bool, header: dict, write) -> None:
    """A padded or partitioned shared layout's view (`padding` None when unpadded)."""
    dims = [d for d in ("offset", "block", "partition") if layout.has_in_dim(d)]
    layout = layout.transpose_ins(dims)
    offsets, blocks, parts = (_in_size(layout, d) for d in ("offset", "block", "partition"))
    last = int(_padded(padding, np.array([offsets - 1]))[0])
    header = dict(header, padding=[[i, q] for i, q in zip(padding.intervals, padding.paddings)] if padding else [],
                  positions=last + 1)
    if not use_hw_view:
        def split(hw):
            o = hw % offsets
            return _tuples([(hw // offsets) % blocks, hw // (offsets * blocks), o, _padded(padding, o)],
                           [blocks - 1, parts - 1, offsets - 1, last])
        return tensor_json(layout, header, write, (layout, SHARED_PLACE, split))
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    fb = layout.flat_bases()
    write(_header(dict(header, sizes={d: layout.get_in_dim_size(d) for d in layout.in_dims}), "hardware"))
    write(b"[")
    for b in range(blocks):
        write(b"[" if b == 0 else b",\n[")
        for p in range(parts):
            write(b"[" if p == 0 else b",\n[")
            for o0 in range(0, offsets, distributed.CHUNK):
                o = np.arange(o0, min(offsets, o0 + distributed.CHUNK), dtype=np.int64)
                cells = _coords(fb, o + offsets * (b + blocks * p), sizes)
                pos = _padded(padding, o)
                start = int(pos[0]) if o0 == 0 else int(_padded(padding, np.array([o0 - 1]))[0]) + 1
                out = _null_cells(int(pos[-1]) - start + 1, cells.shape[1])
                out[pos - start] = cells
                write((b"," if o0 else b"") + _joined(out))
            write(b"]")
        write(b"]")
    write(b"]}\n")


def _joined(cells: np.ndarray) -> bytes:
    from .chars import join_cells
    return join_cells(cells[None], b",")[0].tobytes()


def tensor_memory_json(layout, bits: int, use_hw_view: bool, header: dict, write) -> None:
    """A tensor memory layout's view (`bits` per element)."""
    from ..analysis.info import tmem_unused
    from ..engine import LinearLayout
    layout = layout.transpose_ins([d for d in ("row", "col", "block") if layout.has_in_dim(d)])
    rows, cols, blocks = (_in_size(layout, d) for d in ("row", "col", "block"))
    per_column = max(1, 32 // bits)
    row_unused, col_unused = tmem_unused(layout)
    header = dict(header, per_column=per_column)
    if not use_hw_view:
        used_rows = [k for k in range(rows.bit_length() - 1) if not row_unused >> k & 1]
        used_cols = [k for k in range(cols.bit_length() - 1) if not col_unused >> k & 1]
        bases = {"col": [layout.get_in_dim_bases("col")[k] for k in used_cols],
                 "row": [layout.get_in_dim_bases("row")[k] for k in used_rows],
                 "block": list(layout.get_in_dim_bases("block")) if layout.has_in_dim("block") else []}
        used = LinearLayout(bases, layout.get_out_dims(), require_surjective=False)
        col_values, row_values = _spread(used_cols, np), _spread(used_rows, np)
        nc, nr = len(used_cols), len(used_rows)

        def split(hw):
            c = col_values[hw & ((1 << nc) - 1)]
            return _tuples([hw >> (nc + nr), row_values[(hw >> nc) & ((1 << nr) - 1)], c // per_column,
                            c % per_column], [blocks - 1, rows - 1, (cols - 1) // per_column, per_column - 1])
        return tensor_json(layout, header, write, (used, TMEM_PLACE, split))
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    fb = layout.flat_bases()
    row_bits = rows.bit_length() - 1
    row_images = images(fb[:row_bits], np.arange(rows, dtype=np.int64))
    write(_header(dict(header, sizes={d: layout.get_in_dim_size(d) for d in layout.in_dims}), "hardware"))
    write(b"[")
    for b in range(blocks):
        write(b"[" if b == 0 else b",\n[")
        for r in range(rows):
            write(b"[" if r == 0 else b",\n[")
            for c0 in range(0, cols, distributed.CHUNK):
                c = np.arange(c0, min(cols, c0 + distributed.CHUNK), dtype=np.int64)
                found = images(fb[row_bits:], c + cols * b) ^ row_images[r]
                cells = _cells_of(found, sizes)
                unused = (c & col_unused != 0) | (r & row_unused != 0)
                cells[unused] = _null_cells(1, cells.shape[1])[0]
                write((b"," if c0 else b"") + _joined(cells))
            write(b"]")
        write(b"]")
    write(b"]}\n")


def _cells_of(flat: np.ndarray, sizes) -> np.ndarray:
    """'[i,j]' cells of flat tensor indices (first dim lowest bits)."""
    from .apply import split_coords
    from .chars import coord_cells
    cells = coord_cells(split_coords(flat, sizes), sizes, ",")
    cells[:, 0], cells[:, -1] = ord("["), ord("]")
    return cells
