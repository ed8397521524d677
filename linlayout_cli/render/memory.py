"""Views of the layouts Triton 3.9's triton-tensor-layout cannot print: padded / partitioned shared memory and
Blackwell tensor memory, in the spirit of Triton's shared views (README, "Layouts Triton 3.9 cannot print").

Shared memory: each block's (and partition's) buffer, offset by offset. Hardware view `Offset: N -> (i,j)` with N
the padded memory position, plus `Offset: A..B -> padding (I:+P, ...)` where intervals insert padding; tensor
view: the buffers laid over the tensor shape, `(i:j)` cells with a `-` cell per padding slot.
Tensor memory: tensor view `R<row>:C<col>` holders per element (`C<col>.<slot>` when elements share a 32-bit
column; `B<b>:` first with several CTAs); hardware view one line per TMEM row, cells per 32-bit column.

Every view streams: the text goes out in chunks of at most CHUNK entries, so memory stays bounded whatever the
tensor (the tensor memory tensor view finds each element's holders by solving the layout, like the distributed
tensor view, instead of collecting all of them first). Up to SMALL_LIMIT entries everything is plain Python
(no numpy import, for the start-up time); the results are the same byte for byte.
"""
from __future__ import annotations

from ..engine.gf2 import span
from .small import _coords, _rows, row_brackets

SHARED_INS = ("offset", "block", "partition")
CHUNK = 1 << 16                 # entries formatted and written at a time


def _small(layout) -> bool:
    from . import SMALL_LIMIT as small_limit  # read at call time: tests switch paths through it
    return 1 << layout.get_total_in_dim_size_log2() <= small_limit


def _images(layout, start: int = 0, stop: int | None = None) -> list[int]:
    """Flat images (first out dim lowest bits) of the flat inputs start..stop-1 (first in dim least significant)."""
    total = 1 << layout.get_total_in_dim_size_log2()
    stop = total if stop is None else min(stop, total)
    if _small(layout):
        return span(layout.flat_columns())[start:stop]
    import numpy as np

    from .apply import images
    return images(layout.flat_bases(), np.arange(start, stop, dtype=np.int64)).tolist()


def _image_of(layout):
    """index -> flat image, for indices visited in any order (a whole table for small layouts, chunks of CHUNK
    consecutive inputs, computed when first needed, for big ones)."""
    if _small(layout):
        table = _images(layout)
        return table.__getitem__
    cache: dict[int, list[int]] = {}

    def image(i: int) -> int:
        k = i // CHUNK
        chunk = cache.get(k)
        if chunk is None:
            cache.clear()
            chunk = cache[k] = _images(layout, k * CHUNK, (k + 1) * CHUNK)
        return chunk[i - k * CHUNK]
    return image


def _sizes(layout, names):
    return [layout.get_in_dim_size(d) if layout.has_in_dim(d) else 1 for d in names]


def _pad_cell(sizes, sep: str) -> str:
    return "(" + sep.join("-".rjust(len(str(s))) for s in sizes) + ")"


class _Lines:
    """Collects text and hands it to `write` every CHUNK pieces (the views build their lines one by one)."""

    def __init__(self, write):
        self.write, self.parts = write, []

    def add(self, text: str) -> None:
        self.parts.append(text)
        if len(self.parts) >= CHUNK:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            self.write("".join(self.parts).encode())
            self.parts = []


# ----------------------------------------------------------------------------------------- shared memory


def _shared(layout):
    layout = layout.transpose_ins([d for d in SHARED_INS if layout.has_in_dim(d)])
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    return layout, sizes, _sizes(layout, SHARED_INS)


def shared_hardware_view(layout, padding, write) -> None:
    layout, sizes, (offsets, blocks, parts) = _shared(layout)
    image = _image_of(layout)
    out = _Lines(write)
    for b in range(blocks):
        out.add(f"Block: {b}:\n")
        for p in range(parts):
            if layout.has_in_dim("partition"):
                out.add(f"Partition: {p}:\n")
            base = (p * blocks + b) * offsets
            for o in range(offsets):
                position = padding.padded_offset(o) if padding else o
                pads = padding.pads_before(o) if padding else []
                if pads:
                    run = sum(p for _, p in pads)
                    where = f"{position - run}..{position - 1}" if run > 1 else f"{position - 1}"
                    out.add(f"Offset: {where} -> padding ({', '.join(f'{i}:+{p}' for i, p in pads)})\n")
                out.add(f"Offset: {position} -> {_coords(image(base + o), sizes, ',')}\n")
    out.flush()


def shared_tensor_view(layout, padding, write) -> None:
    """Memory positions (block, then partition, then offset) over the tensor's shape, row-major, like Triton's
    shared tensor view; the padding that follows a position is written right after its cell."""
    layout, sizes, (offsets, blocks, parts) = _shared(layout)
    image = _image_of(layout)
    n = 1
    for s in sizes:
        n *= s
    per_block = n // blocks
    pad = _pad_cell(sizes, ":")
    row_len = sizes[-1]
    rows_per_chunk = max(1, CHUNK // row_len)
    brackets = row_brackets(sizes)
    fast = None if _small(layout) else _fast_shared_cells(layout, sizes, padding, pad, offsets, blocks, per_block)
    for q0 in range(0, n // row_len, rows_per_chunk):
        q1 = min(n // row_len, q0 + rows_per_chunk)
        if fast is not None:
            _rows(sizes, fast(q0 * row_len, q1 * row_len), ",", write, q0, brackets)
            continue
        cells = []
        for e in range(q0 * row_len, q1 * row_len):
            b, r = divmod(e, per_block) if per_block else (0, 0)
            p, o = divmod(r, offsets)
            cell = _coords(image((p * blocks + b) * offsets + o), sizes, ":")
            if padding and o + 1 < offsets:
                cell += "".join("," + pad for _ in range(sum(q for _, q in padding.pads_before(o + 1))))
            cells.append(cell)
        _rows(sizes, cells, ",", write, q0, brackets)


def _fast_shared_cells(layout, sizes, padding, pad: str, offsets: int, blocks: int, per_block: int):
    """cells(e0, e1): the tensor view's cells of memory positions e0..e1-1 as `shared_tensor_view` writes them,
    computed with numpy (the coordinates of a whole chunk at once; the padding cells that follow a position are
    added only where an interval divides it), so a 4096x4096 padded or partitioned view takes seconds, not
    minutes."""
    import numpy as np

    from .apply import images, split_coords
    from .chars import coord_cells
    fb = layout.flat_bases()
    suffix = "," + pad

    def cells(e0: int, e1: int) -> list[str]:
        e = np.arange(e0, e1, dtype=np.int64)
        b, r = (e // per_block, e % per_block) if per_block else (np.zeros_like(e), np.zeros_like(e))
        p, o = r // offsets, r % offsets
        raw = coord_cells(split_coords(images(fb, (p * blocks + b) * offsets + o), sizes), sizes, ":")
        out = raw.view(f"S{raw.shape[1]}").ravel().astype(f"U{raw.shape[1]}").tolist()
        if padding:
            nxt = o + 1
            count = np.zeros(len(e), dtype=np.int64)
            for i, q in zip(padding.intervals, padding.paddings):
                count += np.where(nxt % i == 0, q, 0)
            count[nxt >= offsets] = 0
            for k in np.flatnonzero(count).tolist():
                out[k] += suffix * int(count[k])
        return out
    return cells


# ----------------------------------------------------------------------------------------- tensor memory

TMEM_INS = ("row", "col", "block")
COPY_ROW_BITS = (5, 6)       # a zero basis there is a copy for another warp; any other zero basis an unused slot


def _unused_mask(layout, dim: str, keep=()) -> int:
    return sum(1 << k for k, v in enumerate(layout.get_in_dim_bases(dim)) if not any(v) and k not in keep)


def _tmem(layout, bits: int):
    layout = layout.transpose_ins(list(TMEM_INS))
    rows, cols, blocks = _sizes(layout, TMEM_INS)
    row_unused = _unused_mask(layout, "row", COPY_ROW_BITS)
    col_unused = _unused_mask(layout, "col")
    slots = max(1, 32 // bits)
    show_slot = slots > 1 and any(c % slots for c in range(cols) if not c & col_unused)
    return layout, rows, cols, blocks, row_unused, col_unused, slots, show_slot


def tmem_tensor_view(layout, bits: int, write) -> None:
    """Every element's holders `R<row>:C<column>[.<slot>]` (`B<block>:` first with several CTAs), like the
    `T<thread>:<register>` entries of Triton's distributed tensor view, listed block by block, row by row,
    column by column."""
    if not _small(layout):
        return _tmem_tensor_view_streamed(layout, bits, write)
    layout, rows, cols, blocks, row_unused, col_unused, slots, show_slot = _tmem(layout, bits)
    s0, s1 = (layout.get_out_dim_size(d) for d in layout.out_dims)
    image = _images(layout)
    held: list[list[str]] = [[] for _ in range(s0 * s1)]
    for b in range(blocks):
        head = f"B{b}:" if blocks > 1 else ""
        for r in range(rows):
            if r & row_unused:
                continue
            for c in range(cols):
                if c & col_unused:
                    continue
                v = image[r + rows * (c + cols * b)]
                slot = f".{c % slots}" if show_slot else ""
                held[(v % s0) * s1 + v // s0].append(f"{head}R{r}:C{c // slots}{slot}")
    width = max((len(t) for h in held for t in h), default=0)
    _rows([s0, s1], ["|".join(t.rjust(width) for t in h) for h in held], ", ", write)


def _tmem_tensor_view_streamed(layout, bits: int, write) -> None:
    """The same view for big layouts: the used (column, row, block) inputs, in that order of significance, form a
    layout whose flat index orders holders block, row, column; the distributed tensor view's solver lists each
    element's holders from it chunk by chunk."""
    import numpy as np

    from ..engine import LinearLayout
    from .distributed import holders_view
    layout, rows, cols, blocks, row_unused, col_unused, slots, show_slot = _tmem(layout, bits)
    used_rows = [k for k in range(len(layout.get_in_dim_bases("row"))) if not row_unused >> k & 1]
    used_cols = [k for k in range(len(layout.get_in_dim_bases("col"))) if not col_unused >> k & 1]
    bases = {"col": [layout.get_in_dim_bases("col")[k] for k in used_cols],
             "row": [layout.get_in_dim_bases("row")[k] for k in used_rows],
             "block": list(layout.get_in_dim_bases("block")) if layout.has_in_dim("block") else []}
    used = LinearLayout(bases, layout.get_out_dims(), require_surjective=False)
    col_values = _spread(len(used_cols), used_cols)
    row_values = _spread(len(used_rows), used_rows)
    head = [f"B{b}:" if blocks > 1 else "" for b in range(blocks)]
    col_text = [f"C{c // slots}" + (f".{c % slots}" if show_slot else "") for c in col_values]
    row_text = [f"R{r}:" for r in row_values]
    width = max(map(len, head)) + max(map(len, row_text)) + max(map(len, col_text))
    entry = _JoinedText(width, [(col_text, len(used_cols)), (row_text, len(used_rows)), (head, None)], np)
    holders_view(used, entry, write)


def _spread(count: int, positions: list[int]) -> list[int]:
    """The values of the used bits (at `positions`) for the compressed indices 0 .. 2^count - 1.

    >>> _spread(2, [1, 3])
    [0, 2, 8, 10]
    """
    out = []
    for x in range(1 << count):
        v = 0
        for j, p in enumerate(positions):
            if x >> j & 1:
                v |= 1 << p
        out.append(v)
    return out


class _JoinedText:
    """Flat indices -> right-aligned texts made of parts, each looked up in its own table by a bit field of the
    index (lowest field first, the last taking the remaining bits); the parts are written right to left."""

    def __init__(self, width: int, parts, np):
        self.width, self.np = width, np
        self.fields = []
        for texts, bits in parts:
            lens = np.array([len(t) for t in texts], dtype=np.int64)
            table = np.full((len(texts), max(1, int(lens.max(initial=0)))), ord(" "), dtype=np.uint8)
            for k, t in enumerate(texts):
                if t:
                    table[k, table.shape[1] - len(t):] = np.frombuffer(t.encode(), dtype=np.uint8)
            self.fields.append((table, lens, bits))

    def __call__(self, hw):
        np = self.np
        hw = np.asarray(hw, dtype=np.int64)
        buf = np.full((len(hw), self.width), ord(" "), dtype=np.uint8)
        end = np.full(len(hw), self.width, dtype=np.int64)
        rest = hw
        pieces = []
        for table, lens, bits in self.fields:
            idx = rest & ((1 << bits) - 1) if bits is not None else rest
            rest = rest >> bits if bits is not None else rest
            pieces.append((table, lens, idx))
        for table, lens, idx in pieces:                  # the lowest field is the rightmost text
            size = lens[idx]
            for length in np.unique(size).tolist():
                if not length:
                    continue
                sel = np.flatnonzero(size == length)
                cols = end[sel, None] - length + np.arange(length)[None, :]
                buf[sel[:, None], cols] = table[idx[sel]][:, table.shape[1] - length:]
                end[sel] -= length
        return buf


def tmem_hardware_view(layout, bits: int, write) -> None:
    """Per block, one line per TMEM row: each 32-bit column's element(s) `(i,j)`, slots joined by `|`, `-` for
    an unused slot."""
    layout, rows, cols, blocks, row_unused, col_unused, slots, _ = _tmem(layout, bits)
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    if not _small(layout):
        return _tmem_hardware_view_streamed(layout, sizes, rows, cols, blocks, row_unused, col_unused, slots, write)
    image = _images(layout)
    unused = "-".rjust(len(_coords(0, sizes, ",")))
    columns = -(-cols // slots)
    out = []
    for b in range(blocks):
        out.append(f"Block: {b}:\n")
        for r in range(rows):
            cells = []
            for k in range(columns):
                texts = []
                for c in range(k * slots, (k + 1) * slots):
                    if c >= cols or c & col_unused or r & row_unused:
                        texts.append(unused)
                    else:
                        texts.append(_coords(image[r + rows * (c + cols * b)], sizes, ","))
                cells.append("|".join(texts))
            out.append(f"Row {r}: " + ", ".join(cells) + "\n")
    write("".join(out).encode())


def _tmem_hardware_view_streamed(layout, sizes, rows, cols, blocks, row_unused, col_unused, slots, write) -> None:
    """The same view for big layouts, one row at a time, its columns in chunks, formatted by numpy."""
    import numpy as np

    from .apply import images, split_coords
    from .chars import coord_cells, join_cells
    fb = layout.flat_bases()
    columns = -(-cols // slots)
    per_chunk = max(1, CHUNK // slots)
    for b in range(blocks):
        write(f"Block: {b}:\n".encode())
        for r in range(rows):
            write(f"Row {r}: ".encode())
            for k0 in range(0, columns, per_chunk):
                k1 = min(columns, k0 + per_chunk)
                c = np.arange(k0 * slots, k1 * slots, dtype=np.int64)
                ok = (c < cols) & (c & col_unused == 0) & (r & row_unused == 0)
                idx = r + rows * (np.minimum(c, cols - 1) + cols * b)
                cells = coord_cells(split_coords(images(fb, idx), sizes), sizes, ",")
                cells[~ok] = ord(" ")
                cells[~ok, -1] = ord("-")
                line = join_cells(join_cells(cells.reshape(k1 - k0, slots, -1), b"|")[None], b", ")[0]
                write((b", " if k0 else b"") + line.tobytes())
            write(b"\n")
