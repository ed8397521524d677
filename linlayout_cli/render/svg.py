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
from dataclasses import dataclass

import numpy as np

from ..engine.gf2 import null_space
from . import palette
from .apply import images, span_table, split_coords
from .color import bank
from .distributed import _reduced_echelon
from .json_view import _solver
from .small import hardware_dims, out_sizes, shared_dims

DETAIL_LIMIT = 1 << 16          # cells drawn one per element up to this many
TILE_TARGET = 1 << 12           # at most this many tiles above it (64 x 64)
MAX_ASPECT = 16
MAX_LINES = 4                   # holder lines per cell (a cell with more holders says "+N")
MAX_STRIPES = 8                 # holder colour stripes per cell
WRAP_1D = 64                    # a rank-1 tensor longer than this is drawn in rows of this many elements
FONT = 10                       # px, monospace
CHAR_W = 6.1                    # px per character at FONT
LINE_H = 13                     # px per label line
PAD = 6
MARGIN = 12
BANKS = 32


# ----------------------------------------------------------------------------------------- composition


@dataclass(frozen=True)
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
            ".g{fill:none;stroke:#fff;stroke-width:1}.hot{fill:none;stroke:#d00;stroke-width:2}"
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
    return html.escape(text, quote=True)


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


@dataclass(frozen=True)
class Cells:
    """What a grid shows, row-major: each cell's label lines, its fill classes (one stripe each) and whether it is
    hatched; axis labels; groups of rows drawn as separate blocks with a heading (warps, slices, CTAs)."""
    rows: int
    cols: int
    lines: list                     # per cell: tuple of label lines
    fills: list                     # per cell: tuple of CSS class names
    hatched: list | None
    row_labels: list
    col_labels: list
    groups: list                    # (first row, heading) for each block of rows
    styles: dict                    # class -> CSS rule
    note: str | None = None
    bold_cols: frozenset = frozenset()


def _thread_class(group: int, lane: int, lanes: int, styles: dict) -> str:
    name = f"k{group}_{lane}"
    if name not in styles:
        styles[name] = "fill:" + palette.css(palette.thread_hsl(group, lane, lanes))
    return name


def _bank_class(b: int, styles: dict) -> str:
    name = f"b{b}"
    if name not in styles:
        styles[name] = "fill:" + palette.css(palette.bank_hsl(b))
    return name


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


def tile_shape(rows: int, cols: int, cost=None) -> tuple[int, int]:
    """Elements per drawn cell (rows, cols): (1, 1) up to DETAIL_LIMIT cells; else power-of-two tiles leaving at
    most TILE_TARGET cells, the grid no more than MAX_ASPECT times taller than wide or wider than tall, and among
    those the shape of least `cost(tr, tc)` (e.g. warps per tile), then the squarest grid."""
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
    groups = [(0, None)]
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
        self.kernel = _reduced_echelon(null_space(columns))
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
        low = span_table(np.array(self.kernel[:bits], dtype=np.int64))
        hw = np.sort(x[:, None] ^ low[None, :], axis=1)[:, :count]
        return hw, ok


def _holder_names(hw: np.ndarray, R: int, T: int, W: int, B: int) -> list[str]:
    reg, lane, warp, block = hw % R, (hw // R) % T, (hw // (R * T)) % W, hw // (R * T * W)
    thread = lane + warp * T
    if B > 1:
        return [f"B{b}:T{t}:{r}" for b, t, r in zip(block.tolist(), thread.tolist(), reg.tolist())]
    return [f"T{t}:{r}" for t, r in zip(thread.tolist(), reg.tolist())]


def _holder_lines(names: list[str], held: int, copies: int) -> tuple[str, ...]:
    if not held:
        return ("-",)
    if copies <= MAX_LINES:
        return tuple(names[:copies])
    return tuple(names[:MAX_LINES - 1]) + (f"+{copies - MAX_LINES + 1} more",)


def distributed_tensor_cells(layout) -> Cells:
    layout, R, T, W, B = hardware_dims(layout)
    sizes = out_sizes(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    holders = Holders([int(c) for c in row_major.flat_bases()])
    rows, cols = tensor_grid(sizes)
    tr, tc = tile_shape(rows, cols, lambda tr, tc: len(_tile_warp_span(holders, cols, tr, tc, R * T)))
    row_labels, col_labels, groups = _tensor_axes(sizes, rows, cols, tr, tc)
    styles: dict = {}
    if (tr, tc) != (1, 1):
        return _distributed_tiles(holders, rows, cols, tr, tc, R, T, W, B, row_labels, col_labels, groups, styles)
    shown = min(holders.copies, MAX_STRIPES)
    hw, ok = holders.first(np.arange(rows * cols, dtype=np.int64), max(shown, min(holders.copies, MAX_LINES)))
    names = _holder_names(hw.reshape(-1), R, T, W, B)
    per = hw.shape[1]
    lane = ((hw // R) % T).tolist()
    group = (hw // (R * T)).tolist()
    lines, fills = [], []
    for i, held in enumerate(ok.tolist()):
        lines.append(_holder_lines(names[i * per:(i + 1) * per], held, holders.copies))
        fills.append(tuple(_thread_class(group[i][j], lane[i][j], T, styles) for j in range(shown)) if held
                     else ("none",))
    return Cells(rows, cols, lines, fills, None, row_labels, col_labels, groups, styles)


def _ranges(values) -> str:
    """'0-3,6' for [0, 1, 2, 3, 6]."""
    out, run = [], []
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
    shift = per_warp.bit_length() - 1
    units = [1 << j for j in range(tc.bit_length() - 1)] + [cols << j for j in range(tr.bit_length() - 1)]
    spread = [k >> shift for k in holders.kernel]
    if units:
        x_units, ok_units = holders.solve(np.array(units, dtype=np.int64))
        spread += [int(x) >> shift for x, ok in zip(x_units, ok_units) if ok]
    return sorted({int(s) for s in span_table(np.array(_reduced_echelon(spread), dtype=np.int64))})


def _distributed_tiles(holders: Holders, rows, cols, tr, tc, R, T, W, B, row_labels, col_labels, groups, styles):
    """Tiles labelled with the warps holding their elements. The holders of a tile's elements form an affine
    subspace; its warp bits are g0 ^ span(S), with S the same for every tile, so each tile costs one solve."""
    shift = (R * T).bit_length() - 1
    span = _tile_warp_span(holders, cols, tr, tc, R * T)
    firsts = _tile_elements(rows, cols, tr, tc)
    x0, ok = holders.solve(firsts)
    lines, fills = [], []
    for g0, held in zip((x0 >> shift).tolist(), ok.tolist()):
        found = sorted({g0 ^ s for s in span})
        if B > 1:
            by_block: dict = {}
            for g in found:
                by_block.setdefault(g // W, []).append(g % W)
            label = " ".join(f"B{b}:W{_ranges(ws)}" for b, ws in by_block.items())
        else:
            label = "W" + _ranges(found)
        lines.append((label,))
        fills.append(tuple(_thread_class(g, T // 2, T, styles) for g in found[:MAX_STRIPES]))
    note = (f"Drawn at tile granularity: each cell is a {tr}x{tc} tile of elements "
            f"({rows}x{cols} elements in {rows // tr}x{cols // tc} tiles), labelled with the warps holding them "
            f"and striped in their colours. Use --format html for every element.")
    return Cells(rows // tr, cols // tc, lines, fills, None, row_labels, col_labels, groups, styles, note)


def shared_tensor_cells(layout, element_bits: int) -> Cells:
    layout, sizes, offsets, blocks, n, _ = shared_dims(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    holders = Holders([int(c) for c in row_major.flat_bases()])
    rows, cols = tensor_grid(sizes)
    tr, tc = tile_shape(rows, cols)
    row_labels, col_labels, groups = _tensor_axes(sizes, rows, cols, tr, tc)
    styles: dict = {}
    elems = _tile_elements(rows, cols, tr, tc)
    shown = min(holders.copies, MAX_LINES)
    hw, ok = holders.first(elems, shown)
    offset, block = hw % offsets, hw // offsets
    lines, fills = [], []
    for i, held in enumerate(ok.tolist()):
        names = [(f"B{b}:" if blocks > 1 else "") + str(o) for o, b in zip(offset[i].tolist(), block[i].tolist())]
        lines.append(_holder_lines(names, held, holders.copies if (tr, tc) == (1, 1) else 1))
        fills.append((_bank_class(bank(int(offset[i, 0]), element_bits), styles),) if held else ("none",))
    note = None
    if (tr, tc) != (1, 1):
        note = (f"Drawn at tile granularity: each cell is a {tr}x{tc} tile of elements ({rows}x{cols} elements in "
                f"{rows // tr}x{cols // tc} tiles), showing the offset and bank of the tile's first element. "
                "Use --format html for every element.")
    return Cells(len(range(0, rows, tr)), len(range(0, cols, tc)), lines, fills, None, row_labels, col_labels,
                 groups, styles, note)


def _coord_labels(values: np.ndarray, sizes) -> list[str]:
    coords = split_coords(values, sizes).T.tolist()
    return ["(" + ",".join(map(str, c)) + ")" for c in coords]


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
    labels = _coord_labels(images(fb, x), sizes)
    styles: dict = {}
    lane = (x // R) % T
    group = x // (R * T)
    fills = [(_thread_class(g, ln, T, styles),) for g, ln in zip(group.tolist(), lane.tolist())]
    hatched = ((x & lead) != 0).tolist() if lead else None
    groups = []
    for g in range(B * W):
        b, w = divmod(g, W)
        groups.append((g * len(regs), (f"CTA {b}, " if B > 1 else "") + f"warp {w}"))
    note = None
    if tr > 1:
        note = (f"Drawn at tile granularity: each row stands for {tr} registers and shows the first of them "
                f"(register r, r+{tr}, ...). Use --format html for every register.")
    return Cells(B * W * len(regs), T, [(s,) for s in labels], fills, hatched, [f"r{r}" for r in regs.tolist()] * (B * W),
                 [str(t) for t in range(T)], groups, styles, note)


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
    labels = _coord_labels(images(fb, x), sizes)
    styles: dict = {}
    fills = [(_bank_class(bank(int(o), element_bits), styles),) for o in (x % offsets).tolist()]
    hatched = ((x & lead) != 0).tolist() if lead else None
    groups = [(b * len(starts), f"CTA {b}" if blocks > 1 else None) for b in range(blocks)]
    col_labels = [f"b{bank(c, element_bits)}" if c * element_bits % 32 == 0 else "" for c in range(per_row)]
    note = None
    if tr > 1:
        note = (f"Drawn at tile granularity: each row stands for {tr} lines of {per_row} elements and shows the "
                "first of them. Use --format html for every offset.")
    return Cells(blocks * len(starts), per_row, [(s,) for s in labels], fills, hatched,
                 [str(int(s)) for s in starts.tolist()] * blocks, col_labels, groups, styles, note,
                 frozenset(range(per_row)))


# ----------------------------------------------------------------------------------------- drawing


def _cell_size(cells: Cells) -> tuple[int, int]:
    chars = max((len(s) for ls in cells.lines for s in ls), default=1)
    chars = max(chars, max((len(s) for s in cells.col_labels), default=1) * 9 // 10)
    lines = max((len(ls) for ls in cells.lines), default=1)
    return max(22, int(chars * CHAR_W + 2 * PAD - 2)), lines * LINE_H + 5


def grid_panel(cells: Cells) -> Panel:
    """The grid with its axes: column indices on top, row indices left, a heading above each group of rows."""
    cw, ch = _cell_size(cells)
    label_w = int(max((len(s) for s in cells.row_labels), default=1) * 5.6) + 8
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
    height = y
    width = label_w + cells.cols * cw
    paths: dict = {}
    texts = []
    for r, y0 in enumerate(ys):
        line_parts: list[list[str]] = [[] for _ in range(MAX_LINES)]
        for c in range(cells.cols):
            i = r * cells.cols + c
            x0 = label_w + c * cw
            fills = cells.fills[i]
            step = cw / len(fills)
            for j, cls in enumerate(fills):
                if cls == "none":
                    continue
                sx = x0 + j * step
                paths.setdefault(cls, []).append(f"M{sx:.4g} {y0}h{step:.4g}v{ch}h-{step:.4g}z")
            for k, s in enumerate(cells.lines[i]):
                line_parts[k].append(f'<tspan x="{x0 + cw // 2}">{s}</tspan>')
        for k, parts in enumerate(line_parts):
            if parts:
                texts.append(f'<text y="{y0 + LINE_H * (k + 1) - 1}">{"".join(parts)}</text>')
    body = [f'<path class="{cls}" d="{"".join(d)}"/>' for cls, d in paths.items()]
    if cells.hatched:
        d = "".join(f"M{label_w + (i % cells.cols) * cw} {ys[i // cells.cols]}h{cw}v{ch}h-{cw}z"
                    for i, h in enumerate(cells.hatched) if h)
        if d:
            body.append(f'<path fill="url(#hatch)" d="{d}"/>')
    grid = []
    for y0 in ys:
        grid.append(f"M{label_w} {y0}h{cells.cols * cw}")
    for c in range(cells.cols + 1):
        grid.append(f"M{label_w + c * cw} {head_h}V{height}")
    body.append(f'<path class="g" d="{"".join(grid)}"/>')
    body.append('<g text-anchor="middle">' + "".join(texts) + "</g>")
    body.append('<g text-anchor="middle" class="ax">' + "".join(
        f'<text x="{label_w + c * cw + cw // 2}" y="{head_h - 4}">{esc(s)}</text>'
        for c, s in enumerate(cells.col_labels) if s) + "</g>")
    body.append('<g text-anchor="end" class="ax">' + "".join(
        f'<text x="{label_w - 4}" y="{y0 + ch // 2 + 3}">{esc(s)}</text>' for y0, s in zip(ys, cells.row_labels))
        + "</g>")
    body.append("".join(f'<text class="n" x="{label_w}" y="{y0 + 12}">{esc(t)}</text>' for y0, t in headings))
    return Panel(width, height, "".join(body), tuple(cells.styles.items()))


def _swatch(x: int, y: int, fill: str, text: str, w: int = 14) -> str:
    return (f'<rect x="{x}" y="{y}" width="{w}" height="12" style="fill:{fill}" stroke="#999" stroke-width=".5"/>'
            f'<text x="{x + w + 4}" y="{y + 10}">{esc(text)}</text>')


def distributed_legend(T: int, W: int, B: int, copies: int, hardware: bool) -> Panel:
    """Warp hues, the lane shades of warp 0, and what stripes and hatching mean."""
    parts, y = ['<text class="n" y="10">Colour: hue = warp, shade = lane (lane 0 lightest)</text>'], 18
    groups = B * W
    shown = min(groups, 16)
    for g in range(shown):
        b, w = divmod(g, W)
        x = (g % 8) * 96
        parts.append(_swatch(x, y + (g // 8) * 16, palette.css(palette.thread_hsl(g, T // 2, T)),
                             (f"B{b} " if B > 1 else "") + f"warp {w}"))
    y += ((shown + 7) // 8) * 16
    if groups > shown:
        parts.append(f'<text class="n" y="{y + 10}">... {groups - shown} more warps, hues continuing by the '
                     'golden angle</text>')
        y += 16
    lanes = [0, T // 4, T // 2, 3 * T // 4, T - 1] if T > 4 else list(range(T))
    for i, ln in enumerate(lanes):
        parts.append(_swatch(i * 96, y, palette.css(palette.thread_hsl(0, ln, T)), f"lane {ln}"))
    y += 18
    if copies > 1:
        what = ("Each element is held by %d threads/registers. " % copies) + (
            "A hatched cell holds a copy of an element that a lower register, lane, warp or CTA already holds."
            if hardware else "A cell is split into one stripe per holder and lists them (T<thread>:<register>, "
            "thread = lane + warp x lanes).")
        parts.append(f'<text class="n" y="{y + 10}">{esc(what)}</text>')
        y += 16
    elif not hardware:
        parts.append(f'<text class="n" y="{y + 10}">T&lt;thread&gt;:&lt;register&gt;, thread = lane + warp x '
                     f'{T} lanes{"; B<n>: the CTA" if B > 1 else ""}</text>')
        y += 16
    return Panel(8 * 96, y, "".join(parts))


def bank_legend(element_bits: int, hardware: bool, copies: int) -> Panel:
    parts = [f'<text class="n" y="10">Colour: shared-memory bank (32 banks of 4 bytes; {element_bits}-bit '
             f'elements){"" if hardware else ". Label: the element offset"}</text>']
    for b in range(BANKS):
        parts.append(_swatch((b % 16) * 52, 18 + (b // 16) * 16, palette.css(palette.bank_hsl(b)), str(b)))
    y = 18 + 2 * 16
    if copies > 1:
        parts.append(f'<text class="n" y="{y + 10}">Each element is stored at {copies} offsets; hatched offsets '
                     "hold a copy.</text>")
        y += 16
    return Panel(16 * 52, y, "".join(parts))


def layout_panel(layout, use_hw_view: bool = False, element_bits: int = 16, title=None) -> Panel:
    """Title, note, grid and legend of one layout's view."""
    shared = layout.has_in_dim("offset")
    sizes = out_sizes(layout)
    if shared:
        cells = (shared_hardware_cells if use_hw_view else shared_tensor_cells)(layout, element_bits)
        legend = bank_legend(element_bits, use_hw_view, 1 if layout.is_injective() else 2)
    else:
        cells = (distributed_hardware_cells if use_hw_view else distributed_tensor_cells)(layout)
        _, R, T, W, B = hardware_dims(layout)
        copies = 1 << (layout.get_total_in_dim_size_log2() - layout.get_matrix_rank())
        legend = distributed_legend(T, W, B, copies, use_hw_view)
    view = "hardware view" if use_hw_view else "tensor view"
    heading = [f"{'x'.join(map(str, sizes))} {view}" + (f": {title}" if title else "")]
    parts = [text_lines(heading, cls="t", width_chars=90)]
    if use_hw_view:
        parts.append(text_lines(["Each cell: the tensor element (coordinates) held there. " + (
            "Rows: 128-byte lines of shared memory, column headers: bank." if shared
            else "Rows: registers, columns: lanes, one block per warp.")]))
    if cells.note:
        parts.append(text_lines([cells.note]))
    parts += [grid_panel(cells), legend]
    return stack(parts, gap=8)


def render_svg(layouts, use_hw_view: bool, element_bits, write) -> None:
    """One SVG of one or more (title, layout) pairs, stacked; element_bits: one per layout."""
    panel = stack([layout_panel(ll, use_hw_view, bits, title) for (title, ll), bits in zip(layouts, element_bits)],
                  gap=40)
    write(document(panel).encode())
