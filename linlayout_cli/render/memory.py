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
(no numpy import, for the start-up time); above it no line or cell is formatted in Python: numpy computes a
chunk's coordinates, memory positions and padding and `chars.Ragged` lays them into the chunk's bytes. The
results are the same byte for byte.
"""
from __future__ import annotations

from ..engine.bits import log2
from ..engine.gf2 import span
from .small import _coords, _rows, row_brackets

SHARED_INS = ("offset", "block", "partition")
CHUNK = 1 << 16                 # entries formatted and written at a time
_LOW = 10                       # compressed column bits spread by the first of two tables


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
    if not _small(layout):
        return _shared_hardware_view_streamed(layout, sizes, padding, offsets, blocks, parts, write)
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
                if padding and padding.pads_before(o):
                    out.add(_padding_line(padding, o, position))
                out.add(f"Offset: {position} -> {_coords(image(base + o), sizes, ',')}\n")
    out.flush()


def _padded(padding, offsets):
    """Memory positions of a numpy array of linear offsets (`conversions.padded_shared.Padding.padded_offset`,
    vectorised; `padding` None: the offsets themselves)."""
    out = offsets.copy()
    if padding is not None:
        for i, q in zip(padding.intervals, padding.paddings):
            out += (offsets // i) * q
    return out


def _padding_line(padding, offset: int, position: int) -> str:
    """`Offset: A..B -> padding (I:+P, ...)` for the padding inserted right before `offset` (at `position`)."""
    pads = padding.pads_before(offset)
    run = sum(p for _, p in pads)
    where = f"{position - run}..{position - 1}" if run > 1 else f"{position - 1}"
    return f"Offset: {where} -> padding ({', '.join(f'{i}:+{p}' for i, p in pads)})\n"


def _shared_hardware_view_streamed(layout, sizes, padding, offsets: int, blocks: int, parts: int, write) -> None:
    """The same view for big layouts: CHUNK offsets at a time, their coordinates, memory positions and padding
    lines computed with numpy and laid into the chunk's bytes by `chars.Ragged` (no line formatted in Python).
    The padding before an offset depends only on which intervals divide it, so its text is built once per set
    of dividing intervals: [4:+4, 16:+8] has two, `(4:+4)` and `(4:+4, 16:+8)`."""
    import numpy as np

    from .apply import images, split_coords
    from .chars import Ragged, coord_cells
    fb = layout.flat_bases()
    pairs = list(zip(padding.intervals, padding.paddings)) if padding else []
    for b in range(blocks):
        write(f"Block: {b}:\n".encode())
        for p in range(parts):
            if layout.has_in_dim("partition"):
                write(f"Partition: {p}:\n".encode())
            base = (p * blocks + b) * offsets
            for o0 in range(0, offsets, CHUNK):
                o = np.arange(o0, min(offsets, o0 + CHUNK), dtype=np.int64)
                position = _padded(padding, o)
                divides = np.zeros(len(o), dtype=np.int64)        # bit k: interval k divides the offset
                for k, (i, _) in enumerate(pairs):
                    divides |= (o % i == 0).astype(np.int64) << k
                if o0 == 0:
                    divides[0] = 0
                lines = Ragged(len(o))
                masks = np.unique(divides[divides != 0]).tolist()
                if masks:
                    texts, runs = [], []
                    for mask in masks:
                        pads = [pair for k, pair in enumerate(pairs) if mask >> k & 1]
                        runs.append(sum(q for _, q in pads))
                        texts.append(f" -> padding ({', '.join(f'{i}:+{q}' for i, q in pads)})\n".encode())
                    kind = np.searchsorted(masks, divides)               # valid where divides != 0
                    kind[divides == 0] = -1
                    padded = divides != 0
                    run = np.asarray(runs, dtype=np.int64)[kind[padded]]
                    last = position[padded] - 1
                    several = np.flatnonzero(padded)[run > 1]
                    lines.text(b"Offset: ", padded)
                    lines.number(last[run > 1] + 1 - run[run > 1], several)
                    lines.text(b"..", several)
                    lines.number(last, padded)
                    lines.choice(texts, kind)
                lines.text(b"Offset: ")
                lines.number(position)
                lines.text(b" -> ")
                lines.cells(coord_cells(split_coords(images(fb, base + o), sizes), sizes, ","))
                lines.text(b"\n")
                write(lines.bytes())


def shared_tensor_view(layout, padding, write) -> None:
    """Memory positions (block, then partition, then offset) over the tensor's shape, row-major, like Triton's
    shared tensor view; the padding that follows a position is written right after its cell."""
    layout, sizes, (offsets, blocks, parts) = _shared(layout)
    n = 1
    for s in sizes:
        n *= s
    per_block = n // blocks
    pad = _pad_cell(sizes, ":")
    if not _small(layout):
        return _shared_tensor_view_fast(layout, sizes, padding, pad, offsets, blocks, per_block, write)
    image = _image_of(layout)
    row_len = sizes[-1]
    rows_per_chunk = max(1, CHUNK // row_len)
    brackets = row_brackets(sizes)
    for q0 in range(0, n // row_len, rows_per_chunk):
        q1 = min(n // row_len, q0 + rows_per_chunk)
        cells = []
        for e in range(q0 * row_len, q1 * row_len):
            b, r = divmod(e, per_block) if per_block else (0, 0)
            p, o = divmod(r, offsets)
            cell = _coords(image((p * blocks + b) * offsets + o), sizes, ":")
            if padding and o + 1 < offsets:
                cell += "".join("," + pad for _ in range(sum(q for _, q in padding.pads_before(o + 1))))
            cells.append(cell)
        _rows(sizes, cells, ",", write, q0, brackets)


def _shared_tensor_view_fast(layout, sizes, padding, pad: str, offsets: int, blocks: int, per_block: int,
                             write) -> None:
    """The same view for big layouts, whole rows at a time: each element's cell (numpy), the padding cells that
    follow it (one text per padding count: the counts come from which intervals divide the next offset) and
    the row's brackets are laid into the chunk's bytes by `chars.Ragged`, so a 4096x4096 padded or
    partitioned view takes seconds, not minutes. Chunks hold about CHUNK * 32 bytes of text."""
    import numpy as np

    from .apply import images, split_coords
    from .chars import Ragged, coord_cells
    fb = layout.flat_bases()
    rank, row_len = len(sizes), sizes[-1]
    n = 1
    for size in sizes:
        n *= size
    most = sum(padding.paddings) if padding else 0                  # padding cells after one element, at most
    cell_width = 1 + sum(len(str(d)) + 1 for d in sizes)           # '(' then each coordinate and ':' or ')'
    width = 2 * rank + 2 + cell_width + most * (cell_width + 1)
    rows_per_chunk = max(1, CHUNK * 32 // (row_len * width))
    openings = [b","] + [(b"[" * k + b" " * (rank - k)) for k in range(1, rank + 1)]   # index 0: between cells
    closings = [(b"]" * k + b"\n") for k in range(rank + 1)]
    suffix = ("," + pad).encode()
    strides = []                                # row q opens 1 + #(strides dividing q) brackets, as row_brackets
    stride = 1
    for size in reversed(sizes[:-1]):
        stride *= size
        strides.append(stride)
    nrows = n // row_len

    def brackets(q):
        q = q % nrows
        out = np.ones(len(q), dtype=np.int64)
        for st in strides:
            out += q % st == 0
        return out
    for q0 in range(0, nrows, rows_per_chunk):
        q1 = min(nrows, q0 + rows_per_chunk)
        e = np.arange(q0 * row_len, q1 * row_len, dtype=np.int64)
        b, r = (e // per_block, e % per_block) if per_block else (0 * e, 0 * e)
        p, o = r // offsets, r % offsets
        q = np.arange(q0, q1, dtype=np.int64)
        first = np.zeros(len(e), dtype=np.int64)
        first[::row_len] = brackets(q)
        close = np.full(len(e), -1, dtype=np.int64)
        close[row_len - 1::row_len] = brackets(q + 1)
        text = Ragged(len(e))
        text.choice(openings, first)
        text.cells(coord_cells(split_coords(images(fb, (p * blocks + b) * offsets + o), sizes), sizes, ":"))
        if padding:
            nxt = o + 1
            count = np.zeros(len(e), dtype=np.int64)
            for i, q_ in zip(padding.intervals, padding.paddings):
                count += np.where(nxt % i == 0, q_, 0)
            count[nxt >= offsets] = 0
            counts = np.unique(count).tolist()
            kinds = np.searchsorted(counts, count)
            text.choice([suffix * c for c in counts], kinds)
        text.choice(closings, close)
        write(text.bytes())


# ----------------------------------------------------------------------------------------- tensor memory

TMEM_INS = ("row", "col", "block")


def _tmem(layout, bits: int):
    from ..analysis.info import tmem_unused
    layout = layout.transpose_ins(list(TMEM_INS))
    rows, cols, blocks = _sizes(layout, TMEM_INS)
    row_unused, col_unused = tmem_unused(layout)
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

    from .distributed import holders_view
    layout, rows, cols, blocks, row_unused, col_unused, slots, show_slot = _tmem(layout, bits)
    used, used_cols, used_rows = tmem_used(layout, row_unused, col_unused)
    from .templates import holders_tensor_view
    units = holders_tensor_view(used, _HolderCells(used_cols, used_rows, blocks, slots, show_slot))
    if units is not None and units.emit(write):
        return
    holders_view(used, _HolderText(_spread(used_cols, np), _spread(used_rows, np), blocks, slots, show_slot, np),
                 write)


def tmem_used(layout, row_unused: int, col_unused: int):
    """(the used column, row and block bits of a tensor memory layout as one layout, whose flat index has the used
    column bits lowest, then the used row bits, then the block; the used column bits; the used row bits)."""
    from ..engine import LinearLayout
    used_rows = [k for k in range(len(layout.get_in_dim_bases("row"))) if not row_unused >> k & 1]
    used_cols = [k for k in range(len(layout.get_in_dim_bases("col"))) if not col_unused >> k & 1]
    bases = {"col": [layout.get_in_dim_bases("col")[k] for k in used_cols],
             "row": [layout.get_in_dim_bases("row")[k] for k in used_rows],
             "block": list(layout.get_in_dim_bases("block")) if layout.has_in_dim("block") else []}
    return LinearLayout(bases, layout.get_out_dims(), require_surjective=False), used_cols, used_rows


def _spread(positions: list[int], np):
    """The values of the used bits (at `positions`) for the compressed indices 0 .. 2^len(positions) - 1.

    >>> import numpy
    >>> _spread([1, 3], numpy).tolist()
    [0, 2, 8, 10]
    """
    out = np.zeros(1, dtype=np.int64)
    for p in positions:                      # each used bit doubles the table: the low bits vary fastest
        out = np.concatenate([out, out | (1 << p)])
    return out


class _HolderCells:
    """The tensor view's entries `B<b>:R<row>:C<col>[.<slot>]` as cells of `templates.Units`, for flat holder
    indices (used column bits lowest, then used row bits, then the block), right-aligned to the widest block and
    row text plus the widest column text, as `_HolderText` aligns them.

    Split "place": the block and row text (`B<b>:R<row>:`, constant along a tensor row for the usual layouts)
    is the parameter, right-aligned by '%<w>s'; the column text is literal. Example: width 10, row 3, column
    517 -> the format `%6sC517`, with the parameter `R3:`."""

    splits = ("literal", "place", "all")

    def __init__(self, used_cols: list[int], used_rows: list[int], blocks: int, slots: int, show_slot: bool):
        self.col_bits, self.row_bits = len(used_cols), len(used_rows)
        self.rows = span([1 << k for k in used_rows])                # compressed row bits -> the TMEM row
        self.cols_low = span([1 << k for k in used_cols[:_LOW]])     # and columns, in two tables
        self.cols_high = span([1 << k for k in used_cols[_LOW:]])
        self.blocks, self.slots, self.show_slot = blocks, slots, show_slot
        every_col = sum(1 << k for k in used_cols)
        head = len(f"B{blocks - 1}:") if blocks > 1 else 0
        self.width = head + len(f"R{sum(1 << k for k in used_rows)}:") + len(self._col_text(every_col))
        self.col_mask = (1 << self.col_bits) - 1
        self.place_mask = ((1 << (self.row_bits + log2(blocks))) - 1) << self.col_bits

    def masks(self, split: str) -> tuple[int, int]:
        every = self.col_mask | self.place_mask
        return {"literal": (every, 0), "place": (self.col_mask, self.place_mask), "all": (0, every)}[split]

    def _col_text(self, column: int) -> str:
        slot = f".{column % self.slots}" if self.show_slot else ""
        return f"C{column // self.slots}{slot}"

    def _column(self, v: int) -> str:
        c = v & self.col_mask
        return self._col_text(self.cols_low[c & ((1 << _LOW) - 1)] | self.cols_high[c >> _LOW])

    def _place(self, v: int) -> str:
        who = v >> self.col_bits
        row = f"R{self.rows[who & ((1 << self.row_bits) - 1)]}:"
        return f"B{who >> self.row_bits}:{row}" if self.blocks > 1 else row

    def piece(self, v: int, split: str) -> bytes:
        column = self._column(v)
        if split == "literal":
            return (self._place(v) + column).rjust(self.width).encode()
        if split == "place":
            return f"%{self.width - len(column)}s{column}".encode()
        return f"%{self.width}s".encode()

    def param(self, v: int, split: str) -> bytes:
        if split == "place":
            return self._place(v).encode()
        return (self._place(v) + self._column(v)).encode()


class _HolderText:
    """Flat holder indices (used column bits lowest, then used row bits, then the block) -> the right-aligned
    texts `B<b>:R<row>:C<col>[.<slot>]` as rows of a byte matrix, the tensor view's entries.

    Two tables and one OR per entry: the column parts right-aligned with zero bytes on their left, and each
    (block, row) part placed to end where a column text of each possible length starts; zero bytes become
    spaces. With columns 5 and 12 and rows 0 and 3: entry (row 3, col 12) = `R3:` ending 3 bytes from the
    right, OR `C12`."""

    def __init__(self, col_values, row_values, blocks: int, slots: int, show_slot: bool, np):
        from .chars import put_char, put_number
        self.np = np
        heads = [f"B{b}:" if blocks > 1 else "" for b in range(blocks)]
        row_texts = [h + f"R{r}:" for h in heads for r in row_values.tolist()]
        numbers = col_values // slots
        room = 1 + len(str(int(numbers.max(initial=0)))) + (1 + len(str(slots - 1)) if show_slot else 0)
        texts = np.zeros((len(col_values), room), dtype=np.uint8)
        end = np.full(len(col_values), room, dtype=np.int64)
        if show_slot:
            end = put_number(texts, end, col_values % slots)
            put_char(texts, end - 1, ".")
            end = end - 1
        start = put_number(texts, end, numbers) - 1
        put_char(texts, start, "C")
        lengths = room - start
        col_width = int(lengths.max(initial=0))
        self.width = width = max(map(len, row_texts)) + col_width
        cols = np.zeros((len(col_values), width), dtype=np.uint8)
        cols[:, width - col_width:] = texts[:, room - col_width:]
        classes = np.unique(lengths)
        self.col_bits = max(0, len(col_values).bit_length() - 1)
        self.cols = cols.view(f"V{width}")[:, 0]
        self.col_class = np.searchsorted(classes, lengths)
        heads_rows = np.zeros((len(row_texts), len(classes), width), dtype=np.uint8)
        for k, text in enumerate(row_texts):
            data = np.frombuffer(text.encode(), dtype=np.uint8)
            for j, length in enumerate(classes.tolist()):
                heads_rows[k, j, width - length - len(text):width - length] = data
        self.classes = len(classes)
        self.rows = heads_rows.view(f"V{width}").reshape(-1)

    def __call__(self, hw):
        np = self.np
        hw = np.asarray(hw, dtype=np.int64)
        c = hw & ((1 << self.col_bits) - 1)
        r = hw >> self.col_bits
        buf = self.rows[r * self.classes + self.col_class[c]].view(np.uint8).reshape(len(hw), self.width)
        buf = buf | self.cols[c].view(np.uint8).reshape(len(hw), self.width)
        buf[buf == 0] = ord(" ")
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
    """The same view for big layouts: a block's column images are computed once and XORed with each row's image;
    a row's columns go out in chunks, formatted by numpy straight into the line's bytes (a template holding the
    `|` and `, ` separators, each slot's cells copied into it)."""
    import numpy as np

    from .apply import images, split_coords
    from .chars import coord_cells
    fb = layout.flat_bases()
    row_bits = rows.bit_length() - 1
    row_images = images(fb[:row_bits], np.arange(rows, dtype=np.int64))
    columns = -(-cols // slots)
    per_chunk = max(1, CHUNK // slots)
    width = len(_coords(0, sizes, ","))
    step = slots * (width + 1) + 1                  # one 32-bit column: its slots, '|' between them, then ', '
    template = np.full(step, ord("|"), dtype=np.uint8)
    template[-2:] = np.frombuffer(b", ", dtype=np.uint8)
    unused = np.full(width, ord(" "), dtype=np.uint8)
    unused[-1] = ord("-")
    c = np.arange(columns * slots, dtype=np.int64)
    col_ok = (c < cols) & (c & col_unused == 0)
    c = np.minimum(c, cols - 1)
    for b in range(blocks):
        write(f"Block: {b}:\n".encode())
        col_images = images(fb[row_bits:], c + cols * b)
        for r in range(rows):
            write(f"Row {r}: ".encode())
            for k0 in range(0, columns, per_chunk):
                k1 = min(columns, k0 + per_chunk)
                line = np.empty((k1 - k0, step), dtype=np.uint8)
                line[:] = template
                cells = line[:, :slots * (width + 1)].reshape(k1 - k0, slots, width + 1)[:, :, :width]
                if r & row_unused:
                    cells[:] = unused
                else:
                    found = coord_cells(split_coords(col_images[k0 * slots:k1 * slots] ^ row_images[r], sizes), sizes, ",")
                    found[~col_ok[k0 * slots:k1 * slots]] = unused
                    cells[:] = found.reshape(k1 - k0, slots, width)
                body = line.reshape(-1)
                write(body[:-2].tobytes() if k1 == columns else body.tobytes())
            write(b"\n")
