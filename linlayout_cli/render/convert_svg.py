"""A conversion as a picture that fits a screen SCREEN_WIDTH pixels wide: the verdict, then what moves (the tensor
with each element coloured by how far it travels: stays in its thread, moves to another lane of the warp, to
another warp, to another CTA; its legend beside it), the hardware bits that move, and the source and destination
layouts.

Every grid is drawn at the finest granularity that fits the width: one cell per element (labelled `source holder >`
over `destination holder`) where that fits, else power-of-two tiles as the layout pictures draw large tensors (a
tile of what moves is coloured by the farthest move of its elements and labelled with the warps holding them)."""
from __future__ import annotations

import numpy as np

from .small import hardware_dims, out_sizes
from .svg import (
    CHAR_W,
    DETAIL_LIMIT,
    MARGIN,
    Cells,
    Holders,
    Panel,
    _holder_names,
    _swatch,
    _tensor_axes,
    _tile_elements,
    document,
    grid_panel,
    grid_width,
    layout_panel,
    stack,
    tensor_grid,
    text_lines,
    tile_shape,
    warp_label,
)

MOVES = ("stays in its thread", "moves between lanes of a warp", "moves between warps", "moves between CTAs")
MOVE_FILLS = ("#cfe8cf", "#ffe08a", "#f4a09c", "#c9a0f4")
SCREEN_WIDTH = 1920             # px: the whole picture fits a screen this wide
MAX_COLUMNS = 32                # cells across a grid at most (larger tensors in tiles): an overview, not a wall
MOVES_LIMIT = 1 << 20           # elements looked at one by one for what moves; above, each tile's first element
CHUNK = 1 << 16                 # elements looked at together
GAP = 24


def _first_holders(layout, elements: np.ndarray):
    """(the first holder of each element, whether it is held, (R, T, W, B))."""
    layout, R, T, W, B = hardware_dims(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    holders = Holders([int(c) for c in row_major.flat_bases()])
    hw, ok = holders.first(elements, 1)
    return hw[:, 0], ok, (R, T, W, B)


def _move_kinds(s_hw, d_hw, s_dims, d_dims) -> np.ndarray:
    """0 stays in its thread, 1 another lane, 2 another warp, 3 another CTA (by first holders)."""
    (R1, T1, W1, _), (R2, T2, W2, _) = s_dims, d_dims
    s_block, d_block = s_hw // (R1 * T1 * W1), d_hw // (R2 * T2 * W2)
    s_warp, d_warp = (s_hw // (R1 * T1)) % W1, (d_hw // (R2 * T2)) % W2
    s_lane, d_lane = (s_hw // R1) % T1, (d_hw // R2) % T2
    return np.where(s_block != d_block, 3, np.where(s_warp != d_warp, 2, np.where(s_lane != d_lane, 1, 0)))


def _colour(i: int):
    return f"mv{i}", f"fill:{MOVE_FILLS[i]}"


def moves_cells(src, dst, max_cols: int | None = None):
    """(cells, moves counted per kind, what is counted): per element, the first thread holding it in each layout
    and how far it moves; at tile granularity (more than DETAIL_LIMIT elements, or more than `max_cols` columns)
    each tile takes the farthest move of its elements and lists the warps holding them. Above MOVES_LIMIT
    elements only each tile's first element is looked at."""
    sizes = out_sizes(src)
    rows, cols = tensor_grid(sizes)
    n = rows * cols
    tr, tc = tile_shape(rows, cols, max_cols=max_cols)
    row_labels, col_labels, groups = _tensor_axes(sizes, rows, cols, tr, tc)
    if (tr, tc) == (1, 1) and n <= DETAIL_LIMIT:
        elements = np.arange(n, dtype=np.int64)
        s_hw, s_ok, s_dims = _first_holders(src, elements)
        d_hw, d_ok, d_dims = _first_holders(dst, elements)
        kind = _move_kinds(s_hw, d_hw, s_dims, d_dims)
        kind[~(s_ok & d_ok)] = -1
        lines = [(f"{a}>", b) for a, b in zip(_holder_names(s_hw, *s_dims), _holder_names(d_hw, *d_dims))]
        counts = [int((kind == i).sum()) for i in range(len(MOVES))]
        return Cells(rows, cols, lines, kind[:, None], None, row_labels, col_labels, groups, _colour), counts, "elements"
    return _moves_tiles(src, dst, rows, cols, tr, tc, row_labels, col_labels, groups)


def _moves_tiles(src, dst, rows, cols, tr, tc, row_labels, col_labels, groups):
    every = rows * cols <= MOVES_LIMIT
    tiles = (rows // tr) * (cols // tc)
    farthest = np.full(tiles, -1, dtype=np.int64)
    counts = np.zeros(len(MOVES), dtype=np.int64)
    warps: list = [None, None]                          # source, destination: (tiles, warp groups) bool
    starts = range(0, rows * cols, CHUNK) if every else (0,)
    for start in starts:                                # in chunks: memory stays bounded
        if every:
            elements = np.arange(start, min(start + CHUNK, rows * cols), dtype=np.int64)
            tile = (elements // cols // tr) * (cols // tc) + (elements % cols) // tc
        else:
            elements = _tile_elements(rows, cols, tr, tc)
            tile = np.arange(len(elements), dtype=np.int64)
        s_hw, s_ok, s_dims = _first_holders(src, elements)
        d_hw, d_ok, d_dims = _first_holders(dst, elements)
        kind = _move_kinds(s_hw, d_hw, s_dims, d_dims)
        kind[~(s_ok & d_ok)] = -1
        np.maximum.at(farthest, tile, kind)
        counts += np.bincount(kind[kind >= 0], minlength=len(MOVES))
        for k, (hw, ok, (R, T, W, B)) in enumerate(((s_hw, s_ok, s_dims), (d_hw, d_ok, d_dims))):
            if warps[k] is None:
                warps[k] = np.zeros((tiles, B * W), dtype=bool)
            warps[k][tile[ok], (hw // (R * T))[ok]] = True
    labels = [[warp_label(np.flatnonzero(row).tolist(), dims[2], dims[3]) for row in w]
              for w, dims in zip(warps, (s_dims, d_dims))]
    lines = [(f"{a}>", b) if k >= 0 else ("-",) for a, b, k in zip(*labels, farthest.tolist())]
    what = "elements" if every else "tiles (first elements)"
    note = (f"Drawn at tile granularity: each cell is a {tr}x{tc} tile of elements ({rows}x{cols} elements in "
            f"{rows // tr}x{cols // tc} tiles), coloured by the farthest move of "
            + ("its elements" if every else "its first element (the tensor is too large to look at every one)")
            + " and labelled with the warps holding them in the source > in the destination.")
    return (Cells(rows // tr, cols // tc, lines, farthest[:, None], None, row_labels, col_labels, groups, _colour,
                  note), counts.tolist(), what)


def _legend(counts, what: str) -> Panel:
    """The four kinds of move, one per line, with how many elements (or tiles) move that far."""
    parts = [_swatch(0, i * 18, fill, f"{name} ({counts[i]} {what})")
             for i, (name, fill) in enumerate(zip(MOVES, MOVE_FILLS))]
    width = max(18 + int(6.1 * len(f"{name} ({counts[i]} {what})")) for i, name in enumerate(MOVES)) + 8
    return Panel(width, len(MOVES) * 18, "".join(parts))


def _fitting(build, cols: int, budget: int):
    """build(max_cols) with the most columns (None: all of them, at most MAX_COLUMNS) that keeps it at most `budget`
    px wide; `build` returns None for a grid it sees is too wide before drawing it."""
    max_cols = None if cols <= MAX_COLUMNS else MAX_COLUMNS
    while True:
        panel = build(max_cols)
        if panel is not None and (panel.width <= budget or (max_cols or cols) <= 1):
            return panel
        max_cols = (max_cols or cols) // 2


def _moves_panel(src, dst, budget: int) -> Panel:
    """What moves, with its legend beside the grid."""
    cols = tensor_grid(out_sizes(src))[1]

    def build(max_cols):
        cells, counts, what = moves_cells(src, dst, max_cols)
        legend = _legend(counts, what)
        if grid_width(cells) + GAP + legend.width > budget and (max_cols or cols) > 1:
            return None
        head = ["What moves: each element's first source holder > first destination holder"
                if cells.note is None else "What moves"]
        parts = [text_lines(head, cls="t")] + ([text_lines([cells.note], width_chars=150)] if cells.note else [])
        return stack(parts + [stack([grid_panel(cells), legend], horizontal=True, gap=GAP)], gap=8)
    return _fitting(build, cols, budget)


def _layouts_panel(src, dst, src_title: str, dst_title: str, element_bits: int, budget: int) -> Panel:
    """The source and destination tensor views, side by side where both fit, else one above the other."""
    cols = tensor_grid(out_sizes(src))[1]
    pair = [_fitting(lambda max_cols, ll=layout, t=title: layout_panel(ll, False, element_bits, t, max_cols),
                     cols, budget)
            for layout, title in ((src, f"source {src_title}"), (dst, f"destination {dst_title}"))]
    side = sum(p.width for p in pair) + 40 <= budget
    return stack(pair, horizontal=side, gap=40)


def render_convert_svg(src, dst, src_title: str, dst_title: str, verdict: str, moves, element_bits: int, write):
    budget = SCREEN_WIDTH - 2 * MARGIN
    panels = [text_lines([f"convert: {verdict}"], cls="t", width_chars=int(budget / 7.8)),
              _moves_panel(src, dst, budget),
              text_lines(list(moves) or ["nothing moves"], width_chars=int(budget / CHAR_W)),
              _layouts_panel(src, dst, src_title, dst_title, element_bits, budget)]
    write(document(stack(panels, gap=16)).encode())
