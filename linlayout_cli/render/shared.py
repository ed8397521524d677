"""Tensor view and hardware view of a shared layout (offset/block -> tensor), byte-identical to Triton."""
from __future__ import annotations

import numpy as np

from . import distributed
from .apply import images, split_coords
from .chars import coord_cells, fixed_digits
from .distributed import _emit_rows
from .small import shared_dims


def _hw_index(elems, offsets, block_size):
    """Tensor-view position (memory order, block-major) -> flat (offset, block) input; only the first
    block_size offsets of each block are ever shown."""
    return (elems % block_size) + offsets * (elems // block_size)


def tensor_view(layout, write) -> None:
    layout, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    fb = layout.flat_bases()

    def cell_text(elems):
        if block_size == 0:
            # more blocks than elements: Triton's blockSize = N / B is 0 and no cell is ever written
            return np.empty((len(elems), 0), dtype=np.uint8)
        return coord_cells(split_coords(images(fb, _hw_index(elems, offsets, block_size)), sizes), sizes, ":")

    _emit_rows(sizes, len(sizes), n // sizes[-1], sizes[-1], 1, cell_text, b",", write)


def hardware_view(layout, write) -> None:
    layout, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    fb = layout.flat_bases()
    # offsets grouped by their number of digits, so that every line of a group has the same width
    groups = []
    lo = 0
    while lo < block_size:
        hi = min(block_size, 10 ** len(str(lo)))
        groups.append((lo, hi))
        lo = hi

    def lines(o, b):
        """'Offset: <o> -> (coords)' lines for offsets o (one digit count) of blocks b: (len(b), len(o)*width)."""
        hw = (o[None, :] + offsets * b[:, None]).reshape(-1)
        cells = coord_cells(split_coords(images(fb, hw), sizes), sizes, ",")
        width = len(str(int(o[0])))
        buf = np.empty((len(b), len(o), 8 + width + 4 + cells.shape[1] + 1), dtype=np.uint8)
        buf[..., :8] = np.frombuffer(b"Offset: ", dtype=np.uint8)
        fixed_digits(buf[0, :, 8:8 + width], o)
        buf[1:, :, 8:8 + width] = buf[0, :, 8:8 + width]
        buf[..., 8 + width:12 + width] = np.frombuffer(b" -> ", dtype=np.uint8)
        buf[..., 12 + width:-1] = cells.reshape(len(b), len(o), -1)
        buf[..., -1] = ord("\n")
        return buf.tobytes()

    if block_size > distributed.CHUNK:
        for b in range(blocks):
            write(f"Block: {b}:\n".encode())
            for lo, hi in groups:
                for o0 in range(lo, hi, distributed.CHUNK):
                    write(lines(np.arange(o0, min(hi, o0 + distributed.CHUNK), dtype=np.int64), np.array([b], dtype=np.int64)))
        return
    if block_size == 0:
        # more blocks than elements: Triton's blockSize = N / B is 0, so each block prints no offset
        write(b"".join(f"Block: {b}:\n".encode() for b in range(blocks)))
        return
    # small blocks: many blocks per numpy batch
    blocks_per_batch = max(1, distributed.CHUNK // block_size)
    for b0 in range(0, blocks, blocks_per_batch):
        b1 = min(blocks, b0 + blocks_per_batch)
        bs = np.arange(b0, b1, dtype=np.int64)
        texts = []
        for lo, hi in groups:
            text = lines(np.arange(lo, hi, dtype=np.int64), bs)
            texts.append((memoryview(text), len(text) // (b1 - b0)))
        write(b"".join(part for i, b in enumerate(range(b0, b1))
                       for part in ([f"Block: {b}:\n".encode()] + [v[i * n:(i + 1) * n] for v, n in texts])))
