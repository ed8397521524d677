"""The four views for small layouts in plain Python, byte-identical to the numpy renderers.

A 16x16 tile is printed faster than numpy can be imported, so the CLI starts in well under a tenth of a second;
the numpy renderers take over above SMALL_LIMIT entries (see ``render_layout``)."""
from __future__ import annotations

from ..engine.bits import log2
from ..engine.gf2 import span

HW_DIMS = ("register", "lane", "warp", "block")


def _coords(value: int, sizes, sep: str) -> str:
    """'(c0<sep>c1...)' with component i right-aligned to the digit count of sizes[i] (first size lowest bits)."""
    parts = []
    for s in sizes:
        parts.append(str(value & (s - 1)).rjust(len(str(s))))
        value >>= s.bit_length() - 1
    return "(" + sep.join(parts) + ")"


def row_brackets(sizes):
    """Triton's framing of the tensor view: row q (a run of the last dimension) opens brackets(q) brackets and
    closes brackets(q + 1); brackets(q) = 1 + the number of leading dimensions whose index wraps to 0 at row q."""
    nrows, strides, s = 1, [], 1
    for size in reversed(sizes[:-1]):
        s *= size
        strides.append(s)
        nrows *= size

    def brackets(q):
        q %= nrows
        return 1 + sum(1 for st in strides if q % st == 0)
    return brackets


def _rows(sizes, cells, sep: str, write, first: int = 0, brackets=None) -> None:
    """Row-major cells framed into Triton's tensor-view lines; `cells` may be the rows from row `first` on (a
    chunk of a streamed view)."""
    rank, row_len = len(sizes), sizes[-1]
    brackets = brackets or row_brackets(sizes)
    lines = []
    for k in range(len(cells) // row_len):
        q = first + k
        o = brackets(q)
        lines.append("[" * o + " " * (rank - o) + sep.join(cells[k * row_len:(k + 1) * row_len])
                     + "]" * brackets(q + 1) + "\n")
    write("".join(lines).encode())


def hardware_dims(layout):
    """(layout with in dims in register, lane, warp, block order, and the sizes R, T, W, B; 1 where absent)."""
    layout = layout.transpose_ins([d for d in HW_DIMS if layout.has_in_dim(d)])
    R, T, W, B = (layout.get_in_dim_size(d) if layout.has_in_dim(d) else 1 for d in HW_DIMS)
    return layout, R, T, W, B


def out_sizes(layout):
    return [layout.get_out_dim_size(d) for d in layout.out_dims]


def distributed_tensor_view(layout, write) -> None:
    layout, R, T, W, B = hardware_dims(layout)
    sizes = out_sizes(layout)
    row_major = layout.transpose_outs(list(reversed(layout.out_dims)))
    n = 1
    for s in sizes:
        n *= s
    width = len(str(W * T)) + len(str(R)) + 2 + (len(str(B)) + 2 if B > 1 else 0)
    reg_bits, threads = log2(R), T * W
    held: list[list[str]] = [[] for _ in range(n)]
    for x, elem in enumerate(span(row_major.flat_columns())):
        who = x >> reg_bits
        text = f"T{who % threads}:{x & (R - 1)}"
        if B > 1:
            text = f"B{who // threads}:" + text
        held[elem].append(text.rjust(width))
    _rows(sizes, ["|".join(h) for h in held], ", ", write)


def distributed_hardware_view(layout, write) -> None:
    layout, R, T, W, B = hardware_dims(layout)
    sizes = out_sizes(layout)
    cells = [_coords(v, sizes, ",") for v in span(layout.flat_columns())]
    out = []
    for g in range(B * W):
        b, w = divmod(g, W)
        out.append(f"Block{b}:\nWarp{w}:\n" if B > 1 and w == 0 else f"Warp{w}:\n")
        base = g * T * R
        for k in range(R):
            out.append(", ".join(cells[base + k:base + T * R:R]) + "\n")
    write("".join(out).encode())


def shared_dims(layout):
    """(layout with in dims offset, block; tensor sizes; offsets; blocks; elements; elements per block)."""
    layout = layout.transpose_ins([d for d in ("offset", "block") if layout.has_in_dim(d)])
    sizes = out_sizes(layout)
    offsets = layout.get_in_dim_size("offset") if layout.has_in_dim("offset") else 1
    blocks = layout.get_in_dim_size("block") if layout.has_in_dim("block") else 1
    n = 1
    for s in sizes:
        n *= s
    return layout, sizes, offsets, blocks, n, n // blocks


def shared_tensor_view(layout, write) -> None:
    layout, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    if block_size == 0:
        # more blocks than elements: Triton's blockSize = N / B is 0 and no cell is ever written
        cells = [""] * n
    else:
        image = span(layout.flat_columns())
        cells = [_coords(image[e % block_size + offsets * (e // block_size)], sizes, ":") for e in range(n)]
    _rows(sizes, cells, ",", write)


def shared_hardware_view(layout, write) -> None:
    layout, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    image = span(layout.flat_columns())
    out = []
    for b in range(blocks):
        out.append(f"Block: {b}:\n")
        out.extend(f"Offset: {o} -> {_coords(image[o + offsets * b], sizes, ',')}\n" for o in range(block_size))
    write("".join(out).encode())


def entries(layout) -> int:
    """How many hardware indices and tensor elements a view of `layout` touches (the cost of this module)."""
    n = 1
    for d in layout.out_dims:
        n *= layout.get_out_dim_size(d)
    return max(n, 1 << layout.get_total_in_dim_size_log2())
