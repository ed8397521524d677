"""Triton's four views of large layouts in plain Python, byte-identical to the numpy renderers and, for the
layouts people print, faster than importing numpy.

Every view is a run of *units* (a few rows of the tensor view, a few register lines of the hardware view, a
few thousand offsets of the shared hardware view), each the same run of cells. The views are XOR-linear: the
value cell j of unit u shows (a hardware index, or the element whose coordinates it prints) is X[u] ^ Y[j],
where X[u] depends only on the unit and Y[j] only on the cell's place in it. A cell's text is a run of fields
(block, thread and register; or one coordinate per dimension), each a function of its own bits of the value.
Split the fields into literal ones and one run of parameter fields P; a unit's text is then

    format(literal bits of X[u]) % params(P bits of X[u])

with both built once per distinct value and reused, and the cells themselves produced by C's bytes
formatting. Example: the tensor view of #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8],
warpsPerCTA = [8, 1], order = [1, 0]}> at 1024x1024 has 256 units of four rows; the register bits of X take
32 values and the thread bits 8, so a few thousand pieces of text are built in Python for the 1M cells.

`render` declines (returns False, having written nothing) when the values repeat too little for this to pay;
the numpy renderers take over then."""
from __future__ import annotations

import re
from operator import itemgetter

from ..engine.bits import log2
from ..engine.gf2 import null_space, reduced_echelon, solve, span
from .small import hardware_dims, out_sizes, row_brackets, shared_dims

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    from collections.abc import Callable

FIELDS = 1 << 12          # cells (times replicas) per unit
MAX_COST_SHARE = 1 / 8    # Python-built pieces per formatted cell above which numpy is faster
CACHE_LIMIT = 64          # formats (and parameter tuples) kept at once
_FIELD = re.compile(rb"%(\d*)s")
MAX_UNITS = 1 << 16       # units of one view: X is a list of Python ints (about 36 bytes each) built before the
                          # plan; a tensor view of more, tiny units (trailing dimensions of size 1, as a rank-24
                          # tensor of 2s and 1s has: one cell a unit) is left to numpy's bounded batches


def render(layout, use_hw_view: bool, write) -> bool:
    """Write the view of `layout` through write(bytes) and return True, or return False having written nothing."""
    if layout.has_in_dim("offset"):
        view = shared_hardware_view if use_hw_view else shared_tensor_view
    else:
        view = distributed_hardware_view if use_hw_view else distributed_tensor_view
    units = view(layout)
    return units is not None and units.emit(write)


# ----------------------------------------------------------------------------------------- cells


class Entries:
    """Cells of the distributed tensor view: 'B<b>:T<t>:<r>' right-aligned to `width` (no 'B' part with one
    block). Split 'thread': block and thread are the parameter, the register literal ('%5s:12')."""

    splits = ("literal", "thread", "all")

    def __init__(self, R: int, T: int, W: int, B: int, width: int):
        self.reg_bits, self.thread_bits = log2(R), log2(T * W)
        self.blocks, self.width = B, width
        self.reg_mask = R - 1
        self.thread_mask = (T * W * B - 1) << self.reg_bits

    def masks(self, split: str) -> tuple[int, int]:
        every = self.reg_mask | self.thread_mask
        return {"literal": (every, 0), "thread": (self.reg_mask, self.thread_mask), "all": (0, every)}[split]

    def _who(self, v: int) -> str:
        who = v >> self.reg_bits
        thread = f"T{who & ((1 << self.thread_bits) - 1)}"
        return f"B{who >> self.thread_bits}:{thread}" if self.blocks > 1 else thread

    def piece(self, v: int, split: str) -> bytes:
        if split == "literal":
            return f"{self._who(v)}:{v & self.reg_mask}".rjust(self.width).encode()
        if split == "thread":
            reg = str(v & self.reg_mask)
            return f"%{self.width - 1 - len(reg)}s:{reg}".encode()
        return f"%{self.width}s".encode()

    def param(self, v: int, split: str) -> bytes:
        if split == "thread":
            return self._who(v).encode()
        return f"{self._who(v)}:{v & self.reg_mask}".encode()


class Coordinates:
    """Cells '(c0<sep>c1...)', coordinate i right-aligned to the digits of sizes[i] and taken from the value's
    bits for dimension i (the first dimension lowest). A split is a run [a, b) of dimensions printed as one
    parameter; every coordinate has a fixed width, so any run works."""

    def __init__(self, sizes, sep: str):
        self.sep = sep
        self.fields = []                     # (shift, mask, width) per dimension
        shift = 0
        for s in sizes:
            self.fields.append((shift, s - 1, len(str(s))))
            shift += log2(s)
        rank = len(sizes)
        self.splits = [(0, 0)] + [(a, b) for a in range(rank) for b in range(a + 1, rank + 1)]
        self.cache: list[dict] = [{} for _ in sizes]        # dimension -> coordinate -> its padded text

    def masks(self, split) -> tuple[int, int]:
        a, b = split
        lit = par = 0
        for i, (shift, mask, _) in enumerate(self.fields):
            if a <= i < b:
                par |= mask << shift
            else:
                lit |= mask << shift
        return lit, par

    def _texts(self, v: int, dims) -> list[str]:
        out = []
        for i in dims:
            shift, mask, width = self.fields[i]
            c = v >> shift & mask
            text = self.cache[i].get(c)
            if text is None:
                text = self.cache[i][c] = str(c).rjust(width)
            out.append(text)
        return out

    def piece(self, v: int, split) -> bytes:
        a, b = split
        rank = len(self.fields)
        parts = self._texts(v, range(a)) + (["%s"] if a < b else []) + self._texts(v, range(b, rank))
        return ("(" + self.sep.join(parts) + ")").encode()

    def param(self, v: int, split) -> bytes:
        return self.sep.join(self._texts(v, range(*split))).encode()


# ----------------------------------------------------------------------------------------- units


def _gather(keys: list) -> tuple[list, Callable[[list], tuple]]:
    """(the distinct keys in first-seen order, a function taking a list with one item per distinct key to the
    tuple with one item per key). Keys that come in long runs (a coordinate constant along a row) are gathered
    run by run."""
    first: dict = {}
    picks = [first.setdefault(k, len(first)) for k in keys]
    runs = [(picks[0], 1)] if picks else []
    for p in picks[1:]:
        if p == runs[-1][0]:
            runs[-1] = (p, runs[-1][1] + 1)
        else:
            runs.append((p, 1))
    if len(runs) * 16 <= len(picks):
        def by_runs(items):
            out: list = []
            for p, n in runs:
                out += [items[p]] * n
            return tuple(out)
        return list(first), by_runs
    if len(picks) == 1:
        return list(first), lambda items: (items[picks[0]],)
    return list(first), itemgetter(*picks)


def _misses(keys: list) -> int:
    """How many times a cache of CACHE_LIMIT entries, emptied when full, misses on this sequence of keys."""
    cache: set = set()
    misses = 0
    for k in keys:
        if k not in cache:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            cache.add(k)
            misses += 1
    return misses


class Units:
    """A view as units: values X[u] ^ Y[j], `seps[j]` written before cell j, frame(u) -> (prefix, suffix)."""

    substitutes = True       # write_unit fills a unit whose cells share one parameter by joins (`_substituted`)

    def __init__(self, cell, xs, ys, seps, frame):
        self.cell, self.xs, self.ys, self.seps, self.frame = cell, xs, ys, seps, frame
        self.picks: list[int] = []                   # field k shows the unit's picks[k]-th distinct parameter
        self.par_gather: Callable = tuple            # distinct parameters -> one per field
        self.fields: dict = {}                       # literal bits -> the format split by `_fields`
        self.gathered: dict = {}                     # parameter bits -> one parameter per field

    def _plan(self):
        """(split, cost) with the fewest pieces of text built in Python."""
        best = None
        for split in self.cell.splits:
            lit, par = self.cell.masks(split)
            n_lit = len({(s, y & lit) for s, y in zip(self.seps, self.ys)})
            n_par = len({y & par for y in self.ys}) if par else 0
            cost = _misses([x & lit for x in self.xs]) * n_lit + (_misses([x & par for x in self.xs]) * n_par
                                                                   if par else 0)
            if best is None or cost < best[1]:
                best = (split, cost)
        return best

    def emit(self, write) -> bool:
        split, cost = self._plan()
        if cost > MAX_COST_SHARE * len(self.xs) * len(self.ys):
            return False
        cell = self.cell
        lit, par = cell.masks(split)
        lit_keys, lit_gather = _gather(list(zip(self.seps, (y & lit for y in self.ys))))
        par_keys, par_gather = _gather([y & par for y in self.ys]) if par else ([], tuple)
        if self.substitutes and par:         # keep each distinct parameter once; write_unit places them
            first = {k: i for i, k in enumerate(par_keys)}
            picks = [first[y & par] for y in self.ys]
            if _few_runs(picks, len(picks)):
                self.picks = picks
                self.par_gather, par_gather = par_gather, tuple
        formats: dict[int, bytes] = {}
        params: dict[int, tuple] = {}
        for u, x in enumerate(self.xs):
            xl, xp = x & lit, x & par
            fmt = formats.get(xl)
            if fmt is None:
                if len(formats) >= CACHE_LIMIT:
                    formats.clear()
                fmt = formats[xl] = b"".join(lit_gather([sep + cell.piece(xl ^ y, split) for sep, y in lit_keys]))
            args = params.get(xp, ())
            if par and not args:
                if len(params) >= CACHE_LIMIT:
                    params.clear()
                args = params[xp] = par_gather([cell.param(xp ^ y, split) for y in par_keys])
            prefix, suffix = self.frame(u)
            if prefix:
                write(prefix)
            self.write_unit(write, u, (xl, fmt), (xp, args))
            if suffix:
                write(suffix)
        return True

    def write_unit(self, write, u: int, format_, params) -> None:
        """fmt % (the unit's parameters, one per field). With `substitutes`, params holds each distinct
        parameter once: where the fields come in a few runs of one parameter at one width (a tensor memory
        row's `R<row>:` along a tensor row), each run is one join (`_substituted`), about four times faster than
        formatting field by field; otherwise the parameters are gathered (cached by their bits) and formatted."""
        (xl, fmt), (xp, args) = format_, params
        if not (self.picks and args):
            write(fmt % args)
            return
        fields = self.fields.get(xl, self.fields)
        if fields is self.fields:
            if len(self.fields) >= CACHE_LIMIT:
                self.fields.clear()
            fields = self.fields[xl] = _fields(fmt, self.picks)
        if fields is not None:
            write(_substituted(fields, args))
            return
        gathered = self.gathered.get(xp)
        if gathered is None:
            if len(self.gathered) >= CACHE_LIMIT:
                self.gathered.clear()
            gathered = self.gathered[xp] = self.par_gather(args)
        write(fmt % gathered)


def _fields(fmt: bytes, picks: list[int]):
    """A format whose fields are all '%<w>s', field k showing parameter picks[k], as (its text before the first
    field, then per run of fields showing one parameter at one width: (parameter, width, the texts after each
    field)) for `_substituted`; None where it holds '%%' or where runs change too often to pay.

    >>> _fields(b"%3sC5, %3sC6, %2sC17|%2sC3", [0, 0, 0, 1])
    (b'', [(0, 3, [b'C5, ', b'C6, ']), (0, 2, [b'C17|']), (1, 2, [b'C3'])])
    """
    if b"%%" in fmt:
        return None
    parts = _FIELD.split(fmt)
    texts, widths = parts[0::2], [int(w or 0) for w in parts[1::2]]
    if not _few_runs(widths, len(widths)):
        return None
    runs: list = []
    for k, (p, w) in enumerate(zip(picks, widths)):
        if runs and runs[-1][0] == p and runs[-1][1] == w:
            runs[-1][2].append(texts[k + 1])
        else:
            runs.append((p, w, [texts[k + 1]]))
    return (texts[0], runs) if _few_runs(runs, len(widths)) else None


def _few_runs(items: list, fields: int) -> bool:
    """Whether `items` changes value few enough times along a unit of `fields` fields for a join per run to beat
    formatting field by field."""
    limit = 4 + fields // 16
    changes = 0
    for a, b in zip(items, items[1:]):
        if a != b:
            changes += 1
            if changes >= limit:
                return False
    return True


def _substituted(fields, params: tuple) -> bytes:
    """The format split by `_fields` with its parameters (each distinct one once) in place, a join per run.

    >>> _substituted(_fields(b"%3sC5, %3sC6, %2sC17|%2sC3", [0, 0, 0, 1]), (b"R1", b"R2"))
    b' R1C5,  R1C6, R1C17|R2C3'
    """
    first, runs = fields
    out = [first]
    for p, w, texts in runs:
        padded = params[p].rjust(w)
        out.append(padded)
        out.append(padded.join(texts))
    return b"".join(out)


class NumberedLines(Units):
    """Units whose cells are lines of one width, each holding a NUL (in its separator) where a number counting
    up from counter(u) goes: the shared hardware view's offsets. The digits and the cells' parameters (one
    fixed-width text a line) are written column by column into a copy of the format, since formatting a
    million numbers takes about 40 ms here and a million parameters about 25; a column is a few microseconds."""

    substitutes = False      # write_unit reads the parameters column by column

    def __init__(self, cell, xs, ys, seps, frame, counter):
        super().__init__(cell, xs, ys, seps, frame)
        self.counter = counter
        self.templates: dict[tuple, bytes] = {}      # (literal bits, digits) -> the format at that width
        self.columns: dict[int, list] = {}           # parameter bits -> each parameter column's bytes

    def write_unit(self, write, u: int, format_, params) -> None:
        (xl, fmt), (xp, args) = format_, params
        columns = self.columns.get(xp)
        if columns is None:
            if len(self.columns) >= CACHE_LIMIT:
                self.columns.clear()
            joined, width = b"".join(args), len(args[0]) if args else 0
            columns = self.columns[xp] = [joined[c::width] for c in range(width)]

        def template(digits: int) -> bytes:
            text = self.templates.get((xl, digits))
            if text is None:
                if len(self.templates) >= CACHE_LIMIT:
                    self.templates.clear()
                text = fmt.replace(b"\x00", b"\x00" * digits).replace(b"%s", b"\x01" * len(columns))
                self.templates[xl, digits] = text
            return text
        for part in _numbered(template, columns, self.counter(u), len(self.ys)):
            write(part)


_PLACES: dict = {}        # place p < 4 -> the digit at 10^p of 0, 1, ..., repeated past 10^(p+1) + FIELDS
_ONE_DIGIT = [bytes([48 + k]) for k in range(10)]


def _digit_column(place: int, start: int, count: int) -> bytes:
    """The digit at 10^place of start, start + 1, ..., start + count - 1 as ASCII; count <= 10,000.
    Example: place 1, start 98, count 4 -> b"9900" (98, 99, 100, 101)."""
    if place < 4:
        period = 10 ** (place + 1)
        column = _PLACES.get(place)
        if column is None or len(column) < period + count:
            one = b"".join(d * 10 ** place for d in _ONE_DIGIT)
            column = _PLACES[place] = one * (1 + -(-max(count, FIELDS) // period))
        s = start % period
        return column[s:s + count]
    step = 10 ** place                    # >= 10,000 > count: the digit steps at most once
    digit = start // step % 10
    before = step - start % step
    if before >= count:
        return _ONE_DIGIT[digit] * count
    return _ONE_DIGIT[digit] * before + _ONE_DIGIT[(digit + 1) % 10] * (count - before)


def _numbered(template, columns: list, start: int, count: int) -> list:
    """`count` lines numbered start, start + 1, ...: template(d) holds them at one width, the first without its
    leading newline, each with a field of d NULs for its number (d digits) and one of 0x01 bytes for its
    parameter, whose c-th characters line by line are columns[c]."""
    parts = []
    line = 0
    while line < count:
        digits = len(str(start + line))
        end = min(count, 10 ** digits - start)
        text = template(digits)
        width = (len(text) + 1) // count
        lo = line * width - 1 if line else 0
        part = bytearray(text[lo:end * width - 1]) if line or end < count else bytearray(text)
        first = line * width - lo
        at = first + text.index(0)
        for place in range(digits):
            part[at + digits - 1 - place::width] = _digit_column(place, start + line, end - line)
        if columns:
            at = first + text.index(1)
            for c, column in enumerate(columns):
                part[at + c::width] = column[line:end]
        parts.append(part)
        line = end
    return parts


# ----------------------------------------------------------------------------------------- the four views


def _row_units(sizes, pre, per_cell: int):
    """Units of the tensor views (row-major cells, `per_cell` values each): (cells per unit, X over the units)
    for the element-index bits' values `pre`; X is None where there would be more than MAX_UNITS units."""
    n = 1
    for s in sizes:
        n *= s
    row_len = sizes[-1]
    cells = min(n, max(1, FIELDS // per_cell))
    if cells > row_len:
        cells = row_len * min(cells // row_len, sizes[-2])   # inner rows of a unit open and close one bracket
    if n // cells > MAX_UNITS:
        return cells, None
    return cells, span(pre[log2(cells):])


def _tensor_frame(sizes, cells: int):
    rank, row_len = len(sizes), sizes[-1]
    brackets = row_brackets(sizes)

    def opening(q):
        o = brackets(q)
        return b"[" * o + b" " * (rank - o)

    def frame(u):
        q, c = divmod(u * cells, row_len)
        if cells >= row_len:
            return opening(q), b"]" * brackets(q + cells // row_len) + b"\n"
        return (opening(q) if c == 0 else None), (b"]" * brackets(q + 1) + b"\n" if c + cells == row_len else b"")
    return frame


def _tensor_seps(sizes, cells: int, per_cell: int, cell_sep: bytes, replica_sep: bytes = b"|"):
    rank, row_len = len(sizes), sizes[-1]
    row_break = b"]\n[" + b" " * (rank - 1)
    seps = []
    for c in range(cells):
        seps.append(b"" if c == 0 else row_break if c % row_len == 0 else cell_sep)
        seps.extend([replica_sep] * (per_cell - 1))
    return seps


def _chunk_frame(frame, cell_sep: bytes):
    """A row split into several units: every unit but a row's first starts with the cell separator."""
    def framed(u):
        prefix, suffix = frame(u)
        return (cell_sep if prefix is None else prefix), suffix
    return framed


def distributed_tensor_view(layout) -> Units | None:
    layout, R, T, W, B = hardware_dims(layout)
    width = len(str(W * T)) + len(str(R)) + 2 + (len(str(B)) + 2 if B > 1 else 0)
    return holders_tensor_view(layout, Entries(R, T, W, B, width))


def holders_tensor_view(layout, cell) -> Units | None:
    """A tensor view listing each element's holders: every hardware index (the layout's in dims, the first
    lowest) that maps to the element, in increasing order, as `cell` writes it, joined by '|'. The distributed
    tensor view (cells 'B<b>:T<t>:<r>') and the tensor memory one ('B<b>:R<row>:C<col>') share it."""
    sizes = out_sizes(layout)
    n = 1
    for s in sizes:
        n *= s
    columns = layout.transpose_outs(list(reversed(layout.out_dims))).flat_columns()
    solved = solve(columns, [1 << j for j in range(log2(n))])
    pre = [p for p in solved if p is not None]
    if len(pre) < len(solved):
        return None                          # a layout that misses elements: the numpy renderer's empty cells
    basis = reduced_echelon(null_space(columns))
    replicas = span(basis)
    if len(replicas) > FIELDS:
        return None
    leads = [1 << (b.bit_length() - 1) for b in basis]

    def reduced(v: int) -> int:
        for b, lead in zip(basis, leads):
            if v & lead:
                v ^= b
        return v
    pre = [reduced(p) for p in pre]
    cells, xs = _row_units(sizes, pre, len(replicas))
    if xs is None:
        return None
    ys = [c ^ r for c in span(pre[:log2(cells)]) for r in replicas]
    seps = _tensor_seps(sizes, cells, len(replicas), b", ")
    frame = _chunk_frame(_tensor_frame(sizes, cells), b", ")
    return Units(cell, xs, ys, seps, frame)


def distributed_hardware_view(layout) -> Units | None:
    layout, R, T, W, B = hardware_dims(layout)
    if T > FIELDS:
        return None
    columns = layout.flat_columns()
    reg_bits, lane_bits = log2(R), log2(T)
    lines = min(R, max(1, FIELDS // T))
    line_bits = log2(lines)
    ys = [k ^ t for k in span(columns[:line_bits]) for t in span(columns[reg_bits:reg_bits + lane_bits])]
    seps = [b"" if j == 0 else b"\n" if j % T == 0 else b", " for j in range(len(ys))]
    xs = span(columns[line_bits:reg_bits] + columns[reg_bits + lane_bits:])
    per_group = R // lines

    def frame(u):
        g, k = divmod(u, per_group)
        if k:
            return b"", b"\n"
        b, w = divmod(g, W)
        return (f"Block{b}:\nWarp{w}:\n" if B > 1 and w == 0 else f"Warp{w}:\n").encode(), b"\n"
    return Units(Coordinates(out_sizes(layout), ","), xs, ys, seps, frame)


def shared_tensor_view(layout) -> Units | None:
    layout, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    if block_size != offsets:
        return None                          # only the first block_size offsets show: not a split of bits
    columns = layout.flat_columns()
    cells, xs = _row_units(sizes, columns, 1)
    if xs is None:
        return None
    ys = span(columns[:log2(cells)])
    seps = _tensor_seps(sizes, cells, 1, b",")
    frame = _chunk_frame(_tensor_frame(sizes, cells), b",")
    return Units(Coordinates(sizes, ":"), xs, ys, seps, frame)


def shared_hardware_view(layout) -> Units | None:
    layout, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    if block_size != offsets:
        return None
    columns = layout.flat_columns()
    lines = min(block_size, FIELDS)
    bits = log2(lines)
    ys = span(columns[:bits])
    seps = [b"Offset: \x00 -> " if j == 0 else b"\nOffset: \x00 -> " for j in range(lines)]
    xs = span(columns[bits:])

    def frame(u):
        b, o = divmod(u * lines, block_size)
        return (f"Block: {b}:\n".encode() if o == 0 else b""), b"\n"
    return NumberedLines(Coordinates(sizes, ","), xs, ys, seps, frame, counter=lambda u: u * lines % block_size)
