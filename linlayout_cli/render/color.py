"""Triton's text views coloured for a terminal: each cell's background by warp (hue) and lane (shade), shared
layouts by bank; replicated cells underlined. Only escape codes are added: with them removed the text is Triton's,
byte for byte.

The views are coloured as they stream: every complete line the renderer writes is re-read cell by cell (a cell's
holders, or its position, say who it is), so colour costs one regex pass over the text and nothing else. The escape
codes come from rich, which also downgrades the colours to what the terminal supports.
"""
from __future__ import annotations

import re

from . import palette

_HOLDER = rb"(?:B\d+:)?T\d+:\d+"
DISTRIBUTED_CELL = re.compile(_HOLDER + rb"(?:\| *" + _HOLDER + rb")*")
HOLDER = re.compile(rb"(?:B(\d+):)?T(\d+):\d+")
COORDS = re.compile(rb"\([^()]*\)")
OFFSET_LINE = re.compile(rb"Offset: (\d+) -> ")


def color_system(always: bool):
    """rich's colour system for standard output (None: no colour). `always` colours even a file or a pipe, with at
    least 256 colours (rich would pick 8 for TERM=xterm, too few to tell warps apart)."""
    from rich.color import ColorSystem
    from rich.console import Console
    name = Console(force_terminal=True if always else None).color_system
    systems = {"standard": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT, "truecolor": ColorSystem.TRUECOLOR,
               "windows": ColorSystem.WINDOWS}
    if always:
        return ColorSystem.TRUECOLOR if name == "truecolor" else ColorSystem.EIGHT_BIT
    return systems.get(name) if name is not None else None


class Styles:
    """Escape-code pairs (start, end) for a colour, made once per colour by rich."""

    def __init__(self, system):
        self.system = system
        self.cache: dict = {}

    def __call__(self, hsl, underline: bool = False) -> tuple[bytes, bytes]:
        key = (hsl, underline)
        pair = self.cache.get(key)
        if pair is None:
            from rich.color import Color
            from rich.style import Style
            style = Style(color="black", bgcolor=Color.from_rgb(*palette.rgb(hsl)), underline=underline)
            start, end = style.render("\x00", color_system=self.system).split("\x00")
            pair = self.cache[key] = (start.encode(), end.encode())
        return pair

    def paint(self, text: bytes, hsl, underline: bool = False) -> bytes:
        start, end = self(hsl, underline)
        return start + text + end


class LineBuffer:
    """write(bytes) that hands whole lines to `paint_lines` (renderers may split a write anywhere). A painter with
    `safe_cuts` (bytes after which its cells may be split) also gets the part of a long line up to the last such
    byte once LONG_LINE bytes are waiting: a view whose line is 100 MB (a heavily replicated layout) is coloured
    in bounded pieces, never held whole."""
    LONG_LINE = 1 << 16

    def __init__(self, paint_lines, write):
        self.paint_lines, self.write = paint_lines, write
        self.cuts = getattr(paint_lines, "safe_cuts", ())
        self.pieces: list[bytes] = []               # what waits for its line's end (joined once, not per write)
        self.waiting = 0

    def __call__(self, data: bytes) -> None:
        if self.cuts and len(data) > self.LONG_LINE:    # one write of a whole long line: in pieces
            for k in range(0, len(data), self.LONG_LINE):
                self(data[k:k + self.LONG_LINE])
            return
        cut = data.rfind(b"\n") + 1
        if not cut:
            self.pieces.append(data)
            self.waiting += len(data)
            if self.cuts and self.waiting >= self.LONG_LINE:
                self._flush_long()
            return
        head = b"".join(self.pieces + [data[:cut]]) if self.pieces else data[:cut]
        self.pieces, self.waiting = ([data[cut:]], len(data) - cut) if cut < len(data) else ([], 0)
        self.write(self.paint_lines(head))

    def _flush_long(self) -> None:
        data = b"".join(self.pieces)
        cut = max(data.rfind(c) for c in self.cuts) + 1
        if cut:
            self.write(self.paint_lines(data[:cut]))
            data = data[cut:]
        self.pieces, self.waiting = [data], len(data)

    @property
    def rest(self) -> bytes:
        return b"".join(self.pieces)

    def close(self) -> None:
        rest = self.rest
        if rest:
            self.write(self.paint_lines(rest))
        self.pieces, self.waiting = [], 0


def _hardware_sizes(layout):
    from .small import hardware_dims
    _, R, T, W, B = hardware_dims(layout)
    return R, T, W, B


def _replicated(layout) -> bool:
    """Whether some element has several holders (the layout's kernel is not trivial)."""
    return not layout.is_injective()


def distributed_tensor(layout, styles: Styles):
    """Paint lines of a distributed tensor view: every holder by its own warp and lane."""
    R, T, W, B = _hardware_sizes(layout)

    def holder(m: re.Match, underline: bool) -> bytes:
        block = int(m.group(1)) if m.group(1) else 0
        thread = int(m.group(2))
        return styles.paint(m.group(0), palette.thread_hsl(block * W + thread // T, thread % T, T), underline)

    def cell(m: re.Match) -> bytes:
        text = m.group(0)
        if b"|" in text:
            return _underlined_join(text, holder, styles)
        return HOLDER.sub(lambda h: holder(h, False), text)

    return lambda lines: DISTRIBUTED_CELL.sub(cell, lines)


def _underlined_join(text: bytes, holder, styles: Styles) -> bytes:
    """A replicated cell: each holder in its colour, all underlined (the '|' and padding too)."""
    out = []
    for part in text.split(b"|"):
        stripped = part.lstrip(b" ")
        out.append(part[: len(part) - len(stripped)] + HOLDER.sub(lambda h: holder(h, True), stripped))
    start, end = styles(palette.COPY_GREY, True)
    return (start + b"|" + end).join(out)


def distributed_hardware(layout, styles: Styles):
    """Paint lines of a distributed hardware view: the cell in column `lane` of warp w's block is that lane's."""
    R, T, W, B = _hardware_sizes(layout)
    underline = _replicated(layout)
    state = {"group": 0}

    def paint(lines: bytes) -> bytes:
        out = []
        for line in lines.splitlines(keepends=True):
            if line.startswith((b"Warp", b"Block")):
                if line.startswith(b"Block"):
                    state["block"] = int(line[5:-2])
                else:
                    state["group"] = state.get("block", 0) * W + int(line[4:-2])
                out.append(line)
                continue
            cells = iter(range(T))                  # the line's cells, lane by lane (sub runs at once)
            group = state["group"]
            out.append(COORDS.sub(lambda c: styles.paint(
                c.group(0), palette.thread_hsl(group, next(cells), T), underline), line))  # noqa: B023
        return b"".join(out)
    return paint


def shared_tensor(layout, element_bits: int, styles: Styles):
    """Paint lines of a shared tensor view: the cell at position p shows offset p % (elements per block)."""
    from .small import shared_dims
    _, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    underline = _replicated(layout)
    state = {"position": 0}

    def cell(m: re.Match) -> bytes:
        p = state["position"]
        state["position"] = p + 1
        offset = p % block_size if block_size else 0
        return styles.paint(m.group(0), palette.bank_hsl(bank(offset, element_bits)), underline)

    return lambda lines: COORDS.sub(cell, lines)


def shared_hardware(layout, element_bits: int, styles: Styles):
    """Paint lines of a shared hardware view: 'Offset: o -> (..)' coloured by the bank of o."""
    underline = _replicated(layout)

    def paint(lines: bytes) -> bytes:
        out = []
        for line in lines.splitlines(keepends=True):
            m = OFFSET_LINE.match(line)
            if m is None:
                out.append(line)
                continue
            b = bank(int(m.group(1)), element_bits)
            hsl = palette.bank_hsl(b)
            out.append(line[:m.end()] + COORDS.sub(
                lambda c: styles.paint(c.group(0), hsl, underline), line[m.end():]))  # noqa: B023
        return b"".join(out)
    return paint


def bank(offset: int, element_bits: int, banks: int = 32) -> int:
    """The 4-byte bank of an element offset (the first byte's bank for elements wider than 32 bits)."""
    return offset * element_bits // 32 % banks


def painter(layout, use_hw_view: bool, element_bits: int, styles: Styles):
    """lines -> coloured lines for one layout's view: per cell in Python for small views, with numpy for big ones
    (`color_fast`, byte-identical)."""
    from . import SMALL_LIMIT as small_limit
    from .small import entries
    if entries(layout) > small_limit:
        if layout.has_in_dim("offset"):
            return (_fast_shared_hardware if use_hw_view else _fast_shared_tensor)(layout, element_bits, styles)
        return (_fast_distributed_hardware if use_hw_view else _fast_distributed_tensor)(layout, styles)
    if layout.has_in_dim("offset"):
        return (shared_hardware if use_hw_view else shared_tensor)(layout, element_bits, styles)
    return (distributed_hardware if use_hw_view else distributed_tensor)(layout, styles)


HEADER_LINE = re.compile(rb"^(?:Block|Warp)(\d+):\n", re.M)
SHARED_BLOCK_LINE = re.compile(rb"^Block: (\d+):\n", re.M)


def _fast_distributed_tensor(layout, styles: Styles):
    from .color_fast import DistributedTensor
    R, T, W, B = _hardware_sizes(layout)
    return DistributedTensor(R, T, W, B, _replicated(layout), styles)


def _runs(lines: bytes, header: re.Pattern):
    """(header match or None, text up to the next header) for the runs of `lines` between headers."""
    pos, current = 0, None
    for m in header.finditer(lines):
        if m.start() > pos or current is not None:
            yield current, lines[pos:m.start()]
        current, pos = m, m.end()
    yield current, lines[pos:]


def _fast_distributed_hardware(layout, styles: Styles):
    from .color_fast import DistributedHardware
    R, T, W, B = _hardware_sizes(layout)
    fast = DistributedHardware(T, W, B, _replicated(layout), styles)
    slow = distributed_hardware(layout, styles)

    def paint(lines: bytes) -> bytes:
        out = []
        for m, run in _runs(lines, HEADER_LINE):
            if m is not None:
                out.append(m.group(0))
                slow(m.group(0))                       # the slow painter keeps its own warp state in step
                if m.group(0).startswith(b"Block"):
                    fast.block = int(m.group(1))
                else:
                    fast.group = fast.block * W + int(m.group(1))
            if run:
                painted = fast.run(run)
                out.append(painted if painted is not None else slow(run))
        return b"".join(out)
    return paint


def _fast_shared_tensor(layout, element_bits: int, styles: Styles):
    import numpy as np

    from .color_fast import SharedCells
    from .small import shared_dims
    _, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    fast = SharedCells(element_bits, _replicated(layout), styles)
    state = {"position": 0}

    def offsets_of(count: int):
        position = state["position"] + np.arange(count, dtype=np.int64)
        state["position"] += count
        return position % block_size if block_size else np.zeros(count, dtype=np.int64)

    slow = shared_tensor(layout, element_bits, styles)

    def paint(lines: bytes) -> bytes:
        before = state["position"]
        painted = fast.run(lines, offsets_of)
        if painted is None:                            # not the view's cells: the per-cell painter from here
            state["position"] = before
            return slow(lines)
        return painted
    return paint


def _fast_shared_hardware(layout, element_bits: int, styles: Styles):
    import numpy as np

    from .color_fast import SharedCells
    fast = SharedCells(element_bits, _replicated(layout), styles)
    slow = shared_hardware(layout, element_bits, styles)

    def paint(lines: bytes) -> bytes:
        out = []
        for m, run in _runs(lines, SHARED_BLOCK_LINE):
            if m is not None:
                out.append(m.group(0))
            if not run:
                continue
            first = OFFSET_LINE.match(run)
            painted = None
            if first is not None:
                o = int(first.group(1))
                painted = fast.run(run, lambda count, o=o: o + np.arange(count, dtype=np.int64))
            out.append(painted if painted is not None else slow(run))
        return b"".join(out)
    return paint


def colored_writer(layout, use_hw_view: bool, element_bits: int, write, system) -> LineBuffer:
    """A write(bytes) for `render_layout` that colours each line and passes it on; call .close() at the end."""
    return LineBuffer(painter(layout, use_hw_view, element_bits, Styles(system)), write)


def strip(text: bytes) -> bytes:
    """The text without SGR escape codes (what a test compares with Triton's)."""
    return re.sub(rb"\x1b\[[0-9;]*m", b"", text)
