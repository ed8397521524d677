"""The `audit` report: one row per op that touches layouts, most waste first, with its Python line; the layouts the
rows name, in full; then the kernel's shared memory against the target's limit, the conversions by path and the
ops that waste most. Blocks and JSON.

A row stays on one line in a 100-column terminal: a layout is shown by its alias (the dump's own `#blocked1`; a
layout written inline gets a label `L1`) and given in full in the `layouts` legend below the table; the verdict is
its short form (`short_verdict`); `--wide` shows the long one, which `--json` and `--line` give too.
"""
from __future__ import annotations

import re
from array import array
from collections import Counter
from enum import Enum
from heapq import nlargest, nsmallest
from operator import attrgetter, sub

from ..analysis.global_sectors import AMD_LINE_BYTES
from ..analysis.kernel.facts import (
    CONVERTED,
    LOCAL_LOAD,
    AsyncCopy,
    BufferInfo,
    BufferUse,
    Dot,
    GlobalAccess,
    Operand,
    Reduction,
    SharedAccess,
    Tma,
)
from ..analysis.kernel.findings import Finding, ModuleAudit, module_cost, rank_by_waste
from ..analysis.kernel.ops import BUFFER_OPS
from ..analysis.kinds import Category, Path
from ..attributes import TRITON
from ..errors import abbreviate, escaped
from ..records import field_names
from .blocks import BLANK, CHUNK, Fields, Rows, Table, line
from .common import COST_UNIT, cost_line, models, plural
from .convert import verdict as convert_verdict

WASTE_LINE = "waste: cost above the op's ideal; 'ttlayout help audit-model'"
_ALIAS = re.compile(r"#[A-Za-z0-9_$\-]+")


def loc_text(loc: str | None, main: str | None = None) -> str:
    """'softmax.py:14' from 'tests/data/kernels/src/softmax.py:14:19' (the JSON keeps the whole location); '14'
    where the file is `main`, the kernel's own file, which the footer names.

    >>> loc_text("tests/data/kernels/src/softmax.py:14:19"), loc_text("/k/softmax.py:14:19", "/k/softmax.py")
    ('softmax.py:14', '14')
    """
    if not loc:
        return "-"
    path, _, rest = loc.rpartition(":")
    path, _, line_no = path.rpartition(":")
    if not path:
        return loc
    return line_no if path == main else f"{path.rsplit('/', 1)[-1]}:{line_no}"


def where(f: Finding, main: str | None = None) -> str:
    """Where a row's op comes from in Python (`loc_text`)."""
    return loc_text(f.loc, main)


def main_file(m: ModuleAudit) -> str | None:
    """The Python file most rows come from (the kernel's own; a tie: the first seen), None when no row has a
    location. Linear: the rows' locations are counted first (a huge function has few distinct ones)."""
    files: dict[str, int] = {}
    for loc, n in Counter(map(attrgetter("loc"), m.findings)).items():
        if loc and loc.count(":") >= 2:
            file = loc.rsplit(":", 2)[0]
            files[file] = files.get(file, 0) + n
    return max(files, key=files.__getitem__) if files else None


# op names the narrow table (a terminal too narrow for the rows: no cost column, shorter op names) writes shorter;
# the dialect prefix goes too
SHORT_OPS = {"ttg.async_copy_global_to_local": "async_copy", "ttng.async_tma_copy_global_to_local": "tma_load",
             "ttng.async_tma_copy_local_to_global": "tma_store"}


def short_op(name: str) -> str:
    """'convert_layout' for 'ttg.convert_layout', 'async_copy' for 'ttg.async_copy_global_to_local'.

    >>> short_op("ttg.convert_layout"), short_op("ttng.async_tma_copy_global_to_local"), short_op("amdg.buffer_load")
    ('convert_layout', 'tma_load', 'amdg.buffer_load')
    """
    if name in SHORT_OPS:
        return SHORT_OPS[name]
    dialect, _, rest = name.partition(".")
    return rest if dialect in ("tt", "ttg", "ttng") and rest else name


def verdict(f: Finding) -> str:
    """The row's long answer in words (a conversion's is the `convert` report's verdict), from its facts."""
    if f.problem:
        return f"{f.status}: {f.problem}"
    if f.conversion is not None:
        return convert_verdict(f.conversion)
    d = f.facts
    if isinstance(d, GlobalAccess):
        return _global_words(f.op, d)
    if isinstance(d, AsyncCopy):
        return f"{d.instruction}, {d.bank_conflicts} bank conflict(s)"
    if isinstance(d, SharedAccess):
        return _shared_words(d)
    if isinstance(d, Reduction):
        if d.warp_bits:
            return (f"across {1 << d.warp_bits} warps: {d.lane_bits} shuffle round(s), then shared memory "
                    f"({d.scratch_bytes} bytes scratch) and a barrier")
        if d.lane_bits:
            return f"within a warp: {d.lane_bits} shuffle round(s) across {1 << d.lane_bits} lanes"
        return "within each thread (registers only)"
    if isinstance(d, Tma):
        split = f", {d.messages} messages of {'x'.join(map(str, d.box))}" if d.messages and d.messages > 1 and d.box \
            else ""
        return "TMA bulk copy (no register layout, no bank conflicts)" + _swizzle_words(d.swizzle_bytes) + split
    if isinstance(d, Dot):
        return "; ".join(_operand_words(o) for o in d.operands)
    if d is None and f.category == Category.BUFFER and f.buffer is not None:
        return _buffer_words(f.buffer)
    return ""


def limit_words(bound) -> str:
    """'at the 128-bit cap' where the cap binds (nothing more to gain), else 'limited by the mask' (every binding
    limit, joined by 'and').

    >>> limit_words(["128-bit cap", "layout"]), limit_words(["mask", "layout"])
    ('at the 128-bit cap', 'limited by the mask and the layout')
    """
    if bound[0] == "128-bit cap":
        return "at the 128-bit cap"
    return "limited by " + " and ".join(f"the {b}" for b in bound)


# the verb of each AMD buffer op's verdict
BUFFER_VERBS = {"amdg.buffer_load": "load", "amdg.buffer_store": "store", "amdg.buffer_atomic_rmw": "atomic",
                "amdg.buffer_atomic_cas": "atomic", "amdg.buffer_load_to_local": "load to shared"}


def _global_words(op: str, d: GlobalAccess) -> str:
    """A global access: 'load 8 x 16-bit per thread (4 instruction(s)), at the 128-bit cap; 16 sector(s) of 32
    bytes per warp access (ideal 16)'; an AMD buffer op's its lines; a scalar's its width."""
    verb = {"tt.load": "load", "tt.store": "store"}.get(op, "atomic")
    if d.scalar:
        return f"scalar {verb} of {d.vector_bits} bits"
    vec, n = d.vector_width, d.instructions_per_thread
    each = f"{vec} x {d.vector_bits // vec}-bit per thread ({n} instruction(s)), {limit_words(d.bound_by or ())}"
    if op in BUFFER_OPS:                             # AMD: 128-byte lines
        unit = "line(s)" if d.sector_bytes == AMD_LINE_BYTES else "sector(s)"
        return (f"buffer {BUFFER_VERBS[op]} {each}; {d.sectors_per_warp_access} {unit} of {d.sector_bytes} bytes "
                f"per warp access (ideal {d.ideal_sectors})")
    return (f"{verb} {each}; {d.sectors_per_warp_access} sector(s) of {d.sector_bytes} bytes per warp access "
            f"(ideal {d.ideal_sectors})")


def _shared_words(d: SharedAccess) -> str:
    """A register <-> shared access: instructions, wavefronts each (and the ideal), Triton's count or why none."""
    waves = f", {d.wavefronts} wavefront(s) each" if d.wavefronts is not None else ""
    if d.wavefronts_mean is not None and d.wavefronts_mean != d.wavefronts:
        waves = f", {d.wavefronts_mean:.3g} wavefront(s) each (at most {d.wavefronts})"
    ideal = ""
    if d.wavefronts_total is not None and d.ideal_wavefronts_total is not None \
            and d.wavefronts_total != d.ideal_wavefronts_total:
        ideal = f", ideal {d.ideal_wavefronts_total / max(1, d.instructions_per_cta):.3g}"
    triton = f"; Triton's model: {d.bank_conflicts} bank conflict(s)" if d.bank_conflicts is not None else ""
    if d.wavefronts is None and d.why:               # no wavefronts: say why (a target without a bank model)
        triton = f"; {d.why.rstrip('.')}"
    return f"{d.instructions_per_thread} x {d.instruction} per thread{waves}{ideal}{triton}"


def _swizzle_words(swizzle: int | None) -> str:
    return f", {swizzle}-byte swizzle" if swizzle is not None else ""


def _operand_words(o: Operand) -> str:
    """'A converted to its operand layout at line 9', 'B loaded from shared memory at line 12', 'A in registers'."""
    if o.source == CONVERTED:
        return f"{o.label} converted to its operand layout at line {o.line}"
    if o.source == LOCAL_LOAD:
        return f"{o.label} loaded from shared memory at line {o.line}"
    return f"{o.label} in {o.source}"


def _buffer_words(b: BufferInfo) -> str:
    """A local_alloc without a value: the buffer (stages, shape, bytes, swizzle) and who writes and reads it."""
    stages = f"{b.stages} x " if b.stages > 1 else ""
    shape = b.shape[1:] if b.stages > 1 else b.shape
    return (f"buffer {stages}{'x'.join(map(str, shape))}x{b.element_type}, {b.bytes} bytes"
            f"{_swizzle_words(b.swizzle_bytes)}; written by {_uses_words(b.writes)}; read by {_uses_words(b.reads)}")


def _uses_words(uses: tuple[BufferUse, ...]) -> str:
    parts = []
    for u in uses[:4]:
        conflicts = f", {u.bank_conflicts} conflict(s)" if u.bank_conflicts is not None else ""
        parts.append(f"{u.op} (line {u.line}{conflicts})")
    if len(uses) > 4:
        parts.append(f"{len(uses) - 4} more")
    return ", ".join(parts) if parts else "none"


# what may limit a vector, as the short verdict names it
_LIMIT_WORDS = {"128-bit cap": "cap", "mask": "mask", "pointer divisibility": "divisibility",
                "pointer contiguity": "contiguity", "layout": "layout", "register layout": "regs",
                "shared layout": "swizzle", "scalar pointer": "scalar", "matrix instruction": "matrix"}


def _limit(f: Finding) -> str:
    """'mask', 'cap', or the first of several limits and how many more bind ('divisibility+2')."""
    d = f.facts
    if isinstance(d, GlobalAccess):
        bound = [b for b in d.bound_by or [d.limited_by] if b]
    elif isinstance(d, (SharedAccess, AsyncCopy)):
        bound = [d.limited_by] if d.limited_by else []
    else:
        bound = []
    if not bound:
        return "?"
    more = len(bound) - 1 if bound[0] != "128-bit cap" else 0
    return _LIMIT_WORDS.get(bound[0], bound[0]) + (f"+{more}" if more else "")


def _number(x: float) -> str:
    """Costs as the table shows them: whole numbers plain, others to one decimal.

    >>> _number(4.0), _number(2.6667), _number(0.0), _number(1234.5)
    ('4', '2.7', '0', '1234')
    """
    if x == int(x) or x >= 100:
        return f"{x:.0f}"
    return f"{x:.1f}"


def short_verdict(f: Finding) -> str:
    """The row's answer in a few words for the table (the long one: `verdict`); the notation is in
    'ttlayout help notation':

    8x16b x4, cap; sectors 16/16   8 elements of 16 bits per instruction, 4 instructions per thread, limited by the
                                   128-bit cap; 16 sectors per warp access where 16 would do
    """
    if f.problem:
        return verdict(f)
    d = f.facts
    if f.category == Category.CONVERT:
        c = f.conversion
        if c is None:
            return verdict(f)
        if c.path == Path.NOOP:
            return "no-op"
        if c.path == Path.REGISTERS:
            return "register permutation"
        if c.path == Path.WARP_SHUFFLE:
            return f"warp shuffle: {c.per_thread['shuffles']} per thread"
        if c.path == Path.CROSS_CTA:
            return "cross-CTA"
        k = c.bank_conflicts or {}
        return f"smem {c.scratch_bytes} B, conflicts {k.get('store') or 0}/{k.get('load') or 0}"
    if isinstance(d, GlobalAccess):
        if d.scalar:
            return f"scalar, {d.vector_bits}b"
        bits = d.vector_bits // d.vector_width
        text = f"{d.vector_width}x{bits}b x{d.instructions_per_thread}, {_limit(f)}"
        if d.sectors_per_warp_access is not None:
            text += f"; sectors {d.sectors_per_warp_access}/{d.ideal_sectors}"
        return text
    if isinstance(d, (SharedAccess, AsyncCopy)):
        ins = re.sub(r"\.sync\.aligned", "", d.instruction or verdict(f).split(",")[0])
        if ins.startswith(("ldmatrix", "stmatrix")):        # ldmatrix.x4.trans.b16: the shape and space go
            ins = re.sub(r"\.m\d+n\d+|\.shared", "", ins)
        if ins.startswith(("cp.async", "buffer_load")):
            ins = f"{ins.split(' ', 1)[0]} {d.vector_bits}b"
        conflicts = d.bank_conflicts
        return f"{ins}, {_limit(f)}; " + (plural(conflicts, "conflict") if conflicts is not None else "no bank model")
    if isinstance(d, Reduction):
        if d.warp_bits:
            return f"{1 << d.warp_bits} warps: {d.lane_bits} shuffles + smem"
        if d.lane_bits:
            return f"in a warp: {d.lane_bits} shuffles"
        return "in registers"
    if isinstance(d, Tma):
        if d.messages and d.messages > 1 and d.box:                  # 'TMA 2 x 64x64, 128B swizzle'
            sw = f", {d.swizzle_bytes}B swizzle" if d.swizzle_bytes is not None else ""
            return f"TMA {d.messages} x {'x'.join(map(str, d.box))}" + sw
        return "TMA copy" + _swizzle_words(d.swizzle_bytes)
    if isinstance(d, Dot):
        return "; ".join(_operand_short(o) for o in d.operands)
    if f.category == Category.BUFFER and f.buffer is not None:
        b = f.buffer
        stages = f"{b.stages} x " if b.stages > 1 else ""
        shape = b.shape[1:] if b.stages > 1 else b.shape
        return f"buffer {stages}{'x'.join(map(str, shape))}x{b.element_type}, {b.bytes} B"
    return verdict(f)


def _operand_short(o: Operand) -> str:
    """'A smem', 'B regs', 'A convert@9', 'B local_load@12'."""
    if o.source in (CONVERTED, LOCAL_LOAD):
        return f"{o.label} {o.source}@{o.line}"
    return f"{o.label} {'smem' if o.source == 'shared memory' else 'regs'}"


def ranked(m: ModuleAudit, top: int | None = None) -> list[Finding]:
    """Rows by waste (`rank_by_waste`); every convert and shared access is kept within `top` (the others: the
    `top` minus that many that waste most, picked without sorting them all)."""
    if top is None or len(m.findings) <= top:
        return rank_by_waste(m.findings)
    kept = (Category.CONVERT, Category.SHARED)
    must = [f for f in m.findings if f.category in kept]
    rest = [f for f in m.findings if f.category not in kept]
    return rank_by_waste(must + most_waste(rest, max(0, top - len(must))))


def _waste_order(f: Finding) -> tuple:
    return (-f.waste, -f.cost, f.line)               # rank_by_waste's order


def most_waste(findings, n: int, wasting: bool = False) -> list[Finding]:
    """The first `n` of `rank_by_waste(findings)` (only those with some waste: `wasting`), in one linear pass."""
    wastes = list(map(sub, map(attrgetter("cost"), findings), map(attrgetter("ideal"), findings)))
    return _first(findings, n, wastes, _waste_order, wasting)


def costliest(findings, n: int) -> list[Finding]:
    """The `n` costliest rows with a cost (ties: dump order), in one linear pass."""
    return _first(findings, n, list(map(attrgetter("cost"), findings)), lambda f: (-f.cost, f.line), True)


def _first(findings, n: int, values: list, order, positive: bool) -> list[Finding]:
    """`sorted(findings, key=order)[:n]` (only those whose value is above 0: `positive`), where `order` starts
    with minus the value: only the rows whose value reaches the n-th largest are ordered."""
    if n <= 0:
        return []
    largest = nlargest(n, values)
    least = largest[-1] if len(largest) == n else float("-inf")
    if positive:
        findings = [f for f, v in zip(findings, values) if v > 0 and v >= least]
    elif least > 0:                                  # (a value below 0 ranks as 0)
        findings = [f for f, v in zip(findings, values) if v >= least]
    return nsmallest(n, findings, key=order)


def asm_counts_text(counts: dict) -> str:
    """A Python line's instructions in the assembly, 'ld 8, st 8, bar 1' ('none': none of the four classes).

    >>> asm_counts_text({"shared_loads": 8, "shared_stores": 0, "shuffles": 0, "barriers": 1})
    'ld 8, bar 1'
    """
    from ..analysis.asm import ASM_CLASSES, SHORT
    return ", ".join(f"{SHORT[c]} {counts[c]}" for c in ASM_CLASSES if counts.get(c)) or "none"


def asm_cell(f: Finding, asm) -> str:
    """The assembly column of a row: for its Python line, the model's count / the assembly's in each class
    either has ('st 4/4, bar 2/2'; 'none' where both are zero), with ' *' where the line differs; the assembly's
    alone ('asm: st 4') on a line the model counts nothing on; '-' for a row without a line."""
    from ..analysis.asm import ASM_CLASSES, SHORT
    row = asm.row(f) if asm is not None else None
    if row is None:
        return "-"
    line, counts = row
    check = asm.check(line)
    if check is None:
        return "asm: " + asm_counts_text(counts)
    parts = [f"{SHORT[c]} {check.model[c]}/{check.net(c)}" for c in ASM_CLASSES if check.model[c] or check.asm[c]]
    return (", ".join(parts) if parts else "none") + peeled_text(check.peeled) + ("" if check.agrees else " *")


def peeled_text(peeled: dict) -> str:
    """' (+gld 4, ld 16 in a peeled first iteration)': the assembly's extra copy of a loop's first iteration LLVM
    peeled, shown beside the per-iteration counts ('' where none).

    >>> peeled_text({"global_loads": 4})
    ' (+gld 4 in a peeled first iteration)'
    """
    from ..analysis.asm import ASM_CLASSES, SHORT
    if not peeled:
        return ""
    return " (+" + ", ".join(f"{SHORT[c]} {peeled[c]}" for c in ASM_CLASSES if peeled.get(c)) + \
        " in a peeled first iteration)"


def asm_footer(asm) -> list[tuple[str, str]]:
    """The footer lines of the assembly column: how many Python lines agree, the ones that differ, the totals."""
    from ..analysis.asm import ASM_CLASSES, SHORT
    kind = "PTX" if asm.kind == "ptx" else "AMDGCN"
    agree = (f"{kind}: {asm.agreeing} of {plural(len(asm.lines), 'Python line')} agree with the model "
             f"(model/assembly per line; * differs)")
    rows = [("assembly", agree)]
    peeled = [c for c in asm.lines if c.peeled]
    if peeled:
        rows.append(("peeled", abbreviate("; ".join(f"line {c.line}{peeled_text(c.peeled)}" for c in peeled)
                                          + " (LLVM peeled a loop; compared per iteration)", 110)))
    if asm.disagreeing:
        rows.append(("differ", abbreviate("; ".join(f"line {c.line} ({c.differences()})" for c in asm.disagreeing), 110)))
    totals = ", ".join(f"{SHORT[c]} {asm.model_total[c]}/{asm.total[c]}" for c in ASM_CLASSES)
    rows.append(("kernel total", totals))
    return rows


class Legend:
    """The layouts a table names: the dump's aliases as they are, every other layout text as a label `L1`, `L2`,
    ...; `rows()` gives each name with its full text, in order of first appearance."""

    def __init__(self):
        self.names: dict[str, str] = {}          # layout text as the dump writes it -> shown name
        self.full: dict[str, str] = {}           # shown name -> full text
        self.labels = 0                          # the L-labels given

    def name(self, text: str, canonical: str) -> str:
        shown = self.names.get(text)
        if shown is None:
            if _ALIAS.fullmatch(text):
                shown = text
            else:
                self.labels += 1
                shown = f"L{self.labels}"
            self.names[text] = shown
            self.full[shown] = canonical if shown == text else text
        return shown

    def rows(self) -> tuple[tuple[str, str], ...]:
        return tuple((n, t) for n, t in self.full.items())


MEMO = 1 << 16         # distinct texts a memo keeps before it starts again (rows that share no facts: a bound)


class _Cells:
    """One module's table cells, each distinct text made once: a huge function repeats a few op texts thousands
    of times, and its rows share their facts records (the analysis makes one per distinct op text), so a row's
    words and numbers are one `entry`, memoized by those records' identity and the row's cost; its location is
    memoized by value. Called on a row: its cells (`blocks.Rows`). `widths`: the widest (escaped) text of each
    column made so far (the line column's is not kept)."""

    def __init__(self, main: str | None, legend: Legend | None, wide: bool, extra: tuple):
        self.main, self.legend, self.wide, self.extra = main, legend, wide, extra
        self.keys: dict = {}                     # the row's facts and cost -> its entry's index
        self.entries: list[tuple[str, ...]] = []  # (waste, cost, op, layouts, verdict) as the table shows them
        self.places: dict = {}                   # loc -> python cell
        self.widths = [0] * 7
        self.cleared = False                     # a memo started again (entries' indices changed)

    def entry(self, f: Finding) -> int:
        """The index of the row's (waste, cost, op, layouts, verdict) in `entries`."""
        key = (f.op, id(f.category), f.layouts, f.attrs, f.problem, id(f.status), id(f.facts), id(f.conversion),
               id(f.buffer), f.cost, f.ideal)      # (an enum by identity: its hash is Python code)
        k = self.keys.get(key)
        if k is None:
            if len(self.keys) >= MEMO:           # rows that share nothing: start again (a bound on memory)
                self.keys.clear()
                self.entries.clear()
                self.cleared = True
            k = self.keys[key] = len(self.entries)
            texts = (_number(f.waste), _number(f.cost), f.op, _layouts(f, self.legend),
                     verdict(f) if self.wide else short_verdict(f))
            self.entries.append(texts)
            for column, text in zip((0, 1, 3, 5, 6), texts):
                self.widths[column] = max(self.widths[column], len(escaped(text)))
        return k

    def place(self, f: Finding) -> str:
        place = self.places.get(f.loc)
        if place is None:
            if len(self.places) >= MEMO:
                self.places.clear()
            place = self.places[f.loc] = where(f, self.main)
            self.widths[4] = max(self.widths[4], len(escaped(place)))
        return place

    def __call__(self, f: Finding) -> tuple[str, ...]:
        waste, cost, op, layouts, words = self.entries[self.entry(f)]
        row = (waste, cost, str(f.line), op, self.place(f), layouts, words)
        return row + tuple(cell(f) for cell in self.extra) if self.extra else row

    def narrow(self, f: Finding) -> tuple[str, ...]:
        """The row in the narrow table: no cost column, the op's short name."""
        r = self(f)
        return r[:1] + r[2:3] + (short_op(r[3]),) + r[4:]


class _TableRows(Rows):
    """The rows of an audit table (`_Cells`), which plain text writes without making their cells: one pass when
    the table is made finds each row's entry (kept as an int in an array; it also names the legend's layouts in
    the rows' order) and so the column widths; `lines` then joins each row from pieces padded once per entry."""

    __slots__ = ("index",)

    def __init__(self, rows: list[Finding], cells: _Cells):
        super().__init__(rows, cells)
        index = array("L")
        entry, place = cells.entry, cells.place
        for f in rows:
            index.append(entry(f))
            place(f)
        self.index = None if cells.cleared or cells.extra else index

    def widths(self) -> list[int] | None:
        """Each column's widest cell, escaped (None: no fast path; the rows must be read)."""
        if self.index is None:
            return None
        widths = list(self.cells.widths)
        widths[2] = len(str(max(map(attrgetter("line"), self.items)))) if self.items else 0
        return widths

    def lines(self, indent: str, widths: list[int]):
        """The rows' text lines, CHUNK at a time joined by newlines, as `blocks` would write them from cells."""
        assert self.index is not None
        cells = self.cells
        pieces: list = [None] * len(cells.entries)
        places: dict = {}
        w_line, w_place = widths[2], widths[4]
        rows, index = self.items, self.index
        for start in range(0, len(rows), CHUNK):
            out = []
            for f, k in zip(rows[start:start + CHUNK], index[start:start + CHUNK]):
                piece = pieces[k]
                if piece is None:
                    waste, cost, op, layouts, words = (escaped(t) for t in cells.entries[k])
                    piece = pieces[k] = (indent + waste.ljust(widths[0]) + "  " + cost.ljust(widths[1]) + "  ",
                                         "  " + op.ljust(widths[3]) + "  ",
                                         "  " + layouts.ljust(widths[5]) + "  " + words)
                place = places.get(f.loc)
                if place is None:
                    if len(places) >= MEMO:
                        places.clear()
                    place = places[f.loc] = escaped(cells.place(f)).ljust(w_place)
                out.append((piece[0] + str(f.line).ljust(w_line) + piece[1] + place + piece[2]).rstrip())
            yield "\n".join(out)


def _layouts(f: Finding, legend: Legend | None) -> str:
    sep = " -> " if f.category == Category.CONVERT else ", "
    if legend is None:
        return sep.join(f.layouts)
    return sep.join(legend.name(t, c) for t, c in zip(f.layouts, f.attrs))


def _title(m: ModuleAudit, path: str, several: bool) -> str:
    t = m.target
    warps = f"{m.num_warps} warps" if m.num_warps else "warps unknown"
    lanes = f" x {m.threads_per_warp} threads" if m.threads_per_warp else ""
    s = m.section
    if s is not None and s.is_pass:
        where = f"{path}, {s.title()} (line {s.first_line})"
    elif several:
        where = f"{path}, module {s.number if s is not None else m.index + 1} (line {m.first_line})"
    else:
        where = path
    default = " (the module names no ttg.target; give --target)" if m.target_given == "default" else ""
    return f"ttlayout audit {where}: {t.name}{default}, {t.arch}, {warps}{lanes}; {models()}"


def module_blocks(m: ModuleAudit, path: str, top: int | None = None, several: bool = False, wide: bool = False,
                  notes: tuple[str, ...] = (), extra_columns: tuple = (), asm=None) -> list:
    """One module's report. `wide`: the long verdicts and the layouts as the dump writes them (no legend);
    `notes`: lines under the title (which pass of a dump this is); `extra_columns`: (header, cell(finding)) pairs
    added after the verdict; `asm`: the kernel's assembly (analysis.asm.KernelAsm), its column and footer."""
    if asm is not None:
        extra_columns = tuple(extra_columns) + (("asm", lambda f: asm_cell(f, asm)),)
    main = main_file(m)
    out: list = [line(_title(m, path, several), "bold")]
    out += [line(n, indent="  ") for n in notes]
    rows = ranked(m, top)
    legend = None if wide else Legend()
    if rows:
        out.append(line(cost_line(), indent="  "))
        out.append(line(WASTE_LINE, indent="  "))
        header = ("waste", "cost", "line", "op", "python", "layouts", "verdict", *(h for h, _ in extra_columns))
        cells = _Cells(main, legend, wide, tuple(cell for _, cell in extra_columns))
        table = _TableRows(rows, cells)          # (names the legend's layouts in the rows' order)
        narrow = None if wide else (header[:1] + header[2:], Rows(rows, cells.narrow))
        out.append(Table(header, table, "  ", fit=not wide, narrow=narrow))
    else:
        out.append(line("no op touches a layout", indent="  "))
    hidden = len(m.findings) - len(rows)
    if hidden:
        out.append(line(f"... {plural(hidden, 'op')} with less waste not shown (--top)", indent="  "))
    out.append(BLANK)
    legend_rows = legend.rows() if legend is not None else ()
    python = [("python", f"{main} (the python column's lines)")] if main and rows else []
    whole = rows if top is None or len(m.findings) <= top else None     # every row, ranked
    out.append(Fields(tuple(_legend_rows(legend_rows) + python + _footer(m, whole)
                            + (asm_footer(asm) if asm is not None else [])),
                      label_width=14))
    return out


def _legend_rows(rows) -> list[tuple[str, str]]:
    """The legend under the label 'layouts': each name and its full text."""
    return [("layouts" if k == 0 else "", f"{name} = {text}") for k, (name, text) in enumerate(rows)]


def _footer(m: ModuleAudit, ranking: list[Finding] | None = None) -> list[tuple[str, str]]:
    """The lines under a module's table; `ranking`: every row, ranked (`ranked(m)`), where the table has it."""
    s = m.shared
    share = f" ({100 * s.total / s.limit:.0f}% of {s.limit // 1024} KiB)" if s.limit else ""
    over = "  OVER THE LIMIT" if s.limit and s.total > s.limit else ""
    if s.bound:
        over += " (at most: too many buffers live together to place them as Triton does)"
    allocated = sum(b.bytes for b in s.allocations)
    rows = [("shared memory", f"{s.total} bytes{share}{over}: {plural(len(s.allocations), 'allocation')} "
                              f"({allocated} bytes), largest scratch {s.largest_scratch} bytes")]
    paths = m.paths
    if paths:
        rows.append(("conversions", ", ".join(f"{n} {p}" for p, n in sorted(paths.items(), key=lambda kv: -kv[1]))))
    else:
        rows.append(("conversions", "none"))
    total = module_cost(m)
    rows.append(("total", f"cost {_number(total.cost)}, ideal {_number(total.ideal)}, waste {_number(total.waste)}"))
    wasteful = [f for f in ranking[:3] if f.waste > 0] if ranking is not None else \
        most_waste(m.findings, 3, wasting=True)
    rows.append(("most waste", "; ".join(f"{f.op} at {where(f)} (line {f.line})" for f in wasteful)
                 if wasteful else "none: every op is as cheap as the model knows how to make it"))
    with_problem = [f for f in m.findings if f.problem]
    for status in ("error", "not analysed", "not modelled"):
        problems = [f for f in with_problem if f.status == status]
        if problems:
            f = problems[0]
            rows.append((status, f"{plural(len(problems), 'op')}: line {f.line}: {f.op}: {f.problem}"))
    return rows


def blocks(audits: list[ModuleAudit], path: str, top: int | None = None, wide: bool = False,
           notes: tuple[str, ...] = (), extra_columns: tuple = (), asm=None, advise: str | None = None) -> list:
    """The report of every module; `asm`: per module, its assembly column (analysis.asm.KernelAsm) or None;
    `advise`: the `ttlayout advise` command line for this file (`advise_command`), the report's last line."""
    out: list = []
    for k, m in enumerate(audits):
        if k:
            out.append(BLANK)
        out += module_blocks(m, path, top, several=len(audits) > 1, wide=wide, notes=notes,
                             extra_columns=extra_columns, asm=asm[k] if asm else None)
    if advise is not None:
        out.append(Fields((("advise", advise),), label_width=14))
    return out


def advise_command(path: str | None = None, label: str | None = None, cache_dirs: tuple[str, ...] | None = None,
                   target: str | None = None) -> str | None:
    """The `ttlayout advise` line a user can copy and paste for one kernel: its file
    ('ttlayout advise k.ttgir'), or its cache label ('ttlayout advise --cache DIR softmax@VEI3L42R'; `cache_dirs`
    empty: the default cache); None for standard input.

    >>> advise_command("my kernel.ttgir", target="sm80")
    "ttlayout advise 'my kernel.ttgir' --target sm80"
    """
    import shlex
    if label is not None and cache_dirs is not None:
        words = ["--cache", *cache_dirs, label]
    elif path is not None and path != "-":
        words = [path]
    else:
        return None
    if target is not None:
        words += ["--target", target]
    return "ttlayout advise " + " ".join(shlex.quote(w) for w in words)


def finding_json(f: Finding, asm=None) -> dict:
    """One row as the JSON report writes it; `asm`: the kernel's assembly column (the row's line's counts)."""
    row = asm.row(f) if asm is not None else None
    return {"op": f.op, "line": f.line, "loc": f.loc, "loops": f.loops, "category": f.category.value,
            "layouts": list(f.layouts), "attrs": list(f.attrs), "shape": list(f.shape), "element_type": f.element,
            "verdict": verdict(f) if not f.problem else f.status.value, "short": short_verdict(f), "cost": f.cost,
            "ideal": f.ideal, "waste": f.waste, "scratch_bytes": f.scratch_bytes, **facts_json(f),
            **({"problem": f.problem} if f.problem else {}), **({"asm": row[1]} if row is not None else {})}


def record_json(record) -> dict:
    """A fact record as the JSON report writes it: its fields in declaration order (one in its class's `OPTIONAL`
    is left out while None, one in its `HIDDEN` always: it is there for the words), enums as their words, records
    inside as objects."""
    optional, hidden = type(record).OPTIONAL, getattr(type(record), "HIDDEN", ())
    return {name: _plain(value) for name in field_names(record)
            if name not in hidden and ((value := getattr(record, name)) is not None or name not in optional)}


def _plain(value):
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if hasattr(type(value), "OPTIONAL"):
        return record_json(value)
    return value


def facts_json(f: Finding) -> dict:
    """What a row's model found (`Finding.facts`, then the buffer a local_alloc makes), as JSON fields."""
    out = record_json(f.facts) if f.facts is not None else {}
    if isinstance(f.facts, Dot):                    # where each operand comes from, in words
        out["operands"] = [_operand_words(o) for o in f.facts.operands]
    if f.buffer is not None:
        out["buffer"] = record_json(f.buffer)
    return out


def ops_json(m: ModuleAudit, asm=None) -> list[dict]:
    """A module's op rows as the JSON report writes them (`ops`), in dump order."""
    return [finding_json(f, asm) for f in sorted(m.findings, key=attrgetter("line"))]


def _module_json(m: ModuleAudit, asm=None, ops=None) -> dict:
    """A module's object; `ops`: what stands for its rows (default: `ops_json`; the stream puts a mark there)."""
    s = m.shared
    total = module_cost(m)
    sec = m.section
    return {
        "module": m.index, "first_line": m.first_line, "target": m.target.name, "triton": TRITON, "target_from": m.target_given,
        **({"section": sec.number, "pass": sec.pass_name, "dump": sec.title()} if sec is not None and sec.is_pass
           else {"section": sec.number} if sec is not None else {}),
        "num_warps": m.num_warps,
        "threads_per_warp": m.threads_per_warp, "shared_bytes": s.total, "shared_limit": s.limit,
        "shared_bytes_is_bound": s.bound,
        "cost_unit": COST_UNIT, "cost": total.cost, "ideal": total.ideal, "waste": total.waste,
        "allocations": [{"name": b.name, "line": b.line, "bytes": b.bytes, "alignment": b.alignment}
                        for b in s.allocations],
        "ops": ops_json(m, asm) if ops is None else ops,
        "summary": {"conversions": m.paths, "largest_scratch": s.largest_scratch,
                    "costliest": [{"line": f.line, "op": f.op, "loc": f.loc, "cost": f.cost}
                                  for f in costliest(m.findings, 5)],
                    "most_waste": [{"line": f.line, "op": f.op, "loc": f.loc, "waste": f.waste}
                                   for f in most_waste(m.findings, 5, wasting=True)],
                    "problems": [f"line {f.line}: {f.op}: {f.problem}" for f in m.problems]},
        **({"asm": asm.json()} if asm is not None else {}),
    }


def json_text(audits: list[ModuleAudit], path: str, extra: dict | None = None, asm=None) -> str:
    """One object; `modules` holds one entry per module; the first module's fields are repeated at the top;
    `extra`: fields the command adds (the dump's passes); `asm`: per module, its assembly column or None (then
    every op has `asm`, the module an `asm` total). The text of `json_stream`, in one string."""
    out: list[str] = []
    json_stream(audits, path, out.append, extra, asm)
    return "".join(out)



# A value's place in a JSON template: a string no report holds (NULs around a name and this process's token).
_TOKEN = f"{id(MEMO):x}"
_MARK = re.compile(r'"\\u0000' + _TOKEN + r'(\w+)\\u0000"')


def _mark(name: str) -> str:
    return f"\x00{_TOKEN}{name}\x00"


def _template(obj, indent: int) -> tuple[list[str], tuple[str, ...], list[int]]:
    """`json.dumps(obj, indent=2)` as it stands `indent` spaces deep, cut at the marks (`_mark`): the text between
    them, the marks' names and the indent of each mark's line (where a value of several lines goes)."""
    parts = _MARK.split(_encode(obj, "\n" + " " * indent))
    texts, names = parts[0::2], tuple(parts[1::2])
    depths = [len(t) - len(t.lstrip(" ")) for t in (p.rpartition("\n")[2] for p in texts[:-1])]
    return texts, names, depths


def _encode(value, newline: str = "\n") -> str:
    """`json.dumps(value, indent=2)` with every line after the first indented as `newline` says ('\n' and the
    spaces), the same text made by joining strings instead of the encoder's generators (2-3x faster)."""
    if isinstance(value, str):
        return _quote(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _number_json(value)
    inner = newline + "  "
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        return "[" + inner + ("," + inner).join([_encode(v, inner) for v in value]) + newline + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{" + inner + ("," + inner).join([_key(k) + ": " + _encode(v, inner) for k, v in value.items()]) + \
            newline + "}"
    import json
    return json.dumps(value, indent=2).replace("\n", newline)     # (raises as json does)


def _quote(text: str) -> str:
    """A string as JSON writes it (json's own C encoder, bound here on first use: json loads only for JSON)."""
    from json.encoder import encode_basestring_ascii
    globals()["_quote"] = encode_basestring_ascii
    return encode_basestring_ascii(text)


def _key(key) -> str:
    """A dict key as json writes it (a str quoted; a number, bool or None as its JSON text, quoted)."""
    if isinstance(key, str):
        return _quote(key)
    import json
    return json.dumps({key: 0})[1:-4]


def _number_json(x) -> str:
    """A number as `json.dumps` writes it (floats by repr; NaN, infinities and other types by json itself)."""
    t = type(x)
    if t is float and x - x == 0:
        return float.__repr__(x)
    if t is int:
        return int.__repr__(x)
    import json
    return json.dumps(x)


_OWN = frozenset(("line", "loc", "cost", "ideal", "waste"))


class _RowsJson:
    """A module's `ops` rows as JSON text. Each distinct op text (its facts records, by identity, as `_Cells`)
    is one entry, encoded once by `json.dumps` with marks in place of the row's own values (line, loc, cost,
    ideal, waste, asm), which each row then puts in. The entry of each row is kept (an int in an array) for the
    second time the rows are written (the first module's fields are repeated at the top)."""

    FIELDS = ("line", "loc", "cost", "ideal", "waste")

    def __init__(self, m: ModuleAudit, asm):
        self.asm = asm
        self.rows = sorted(m.findings, key=attrgetter("line"))
        self.keys: dict = {}
        self.entries: list = []                  # (texts, names, depths) of `_template(row, 0)`
        self.indented: dict = {}                 # indent -> {entry -> texts}
        self.index: array | None = None          # each row's entry, once written
        self.numbers: dict = {}                  # (cost, ideal) -> their texts and waste's
        self.locs: dict = {}                     # loc -> its JSON text
        self.cleared = False                     # the entries started again: no index kept

    def entry(self, f: Finding, asm_row) -> int:
        key = (f.op, f.loops, id(f.category), f.layouts, f.attrs, f.shape, f.element, id(f.status), f.problem,
               f.scratch_bytes, id(f.facts), id(f.buffer), id(f.conversion), asm_row is not None)
        k = self.keys.get(key)
        if k is None:
            if len(self.keys) >= MEMO:           # rows that share nothing: start again (a bound on memory)
                self.keys.clear()
                self.entries.clear()
                for texts in self.indented.values():
                    texts.clear()
                self.cleared = True
            row = finding_json(f)
            facts = facts_json(f) if f.facts is not None and not _OWN.isdisjoint(field_names(f.facts)) else ()
            for name in self.FIELDS:             # (a fact of the same name as a row's own field replaces it)
                if name in row and name not in facts:
                    row[name] = _mark(name)
            if asm_row is not None:
                row["asm"] = _mark("asm")
            k = self.keys[key] = len(self.entries)
            self.entries.append(_template(row, 0))
        return k

    def write(self, put, depth: int) -> None:
        """`put` the rows as the list of a key `depth` spaces deep ('[]' where none)."""
        import json
        rows, asm, numbers, locs = self.rows, self.asm, self.numbers, self.locs
        if not rows:
            put("[]")
            return
        inner = depth + 2
        pad = " " * inner
        index = self.index
        new = array("L") if index is None else None
        pending: list[str] = ["["]
        size = 0
        sep = "\n" + pad
        indented = self.indented.setdefault(inner, {})
        for n, f in enumerate(rows):
            asm_row = asm.row(f) if asm is not None else None
            if index is not None:
                k = index[n]
            else:
                k = self.entry(f, asm_row)
                if new is not None:
                    new.append(k)
            texts = indented.get(k)
            if texts is None:
                texts = [t.replace("\n", "\n" + pad) for t in self.entries[k][0]]
                texts[0] = "," + sep + texts[0]  # (the first row's comma is cut below)
                indented[k] = texts
            names = self.entries[k][1]
            number = numbers.get((f.cost, f.ideal))
            if number is None:
                if len(numbers) >= MEMO:
                    numbers.clear()
                number = numbers[(f.cost, f.ideal)] = {"cost": _number_json(f.cost), "ideal": _number_json(f.ideal),
                                                       "waste": _number_json(f.waste)}
            loc = locs.get(f.loc)
            if loc is None:
                if len(locs) >= MEMO:
                    locs.clear()
                loc = locs[f.loc] = json.dumps(f.loc)
            if names == self.FIELDS:             # the usual row: its own values in their usual places
                text = "".join((texts[0], str(f.line), texts[1], loc, texts[2], number["cost"], texts[3],
                                number["ideal"], texts[4], number["waste"], texts[5]))
            else:
                values = {"line": _number_json(f.line), "loc": loc, **number}
                if asm_row is not None:
                    depth_asm = self.entries[k][2][names.index("asm")] + inner
                    values["asm"] = json.dumps(asm_row[1], indent=2).replace("\n", "\n" + " " * depth_asm)
                parts = [texts[0]]
                for name, t in zip(names, texts[1:]):
                    parts += (values[name], t)
                text = "".join(parts)
            pending.append(text if n else text[1:])
            size += len(text)
            if size >= FLUSH:
                put("".join(pending))
                pending.clear()
                size = 0
        pending.append("\n" + " " * depth + "]")
        put("".join(pending))
        if new is not None and not self.cleared:
            self.index = new


FLUSH = 1 << 18                                      # characters written at a time


def json_stream(audits: list[ModuleAudit], path: str, write, extra: dict | None = None, asm=None) -> None:
    """`json_text`, written as it is made (`write(str)`, in pieces of about FLUSH characters): the rows of a
    huge function are never held, as dicts or as text, and each distinct row is encoded once (`_RowsJson`)."""
    mods = [_module_json(m, asm[k] if asm else None, ops=_mark(f"ops{k}")) for k, m in enumerate(audits)]
    top = dict(mods[0]) if mods else {}
    texts, names, depths = _template({"file": path, **(extra or {}), **top, "modules": mods}, 0)
    ops: dict[int, _RowsJson] = {}
    for k, text in enumerate(texts):
        if k == len(names):
            write(text + "\n")
            break
        write(text)
        module = int(names[k][3:])
        rows = ops.get(module)
        if rows is None:
            rows = ops[module] = _RowsJson(audits[module], asm[module] if asm else None)
        rows.write(write, depths[k])
        if module:                               # only the first module's rows are written twice
            del ops[module]


# ----------------------------------------------------------------------------------------- one op


def facts_blocks(f: Finding, title: str) -> list:
    """The full facts of a row that is neither a convert nor a shared access (`audit --line N`)."""
    rows = [("op", f.op), ("python", f.loc or "-"), ("shape", "x".join(map(str, f.shape)) or "-"),
            ("element", f.element or "-")]
    for k, (text, canonical) in enumerate(zip(f.layouts, f.attrs)):
        rows.append(("layouts" if k == 0 else "", text if text == canonical else f"{text} = {canonical}"))
    rows += [("verdict", verdict(f)), ("cost", f"{_number(f.cost)} {COST_UNIT} (ideal {_number(f.ideal)}, "
                                                f"waste {_number(f.waste)})")]
    if f.loops:
        rows.append(("loops", f"inside {plural(f.loops, 'loop')}: cost and ideal x8"))
    for key, value in (record_json(f.facts) if f.facts is not None else {}).items():
        if key != "operands":
            rows.append((key.replace("_", " "), _value(value)))
    buf = f.buffer
    if buf is not None:
        for key in ("shape", "stages", "layout", "bytes", "memory"):
            rows.append((f"buffer {key}", _value(getattr(buf, key))))
        for role, uses in (("write", buf.writes), ("read", buf.reads)):
            rows.append((f"buffer {role}s", ", ".join(f"{u.op} (line {u.line}"
                                                      + (f", {u.bank_conflicts} conflicts" if u.bank_conflicts
                                                         is not None else "") + ")" for u in uses) or "none"))
    return [line(title, "bold"), Fields(tuple(rows), label_width=max(len(label) for label, _ in rows) + 2)]


def _value(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {_value(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v) if not v or not isinstance(v[0], (int, float)) else \
            "x".join(str(x) for x in v) if all(isinstance(x, int) for x in v) else str(list(v))
    if isinstance(v, float):
        return _number(v)
    return str(v)
