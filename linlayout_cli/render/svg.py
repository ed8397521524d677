"""Layouts as SVG pictures: the tensor view and the hardware view, distributed and shared.

A picture is a grid of cells labelled as the text view labels them (``T37:5`` for a distributed tensor view, the
element's offset for a shared one, coordinates in the hardware views), filled by warp (hue) and lane (shade), or by
shared-memory bank, with indices along the axes and a legend. An element held by several threads is split into
one stripe per holder (up to 8) and lists its holders; in the hardware view a register that holds a copy of an
element some lower index already holds is hatched.

Up to DETAIL_LIMIT cells every element gets its own cell; above that the grid is drawn at tile granularity (each
cell a power-of-two tile of elements, at most TILE_TARGET cells) and a note says what a tile shows, so a 4096x4096
tensor is a few hundred KB, never a gigabyte.

Pictures are built as `Panel`s (size + SVG body + the CSS classes it uses) and composed with `stack`, so a
picture of two layouts side by side (the bank report's store and load, later a conversion's source and
destination) is `document(stack([a, b], horizontal=True))`.
"""
from __future__ import annotations

import html

import numpy as np

from ..engine.bits import log2
from ..engine.gf2 import null_space, reduced_echelon, span_array
from ..errors import escaped
from ..records import frozen
from . import palette
from .apply import images, split_coords
from .color import bank
from .json_view import _solver
from .small import hardware_dims, out_sizes, shared_dims

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    from collections.abc import Callable

DETAIL_LIMIT = 1 << 16          # cells drawn one per element up to this many
TILE_TARGET = 1 << 12           # at most this many tiles above it (64 x 64)
MAX_ASPECT = 16
MIN_CELL_W = 22                 # px: the narrowest cell
MAX_LINES = 4                   # holder lines per cell (a cell with more holders says "+N" and lists them all in
                                # its <title> tooltip)
TITLE_LIMIT = 1 << 20           # holders listed in tooltips per picture, at most (~10 MB of SVG)
MAX_STRIPES = 8                 # holder colour stripes per cell
WRAP_1D = 64                    # a rank-1 tensor longer than this is drawn in rows of this many elements
FONT = 10                       # px, monospace
CHAR_W = 6.1                    # px per character at FONT
LINE_H = 13                     # px per label line
PAD = 6
MARGIN = 12
BANKS = 32


# ----------------------------------------------------------------------------------------- composition


@frozen
class Panel:
    """A piece of picture: its size, its SVG body (origin at its top left) and the CSS classes it uses."""
    width: int
    height: int
    body: str
    styles: tuple[tuple[str, str], ...] = ()


def stack(panels, horizontal: bool = False, gap: int = 24) -> Panel:
    """Panels one after another, top to bottom (or left to right)."""
    parts, styles, x, y = [], {}, 0, 0
    for p in panels:
        parts.append(f'<g transform="translate({x},{y})">{p.body}</g>')
        styles.update(p.styles)
        if horizontal:
            x += p.width + gap
        else:
            y += p.height + gap
    width = max((p.width for p in panels), default=0) if not horizontal else max(0, x - gap)
    height = max((p.height for p in panels), default=0) if horizontal else max(0, y - gap)
    return Panel(width, height, "".join(parts), tuple(styles.items()))


BASE_CSS = ("text{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:%dpx;fill:#111}"
            ".t{font-size:13px;font-weight:bold}.n{fill:#555}.ax{fill:#666;font-size:9px}"
            ".m{white-space:pre}.g{fill:none;stroke:#fff;stroke-width:1}.hot{fill:none;stroke:#d00;stroke-width:2}"
            ".hotx{fill:#d00;font-weight:bold}" % FONT)


def document(panel: Panel) -> str:
    """A standalone SVG file with a white background and a margin."""
    w, h = panel.width + 2 * MARGIN, panel.height + 2 * MARGIN
    css = BASE_CSS + "".join(f".{name}{{{rule}}}" for name, rule in sorted(panel.styles))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
            f'<style>{css}</style>'
            '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)"><rect width="2" height="6" fill="#000" fill-opacity=".28"/></pattern>'
            '</defs>'
            f'<rect width="{w}" height="{h}" fill="#fff"/><g transform="translate({MARGIN},{MARGIN})">'
            f'{panel.body}</g></svg>\n')


def esc(text: str) -> str:
    """Text for SVG (XML) content and attributes: markup characters as entities, and every control or format
    character (which XML forbids or a viewer could act on) shown as its escape, so the file stays well-formed
    whatever the input held.

    >>> print(esc('<a & "b">' + chr(0x1b) + chr(0x202e)))
    &lt;a &amp; &quot;b&quot;&gt;\\x1b\\u202e
    """
    return html.escape(escaped(text), quote=True)


def text_lines(lines, width_chars: int = 110, cls: str = "n", line_h: int = 16) -> Panel:
    """Lines of text (long ones wrapped at `width_chars`), e.g. a title or a note."""
    wrapped = []
    for line in lines:
        while len(line) > width_chars:
            cut = line.rfind(" ", 0, width_chars)
            cut = cut if cut > width_chars // 2 else width_chars
            wrapped.append(line[:cut])
            line = "  " + line[cut:].lstrip()
        wrapped.append(line)
    body = "".join(f'<text class="{cls}" y="{(i + 1) * line_h - 4}">{esc(t)}</text>' for i, t in enumerate(wrapped))
    width = int(max((len(t) for t in wrapped), default=0) * (7.8 if cls == "t" else CHAR_W)) + 4
    return Panel(width, len(wrapped) * line_h, body)


# ----------------------------------------------------------------------------------------- cells


@frozen
class Cells:
    """What a grid shows, row-major: each cell's label lines, its fill colours (ids, one column per stripe, -1 for
    none) and whether it is hatched; axis labels; groups of rows drawn as separate blocks with a heading (warps,
    slices, CTAs). `colour(id)` names the CSS class of a colour id and its rule."""
    rows: int
    cols: int
    lines: list                     # per cell: tuple of label lines
    fills: np.ndarray               # (cells, stripes) colour ids
    hatched: np.ndarray | None      # (cells,) bool
    row_labels: list
    col_labels: list
    groups: list                    # (first row, heading) for each block of rows
    colour: Callable[[int], tuple[str, str]]      # id -> (class name, CSS rule)
    note: str | None = None
    titles: dict | None = None      # cell index -> tooltip listing every holder (cells whose label is cut)


def thread_colours(lanes: int):
    """Colour ids group * lanes + lane -> (class, rule): hue by warp group, shade by lane."""
    def colour(i: int):
        return f"k{i}", "fill:" + palette.css(palette.thread_hsl(i // lanes, i % lanes, lanes))
    return colour


def bank_colour(b: int):
    return f"b{b}", "fill:" + palette.css(palette.bank_hsl(b))


def banks_of(offsets: np.ndarray, element_bits: int) -> np.ndarray:
    """The bank of each element offset (see color.bank)."""
    return (offsets * element_bits // 32) % BANKS


def tensor_grid(sizes) -> tuple[int, int]:
    """(rows, columns) of the tensor drawn as a grid: the last dim across, the others down (a long rank-1
    tensor wraps every WRAP_1D elements)."""
    if len(sizes) == 1:
        cols = min(sizes[0], WRAP_1D)
        return sizes[0] // cols, cols
    rows = 1
    for s in sizes[:-1]:
        rows *= s
    return rows, sizes[-1]


def tile_shape(rows: int, cols: int, cost=None, max_cols: int | None = None) -> tuple[int, int]:
    """Elements per drawn cell (rows, cols): (1, 1) up to DETAIL_LIMIT cells; else power-of-two tiles leaving at
    most TILE_TARGET cells, the grid no more than MAX_ASPECT times taller than wide or wider than tall, and among
    those the shape of least `cost(tr, tc)` (e.g. warps per tile), then the squarest grid. `max_cols` (a power of
    two): at most that many cells across, the tiles as tall as wide where the rows allow (a picture that must fit
    a screen).

    >>> tile_shape(128, 128), tile_shape(128, 128, max_cols=32), tile_shape(2, 1024, max_cols=32)
    ((1, 1), (4, 4), (2, 32))
    """
    base = _tile_shape(rows, cols, cost)
    if max_cols is None or cols // base[1] <= max_cols:
        return base
    tc = cols // max_cols
    return min(rows, max(base[0], tc)), tc


def _tile_shape(rows: int, cols: int, cost=None) -> tuple[int, int]:
    if rows * cols <= DETAIL_LIMIT:
        return 1, 1
    area = max(1, rows * cols // TILE_TARGET)
    shapes = [(area >> k, 1 << k) for k in range(area.bit_length()) if (area >> k) <= rows and (1 << k) <= cols
              and (area >> k) * (1 << k) == area]

    def skew(shape):
        tr, tc = shape
        ratio = (rows // tr) / (cols // tc)
        return max(ratio, 1 / ratio)

    fits = [sh for sh in shapes if skew(sh) <= MAX_ASPECT] or [min(shapes, key=skew)]
    return min(fits, key=lambda sh: ((cost(*sh) if cost else 0), skew(sh)))


def _tensor_axes(sizes, rows: int, cols: int, tr: int, tc: int):
    """Row labels, column labels and row groups (one per slice of the two last dims) of the tensor grid."""
    if len(sizes) == 1:
        return ([str(r * cols) for r in range(0, rows, tr)], [f"+{c}" for c in range(0, cols, tc)], [(0, None)])
    inner = sizes[-2]
    row_labels = [str(r % inner) for r in range(0, rows, tr)]
    col_labels = [str(c) for c in range(0, cols, tc)]
    groups: list[tuple[int, str | None]] = [(0, None)]
    if len(sizes) > 2:
        groups = []
        for r in range(0, rows, max(inner, tr)):
            lead, idx = r // inner, []
            for s in reversed(sizes[:-2]):
                idx.append(lead % s)
                lead //= s
            groups.append((r // tr, "[" + ", ".join(map(str, reversed(idx))) + ", :, :]"))
    return row_labels, col_labels, groups


def _tile_elements(rows: int, cols: int, tr: int, tc: int) -> np.ndarray:
    """Row-major flat index of each tile's first element, tiles in row-major order."""
    r = np.arange(0, rows, tr, dtype=np.int64)[:, None]
    c = np.arange(0, cols, tc, dtype=np.int64)[None, :]
    return (r * cols + c).reshape(-1)


class Holders:
    """Who holds which element: a batch solve of the layout's linear system, the first holders of each element
    in the order the text view lists them, and how many there are."""

    def __init__(self, columns: list[int]):
        self.solve = _solver(columns)
        self.kernel = reduced_echelon(null_space(columns))
        self.copies = 1 << len(self.kernel)
        self.lead_mask = 0
        for k in self.kernel:
            self.lead_mask |= 1 << (k.bit_length() - 1)

    def first(self, elems: np.ndarray, count: int):
        """(the `count` smallest holders of each element, sorted; whether the element is held at all).

        x reduced by the reduced-echelon kernel basis is the smallest holder; XOR-ing it with the span of the k
        lowest basis vectors gives the 2^k smallest, in a different order."""
        x, ok = self.solve(elems)
        for k in self.kernel:
            x = np.where(x >> (k.bit_length() - 1) & 1, x ^ k, x)
        bits = min(len(self.kernel), max(0, (count - 1).bit_length()))
        low = span_array(self.kernel[:bits])
        hw = np.sort(x[:, None] ^ low[None, :], axis=1)[:, :count]
        return hw, ok


def _holder_names(hw: np.ndarray, R: int, T: int, W: int, B: int) -> list[str]:
    reg, lane, warp, block = hw % R, (hw // R) % T, (hw // (R * T)) % W, hw // (R * T * W)
    thread = lane + warp * T
    if B > 1:
        return [f"B{b}:T{t}:{r}" for b, t, r in zip(block.tolist(), thread.tolist(), reg.tolist())]
    return [f"T{t}:{r}" for t, r in zip(thread.tolist(), reg.tolist())]


def _holder_lines(names: list[str], held: list, copies: int) -> list:
    """Each cell's label lines: its holders (at most MAX_LINES lines), '-' for an element no one holds."""
    per = len(names) // max(1, len(held))
    if copies == 1:
        return [(names[i * per],) if h else ("-",) for i, h in enumerate(held)]
    out: list[tuple[str, ...]] = []
    for i, h in enumerate(held):
        mine = names[i * per:(i + 1) * per]
        if not h:
            out.append(("-",))
        elif copies <= MAX_LINES:
            out.append(tuple(mine[:copies]))
        else:
            out.append(tuple(mine[:MAX_LINES - 1]) + (f"+{copies - MAX_LINES + 1} more",))
    return out


def distributed_tensor_cells(layout, max_cols: int | None = None) -> Cells:
    """`max_cols`: at most that many cells across (see tile_shape)."""
    layout, R, T, W, B = hardware_dims(layout)
    sizes = out_sizes(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    holders = Holders([int(c) for c in row_major.flat_bases()])
    rows, cols = tensor_grid(sizes)
    tr, tc = tile_shape(rows, cols, lambda tr, tc: len(_tile_warp_span(holders, cols, tr, tc, R * T)), max_cols)
    row_labels, col_labels, groups = _tensor_axes(sizes, rows, cols, tr, tc)
    if (tr, tc) != (1, 1):
        return _distributed_tiles(holders, rows, cols, tr, tc, R, T, W, B, row_labels, col_labels, groups)
    shown = min(holders.copies, MAX_STRIPES)
    hw, ok = holders.first(np.arange(rows * cols, dtype=np.int64), max(shown, min(holders.copies, MAX_LINES)))
    lines = _holder_lines(_holder_names(hw.reshape(-1), R, T, W, B), ok.tolist(), holders.copies)
    ids = ((hw // (R * T)) * T + (hw // R) % T)[:, :shown]
    ids[~ok] = -1
    titles = _titles(holders, rows * cols, ok, lambda h: _holder_names(h, R, T, W, B))
    return Cells(rows, cols, lines, ids, None, row_labels, col_labels, groups, thread_colours(T), titles=titles)


def _titles(holders: Holders, count: int, ok, names) -> dict | None:
    """Tooltips for the cells whose label is cut ("+N more"): every holder, '|' between them (as in the text
    view), computed in bounded batches; past TITLE_LIMIT holders in all, a count instead of the list."""
    if holders.copies <= MAX_LINES:
        return None
    held = np.flatnonzero(np.asarray(ok).reshape(-1))
    if count * holders.copies > TITLE_LIMIT:
        text = f"{holders.copies} holders (too many to list here; --format html names each)"
        return {int(i): text for i in held}
    out = {}
    per_batch = max(1, (1 << 16) // holders.copies)
    for k in range(0, len(held), per_batch):
        cells = held[k:k + per_batch]
        hw, _ = holders.first(cells.astype(np.int64), holders.copies)
        flat = names(hw.reshape(-1))
        for j, cell in enumerate(cells.tolist()):
            out[cell] = "|".join(flat[j * holders.copies:(j + 1) * holders.copies])
    return out


def _ranges(values) -> str:
    """'0-3,6' for [0, 1, 2, 3, 6]."""
    out: list[str] = []
    run: list[int] = []
    for v in sorted(values):
        if run and v == run[-1] + 1:
            run.append(v)
            continue
        if run:
            out.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [v]
    if run:
        out.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ",".join(out)


def _tile_warp_span(holders: "Holders", cols: int, tr: int, tc: int, per_warp: int) -> list[int]:
    """The warp groups (block * warps + warp) holding a tr x tc tile, relative to those of its first element: the
    holders of the tile's elements are x0 ^ span(solutions of the tile's unit steps, kernel), so the warp bits of
    every tile are g0 ^ this span."""
    shift = log2(per_warp)
    units = [1 << j for j in range(log2(tc))] + [cols << j for j in range(log2(tr))]
    spread = [k >> shift for k in holders.kernel]
    if units:
        x_units, ok_units = holders.solve(np.array(units, dtype=np.int64))
        spread += [int(x) >> shift for x, ok in zip(x_units, ok_units) if ok]
    return sorted({int(s) for s in span_array(reduced_echelon(spread))})


def warp_label(groups, W: int, B: int) -> str:
    """'W0-3' for the sorted warp groups (block * W + warp) [0, 1, 2, 3]; 'B0:W0,2 B1:W1' across CTAs."""
    if B > 1:
        by_block: dict = {}
        for g in groups:
            by_block.setdefault(g // W, []).append(g % W)
        return " ".join(f"B{b}:W{_ranges(ws)}" for b, ws in by_block.items())
    return "W" + _ranges(groups)


def _distributed_tiles(holders: Holders, rows, cols, tr, tc, R, T, W, B, row_labels, col_labels, groups):
    """Tiles labelled with the warps holding their elements (one solve per tile, see _tile_warp_span)."""
    shift = log2(R * T)
    span = _tile_warp_span(holders, cols, tr, tc, R * T)
    x0, ok = holders.solve(_tile_elements(rows, cols, tr, tc))
    lines = []
    ids = np.full((len(x0), min(len(span), MAX_STRIPES)), -1, dtype=np.int64)
    for i, (g0, held) in enumerate(zip((x0 >> shift).tolist(), ok.tolist())):
        found = sorted({g0 ^ s for s in span})
        lines.append((warp_label(found, W, B),) if held else ("-",))
        if held:
            ids[i, :len(found[:MAX_STRIPES])] = [g * T + T // 2 for g in found[:MAX_STRIPES]]
    note = (f"Drawn at tile granularity: each cell is a {tr}x{tc} tile of elements "
            f"({rows}x{cols} elements in {rows // tr}x{cols // tc} tiles), labelled with the warps holding them "
            f"and striped in their colours. Use --format html for every element.")
    return Cells(rows // tr, cols // tc, lines, ids, None, row_labels, col_labels, groups, thread_colours(T), note)


def shared_tensor_cells(layout, element_bits: int) -> Cells:
    layout, sizes, offsets, blocks, n, _ = shared_dims(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    holders = Holders([int(c) for c in row_major.flat_bases()])
    rows, cols = tensor_grid(sizes)
    tr, tc = tile_shape(rows, cols)
    row_labels, col_labels, groups = _tensor_axes(sizes, rows, cols, tr, tc)
    hw, ok = holders.first(_tile_elements(rows, cols, tr, tc), min(holders.copies, MAX_LINES))
    offset, block = hw % offsets, hw // offsets
    if blocks > 1:
        names = [f"B{b}:{o}" for b, o in zip(block.reshape(-1).tolist(), offset.reshape(-1).tolist())]
    else:
        names = [str(o) for o in offset.reshape(-1).tolist()]
    lines = _holder_lines(names, ok.tolist(), holders.copies if (tr, tc) == (1, 1) else 1)
    ids = np.where(ok, banks_of(offset[:, 0], element_bits), -1)[:, None]
    titles = None
    if (tr, tc) == (1, 1):
        titles = _titles(holders, rows * cols, ok[:, 0] if ok.ndim > 1 else ok,
                         lambda h: [f"B{x // offsets}:{x % offsets}" if blocks > 1 else str(x % offsets)
                                    for x in h.tolist()])
    note = None
    if (tr, tc) != (1, 1):
        note = (f"Drawn at tile granularity: each cell is a {tr}x{tc} tile of elements ({rows}x{cols} elements in "
                f"{rows // tr}x{cols // tc} tiles), showing the offset and bank of the tile's first element. "
                "Use --format html for every element.")
    return Cells(rows // tr, cols // tc, lines, ids, None, row_labels, col_labels, groups, bank_colour, note, titles)


def _coord_labels(values: np.ndarray, sizes) -> list:
    coords = split_coords(values, sizes).T.tolist()
    return [("(" + ",".join(map(str, c)) + ")",) for c in coords]


def distributed_hardware_cells(layout) -> Cells:
    """Rows are registers, columns lanes, one block of rows per warp (per CTA and warp), as in the text view."""
    layout, R, T, W, B = hardware_dims(layout)
    sizes = out_sizes(layout)
    fb = layout.flat_bases()
    lead = Holders([int(c) for c in fb]).lead_mask
    tr, _ = tile_shape(B * W * R, T)
    tr = min(tr, R)
    regs = np.arange(0, R, tr, dtype=np.int64)
    x = ((np.arange(B * W, dtype=np.int64)[:, None, None] * T + np.arange(T, dtype=np.int64)[None, None, :]) * R
         + regs[None, :, None]).reshape(-1)
    ids = ((x // (R * T)) * T + (x // R) % T)[:, None]
    groups = []
    for g in range(B * W):
        b, w = divmod(g, W)
        groups.append((g * len(regs), (f"CTA {b}, " if B > 1 else "") + f"warp {w}"))
    note = None
    if tr > 1:
        note = (f"Drawn at tile granularity: each row stands for {tr} registers and shows the first of them "
                f"(register r, r+{tr}, ...). Use --format html for every register.")
    return Cells(B * W * len(regs), T, _coord_labels(images(fb, x), sizes), ids, (x & lead) != 0 if lead else None,
                 [f"r{r}" for r in regs.tolist()] * (B * W), [str(t) for t in range(T)], groups, thread_colours(T),
                 note)


def shared_row_length(offsets: int, element_bits: int) -> int:
    """Elements per drawn row of shared memory: one 128-byte line of 32 banks (fewer if there are fewer)."""
    return max(1, min(offsets, BANKS * 32 // element_bits))


def shared_hardware_cells(layout, element_bits: int) -> Cells:
    """Shared memory as 128-byte lines, one column per element of a line (so each bank is one or more columns),
    each cell showing the element stored there."""
    layout, sizes, offsets, blocks, n, _ = shared_dims(layout)
    fb = layout.flat_bases()
    lead = Holders([int(c) for c in fb]).lead_mask
    per_row = shared_row_length(offsets, element_bits)
    line_rows = offsets // per_row
    tr, _ = tile_shape(blocks * line_rows, per_row)
    tr = min(tr, line_rows)
    starts = np.arange(0, line_rows, tr, dtype=np.int64) * per_row
    offs = (starts[:, None] + np.arange(per_row, dtype=np.int64)[None, :])
    x = (np.arange(blocks, dtype=np.int64)[:, None, None] * offsets + offs[None]).reshape(-1)
    groups = [(b * len(starts), f"CTA {b}" if blocks > 1 else None) for b in range(blocks)]
    col_labels = [f"b{bank(c, element_bits)}" if c * element_bits % 32 == 0 else "" for c in range(per_row)]
    note = None
    if tr > 1:
        note = (f"Drawn at tile granularity: each row stands for {tr} lines of {per_row} elements and shows the "
                "first of them. Use --format html for every offset.")
    return Cells(blocks * len(starts), per_row, _coord_labels(images(fb, x), sizes),
                 banks_of(x % offsets, element_bits)[:, None], (x & lead) != 0 if lead else None,
                 [str(int(s)) for s in starts.tolist()] * blocks, col_labels, groups, bank_colour, note)


# ----------------------------------------------------------------------------------------- drawing


def _cell_size(cells: Cells) -> tuple[int, int, int]:
    """(cell width, cell height, characters per cell: the longest label and a space)."""
    chars = max((len(s) for ls in cells.lines for s in ls), default=1) + 1
    chars = max(chars, max((len(s) for s in cells.col_labels), default=1) * 9 // 10)
    lines = max((len(ls) for ls in cells.lines), default=1)
    return max(MIN_CELL_W, int(chars * CHAR_W + 0.5)), lines * LINE_H + 5, chars


def _label_width(cells: Cells) -> int:
    return int(max((len(s) for s in cells.row_labels), default=1) * 5.6) + 8


def grid_width(cells: Cells) -> int:
    """The width of `grid_panel(cells)`, without drawing it."""
    return _label_width(cells) + cells.cols * _cell_size(cells)[0]


def grid_panel(cells: Cells) -> Panel:
    """The grid with its axes: column indices on top, row indices left, a heading above each group of rows.

    Each row's labels are one <text> of fixed-width slots (each label centred in `chars` characters) stretched with
    textLength to the row's width, so every label sits in its cell whatever the monospace font's width, and a
    128x256 grid costs a few bytes per cell."""
    cw, ch, chars = _cell_size(cells)
    label_w = _label_width(cells)
    head_h = 16
    ys, y = [], head_h
    group_at = dict(cells.groups)
    headings = []
    for r in range(cells.rows):
        if r in group_at and r:
            y += 10
        if group_at.get(r):
            headings.append((y, group_at[r]))
            y += 16
        ys.append(y)
        y += ch
    height, width = y, label_w + cells.cols * cw
    n, stripes = cells.fills.shape
    xs = [label_w + c * cw for c in range(cells.cols)]
    body, styles = [], {}
    for j in range(stripes):
        x0, x1 = cw * j // stripes, cw * (j + 1) // stripes
        tail = f"h{x1 - x0}v{ch}h-{x1 - x0}z"
        ids = cells.fills[:, j]
        order = np.argsort(ids, kind="stable")
        sorted_ids = ids[order]
        cuts = np.flatnonzero(np.diff(sorted_ids)) + 1
        for part in np.split(order, cuts):
            i0 = int(ids[part[0]])
            if i0 < 0:
                continue
            name, rule = cells.colour(i0)
            styles[name] = rule
            d = "".join(f"M{xs[i % cells.cols] + x0} {ys[i // cells.cols]}{tail}" for i in part.tolist())
            body.append(f'<path class="{name}" d="{d}"/>')
    if cells.hatched is not None and cells.hatched.any():
        tail = f"h{cw}v{ch}h-{cw}z"
        d = "".join(f"M{xs[i % cells.cols]} {ys[i // cells.cols]}{tail}" for i in np.flatnonzero(cells.hatched).tolist())
        body.append(f'<path fill="url(#hatch)" d="{d}"/>')
    grid = [f"M{label_w} {y0}h{cells.cols * cw}" for y0 in ys]
    grid += [f"M{x} {head_h}V{height}" for x in xs[1:]]
    body.append(f'<path class="g" d="{"".join(grid)}"/>')
    texts = []
    depth = max((len(ls) for ls in cells.lines), default=1)
    row_len = cells.cols * cw
    for r, y0 in enumerate(ys):
        row = cells.lines[r * cells.cols:(r + 1) * cells.cols]
        for k in range(depth):
            line = "".join((ls[k] if k < len(ls) else "").center(chars) for ls in row)
            if line.strip():
                texts.append(f'<text class="m" x="{label_w}" y="{y0 + LINE_H * (k + 1) - 1}" '
                             f'textLength="{row_len}" lengthAdjust="spacing">{esc(line)}</text>')
    body.append("".join(texts))
    body.append('<g text-anchor="middle" class="ax">' + "".join(
        f'<text x="{label_w + c * cw + cw // 2}" y="{head_h - 4}">{esc(s)}</text>'
        for c, s in enumerate(cells.col_labels) if s) + "</g>")
    body.append('<g text-anchor="end" class="ax">' + "".join(
        f'<text x="{label_w - 4}" y="{y0 + ch // 2 + 3}">{esc(s)}</text>' for y0, s in zip(ys, cells.row_labels))
        + "</g>")
    body.append("".join(f'<text class="n" x="{label_w}" y="{y0 + 12}">{esc(t)}</text>' for y0, t in headings))
    if cells.titles:                             # a hover target over each cut cell, naming every holder
        body.append("".join(f'<rect x="{xs[i % cells.cols]}" y="{ys[i // cells.cols]}" width="{cw}" height="{ch}" '
                            f'fill="none" pointer-events="all"><title>{esc(t)}</title></rect>'
                            for i, t in sorted(cells.titles.items())))
    return Panel(width, height, "".join(body), tuple(styles.items()))


def _swatch(x: int, y: int, fill: str, text: str, w: int = 14) -> str:
    return (f'<rect x="{x}" y="{y}" width="{w}" height="12" style="fill:{fill}" stroke="#999" stroke-width=".5"/>'
            f'<text x="{x + w + 4}" y="{y + 10}">{esc(text)}</text>')


def distributed_legend(T: int, W: int, B: int, copies: int, hardware: bool) -> Panel:
    """Warp hues, the lane shades of warp 0, and what labels, stripes and hatching mean."""
    parts, y = [], 0
    groups = B * W
    shown = min(groups, 16)
    for g in range(shown):
        b, w = divmod(g, W)
        parts.append(_swatch((g % 8) * 96, y + (g // 8) * 16, palette.css(palette.thread_hsl(g, T // 2, T)),
                             (f"B{b} " if B > 1 else "") + f"warp {w}"))
    y += ((shown + 7) // 8) * 16
    lanes = [0, T // 4, T // 2, 3 * T // 4, T - 1] if T > 4 else list(range(T))
    for i, ln in enumerate(lanes):
        parts.append(_swatch(i * 96, y, palette.css(palette.thread_hsl(0, ln, T)), f"lane {ln}"))
    y += 18
    notes = ["Colour: hue = warp, shade = lane (lane 0 lightest)."]
    if groups > shown:
        notes.append(f"... and {groups - shown} more warps, hues continuing by the golden angle.")
    if hardware:
        notes.append("Each cell: the tensor element (coordinates) that register of that lane holds.")
        if copies > 1:
            notes.append(f"Each element is held by {copies} registers/lanes/warps; a hatched cell holds a copy of an "
                         "element that a lower index already holds.")
    else:
        notes.append(f"T<thread>:<register>, thread = lane + warp x {T} lanes" + ("; B<n>: the CTA." if B > 1 else "."))
        if copies > 1:
            notes.append(f"Each element is held by {copies} threads/registers: its cell lists them and is split into "
                         "one stripe per holder.")
    return stack([text_lines(notes[:1]), Panel(8 * 96, y, "".join(parts)), text_lines(notes[1:])], gap=4)


def bank_legend(element_bits: int, hardware: bool, copies: int) -> Panel:
    parts = [_swatch((b % 16) * 52, (b // 16) * 16, palette.css(palette.bank_hsl(b)), str(b)) for b in range(BANKS)]
    notes = [f"Colour: shared-memory bank (32 banks of 4 bytes; {element_bits}-bit elements)."]
    after = ["Each cell: the element stored at that offset." if hardware else
             "Each cell: the element's offset in shared memory (in elements)."]
    if copies > 1:
        after.append(f"Each element is stored at {copies} offsets; hatched offsets hold a copy.")
    return stack([text_lines(notes), Panel(16 * 52, 34, "".join(parts)), text_lines(after)], gap=4)


def layout_panel(layout, use_hw_view: bool = False, element_bits: int = 16, title=None,
                 max_cols: int | None = None) -> Panel:
    """Title, note, grid and legend of one layout's view; `max_cols`: at most that many cells across in a
    distributed tensor view (tiles otherwise)."""
    shared = layout.has_in_dim("offset")
    sizes = out_sizes(layout)
    if shared:
        cells = (shared_hardware_cells if use_hw_view else shared_tensor_cells)(layout, element_bits)
        legend = bank_legend(element_bits, use_hw_view,
                             1 << (layout.get_total_in_dim_size_log2() - layout.get_matrix_rank()))
    else:
        cells = distributed_hardware_cells(layout) if use_hw_view else distributed_tensor_cells(layout, max_cols)
        _, R, T, W, B = hardware_dims(layout)
        copies = 1 << (layout.get_total_in_dim_size_log2() - layout.get_matrix_rank())
        legend = distributed_legend(T, W, B, copies, use_hw_view)
    view = "hardware view" if use_hw_view else "tensor view"
    heading = [f"{'x'.join(map(str, sizes))} {view}" + (f": {title}" if title else "")]
    parts = [text_lines(heading, cls="t", width_chars=90)]
    if use_hw_view:
        parts.append(text_lines(["Rows: 128-byte lines of shared memory (labelled with their first offset); columns: "
                                 "the elements of a line, headed by their bank." if shared else
                                 "Rows: the registers of each warp; columns: lanes."]))
    if cells.note:
        parts.append(text_lines([cells.note]))
    parts += [grid_panel(cells), legend]
    return stack(parts, gap=8)
