"""A kernel's compiled assembly (Triton's PTX or AMDGCN) read as counts per Python line of the kernel's source.

Every instruction of the classes below is attributed, through the `.file` / `.loc` directives, to one line of the
kernel's own file (the file of the code's first `.loc`):

- PTX: `.loc F L C, function_name S, inlined_at F2 L2 C2` names the call site of an inlined function (Triton
  inlines `tl.sum`, `tl.max`, their combine functions ...). NVPTX writes each caller as its own `.loc` just before
  the callee's, so an `inlined_at` location is followed through the latest `.loc` of that location, outwards; the
  outermost location in the kernel's own file is the instruction's line.
- AMDGCN: `.loc` has no `inlined_at`. The inlining is in the DWARF the same text carries, written as directives:
  `.debug_abbrev` (which entries have children), `.debug_info` (each `DW_TAG_inlined_subroutine` with its
  `DW_AT_call_file` / `DW_AT_call_line` and its code as `DW_AT_ranges` or `DW_AT_low_pc` / `DW_AT_high_pc`) and
  `.debug_ranges` (label pairs). An instruction between a range's labels belongs to the innermost inlined entry
  around it, whose call sites, outwards, lead to the kernel's line.
- Inline assembly (`// begin inline asm` ... `// end inline asm`; `;;#ASMSTART` ... `;;#ASMEND`): LLVM numbers the
  `.loc`s inside a block as the op's line plus the index of the line in the asm string, so they are ignored there;
  the block's instructions keep the location in force where it began.
- Line 0 (code LLVM merged from several lines), code before the first `.loc`, and chains that never reach the
  kernel's file are `unattributed`.
- A loop's first iteration that LLVM peeled (`peeled`): LLVM writes each basic block's LLVM IR name as a comment
  where the block starts (`$L__BB0_6: // %.peel.next`, `; %bb.14: ; %.peel.next`). LoopPeel places the peeled copy
  between blocks it names `H.peel.begin` and `H.peel.next` (H: the loop header) and names the cloned blocks
  `*.peel`; block merging folds `.peel.begin` and the peeled blocks into the loop's preheader, `*.lr.ph`. The
  peeled copy is every instruction from the start of the last block named `*.lr.ph`, `*.peel.begin` or `*.peel`
  before a block named `*.peel.next`, up to that block. Its instructions are in `lines` too; `peeled` says how
  many of them are that extra copy.

Classes (static counts of the text, not executed counts; `CLASSES`):

- shared_loads: `ld.shared*`, `ldmatrix*` / `ds_read*`;
- shared_stores: `st.shared*`, `stmatrix*` / `ds_write*`;
- shuffles: `shfl.sync*` / `ds_bpermute*`, `ds_swizzle*`, `v_permlane*`, DPP (`v_*_dpp`, or a `quad_perm`,
  `row_*` or `wave_*` operand);
- barriers: `bar.sync`, `barrier.sync*` / `s_barrier`;
- global_loads, global_stores: `ld.global*` / `global_load*`, `buffer_load*`; `st.global*` / `global_store*`,
  `buffer_store*`, each with its bits per lane (vector lanes x element width; 0 where the mnemonic does not say).

Reading is one pass over the lines plus, for AMDGCN, one sweep over the DWARF ranges; an inlining chain is
followed at most `MAX_CHAIN` calls deep. `tests/parsing/test_asm.py` checks every entry of the test cache against the
counts of an independent script (scripts/asm_counts.py, tests/data/cache_counts.json).
"""
from __future__ import annotations

import heapq
import re

from ..errors import TTLayoutError
from ..records import frozen

CLASSES = ("shared_loads", "shared_stores", "shuffles", "barriers", "global_loads", "global_stores")
MAX_CHAIN = 256                  # inlined calls followed per location (Triton's are 2-3 deep)

PTX, AMDGCN = "ptx", "amdgcn"


@frozen
class Counts:
    """Instructions of each class; the global ones also by bits per lane (`((bits, n), ...)`, 0 = unknown)."""
    shared_loads: int = 0
    shared_stores: int = 0
    shuffles: int = 0
    barriers: int = 0
    global_loads: int = 0
    global_stores: int = 0
    global_load_bits: tuple = ()
    global_store_bits: tuple = ()

    def get(self, cls: str) -> int:
        """The count of one class of `CLASSES`."""
        return getattr(self, cls)

    def as_dict(self) -> dict:
        """{class: count} over `CLASSES`."""
        return {c: getattr(self, c) for c in CLASSES}


@frozen
class AsmListing:
    """A kernel's assembly counted per line of its own source file."""
    kind: str                    # "ptx" or "amdgcn"
    source: str | None           # the kernel's file as the `.file` directive names it (None: no `.loc` at all)
    lines: dict                  # Python line (int) -> Counts, in line order
    unattributed: Counts
    total: Counts
    entries: tuple[str, ...] = ()     # the kernels the text defines (PTX `.entry NAME`, AMDGCN `.amdhsa_kernel NAME`)
    peeled: dict = {}            # Python line -> Counts of its instructions in a loop iteration LLVM peeled

    def at(self, line: int) -> Counts:
        """The counts of one Python line (zero where none of its instructions is counted)."""
        return self.lines.get(line, EMPTY)

    def peeled_at(self, line: int) -> Counts:
        """The part of `at(line)` in a loop's first iteration that LLVM peeled (zero where none)."""
        return self.peeled.get(line, EMPTY)


EMPTY = Counts()


class AsmError(TTLayoutError):
    """Assembly text that is neither PTX nor AMDGCN."""


# ----------------------------------------------------------------------------------------- the classes

_PTX_PREFIXES = (("ld.shared", "shared_loads"), ("ldmatrix", "shared_loads"), ("st.shared", "shared_stores"),
                 ("stmatrix", "shared_stores"), ("shfl.sync", "shuffles"))
_PTX_TMA = re.compile(r"cp\.(reduce\.)?async\.bulk\.tensor\.\d+d\.(shared|global)")
_PTX_BARRIER = re.compile(r"(?:bar|barrier)\.sync(?:\.|$)")
_PTX_LANES = re.compile(r"\.v(\d{1,4})(?:\.|$)")
_PTX_WIDTH = re.compile(r"\.[bfsu](\d{1,4})$")
_GCN_MEMORY = re.compile(r"(global|buffer)_(load|store)_(?:lds_)?([a-z0-9]+)")
_GCN_WIDTHS = {"ubyte": 8, "sbyte": 8, "byte": 8, "ushort": 16, "sshort": 16, "short": 16, "dword": 32,
               "dwordx2": 64, "dwordx3": 96, "dwordx4": 128, "b8": 8, "u8": 8, "i8": 8, "b16": 16, "u16": 16,
               "i16": 16, "b32": 32, "b64": 64, "b96": 96, "b128": 128}
_DPP_OPERAND = re.compile(r"(?<![\w:])(?:quad_perm|row_(?:shl|shr|ror|mirror|half_mirror|bcast|share|xmask|"
                          r"newbcast)|wave_(?:shl|shr|rol|ror))\b")


def ptx_class(mnemonic: str) -> tuple[str, int] | None:
    """(class, bits per lane; 0 outside the global classes or where unknown) of a PTX opcode, or None.

    >>> ptx_class("ld.global.nc.v4.b32"), ptx_class("stmatrix.sync.aligned.m8n8.x4.shared.b16")
    (('global_loads', 128), ('shared_stores', 0))
    >>> ptx_class("bar.sync"), ptx_class("bar.warp.sync"), ptx_class("add.f32")
    (('barriers', 0), None, None)
    >>> ptx_class("cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes")
    ('global_loads', 0)
    """
    for prefix, cls in _PTX_PREFIXES:
        if mnemonic.startswith(prefix):
            return cls, 0
    if _PTX_BARRIER.match(mnemonic):
        return "barriers", 0
    tma = _PTX_TMA.match(mnemonic)
    if tma:                          # a TMA copy: global -> shared is a load; shared -> global and reduce, stores
        return ("global_loads" if tma.group(2) == "shared" and not tma.group(1) else "global_stores"), 0
    if mnemonic.startswith(("ld.global", "st.global")):
        lanes, width = _PTX_LANES.search(mnemonic), _PTX_WIDTH.search(mnemonic)
        bits = (int(lanes.group(1)) if lanes else 1) * int(width.group(1)) if width else 0
        return ("global_loads" if mnemonic[0] == "l" else "global_stores"), bits
    return None


def gcn_class(mnemonic: str, operands: str) -> tuple[str, int] | None:
    """(class, bits per lane) of an AMDGCN instruction, or None.

    >>> gcn_class("buffer_load_dwordx4", "v[0:3], v4, s[0:3], 0 offen"), gcn_class("v_max_f32_dpp", "v1, v2 row_shr:1")
    (('global_loads', 128), ('shuffles', 0))
    """
    if mnemonic.startswith("ds_read"):
        return "shared_loads", 0
    if mnemonic.startswith("ds_write"):
        return "shared_stores", 0
    if (mnemonic.startswith(("ds_bpermute", "ds_swizzle", "v_permlane")) or mnemonic.endswith("_dpp")
            or _DPP_OPERAND.search(operands)):
        return "shuffles", 0
    if mnemonic == "s_barrier":
        return "barriers", 0
    m = _GCN_MEMORY.match(mnemonic)
    if m:
        return ("global_loads" if m.group(2) == "load" else "global_stores"), _GCN_WIDTHS.get(m.group(3), 0)
    return None


# ----------------------------------------------------------------------------------------- the text

_LOC = re.compile(r"\.loc\s+(\d{1,9})\s+(\d{1,9})\s+(\d{1,9})(?!\d)(.*)$")
_INLINED_AT = re.compile(r"inlined_at\s+(\d{1,9})\s+(\d{1,9})\s+(\d{1,9})(?!\d)")
_FILE = re.compile(r'\.file\s+(\d{1,9})\s+"([^"]*)"(?:\s+"([^"]*)")?')
_LABEL = re.compile(r"([.$\w]+):")
# a basic block's start (`$L__BB0_6:`, `.LBB0_15:`, or `// %bb.5:` / `; %bb.14:` for one without a label) and the
# comment naming it in LLVM IR (`// %.peel.next`)
_BLOCK = re.compile(r"(?:(?:\$L__BB|\.LBB)\d{1,9}_\d{1,9}:|(?://|;)\s*%bb\.\d{1,9}:)(.*)$")
_BLOCK_NAME = re.compile(r"(?://|;)\s*%(\S+)")
_LOOP_DEPTH = re.compile(r"Depth=(\d{1,4})")
_PTX_OPCODE = re.compile(r"[a-z]")
_GCN_OPCODE = re.compile(r"[a-z_][a-z0-9_]*(?:\s|$)")
_DEBUG_SECTIONS = (".debug_abbrev", ".debug_info", ".debug_ranges")


def kind_of_text(text: str) -> str:
    """'ptx' or 'amdgcn', from the text itself (PTX declares `.version` and `.target sm_NN`)."""
    head = text[:65536]
    if re.search(r"^\s*\.amdgcn_target\b|^\s*\.amdhsa_|^\s*\.section\s+\.AMDGPU", head, re.M):
        return AMDGCN
    if re.search(r"^\s*\.version\s+\d", head, re.M) and re.search(r"^\s*\.target\s+sm_", head, re.M):
        return PTX
    if re.search(r"^\s*\.(?:visible\s+)?\.?entry\b|^\s*\.address_size\b", head, re.M):
        return PTX
    raise AsmError("the assembly is neither PTX (.version, .target sm_NN) nor AMDGCN (.amdgcn_target)")


def _ptx_statements(code: str) -> list[str]:
    """The instructions of one PTX line (comment cut): split at ';', braces, directives and labels dropped."""
    out = []
    for stmt in code.split(";"):
        s = stmt.strip().strip("{}").strip()
        if not s or s[0] in ".()" or _LABEL.match(s):
            continue
        if s[0] == "@":
            parts = s.split(None, 1)
            s = parts[1] if len(parts) == 2 else ""
        if s and _PTX_OPCODE.match(s):
            out.append(s)
    return out


class _Reader:
    """One pass over the lines: the file table, every classified instruction with its location (and, for PTX,
    its resolved chain), the labels' instruction positions and, for AMDGCN, the debug sections' lines."""

    def __init__(self, kind: str):
        self.kind = kind
        self.files: dict[int, str] = {}
        self.own: int | None = None              # file index of the kernel's source
        self.found: list = []                    # (class, bits, instruction index, chain key)
        self.labels: dict[str, int] = {}
        self.peeled: list[tuple[int, int]] = []  # [start, end) instruction positions of peeled iterations
        self._peel_depth: int | None = None      # loop depth of the block where a peeled iteration may begin
        self._pending: list[tuple[int, int]] = []   # blocks since then, kept if a `*.peel.next` block follows
        self._block_start: int | None = None     # start of the current block, if it may be part of a copy
        self.sections: dict[str, list] = {name: [] for name in _DEBUG_SECTIONS}
        self.count = 0                           # instructions so far
        self.parents: dict = {}                  # PTX: location -> its inlined_at, from its latest .loc
        self.loc: tuple[int, int, int] | None = None   # the location in force
        self.at: tuple[int, int, int] | None = None   # PTX: its inlined_at
        self.chain: tuple | None = None          # PTX: resolved chain of the location in force (lazily)

    def read(self, text: str) -> None:
        ptx = self.kind == PTX
        in_asm, in_code, section = False, ptx, None
        for raw in text.splitlines():
            s = raw.strip()
            if not s:
                continue
            if in_code and s[0] in "$.;/" and not in_asm:
                self._block(s)
            if s.startswith(".file"):
                m = _FILE.match(s)
                if m:
                    self.files[int(m.group(1))] = m.group(2) if m.group(3) is None else f"{m.group(2)}/{m.group(3)}"
                    continue
            if ptx:
                if s.startswith(".section"):
                    in_code = False              # PTX ends with its DWARF sections; .file lines may follow
                    continue
                if s.startswith("// begin inline asm"):
                    in_asm = True
                    continue
                if s.startswith("// end inline asm"):
                    in_asm = False
                    continue
                if not in_code:
                    continue
                code = s.split("//", 1)[0].strip() if "//" in s else s
            else:
                if s.startswith(";;#ASMSTART"):
                    in_asm = True
                    continue
                if s.startswith(";;#ASMEND"):
                    in_asm = False
                    continue
                if s == ".text" or s.startswith((".section\t.text", ".section .text")):
                    in_code, section = True, None
                    continue
                if s.startswith((".section", ".amdgpu_metadata", ".end_amdgpu_metadata")):
                    in_code = False
                    name = s.split(None, 2)[1].split(",")[0] if s.startswith(".section") and len(s.split()) > 1 \
                        else None
                    section = name if name in self.sections else None
                    continue
                if section is not None:
                    body, _, comment = s.partition(";")
                    self.sections[section].append((body.strip(), comment.strip()))
                    continue
                if not in_code:
                    continue
                code = s.split(";", 1)[0].strip()
            if code.startswith(".loc"):
                m = _LOC.match(code if not ptx else s)
                if m:
                    if not in_asm:
                        self._set_loc(m)
                    continue
            label = _LABEL.match(code)
            if label:
                self.labels[label.group(1)] = self.count
                code = code[label.end():].strip()
            if ptx:
                for stmt in _ptx_statements(code):
                    self._instruction(ptx_class(stmt.split(None, 1)[0]))
            elif code and code[0] != "." and _GCN_OPCODE.match(code):
                parts = code.split(None, 1)
                self._instruction(gcn_class(parts[0], parts[1] if len(parts) == 2 else ""))

    def _block(self, s: str) -> None:
        """A block start: a peeled iteration begins at the last block named `*.lr.ph`, `*.peel.begin` or `*.peel`
        and ends at a block named `*.peel.next`; the blocks between count unless they sit in a deeper loop."""
        m = _BLOCK.match(s)
        if m is None:
            return
        named = _BLOCK_NAME.search(m.group(1))
        name = named.group(1) if named else ""
        depth_m = _LOOP_DEPTH.search(m.group(1))
        depth = int(depth_m.group(1)) if depth_m else 0
        if self._block_start is not None and self._block_start < self.count:
            self._pending.append((self._block_start, self.count))
        self._block_start = None
        if name.endswith(".peel.next"):
            if self._peel_depth is not None:
                self.peeled.extend(self._pending)
            self._pending, self._peel_depth = [], None
            return
        if name.endswith((".lr.ph", ".peel.begin", ".peel")):
            self._pending, self._peel_depth = [], depth
        # a block of the peeled loop itself (LLVM may place it before the header) is no part of the copy
        if self._peel_depth is not None and depth <= self._peel_depth:
            self._block_start = self.count

    def _set_loc(self, m) -> None:
        loc = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
        at: tuple[int, int, int] | None = None
        if self.kind == PTX:
            a = _INLINED_AT.search(m.group(4))
            at = (int(a.group(1)), int(a.group(2)), int(a.group(3))) if a else None
            self.parents[loc] = at
        if self.own is None:
            self.own = loc[0]
        self.loc, self.at, self.chain = loc, at, None

    def _instruction(self, cls) -> None:
        if cls is not None:
            if self.kind == PTX and self.chain is None and self.loc is not None:
                self.chain = self._ptx_chain()
            self.found.append((cls[0], cls[1], self.count, self.chain if self.kind == PTX else self.loc))
        self.count += 1

    def _ptx_chain(self) -> tuple:
        """The location in force and its callers, innermost first (each caller through its latest .loc)."""
        chain, seen, at = [self.loc], {self.loc}, self.at
        while at is not None and at not in seen and len(chain) <= MAX_CHAIN:
            chain.append(at)
            seen.add(at)
            at = self.parents.get(at)
        return tuple(chain)


# ----------------------------------------------------------------------------------------- AMDGCN: DWARF

_ABBREV = re.compile(r"Abbrev \[(\d{1,9})\] \S+ (DW_TAG_\w+)")


@frozen
class _Inlined:
    """One DW_TAG_inlined_subroutine: its call site, its code ranges (label pairs), its depth and parent."""
    call: tuple
    ranges: tuple
    depth: int
    parent: int | None


def _children(lines: list) -> dict[int, bool]:
    """Abbreviation code -> whether its entries have children (`.debug_abbrev`)."""
    table, code = {}, None
    for body, comment in lines:
        if comment == "Abbreviation Code":
            parts = body.split()
            code = int(parts[1]) if len(parts) == 2 and parts[1].isdigit() and len(parts[1]) < 10 else None
        elif comment in ("DW_CHILDREN_yes", "DW_CHILDREN_no") and code is not None:
            table[code] = comment == "DW_CHILDREN_yes"
            code = None
    return table


def _start_label(expr: str) -> str:
    """'.Ltmp3-.Lfunc_begin0' -> '.Ltmp3'."""
    return expr.split("-", 1)[0].strip()


def _range_lists(lines: list) -> dict[str, list]:
    """`.Ldebug_rangesN` -> [(begin label, end label)] (`.debug_ranges`, DWARF 4: pairs, `0 0` ends a list, a
    `-1` base-address entry moves nothing here since the ranges are labels)."""
    lists: dict[str, list] = {}
    name: str | None = None
    pending: list[str] = []
    for body, _ in lines:
        if body.endswith(":"):
            name, pending = body[:-1], []
            lists[name] = []
            continue
        parts = body.split(None, 1)
        if len(parts) != 2 or name is None:
            continue
        pending.append(parts[1].strip())
        if len(pending) == 2:
            begin, end = pending
            pending = []
            if begin == "0" and end == "0":
                name = None
            elif begin != "-1":
                lists[name].append((_start_label(begin), _start_label(end)))
    return lists


def _inlined_entries(sections: dict) -> list[_Inlined]:
    """Every inlined subroutine of `.debug_info`, in order, with its nesting among the inlined entries."""
    children = _children(sections[".debug_abbrev"])
    lists = _range_lists(sections[".debug_ranges"])
    out: list[_Inlined] = []
    open_: list = []                              # per open entry with children: its index in `entries` or None
    entries: list[dict] = []
    current: dict | None = None
    for body, comment in sections[".debug_info"]:
        abbrev = _ABBREV.match(comment)
        if abbrev:
            code, tag = int(abbrev.group(1)), abbrev.group(2)
            current = None
            if tag == "DW_TAG_inlined_subroutine":
                parent = next((i for i in reversed(open_) if i is not None), None)
                current = {"call": [None, None, None], "ranges": [], "low": None, "parent": parent,
                           "depth": sum(1 for i in open_ if i is not None)}
                entries.append(current)
            if children.get(code):
                open_.append(len(entries) - 1 if current is not None else None)
            continue
        if comment == "End Of Children Mark":
            if open_:
                open_.pop()
            current = None
            continue
        if current is None or not body:
            continue
        parts = body.split(None, 1)
        value = parts[1].strip() if len(parts) == 2 else ""
        if comment in ("DW_AT_call_file", "DW_AT_call_line", "DW_AT_call_column"):
            k = ("DW_AT_call_file", "DW_AT_call_line", "DW_AT_call_column").index(comment)
            current["call"][k] = int(value) if value.isdigit() and len(value) < 10 else None
        elif comment == "DW_AT_ranges":
            current["ranges"].extend(lists.get(value, ()))
        elif comment == "DW_AT_low_pc":
            current["low"] = value
        elif comment == "DW_AT_high_pc":
            current["ranges"].append((current["low"], _start_label(value)))
    for e in entries:
        out.append(_Inlined(tuple(e["call"]), tuple(e["ranges"]), e["depth"], e["parent"]))
    return out


def _innermost(entries: list[_Inlined], labels: dict, positions: list[int]) -> list[int | None]:
    """For each instruction position (ascending), the deepest inlined entry whose ranges hold it (the first such
    entry among equals), by one sweep over the ranges' starts and ends."""
    events = []
    for k, e in enumerate(entries):
        for begin, end in e.ranges:
            b, f = labels.get(begin), labels.get(end)
            if b is not None and f is not None and b < f:
                events.append((b, 1, k))
                events.append((f, 0, k))
    events.sort()
    active: dict[int, int] = {}
    heap: list = []
    out: list[int | None] = []
    j = 0
    for pos in positions:
        while j < len(events) and events[j][0] <= pos:
            _, start, k = events[j]
            if start:
                active[k] = active.get(k, 0) + 1
                heapq.heappush(heap, (-entries[k].depth, k))
            else:
                active[k] -= 1
            j += 1
        while heap and not active.get(heap[0][1]):
            heapq.heappop(heap)
        out.append(heap[0][1] if heap else None)
    return out


def _gcn_chains(reader: _Reader) -> list[tuple]:
    """Per classified instruction: its location, then the call sites of the inlined entries around it."""
    entries = _inlined_entries(reader.sections)
    inner = _innermost(entries, reader.labels, [f[2] for f in reader.found])
    chains = []
    for (_, _, _, loc), k in zip(reader.found, inner):
        chain = [loc] if loc is not None else []
        depth = 0
        while k is not None and loc is not None and depth <= MAX_CHAIN:
            chain.append(entries[k].call)
            k, depth = entries[k].parent, depth + 1
        chains.append(tuple(chain))
    return chains


# ----------------------------------------------------------------------------------------- counting


class _Tally:
    def __init__(self):
        self.n = dict.fromkeys(CLASSES, 0)
        self.bits: dict[str, dict[int, int]] = {"global_loads": {}, "global_stores": {}}

    def add(self, cls: str, bits: int) -> None:
        self.n[cls] += 1
        if cls in self.bits:
            self.bits[cls][bits] = self.bits[cls].get(bits, 0) + 1

    def frozen(self) -> Counts:
        return Counts(**self.n, global_load_bits=tuple(sorted(self.bits["global_loads"].items())),
                      global_store_bits=tuple(sorted(self.bits["global_stores"].items())))


def read_asm(text: str, kind: str | None = None) -> AsmListing:
    """Count a kernel's PTX (`kind="ptx"`) or AMDGCN (`"amdgcn"`; None: tell from the text) per line of its own
    source file.

    >>> listing = read_asm('''.version 8.7
    ... .target sm_90a
    ... .loc 1 5 3
    ... ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];
    ... .loc 1 6 30
    ... .loc 2 314 12, function_name $L__info_string0, inlined_at 1 6 30
    ... .loc 2 287 12, function_name $L__info_string0, inlined_at 2 314 12
    ... shfl.sync.bfly.b32 %r5, %r4, 16, 31, -1;
    ... .file 1 "k.py"
    ... .file 2 "triton/language/standard.py"
    ... ''')
    >>> listing.source, listing.at(6).shuffles, listing.at(5).global_load_bits
    ('k.py', 1, ((128, 1),))
    """
    kind = kind or kind_of_text(text)
    if kind not in (PTX, AMDGCN):
        raise AsmError(f"unknown assembly kind '{kind}' (ptx or amdgcn)")
    reader = _Reader(kind)
    reader.read(text)
    chains = [f[3] or () for f in reader.found] if kind == PTX else _gcn_chains(reader)
    own = reader.own
    lines: dict[int, _Tally] = {}
    peeled: dict[int, _Tally] = {}
    unattributed, total = _Tally(), _Tally()
    for (cls, bits, index, _), chain in zip(reader.found, chains):
        total.add(cls, bits)
        line = next((c[1] for c in reversed(chain) if c[0] == own and c[1]), None)
        (lines.setdefault(line, _Tally()) if line is not None else unattributed).add(cls, bits)
        if line is not None and any(start <= index < end for start, end in reader.peeled):
            peeled.setdefault(line, _Tally()).add(cls, bits)
    source = reader.files.get(own) if own is not None else None
    entry = _PTX_ENTRY if kind == PTX else _GCN_ENTRY
    return AsmListing(kind, source, {n: t.frozen() for n, t in sorted(lines.items())}, unattributed.frozen(),
                      total.frozen(), tuple(dict.fromkeys(m.group(1) for m in entry.finditer(text))),
                      {n: t.frozen() for n, t in sorted(peeled.items())})


_PTX_ENTRY = re.compile(r"\.entry\s+([\w$.]+)")
_GCN_ENTRY = re.compile(r"\.amdhsa_kernel\s+([\w$.]+)")


__all__ = ["CLASSES", "Counts", "AsmListing", "AsmError", "read_asm", "kind_of_text", "ptx_class", "gcn_class"]
