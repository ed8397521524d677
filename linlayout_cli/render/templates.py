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

from operator import itemgetter

from ..engine.gf2 import null_space, reduced_echelon, solve
from .small import _span, hardware_dims, out_sizes, row_brackets, shared_dims

FIELDS = 1 << 12          # cells (times replicas) per unit
MAX_COST_SHARE = 1 / 8    # Python-built pieces per formatted cell above which numpy is faster
CACHE_LIMIT = 64          # formats (and parameter tuples) kept at once


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
        self.reg_bits, self.thread_bits = R.bit_length() - 1, (T * W).bit_length() - 1
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
            shift += s.bit_length() - 1
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


def _gather(keys: list) -> tuple[list, callable]:
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
    """A view as units: values X[u] ^ Y[j], `seps[j]` written before cell j, frame(u) -> (prefix, suffix);
    `counter`: every cell is a line of one length holding a NUL and a '%%s' (in its separator), which `_numbered`
    fills with a number counting up from counter(u) (the shared hardware view's offsets)."""

    def __init__(self, cell, xs, ys, seps, frame, counter=None):
        self.cell, self.xs, self.ys, self.seps, self.frame, self.counter = cell, xs, ys, seps, frame, counter

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
        par_keys, par_gather = _gather([y & par for y in self.ys]) if par else ([], None)
        formats: dict[int, bytes] = {}
        params: dict[int, tuple] = {}
        cells = len(self.ys)
        for u, x in enumerate(self.xs):
            fmt = formats.get(x & lit)
            if fmt is None:
                if len(formats) >= CACHE_LIMIT:
                    formats.clear()
                xl = x & lit
                fmt = formats[xl] = b"".join(lit_gather([sep + cell.piece(xl ^ y, split) for sep, y in lit_keys]))
            if par:
                args = params.get(x & par)
                if args is None:
                    if len(params) >= CACHE_LIMIT:
                        params.clear()
                    xp = x & par
                    args = params[xp] = par_gather([cell.param(xp ^ y, split) for y in par_keys])
            else:
                args = ()
            prefix, suffix = self.frame(u)
            if prefix:
                write(prefix)
            if self.counter is None:
                write(fmt % args)
            else:
                for part in _numbered(fmt % args, self.counter(u), cells):
                    write(part)
            if suffix:
                write(suffix)
        return True


_DIGITS: list = []        # (the texts of 0..9999, the same zero-padded to four digits), made on first use


def _numbered(body: bytes, start: int, count: int) -> list[bytes]:
    """`count` lines of equal length (the first without its leading newline), each holding b"\x00%s": write
    start, start + 1, ... there. The digits above the last four are written once per run of 10,000 lines and
    the last four come from a table, because turning a million ints into text costs about 100 ms here and
    copying their texts about a third of that."""
    if not _DIGITS:
        _DIGITS.extend((tuple(b"%d" % i for i in range(10000)), tuple(b"%04d" % i for i in range(10000))))
    plain, padded = _DIGITS
    width = (len(body) + 1) // count
    parts = []
    line = 0
    while line < count:
        high, low = divmod(start + line, 10000)
        n = min(count - line, 10000 - low)
        chunk = body if n == count else body[line * width:(line + n) * width]
        parts.append(chunk.replace(b"\x00", b"%d" % high if high else b"") % (padded if high else plain)[low:low + n])
        line += n
    return parts


# ----------------------------------------------------------------------------------------- the four views


def _row_units(sizes, pre, per_cell: int):
    """Units of the tensor views (row-major cells, `per_cell` values each): (cells per unit, rows per unit,
    X over the units) for the element-index bits' values `pre`."""
    n = 1
    for s in sizes:
        n *= s
    row_len = sizes[-1]
    cells = min(n, max(1, FIELDS // per_cell))
    if cells > row_len:
        cells = row_len * min(cells // row_len, sizes[-2])   # inner rows of a unit open and close one bracket
    bits = cells.bit_length() - 1
    return cells, _span(pre[bits:])


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
    sizes = out_sizes(layout)
    n = 1
    for s in sizes:
        n *= s
    columns = layout.transpose_outs(list(reversed(layout.out_dims)))._flat_cols()
    pre = solve(columns, [1 << j for j in range(n.bit_length() - 1)])
    if any(p is None for p in pre):
        return None                          # a layout that misses elements: the numpy renderer's empty cells
    basis = reduced_echelon(null_space(columns))
    replicas = _span(basis)
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
    ys = [c ^ r for c in _span(pre[:cells.bit_length() - 1]) for r in replicas]
    width = len(str(W * T)) + len(str(R)) + 2 + (len(str(B)) + 2 if B > 1 else 0)
    seps = _tensor_seps(sizes, cells, len(replicas), b", ")
    frame = _chunk_frame(_tensor_frame(sizes, cells), b", ")
    return Units(Entries(R, T, W, B, width), xs, ys, seps, frame)


def distributed_hardware_view(layout) -> Units | None:
    layout, R, T, W, B = hardware_dims(layout)
    if T > FIELDS:
        return None
    columns = layout._flat_cols()
    reg_bits, lane_bits = R.bit_length() - 1, T.bit_length() - 1
    lines = min(R, max(1, FIELDS // T))
    line_bits = lines.bit_length() - 1
    ys = [k ^ t for k in _span(columns[:line_bits]) for t in _span(columns[reg_bits:reg_bits + lane_bits])]
    seps = [b"" if j == 0 else b"\n" if j % T == 0 else b", " for j in range(len(ys))]
    xs = _span(columns[line_bits:reg_bits] + columns[reg_bits + lane_bits:])
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
    columns = layout._flat_cols()
    cells, xs = _row_units(sizes, columns, 1)
    ys = _span(columns[:cells.bit_length() - 1])
    seps = _tensor_seps(sizes, cells, 1, b",")
    frame = _chunk_frame(_tensor_frame(sizes, cells), b",")
    return Units(Coordinates(sizes, ":"), xs, ys, seps, frame)


def shared_hardware_view(layout) -> Units | None:
    layout, sizes, offsets, blocks, n, block_size = shared_dims(layout)
    if block_size != offsets:
        return None
    columns = layout._flat_cols()
    lines = min(block_size, FIELDS)
    bits = lines.bit_length() - 1
    ys = _span(columns[:bits])
    seps = [b"Offset: \x00%%s -> " if j == 0 else b"\nOffset: \x00%%s -> " for j in range(lines)]
    xs = _span(columns[bits:])

    def frame(u):
        b, o = divmod(u * lines, block_size)
        return (f"Block: {b}:\n".encode() if o == 0 else b""), b"\n"
    return Units(Coordinates(sizes, ","), xs, ys, seps, frame, counter=lambda u: u * lines % block_size)
