"""Views of the layouts Triton 3.9's triton-tensor-layout cannot print: padded / partitioned shared memory and
Blackwell tensor memory, in the spirit of Triton's shared views (README, "Layouts Triton 3.9 cannot print").

Shared memory: each block's (and partition's) buffer, offset by offset. Hardware view `Offset: N -> (i,j)` with N
the padded memory position, plus `Offset: A..B -> padding (I:+P, ...)` where intervals insert padding; tensor
view: the buffers laid over the tensor shape, `(i:j)` cells with a `-` cell per padding slot.
Tensor memory: tensor view `R<row>:C<col>` holders per element (`C<col>.<slot>` when elements share a 32-bit
column; `B<b>:` first with several CTAs); hardware view one line per TMEM row, cells per 32-bit column.
"""
from __future__ import annotations

from ..engine.gf2 import span
from .small import _coords, _rows

SHARED_INS = ("offset", "block", "partition")


def _images(layout) -> list[int]:
    """Flat image of every flat input (first in dim least significant, first out dim lowest bits)."""
    from . import SMALL_LIMIT as small_limit  # read at call time: tests switch paths through it
    if 1 << layout.get_total_in_dim_size_log2() <= small_limit:
        return span(layout.flat_columns())
    return layout.apply_all_flat().tolist()


def _sizes(layout, names):
    return [layout.get_in_dim_size(d) if layout.has_in_dim(d) else 1 for d in names]


def _pad_cell(sizes, sep: str) -> str:
    return "(" + sep.join("-".rjust(len(str(s))) for s in sizes) + ")"


# ----------------------------------------------------------------------------------------- shared memory


def _shared(layout):
    layout = layout.transpose_ins([d for d in SHARED_INS if layout.has_in_dim(d)])
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    return layout, sizes, _sizes(layout, SHARED_INS)


def shared_hardware_view(layout, padding, write) -> None:
    layout, sizes, (offsets, blocks, parts) = _shared(layout)
    image = _images(layout)
    out = []
    for b in range(blocks):
        out.append(f"Block: {b}:\n")
        for p in range(parts):
            if layout.has_in_dim("partition"):
                out.append(f"Partition: {p}:\n")
            base = (p * blocks + b) * offsets
            for o in range(offsets):
                position = padding.padded_offset(o) if padding else o
                pads = padding.pads_before(o) if padding else []
                if pads:
                    run = sum(p for _, p in pads)
                    where = f"{position - run}..{position - 1}" if run > 1 else f"{position - 1}"
                    out.append(f"Offset: {where} -> padding ({', '.join(f'{i}:+{p}' for i, p in pads)})\n")
                out.append(f"Offset: {position} -> {_coords(image[base + o], sizes, ',')}\n")
    write("".join(out).encode())


def shared_tensor_view(layout, padding, write) -> None:
    """Memory positions (block, then partition, then offset) over the tensor's shape, row-major, like Triton's
    shared tensor view; the padding that follows a position is written right after its cell."""
    layout, sizes, (offsets, blocks, parts) = _shared(layout)
    image = _images(layout)
    n = 1
    for s in sizes:
        n *= s
    per_block = n // blocks
    pad = _pad_cell(sizes, ":")
    cells = []
    for e in range(n):
        b, r = divmod(e, per_block) if per_block else (0, 0)
        p, o = divmod(r, offsets)
        cell = _coords(image[(p * blocks + b) * offsets + o], sizes, ":")
        if padding and o + 1 < offsets:
            cell += "".join("," + pad for _ in range(sum(q for _, q in padding.pads_before(o + 1))))
        cells.append(cell)
    _rows(sizes, cells, ",", write)


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
    `T<thread>:<register>` entries of Triton's distributed tensor view."""
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


def tmem_hardware_view(layout, bits: int, write) -> None:
    """Per block, one line per TMEM row: each 32-bit column's element(s) `(i,j)`, slots joined by `|`, `-` for
    an unused slot."""
    layout, rows, cols, blocks, row_unused, col_unused, slots, _ = _tmem(layout, bits)
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
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
