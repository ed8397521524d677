"""Tensor view and hardware view of a shared layout (offset/block -> tensor), byte-identical to Triton."""
from __future__ import annotations

import numpy as np

from .apply import images, split_coords
from .chars import coord_cells, put_number
from .distributed import CHUNK, _emit_rows, _with_newlines


def _setup(layout):
    layout = layout.transpose_ins([d for d in ("offset", "block") if layout.has_in_dim(d)])
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    offsets = layout.get_in_dim_size("offset") if layout.has_in_dim("offset") else 1
    blocks = layout.get_in_dim_size("block") if layout.has_in_dim("block") else 1
    n = int(np.prod(sizes))
    return layout, sizes, offsets, blocks, n // blocks


def _hw_index(elems, offsets, block_size):
    """Tensor-view position (memory order, block-major) -> flat (offset, block) input; only the first
    block_size offsets of each block are ever shown."""
    return (elems % block_size) + offsets * (elems // block_size)


def tensor_view(layout, write) -> None:
    layout, sizes, offsets, blocks, block_size = _setup(layout)
    fb = layout.flat_bases()

    def cell_text(elems):
        return coord_cells(split_coords(images(fb, _hw_index(elems, offsets, block_size)), sizes), sizes, ":")[:, None, :]

    _emit_rows(sizes, len(sizes), int(np.prod(sizes)) // sizes[-1], sizes[-1], 1, cell_text, b",", write)


def hardware_view(layout, write) -> None:
    layout, sizes, offsets, blocks, block_size = _setup(layout)
    fb = layout.flat_bases()
    for b in range(blocks):
        write(f"Block: {b}:\n".encode())
        for o0 in range(0, block_size, CHUNK):
            o1 = min(block_size, o0 + CHUNK)
            # group offsets by their number of digits so every line of a group has the same width
            lo = o0
            while lo < o1:
                hi = min(o1, 10 ** len(str(lo)))
                o = np.arange(lo, hi, dtype=np.int64)
                cells = coord_cells(split_coords(images(fb, o + offsets * b), sizes), sizes, ",")
                width = len(str(lo))
                buf = np.empty((len(o), 8 + width + 4 + cells.shape[1]), dtype=np.uint8)
                buf[:, :8] = np.frombuffer(b"Offset: ", dtype=np.uint8)
                put_number(buf, 8 + width, o)
                buf[:, 8 + width:12 + width] = np.frombuffer(b" -> ", dtype=np.uint8)
                buf[:, 12 + width:] = cells
                write(_with_newlines(buf))
                lo = hi
