"""A conversion as a picture: the source and destination layouts side by side, and below them the tensor with
each element coloured by how far it travels (stays in its thread, moves to another lane of the warp, to another
warp, to another CTA) and labelled `source holder -> destination holder`."""
from __future__ import annotations

import numpy as np

from .small import hardware_dims, out_sizes
from .svg import (
    DETAIL_LIMIT,
    Cells,
    Holders,
    Panel,
    _holder_names,
    _swatch,
    _tensor_axes,
    document,
    grid_panel,
    layout_panel,
    stack,
    tensor_grid,
    text_lines,
)

MOVES = ("stays in its thread", "moves between lanes of a warp", "moves between warps", "moves between CTAs")
MOVE_FILLS = ("#cfe8cf", "#ffe08a", "#f4a09c", "#c9a0f4")


def _first_holders(layout, n: int):
    layout, R, T, W, B = hardware_dims(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    holders = Holders([int(c) for c in row_major.flat_bases()])
    hw, ok = holders.first(np.arange(n, dtype=np.int64), 1)
    return hw[:, 0], ok, (R, T, W, B)


def moves_cells(src, dst) -> Cells | None:
    """Per element: the first thread holding it in each layout, and the category of the move; None when the
    tensor is too large to draw element by element."""
    sizes = out_sizes(src)
    rows, cols = tensor_grid(sizes)
    n = rows * cols
    if n > DETAIL_LIMIT:
        return None
    s_hw, s_ok, (R1, T1, W1, B1) = _first_holders(src, n)
    d_hw, d_ok, (R2, T2, W2, B2) = _first_holders(dst, n)
    s_block, d_block = s_hw // (R1 * T1 * W1), d_hw // (R2 * T2 * W2)
    s_warp, d_warp = (s_hw // (R1 * T1)) % W1, (d_hw // (R2 * T2)) % W2
    s_lane, d_lane = (s_hw // R1) % T1, (d_hw // R2) % T2
    kind = np.where(s_block != d_block, 3, np.where(s_warp != d_warp, 2, np.where(s_lane != d_lane, 1, 0)))
    kind[~(s_ok & d_ok)] = -1
    names_s = _holder_names(s_hw, R1, T1, W1, B1)
    names_d = _holder_names(d_hw, R2, T2, W2, B2)
    lines = [(f"{a}>", b) for a, b in zip(names_s, names_d)]
    row_labels, col_labels, groups = _tensor_axes(sizes, rows, cols, 1, 1)

    def colour(i: int):
        return f"mv{i}", f"fill:{MOVE_FILLS[i]}"
    return Cells(rows, cols, lines, kind[:, None], None, row_labels, col_labels, groups, colour)


def _legend(counts) -> Panel:
    parts, x = [], 0
    for i, (name, fill) in enumerate(zip(MOVES, MOVE_FILLS)):
        text = f"{name} ({counts[i]})"
        parts.append(_swatch(x, 0, fill, text))
        x += 40 + 7 * len(text)
    return Panel(x, 20, "".join(parts))


def render_convert_svg(src, dst, src_title: str, dst_title: str, verdict: str, moves, element_bits: int, write):
    panels = [text_lines([f"convert: {verdict}"], cls="t", width_chars=120), text_lines(list(moves) or ["nothing moves"]),
              stack([layout_panel(src, False, element_bits, f"source {src_title}"),
                     layout_panel(dst, False, element_bits, f"destination {dst_title}")], horizontal=True, gap=40)]
    cells = moves_cells(src, dst)
    if cells is None:
        panels.append(text_lines(["The tensor has more elements than a picture shows one by one; the per-element "
                                  "moves are left out (the two layouts above are drawn in tiles)."]))
    else:
        counts = [int((cells.fills[:, 0] == i).sum()) for i in range(len(MOVES))]
        panels += [text_lines(["What moves: each element's first source holder > first destination holder"],
                              cls="t"), grid_panel(cells), _legend(counts)]
    write(document(stack(panels, gap=12)).encode())
