"""Report blocks, built once by a report module and written two ways: plain text (pipes, files, tests) and rich
(a terminal). JSON is written from the analysis' own result objects instead.

Blocks: `Line` (one line of styled spans), `Fields` (label/value rows in an aligned label column) and
`Table` (columns with a header row). rich is imported only by `to_rich`.
"""
from __future__ import annotations

from itertools import chain, islice

from ..errors import escaped
from ..records import frozen


@frozen
class Line:
    """One line: spans of (text, rich style); an empty tuple is a blank line."""
    spans: tuple[tuple[str, str], ...] = ()
    indent: str = ""

    @property
    def text(self) -> str:
        return "".join(t for t, _ in self.spans)


def line(text: str, style: str = "", indent: str = "") -> Block:
    """A block of one line of one style (typed as any block, so that a report's list of blocks starting with a
    line takes fields and tables too)."""
    return Line(((text, style),) if text else (), indent)


BLANK = Line()


@frozen
class Fields:
    """Label/value rows; plain text pads labels to `label_width` (a row with an empty label continues the one
    above)."""
    rows: tuple[tuple[str, str], ...]
    label_width: int = 14
    indent: str = ""


class Rows:
    """A table's rows made on demand: `cells(item)` for each of `items`, in order, each time the rows are read
    (plain text reads them twice: the column widths, then the lines). A huge function's 450,000 rows are then
    never held as cells or lines; `cells` should make each distinct text once (reports/audit.py memoizes)."""

    __slots__ = ("items", "cells")

    def __init__(self, items, cells):
        self.items, self.cells = items, cells

    def __iter__(self):
        return map(self.cells, self.items)

    def __len__(self) -> int:
        return len(self.items)

    def widths(self) -> list[int] | None:
        """Each column's widest cell (escaped), where the rows know it without being read; None: read them."""
        return None

    def lines(self, indent: str, widths: list[int]):
        """The rows' lines in pieces, where `widths` says the rows know them (a faster path than their cells)."""
        raise NotImplementedError


@frozen
class Table:
    """Columns with a header row. `fit`: in rich, rows stay on one line where they can: where the rows are wider
    than the terminal, `narrow` (columns and rows that say the same in fewer characters) replaces them, and what
    is still too wide wraps in the columns of FITTED_SHRINK (plain text shows `rows` and never cuts anything)."""
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...] | Rows   # Rows: made on demand (a huge function's)
    indent: str = ""
    fit: bool = False
    narrow: tuple | None = None


TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    Block = Line | Fields | Table


# ----------------------------------------------------------------------------------------- plain text


CHUNK = 4096                                         # rows formatted and written together


def _escaped_chunks(rows):
    """The rows, `escaped`, in lists of CHUNK; a chunk whose text is all printable (the usual case) is checked
    once, in one pass, not cell by cell."""
    it = iter(rows)
    while True:
        chunk = list(islice(it, CHUNK))
        if not chunk:
            return
        try:
            clean = "".join(["".join(r) for r in chunk]).isprintable()
        except TypeError:                            # a cell that is not a str: made one by `escaped`
            clean = False
        yield chunk if clean else [tuple(escaped(c) for c in r) for r in chunk]


def _table_lines(block: Table):
    """The table's lines in pieces (the header, then CHUNK rows at a time joined by newlines): each column as wide
    as its widest cell, two spaces between columns, no trailing blanks. Two passes over the rows (`Rows` makes
    them again), so that nothing but one chunk is held."""
    rows = block.rows
    known = rows.widths() if isinstance(rows, Rows) else None
    widths = [len(c) for c in block.columns]
    if known is not None:
        widths = [max(w, k) for w, k in zip(widths, known)]
    else:
        for chunk in _escaped_chunks(rows):
            for i, column in enumerate(zip(*chunk)):
                w = max(map(len, column))
                if w > widths[i]:
                    widths[i] = w
    indent = block.indent.replace("{", "{{").replace("}", "}}")
    fmt = indent + "  ".join(f"{{:<{w}}}" for w in widths)
    yield fmt.format(*block.columns).rstrip()
    if known is not None and isinstance(rows, Rows):
        yield from rows.lines(block.indent, widths)
        return
    for chunk in _escaped_chunks(rows):
        yield "\n".join([fmt.format(*r).rstrip() for r in chunk])


def write_text(blocks, write) -> None:
    """The report as plain text, written as it is made (`write(str)`): a table a chunk of rows at a time. Every
    piece of text is `escaped`: a report echoes what the input holds (file names of `loc(...)`, element types),
    which must not reach a terminal as control sequences."""
    written = False
    for block in blocks:
        if isinstance(block, Line):
            write((block.indent + escaped(block.text) if block.spans else "") + "\n")
        elif isinstance(block, Fields):
            if not block.rows:
                continue
            write("".join((block.indent + escaped(label).ljust(block.label_width) + escaped(value)).rstrip() + "\n"
                          for label, value in block.rows))
        else:
            for piece in _table_lines(block):
                write(piece + "\n")
        written = True
    if not written:                                  # no line at all: one empty line, as "\n".join([]) + "\n"
        write("\n")


def to_text(blocks) -> str:
    """The report as plain text, in one string (`write_text`)."""
    out: list[str] = []
    write_text(blocks, out.append)
    return "".join(out)


# ----------------------------------------------------------------------------------------- rich


RICH_ROWS = 5000         # a table longer than this is shown in a terminal as plain text (rich holds every cell)


def to_rich(blocks, width: int | None = None) -> str:
    """The same report with colour and tables drawn by rich (for a terminal); a table of more than RICH_ROWS rows
    (a huge function's) as the plain text lines, which rich would take seconds and gigabytes to lay out."""
    import io

    from rich.console import Console
    from rich.table import Table as RichTable
    from rich.text import Text

    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=width or 120, highlight=False, soft_wrap=True)
    for block in blocks:                      # Text, never markup: '[...]' in the input is shown as it is
        if isinstance(block, Line):
            spans = [(escaped(t), style) for t, style in block.spans]
            console.print(Text.assemble(block.indent, *spans) if block.spans else "")
        elif isinstance(block, Fields):
            grid = RichTable.grid(padding=(0, 2))
            grid.add_column(style="bold cyan")
            grid.add_column(overflow="fold")
            for label, value in block.rows:
                grid.add_row(Text(escaped(label)), Text(escaped(value)))
            console.print(grid)
        elif len(block.rows) > RICH_ROWS:    # a huge function's table: the plain text's lines, never held whole
            for piece in _table_lines(block):
                buf.write(piece + "\n")
        elif block.fit:
            console.print(_fitted(block, RichTable, Text, console.width))
        else:
            table = RichTable(show_edge=False, header_style="bold")
            for col, least in zip(block.columns, _least_widths(block, console.width)):
                table.add_column(col, overflow="fold", min_width=least)
            for row in block.rows:
                table.add_row(*(Text(escaped(c)) for c in row))
            console.print(table)
    return buf.getvalue()


def _least_widths(block: Table, width: int, gaps: int = 3, edges: int = 2) -> list[int]:
    """Each column's least width in rich: its longest word (a kernel name with its @hash), so that words wrap
    whole; where those do not fit side by side in `width`, the widest give up characters first (down to their
    header's longest word), and a longer word folds onto the next line. Never cut with '…', never a column
    dropped."""
    heads = [max(len(w) for w in (col.split() or [""])) for col in block.columns]     # rich never goes below
    words = [max([h] + [len(w) for r in block.rows for w in escaped(r[i]).split()])
             for i, h in enumerate(heads)]
    room = width - gaps * (len(words) - 1) - edges  # rich's column separators and padding
    if sum(words) <= room:
        return words
    least = list(words)
    for _ in range(sum(words) - room):               # the widest column gives up a character, down to its header
        i = max(range(len(least)), key=lambda k: (least[k] > heads[k], least[k]))
        if least[i] <= heads[i]:
            break
        least[i] -= 1
    return least


FITTED_SHRINK = ("verdict", "layouts")               # the columns a `fit` table may cut


def _fitted(block: Table, RichTable, Text, width: int):
    """A `fit` table: the plain text's spacing (two spaces between columns), one line per row; the narrow rows
    where the rows do not fit `width`; what is still too wide wraps (folds) in the columns of FITTED_SHRINK, every
    other column keeps its whole width: no column is dropped and no identifier cut."""
    def widths(columns, rows):
        return [max(len(escaped(r[i])) for r in chain((columns,), rows)) for i in range(len(columns))]
    columns, rows = block.columns, block.rows
    if block.narrow is not None and sum(widths(columns, rows)) + 2 * (len(columns) - 1) > width:
        columns, rows = block.narrow
    table = RichTable(box=None, show_edge=False, header_style="bold", padding=(0, 1), pad_edge=False)
    full = widths(columns, rows)
    kept = sum(len(c) if c in FITTED_SHRINK else w for c, w in zip(columns, full)) + 2 * (len(columns) - 1)
    if kept > width:           # even the other columns whole do not fit: every column wraps, none is dropped
        least = _least_widths(Table(columns, rows), width, gaps=2, edges=0)
        for col, w in zip(columns, least):
            table.add_column(col, overflow="fold", min_width=w)
    for col, w in zip(columns, full) if kept <= width else ():
        shrinks = col in FITTED_SHRINK
        table.add_column(col, no_wrap=not shrinks, overflow="fold", min_width=len(col) if shrinks else w)
    for row in rows:
        table.add_row(*(Text(escaped(c)) for c in row))
    return table
