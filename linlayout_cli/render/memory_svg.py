"""SVG pictures of the views Triton cannot print (render/memory.py's text): padded and partitioned shared memory,
and Blackwell tensor memory, drawn as svg.py draws the other layouts.

Shared memory, tensor view: each element's cell names its memory position in its buffer (the linear offset plus
the padding before it; `B<b>:` / `P<p>:` first when the layout spans CTAs / partitions), coloured by that
position's bank. Hardware view: each buffer (CTA, partition) as 128-byte lines of memory positions, each cell the
element stored there, padding positions grey and labelled `pad`.
Tensor memory, tensor view: each element's places `R<row>:C<column>[.<slot>]` as the text view names them;
hardware view: one row per TMEM row, one cell per 32-bit column listing its slots' elements (`-` unused). Both are
coloured by the TMEM row: hue = the warp of the warpgroup that reaches it (rows 32w..32w+31), shade = the row in
it (its lane).

Memory and time are bounded as in svg.py: above DETAIL_LIMIT cells the grid is drawn at tile granularity (each
cell shows a tile's first element or line), and only the drawn cells are ever computed.
"""
from __future__ import annotations

import numpy as np

from . import palette
from .apply import images, split_coords
from .color import bank
from .memory import _shared, _spread, _tmem, tmem_used
from .svg import (
    MAX_LINES,
    MAX_STRIPES,
    Cells,
    Holders,
    Panel,
    _holder_lines,
    _swatch,
    _tensor_axes,
    _tile_elements,
    _titles,
    bank_colour,
    banks_of,
    grid_panel,
    shared_row_length,
    stack,
    tensor_grid,
    text_lines,
    thread_colours,
    tile_shape,
)

PAD_ID = 1 << 20                  # the colour id of a padding position
PAD_FILL = "fill:#d9d9d9"


def _shared_colour(i: int):
    return ("pad", PAD_FILL) if i == PAD_ID else bank_colour(i)


def _coords(values: np.ndarray, sizes) -> list[str]:
    return ["(" + ",".join(map(str, c)) + ")" for c in split_coords(values, sizes).T.tolist()]


def padded_positions(padding, offsets: np.ndarray) -> np.ndarray:
    """Memory position of each linear offset (conversions.padded_shared.Padding.padded_offset, vectorised)."""
    out = offsets.copy()
    if padding is not None:
        for i, p in zip(padding.intervals, padding.paddings):
            out += (offsets // i) * p
    return out


def offsets_at(padding, positions: np.ndarray, count: int) -> np.ndarray:
    """The linear offset stored at each memory position of a buffer of `count` offsets, -1 for padding: a binary
    search over the offsets (positions grow with the offset), so no table of the whole buffer is built.

    [2:+1, 4:+2] (e0 e1 p e2 e3 p p p e4): positions 0, 2, 8 -> offsets 0, -1, 4."""
    if padding is None:
        return positions.copy()
    lo = np.zeros(len(positions), dtype=np.int64)
    hi = np.full(len(positions), count - 1, dtype=np.int64)
    while True:                                   # the largest offset whose position is <= the query
        live = lo < hi
        if not live.any():
            break
        mid = (lo + hi + 1) // 2
        up = padded_positions(padding, mid) <= positions
        lo = np.where(live & up, mid, lo)
        hi = np.where(live & ~up, mid - 1, hi)
    return np.where(padded_positions(padding, lo) == positions, lo, -1)


def _buffer_name(b: int, p: int, blocks: int, parts: int) -> str:
    return (f"B{b}:" if blocks > 1 else "") + (f"P{p}:" if parts > 1 else "")


# ----------------------------------------------------------------------------------------- shared memory


def shared_memory_tensor_cells(layout, padding, element_bits: int) -> Cells:
    """Each element's memory position (in its CTA's and partition's buffer), coloured by the position's bank."""
    layout, sizes, (offsets, blocks, parts) = _shared(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    holders = Holders([int(c) for c in row_major.flat_bases()])
    rows, cols = tensor_grid(sizes)
    tr, tc = tile_shape(rows, cols)
    detail = (tr, tc) == (1, 1)
    row_labels, col_labels, groups = _tensor_axes(sizes, rows, cols, tr, tc)
    hw, ok = holders.first(_tile_elements(rows, cols, tr, tc), min(holders.copies, MAX_LINES) if detail else 1)

    def names(x: np.ndarray) -> list[str]:
        x = np.asarray(x).reshape(-1)
        o, buf = x % offsets, x // offsets
        return [_buffer_name(b % blocks, b // blocks, blocks, parts) + str(q)
                for b, q in zip(buf.tolist(), padded_positions(padding, o).tolist())]

    lines = _holder_lines(names(hw), ok.tolist(), holders.copies if detail else 1)
    ids = np.where(ok, banks_of(padded_positions(padding, hw[:, 0] % offsets), element_bits), -1)[:, None]
    titles = _titles(holders, rows * cols, ok, names) if detail else None
    note = None
    if not detail:
        note = (f"Drawn at tile granularity: each cell is a {tr}x{tc} tile of elements ({rows}x{cols} elements in "
                f"{rows // tr}x{cols // tc} tiles), showing the memory position and bank of the tile's first "
                "element. Use --format html for every element.")
    return Cells(rows // tr, cols // tc, lines, ids, None, row_labels, col_labels, groups, _shared_colour, note,
                 titles)


def shared_memory_hardware_cells(layout, padding, element_bits: int) -> Cells:
    """Each buffer (CTA, then partition, as the text view orders them) as 128-byte lines of memory positions; a
    cell is the element stored at that position, `pad` for padding."""
    layout, sizes, (offsets, blocks, parts) = _shared(layout)
    fb = layout.flat_bases()
    lead = Holders([int(c) for c in fb]).lead_mask
    size = padding.padded_size(offsets) if padding is not None else offsets
    per_row = shared_row_length(size, element_bits)
    line_rows = -(-size // per_row)
    buffers = blocks * parts
    tr, _ = tile_shape(buffers * line_rows, per_row)
    tr = min(tr, line_rows)
    starts = np.arange(0, line_rows, tr, dtype=np.int64) * per_row
    positions = (starts[:, None] + np.arange(per_row, dtype=np.int64)[None, :]).reshape(-1)
    inside = positions < size
    at = offsets_at(padding, np.minimum(positions, size - 1), offsets)
    at[~inside] = -1
    lines: list = []
    ids: list = []
    hatched: list = []
    groups: list[tuple[int, str | None]] = []
    for b in range(blocks):                      # the text view's order: CTA, then partition
        for p in range(parts):
            buf = p * blocks + b
            groups.append((len(groups) * len(starts), " ".join(filter(None, (f"CTA {b}" if blocks > 1 else "",
                                                                      f"partition {p}" if parts > 1 else "")))
                           or None))
            x = np.where(at >= 0, at + buf * offsets, 0)
            texts = _coords(images(fb, x), sizes)
            lines += [((t,) if a >= 0 else ("pad",) if i else ("",)) for t, a, i in
                      zip(texts, at.tolist(), inside.tolist())]
            ids.append(np.where(at >= 0, banks_of(positions, element_bits), np.where(inside, PAD_ID, -1)))
            hatched.append((at >= 0) & ((x & lead) != 0) if lead else np.zeros(len(x), dtype=bool))
    col_labels = [f"b{bank(c, element_bits)}" if c * element_bits % 32 == 0 else "" for c in range(per_row)]
    note = None
    if tr > 1:
        note = (f"Drawn at tile granularity: each row stands for {tr} lines of {per_row} elements and shows the "
                "first of them. Use --format html for every position.")
    hatch = np.concatenate(hatched)
    return Cells(buffers * len(starts), per_row, lines, np.concatenate(ids)[:, None], hatch if hatch.any() else None,
                 [str(int(s)) for s in starts.tolist()] * buffers, col_labels, groups, _shared_colour, note)


def shared_memory_legend(element_bits: int, hardware: bool, copies: int, padding, parts: int) -> Panel:
    parts_ = [_swatch((b % 16) * 52, (b // 16) * 16, palette.css(palette.bank_hsl(b)), str(b)) for b in range(32)]
    notes = [f"Colour: shared-memory bank of the memory position (32 banks of 4 bytes; {element_bits}-bit "
             "elements; each buffer starting at bank 0)."]
    after = []
    if hardware:
        after.append("Each cell: the element stored at that memory position.")
    else:
        after.append("Each cell: the element's memory position in its buffer (its linear offset plus the padding "
                     "before it)" + ("; P<p>: its partition's buffer." if parts > 1 else "."))
    if padding is not None:
        after.append("Padding: " + ", ".join(f"{p} after every {i} elements" for i, p in
                                              zip(padding.intervals, padding.paddings))
                     + (" (grey `pad` cells)." if hardware else "."))
    if copies > 1:
        after.append(f"Each element is stored at {copies} offsets" + ("; hatched offsets hold a copy." if hardware
                                                                      else "."))
    swatches = Panel(16 * 52, 34, "".join(parts_) + (_swatch(0, 36, "#d9d9d9", "padding") if hardware and padding
                                                    else ""))
    if hardware and padding is not None:
        swatches = Panel(16 * 52, 52, swatches.body)
    return stack([text_lines(notes), swatches, text_lines(after)], gap=4)


# ----------------------------------------------------------------------------------------- tensor memory


def _lanes(rows: int) -> int:
    return min(32, rows)


def tmem_tensor_cells(layout, bits: int) -> Cells:
    """Each element's places `R<row>:C<column>[.<slot>]`, as the text view lists them (block, row, column order),
    striped by the rows' colours."""
    layout, rows, cols, blocks, row_unused, col_unused, slots, show_slot = _tmem(layout, bits)
    used, used_cols, used_rows = tmem_used(layout, row_unused, col_unused)
    col_values, row_values = _spread(used_cols, np), _spread(used_rows, np)
    col_bits, row_bits = len(used_cols), len(used_rows)
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    row_major = used.transpose_outs(list(reversed(used.out_dims)))
    holders = Holders([int(c) for c in row_major.flat_bases()])
    n_rows, n_cols = tensor_grid(sizes)
    tr, tc = tile_shape(n_rows, n_cols)
    detail = (tr, tc) == (1, 1)
    row_labels, col_labels, groups = _tensor_axes(sizes, n_rows, n_cols, tr, tc)

    def parts(x: np.ndarray):
        x = np.asarray(x, dtype=np.int64)
        c = col_values[x & ((1 << col_bits) - 1)]
        r = row_values[(x >> col_bits) & ((1 << row_bits) - 1)]
        return x >> (col_bits + row_bits), r, c

    def names(x: np.ndarray) -> list[str]:
        b, r, c = parts(np.asarray(x).reshape(-1))
        return [(f"B{bb}:" if blocks > 1 else "") + f"R{rr}:C{cc // slots}" + (f".{cc % slots}" if show_slot else "")
                for bb, rr, cc in zip(b.tolist(), r.tolist(), c.tolist())]

    shown = min(holders.copies, MAX_STRIPES) if detail else 1
    hw, ok = holders.first(_tile_elements(n_rows, n_cols, tr, tc),
                           max(shown, min(holders.copies, MAX_LINES)) if detail else 1)
    lines = _holder_lines(names(hw), ok.tolist(), holders.copies if detail else 1)
    b, r, _ = parts(hw[:, :shown])
    ids = b * rows + r
    ids[~ok] = -1
    titles = _titles(holders, n_rows * n_cols, ok, names) if detail else None
    note = None
    if not detail:
        note = (f"Drawn at tile granularity: each cell is a {tr}x{tc} tile of elements ({n_rows}x{n_cols} elements "
                f"in {n_rows // tr}x{n_cols // tc} tiles), showing the first place of the tile's first element. "
                "Use --format html for every element.")
    return Cells(n_rows // tr, n_cols // tc, lines, ids, None, row_labels, col_labels, groups,
                 thread_colours(_lanes(rows)), note, titles)


def tmem_hardware_cells(layout, bits: int) -> Cells:
    """One row per TMEM row (per CTA), one cell per 32-bit column: its slots' elements, `-` for an unused slot."""
    layout, rows, cols, blocks, row_unused, col_unused, slots, _ = _tmem(layout, bits)
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    fb = layout.flat_bases()
    columns = -(-cols // slots)
    tr, tc = tile_shape(blocks * rows, columns)
    tr = min(tr, rows)
    r = np.arange(0, rows, tr, dtype=np.int64)
    k = np.arange(0, columns, tc, dtype=np.int64)
    lines: list[tuple[str, ...]] = []
    ids: list[int] = []
    titles: dict[int, str] = {}
    for b in range(blocks):
        for rr in r.tolist():
            c = (k[:, None] * slots + np.arange(slots, dtype=np.int64)[None, :])
            ok = (c < cols) & (c & col_unused == 0) & (rr & row_unused == 0)
            texts = _coords(images(fb, rr + rows * (np.minimum(c, cols - 1) + cols * b)).reshape(-1), sizes)
            for j in range(len(k)):
                slot_texts = [texts[j * slots + s] if ok[j, s] else "-" for s in range(slots)]
                if slots > MAX_LINES:
                    titles[len(lines)] = "|".join(slot_texts)
                    slot_texts = slot_texts[:MAX_LINES - 1] + [f"+{slots - MAX_LINES + 1} more"]
                lines.append(tuple(slot_texts))
                ids.append(b * rows + rr if ok[j].any() else -1)
    groups = [(b * len(r), f"CTA {b}" if blocks > 1 else None) for b in range(blocks)]
    note = None
    if (tr, tc) != (1, 1):
        note = (f"Drawn at tile granularity: each cell stands for {tr} rows x {tc} 32-bit columns and shows the "
                "first of them. Use --format html for every row and column.")
    return Cells(blocks * len(r), len(k), lines, np.array(ids, dtype=np.int64)[:, None], None,
                 [f"R{x}" for x in r.tolist()] * blocks, [f"C{x}" for x in k.tolist()], groups,
                 thread_colours(_lanes(rows)), note, titles or None)


def tmem_legend(rows: int, blocks: int, bits: int, copies: int, hardware: bool) -> Panel:
    lanes = _lanes(rows)
    groups = blocks * rows // lanes
    shown = min(groups, 16)
    parts = []
    for g in range(shown):
        b, w = divmod(g, rows // lanes)
        parts.append(_swatch((g % 8) * 112, (g // 8) * 16, palette.css(palette.thread_hsl(g, lanes // 2, lanes)),
                             (f"B{b} " if blocks > 1 else "") + f"rows {w * lanes}-{w * lanes + lanes - 1}"))
    y = ((shown + 7) // 8) * 16
    for i, ln in enumerate([0, lanes // 4, lanes // 2, 3 * lanes // 4, lanes - 1] if lanes > 4 else range(lanes)):
        parts.append(_swatch(i * 112, y, palette.css(palette.thread_hsl(0, ln, lanes)), f"row {ln}"))
    notes = ["Colour: the TMEM row (PTX: lane): hue = the warp of a warpgroup that reaches it (warp w: rows "
             "32w..32w+31), shade = the row within them."]
    slots = max(1, 32 // bits)
    if hardware:
        after = [f"Rows: TMEM rows; columns: 32-bit columns, each holding {slots} {bits}-bit slot"
                 f"{'s' if slots > 1 else ''} (one line per slot, slot 0 first); '-': an unused slot."]
    else:
        after = ["Each cell: the element's places R<row>:C<32-bit column>" + ("[.<slot>]" if slots > 1 else "")
                 + ("; B<n>: the CTA." if blocks > 1 else ".")]
        if copies > 1:
            after.append(f"Each element is in {copies} places (copies for the other warps): its cell lists them and "
                         "is split into one stripe per place.")
    return stack([text_lines(notes), Panel(8 * 112, y + 18, "".join(parts)), text_lines(after)], gap=4)


# ----------------------------------------------------------------------------------------- one view


def memory_panel(shown, use_hw_view: bool, element_bits: int, title=None) -> Panel:
    """Title, note, grid and legend of one padded / partitioned / tensor memory view (`shown`: inputs.Printed)."""
    layout = shown.linear
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    copies = 1 << (layout.get_total_in_dim_size_log2() - layout.get_matrix_rank())
    view = "hardware view" if use_hw_view else "tensor view"
    if shown.view == "tensor_memory":
        bits = shown.element_bits
        cells = (tmem_hardware_cells if use_hw_view else tmem_tensor_cells)(layout, bits)
        _, rows, _, blocks, row_unused, col_unused, _, _ = _tmem(layout, bits)
        used_copies = copies >> (bin(row_unused).count("1") + bin(col_unused).count("1"))
        legend = tmem_legend(rows, blocks, bits, used_copies, use_hw_view)
        what = "tensor memory"
    else:
        cells = (shared_memory_hardware_cells if use_hw_view else shared_memory_tensor_cells)(
            layout, shown.padding, element_bits)
        parts = layout.get_in_dim_size("partition") if layout.has_in_dim("partition") else 1
        legend = shared_memory_legend(element_bits, use_hw_view, copies, shown.padding, parts)
        what = ("partitioned " if parts > 1 else "") + ("padded " if shown.padding is not None else "") + "shared"
    heading = [f"{'x'.join(map(str, sizes))} {what} {view}" + (f": {title}" if title else "")]
    out = [text_lines(heading, cls="t", width_chars=90)]
    if use_hw_view:
        out.append(text_lines([
            "Rows: TMEM rows (per CTA); columns: 32-bit columns." if shown.view == "tensor_memory" else
            "Rows: 128-byte lines of each buffer (labelled with their first memory position); columns: the elements "
            "of a line, headed by their bank."]))
    if cells.note:
        out.append(text_lines([cells.note]))
    out += [grid_panel(cells), legend]
    return stack(out, gap=8)
