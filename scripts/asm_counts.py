#!/usr/bin/env python3
"""Count a Triton kernel's shared-memory, shuffle, barrier and global instructions per Python line of its source.

    python scripts/asm_counts.py FILE.ptx|FILE.amdgcn [--json]

An independent counter for test data (tests/data/cache_counts.json, written by scripts/make_kernel_cache.py): it
reads the assembly text only, imports neither linlayout_cli nor Triton, and runs on any Python 3.9+.

Every instruction is attributed to one line of the kernel's own source file (the file of the function's first
``.loc``), through the ``.file``/``.loc`` directives:

- PTX: ``.loc F L C, function_name S, inlined_at F2 L2 C2`` names the call site of an inlined function. NVPTX writes
  the caller chain as consecutive ``.loc`` lines just before the innermost one, so each ``inlined_at`` location is
  resolved through the latest ``.loc`` of that location, up to the outermost; the outermost location in the
  kernel's own file wins (``tl.sum``'s instructions, with a ``.loc`` in ``triton/language/standard.py``, land on the
  kernel line that calls ``tl.sum``).
- AMDGCN: ``.loc`` has no ``inlined_at``. The inlining is read from the DWARF that the same text carries: the
  ``.debug_abbrev``/``.debug_info``/``.debug_ranges`` sections written as directives, whose
  ``DW_TAG_inlined_subroutine`` entries give ``DW_AT_call_file``/``DW_AT_call_line`` and their code ranges as pairs
  of labels (``.Ltmp3``) that stand between the instructions. An instruction inside such a range belongs to the
  call site of the outermost range around it. (The cache keeps no binary; scripts/make_kernel_cache.py checked this
  reading against the hsaco's own DWARF, read with pyelftools, and against LLVM's ``@[ file:line ]`` comments.)
- Inline assembly (``// begin inline asm`` ... ``// end inline asm`` in PTX, ``;;#ASMSTART`` ... ``;;#ASMEND`` in
  AMDGCN): LLVM numbers the ``.loc`` lines inside a block as the op's line plus the line's index in the asm string
  (a 4-line load gets lines 12, 13, 14, 15), so inside a block they are ignored and every instruction keeps the
  location in force where the block began.
- Line 0 (``.loc 1 0 0``, code with no source line), code before the first ``.loc`` and chains that never reach
  the kernel's file are counted as ``unattributed``.

Classes (static counts of the text, not executed counts):

==============  =================================================  =========================================
class           PTX                                                AMDGCN
==============  =================================================  =========================================
shared_loads    ``ld.shared*``, ``ldmatrix*``                      ``ds_read*``
shared_stores   ``st.shared*``, ``stmatrix*``                      ``ds_write*``
shuffles        ``shfl.sync*``                                     ``ds_bpermute*``, ``ds_swizzle*``,
                                                                   ``v_permlane*``, DPP (``v_*_dpp``, or a
                                                                   ``quad_perm``/``row_*``/``wave_*`` operand)
barriers        ``bar.sync``, ``barrier.sync*``                    ``s_barrier``
global_loads    ``ld.global*``, by bits (vector lanes x width);    ``global_load*``, ``buffer_load*``, by bits
                TMA ``cp.async.bulk.tensor.Nd.shared*.global*``
                (bits unknown)
global_stores   ``st.global*``, by bits; TMA                       ``global_store*``, ``buffer_store*``, by bits
                ``cp.async.bulk.tensor.Nd.global.shared*``,
                ``cp.reduce.async.bulk.tensor*`` (bits unknown)
==============  =================================================  =========================================

>>> text = '''.file 1 "k.py"
... .file 2 "triton/language/standard.py"
... .loc 1 5 3
... ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];
... .loc 1 6 30
... .loc 2 314 12, function_name $L__info_string0, inlined_at 1 6 30
... .loc 2 287 12, function_name $L__info_string0, inlined_at 2 314 12
... shfl.sync.bfly.b32 %r5, %r4, 16, 31, -1;
... '''
>>> counts = count_text(text, "ptx")
>>> counts["lines"]["k.py:6"]["shuffles"], counts["lines"]["k.py:5"]["global_loads"]
(1, {'128': 1})
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

CLASSES = ("shared_loads", "shared_stores", "shuffles", "barriers", "global_loads", "global_stores")
WIDTH_CLASSES = ("global_loads", "global_stores")

# ----------------------------------------------------------------------------- classes


def ptx_class(mnemonic: str):
    """(class, bits or None) of one PTX opcode (predicate dropped), or None for an uncounted one.

    >>> ptx_class("ld.global.nc.v4.b32"), ptx_class("ldmatrix.sync.aligned.m8n8.x4.shared.b16")
    (('global_loads', 128), ('shared_loads', None))
    """
    for prefix, cls in (("ld.shared", "shared_loads"), ("ldmatrix", "shared_loads"),
                        ("st.shared", "shared_stores"), ("stmatrix", "shared_stores"), ("shfl.sync", "shuffles")):
        if mnemonic.startswith(prefix):
            return cls, None
    if re.match(r"(bar|barrier)\.sync(\.|$)", mnemonic):
        return "barriers", None
    if mnemonic.startswith(("ld.global", "st.global")):
        lanes = re.search(r"\.v(\d+)(\.|$)", mnemonic)
        width = re.search(r"\.[bfsu](\d+)$", mnemonic)
        bits = (int(lanes.group(1)) if lanes else 1) * int(width.group(1)) if width else None
        return ("global_loads" if mnemonic.startswith("ld") else "global_stores"), bits
    tma = TMA_FORM.match(mnemonic)
    if tma:     # TMA: global -> shared a load, shared -> global (and a reduction) a store; no bits per lane
        return ("global_loads" if tma.group(3) == "shared" and not tma.group(1) else "global_stores"), None
    return None


GCN_WIDTHS = {"ubyte": 8, "sbyte": 8, "byte": 8, "ushort": 16, "sshort": 16, "short": 16, "dword": 32,
              "dwordx2": 64, "dwordx3": 96, "dwordx4": 128, "b8": 8, "u8": 8, "i8": 8, "b16": 16, "u16": 16,
              "i16": 16, "b32": 32, "b64": 64, "b96": 96, "b128": 128}
DPP_OPERAND = re.compile(r"(?<![\w:])(quad_perm|row_(shl|shr|ror|mirror|half_mirror|bcast|share|xmask|newbcast)|"
                         r"wave_(shl|shr|rol|ror))\b")


def gcn_class(mnemonic: str, operands: str):
    """(class, bits or None) of one AMDGCN instruction, or None for an uncounted one.

    >>> gcn_class("global_load_dwordx4", "v[0:3], v[4:5], off"), gcn_class("v_add_f32_dpp", "v1, v2, v3 row_shr:1")
    (('global_loads', 128), ('shuffles', None))
    """
    if mnemonic.startswith("ds_read"):
        return "shared_loads", None
    if mnemonic.startswith("ds_write"):
        return "shared_stores", None
    if (mnemonic.startswith(("ds_bpermute", "ds_swizzle", "v_permlane")) or mnemonic.endswith("_dpp")
            or DPP_OPERAND.search(operands)):
        return "shuffles", None
    if mnemonic == "s_barrier":
        return "barriers", None
    m = re.match(r"(global|buffer)_(load|store)_(?:lds_)?([a-z0-9]+)", mnemonic)
    if m:
        return ("global_loads" if m.group(2) == "load" else "global_stores"), GCN_WIDTHS.get(m.group(3))
    return None


# ----------------------------------------------------------------------------- global memory instructions

# TMA: cp.async.bulk.tensor.2d.shared::cta.global... (global -> shared), ...2d.global.shared::cta... (shared ->
# global), cp.reduce.async.bulk.tensor.2d.global.shared::cta.add... (a reduction into global memory)
TMA_FORM = re.compile(r"cp\.(reduce\.)?async\.bulk\.tensor\.(\d)d\.(shared|global)")
PTX_SIZE_OPERAND = re.compile(r"\]\s*,\s*(0x[0-9a-fA-F]+|\d+)")


def ptx_global(mnemonic: str, operands: str):
    """The global-memory form of one PTX instruction as 'KIND BITS' (BITS = vector lanes x element bits, or the
    bytes x 8 a cp.async copies; for a TMA copy, 'cp.async.bulk.tensor.load|store|reduce RANKd': the box it
    moves is in the descriptor, not in the instruction), or None.

    >>> ptx_global("ld.global.v4.b32", "{%r1, %r2, %r3, %r4}, [%rd1]"), ptx_global("st.global.b16", "[%rd2], {%rs1}")
    ('ld.global 128', 'st.global 16')
    >>> ptx_global("cp.async.cg.shared.global", "[ %r1 + 0 ], [ %rd1 + 0 ], 0x10, %r2"), ptx_global("atom.global.gpu.acq_rel.add.f32", "%f1, [%rd1], %f2")
    ('cp.async 128', 'atom.global 32')
    >>> ptx_global("cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes", "[%r1], [%rd1, {%r2, %r3}], [%r4]")
    'cp.async.bulk.tensor.load 2d'
    >>> ptx_global("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group", "[%rd1, {%r1, %r2, %r3}], [%r4]")
    'cp.async.bulk.tensor.store 3d'
    """
    for prefix, kind in (("ld.global", "ld.global"), ("st.global", "st.global"), ("atom.global", "atom.global"),
                         ("red.global", "red.global")):
        if mnemonic.startswith(prefix):
            lanes = re.search(r"\.v(\d+)(\.|$)", mnemonic)
            width = re.search(r"\.[bfsu](\d+)(x\d+)?$", mnemonic)
            bits = (int(lanes.group(1)) if lanes else 1) * int(width.group(1)) if width else 0
            return f"{kind} {bits or '?'}"
    tma = TMA_FORM.match(mnemonic)
    if tma:
        reduce, rank, first = tma.groups()
        return f"cp.async.bulk.tensor.{'reduce' if reduce else 'load' if first == 'shared' else 'store'} {rank}d"
    if mnemonic.startswith("cp.async.") and ".shared.global" in mnemonic and ".bulk" not in mnemonic:
        size = PTX_SIZE_OPERAND.search(operands)
        return f"cp.async {int(size.group(1), 0) * 8}" if size else "cp.async ?"
    return None


def gcn_global(mnemonic: str, operands: str):
    """The global-memory form of one AMDGCN instruction as 'KIND BITS', or None.

    >>> gcn_global("global_load_dwordx4", "v[0:3], v[4:5], off"), gcn_global("buffer_store_short", "v1, v2, s[0:3], 0 offen")
    ('global_load 128', 'buffer_store 16')
    >>> gcn_global("global_atomic_add_f32", "v0, v1, s[0:1]"), gcn_global("buffer_load_dword", "v1, s[0:3], 0 offen lds")
    ('global_atomic 32', 'buffer_load_lds 32')
    """
    m = re.match(r"(global|buffer)_(load|store|atomic)_(?:lds_)?([a-z0-9_]+)", mnemonic)
    if m is None:
        return None
    unit, kind, size = m.groups()
    if kind == "atomic":
        width = re.search(r"(?:_[a-z]*?)(\d+)(?:_|$)", size)
        bits = {"x2": 64}.get(size[-2:], int(width.group(1)) if width else 32)
        return f"{unit}_atomic {bits}"
    lds = "_lds" if "lds_" in mnemonic or re.search(r"(^|\s)lds(\s|$)", operands) else ""
    return f"{unit}_{kind}{lds} {GCN_WIDTHS.get(size.split('_d16')[0], '?')}"


def global_line_counts(text: str, kind: str) -> dict:
    """{'lines': {'file:line': {'ld.global 128': n, ...}}, 'ops': {'file:line:col': {...}}, 'peeled': {'file:line':
    {...}}, 'peeled_ops': {'file:line:col': {...}}, 'unattributed': {...}, 'total': {...}}: every global load, store, atomic and asynchronous copy of the text, by form and width, per
    Python line of the kernel's file (attributed as `count_text` attributes, inline assembly at the location in
    force where its block begins), and per source location (line and column of that outermost frame: the
    instructions of one Python op, and of every copy of it the compiler made, such as a pipeline's prologue).
    `peeled` / `peeled_ops`: the part of those counts in a loop iteration LLVM peeled (`peeled_region`), already
    included in `lines` / `ops`."""
    files = file_table(text)
    own = kernel_file(text, kind)
    peeled_at = peeled_region(text, kind)
    lines: dict = {}
    ops: dict = {}
    peeled: dict = {}
    peeled_ops: dict = {}
    unattributed: dict = {}
    total: dict = {}
    for index, (mnemonic, operands, chain) in enumerate(located_instructions(text, kind)):
        form = ptx_global(mnemonic, operands) if kind == "ptx" else gcn_global(mnemonic, operands)
        if form is None:
            continue
        total[form] = total.get(form, 0) + 1
        in_own = [c for c in chain if c[0] == own and c[1] > 0]
        if in_own:
            key = f"{files.get(own, own)}:{in_own[-1][1]}"
            target = lines.setdefault(key, {})
            at = ops.setdefault(f"{key}:{in_own[-1][2]}", {})
            at[form] = at.get(form, 0) + 1
            if index in peeled_at:
                for copy in (peeled.setdefault(key, {}), peeled_ops.setdefault(f"{key}:{in_own[-1][2]}", {})):
                    copy[form] = copy.get(form, 0) + 1
        else:
            target = unattributed
        target[form] = target.get(form, 0) + 1
    by_line = sorted(lines.items(), key=lambda kv: int(kv[0].rsplit(":", 1)[1]))
    by_op = sorted(ops.items(), key=lambda kv: tuple(int(x) for x in kv[0].rsplit(":", 2)[1:]))
    by_peel = sorted(peeled.items(), key=lambda kv: int(kv[0].rsplit(":", 1)[1]))
    by_peeled_op = sorted(peeled_ops.items(), key=lambda kv: tuple(int(x) for x in kv[0].rsplit(":", 2)[1:]))
    return {"source": files.get(own), "lines": dict(by_line), "ops": dict(by_op), "peeled": dict(by_peel),
            "peeled_ops": dict(by_peeled_op), "unattributed": unattributed, "total": total}


def peeled_region(text: str, kind: str) -> set:
    """Indices (in `located_instructions` order) of the instructions of a loop's first iteration that LLVM peeled,
    read from the block names LLVM writes as comments (`$L__BB0_6: // %.peel.next`, `; %bb.14: ; %.peel.next`).

    LoopPeel puts the peeled copy between a block `H.peel.begin` and a block `H.peel.next` (H: the loop header's
    name) and names the cloned blocks `*.peel`; block merging then folds `.peel.begin` and the peeled blocks into
    the loop's preheader, `*.lr.ph`. So the peeled copy is every instruction from the start of the last block
    named `*.lr.ph`, `*.peel.begin` or `*.peel` before a block named `*.peel.next`, up to that block, leaving out
    the blocks LLVM marks as deeper in a loop (`in Loop: Header=BB0_6 Depth=1`: the peeled loop's own latch may be
    placed before its header)."""
    region: set = set()
    index = 0
    begin_depth = None          # loop depth of the block where the copy may begin (None: no such block yet)
    candidate: list = []        # instruction indices since then, in blocks no deeper than it
    counting = False
    for event in walk(text, kind):
        if event[0] == "block":
            name, depth = event[1], event[2]
            if name.endswith(".peel.next"):
                if begin_depth is not None:
                    region.update(candidate)
                begin_depth, candidate = None, []
            elif name.endswith((".lr.ph", ".peel.begin", ".peel")):
                begin_depth, candidate = depth, []
            counting = begin_depth is not None and depth <= begin_depth
        elif event[0] == "insn":
            if counting:
                candidate.append(index)
            index += 1
    return region


# ----------------------------------------------------------------------------- reading the text

LOC = re.compile(r"^\.loc\s+(\d+)\s+(\d+)\s+(\d+)(.*)$")
INLINED_AT = re.compile(r"inlined_at\s+(\d+)\s+(\d+)\s+(\d+)")
FILE = re.compile(r'^\.file\s+(\d+)\s+"([^"]*)"(?:\s+"([^"]*)")?')
LABEL = re.compile(r"^([.$\w]+):")
# the start of a basic block: a label LLVM made (`$L__BB0_6:`, `.LBB0_15:`) or its comment for a block without one
# (`// %bb.5:`, `; %bb.14:`), either followed by the comment naming the block in LLVM IR (`// %.peel.next`)
BLOCK = re.compile(r"^(?:(?:\$L__BB|\.LBB)\d+_\d+:|(?://|;)\s*%bb\.\d+:)(.*)$")


def file_table(text: str) -> dict:
    """`.file N "path"` (PTX) and `.file N "dir" "name"` (AMDGCN) -> {N: "dir/name"}."""
    files = {}
    for line in text.splitlines():
        m = FILE.match(line.strip())
        if m:
            files[int(m.group(1))] = f"{m.group(2)}/{m.group(3)}" if m.group(3) is not None else m.group(2)
    return files


def ptx_statements(line: str) -> list:
    """The instructions on one PTX line: comment cut, split at ';', braces, directives and labels dropped."""
    out = []
    for stmt in line.split("//", 1)[0].split(";"):
        s = stmt.strip().strip("{}").strip()
        if not s or s.startswith(".") or s.startswith(("(", ")")) or LABEL.match(s):
            continue
        if s.startswith("@"):
            s = s.split(None, 1)[1] if len(s.split(None, 1)) == 2 else ""
        if s and re.match(r"^[a-z]", s):
            out.append(s)
    return out


def split_mnemonic(statement: str) -> tuple:
    """('ld.global.v4.b32', '{ %r1, ... }, [ %rd1 + 0 ]') from one instruction (spaces or tabs between)."""
    parts = statement.split(None, 1)
    return parts[0], parts[1] if len(parts) == 2 else ""


def walk(text: str, kind: str):
    """Yield ('loc', (file, line, col), inlined_at or None), ('label', name), ('block', LLVM IR name or '', loop
    depth) and ('insn', mnemonic, operands) events of the code, with the .loc lines inside inline assembly dropped and the debug/metadata sections skipped."""
    in_inline_asm = False
    in_code = kind == "ptx"
    for raw in text.splitlines():
        s = raw.strip()
        block = BLOCK.match(s)
        if block and in_code:
            name = re.search(r"(?://|;)\s*%(\S+)", block.group(1))
            depth = re.search(r"Depth=(\d+)", block.group(1))
            yield "block", name.group(1) if name else "", int(depth.group(1)) if depth else 0
        if kind == "ptx":
            if s.startswith(".section"):
                break  # PTX ends with its DWARF sections
            if s.startswith("// begin inline asm"):
                in_inline_asm = True
                continue
            if s.startswith("// end inline asm"):
                in_inline_asm = False
                continue
        else:
            if s.startswith(";;#ASMSTART"):
                in_inline_asm = True
                continue
            if s.startswith(";;#ASMEND"):
                in_inline_asm = False
                continue
            if s == ".text" or s.startswith((".section\t.text", ".section .text")):
                in_code = True
                continue
            if s.startswith((".section", ".amdgpu_metadata", ".end_amdgpu_metadata")):
                in_code = False
                continue
            if not in_code:
                continue
            s = s.split(";", 1)[0].strip()
        m = LOC.match(s)
        if m:
            if not in_inline_asm:
                at = INLINED_AT.search(m.group(4))
                yield "loc", tuple(int(g) for g in m.groups()[:3]), tuple(int(g) for g in at.groups()) if at else None
            continue
        label = LABEL.match(s)
        if label:
            yield "label", label.group(1)
            s = s[label.end():].strip()
        if kind == "ptx":
            for stmt in ptx_statements(s):
                yield ("insn", *split_mnemonic(stmt))
        elif s and not s.startswith(".") and re.match(r"^[a-z_][a-z0-9_]*(\s|$)", s):
            yield ("insn", *split_mnemonic(s))


# ----------------------------------------------------------------------------- AMDGCN: DWARF from the text


def section_lines(text: str, name: str) -> list:
    """(directive value, comment) of each line in the named `.section` of an AMDGCN text."""
    out, inside = [], False
    for raw in text.splitlines():
        s = raw.strip()
        if s.startswith(".section") or s.startswith((".amdgpu_metadata", ".end_amdgpu_metadata", ".text")):
            inside = s.split(None, 2)[1].split(",")[0] == name if s.startswith(".section") else False
            continue
        if inside:
            body, _, comment = s.partition(";")
            out.append((body.strip(), comment.strip()))
    return out


def abbrev_children(text: str) -> dict:
    """Abbreviation code -> whether its DIE has children, from the `.debug_abbrev` directives."""
    table, code, lines = {}, None, section_lines(text, ".debug_abbrev")
    for (body, comment) in lines:
        if comment == "Abbreviation Code":
            code = int(body.split()[1])
        elif comment in ("DW_CHILDREN_yes", "DW_CHILDREN_no") and code is not None:
            table[code] = comment == "DW_CHILDREN_yes"
            code = None
    return table


def label_of(expr: str) -> str:
    """The label an address expression starts at: '.Ltmp3-.Lfunc_begin0' -> '.Ltmp3'."""
    return expr.split("-", 1)[0].strip()


def debug_ranges(text: str) -> dict:
    """`.Ldebug_rangesN` -> [(begin label, end label)] from the `.debug_ranges` section (DWARF 4)."""
    ranges, name, values = {}, None, []
    for (body, _comment) in section_lines(text, ".debug_ranges"):
        if body.endswith(":"):
            name, values = body[:-1], []
            ranges[name] = []
            continue
        parts = body.split(None, 1)
        if len(parts) != 2 or name is None:
            continue
        values.append(parts[1])
        if len(values) == 2:
            begin, end = values
            values = []
            if begin.strip() == "0" and end.strip() == "0":
                name = None  # end of list
            elif begin.strip() != "-1":  # a base address selection entry moves nothing here: ranges are labels
                ranges[name].append((label_of(begin), label_of(end)))
    return ranges


def inlined_subroutines(text: str) -> list:
    """Every DW_TAG_inlined_subroutine of the text's `.debug_info`: dicts with 'depth', 'call' (file, line, col),
    'ranges' [(begin label, end label)] and 'parent' (index of the enclosing inlined DIE or None)."""
    children = abbrev_children(text)
    ranges = debug_ranges(text)
    out, stack = [], []  # stack: (tag, index in out or None) of the open DIEs that have children
    current = None
    for (body, comment) in section_lines(text, ".debug_info"):
        abbrev = re.match(r"Abbrev \[(\d+)\] \S+ (DW_TAG_\w+)", comment)
        if abbrev:
            code, tag = int(abbrev.group(1)), abbrev.group(2)
            current = None
            parent = next((i for t, i in reversed(stack) if i is not None), None)
            if tag == "DW_TAG_inlined_subroutine":
                current = {"depth": sum(1 for _, i in stack if i is not None), "call": [None, None, None],
                           "ranges": [], "parent": parent, "low": None}
                out.append(current)
            if children.get(code):
                stack.append((tag, len(out) - 1 if current is not None else None))
            continue
        if comment == "End Of Children Mark":
            if stack:
                stack.pop()
            current = None
            continue
        if current is None or not body:
            continue
        parts = body.split(None, 1)
        value = parts[1] if len(parts) == 2 else ""
        if comment == "DW_AT_call_file":
            current["call"][0] = int(value)
        elif comment == "DW_AT_call_line":
            current["call"][1] = int(value)
        elif comment == "DW_AT_call_column":
            current["call"][2] = int(value)
        elif comment == "DW_AT_ranges":
            current["ranges"].extend(ranges[value.strip()])
        elif comment == "DW_AT_low_pc":
            current["low"] = value.strip()
        elif comment == "DW_AT_high_pc":
            end = value.split("-", 1)[0].strip()
            current["ranges"].append((current["low"], end))
    for die in out:
        die["call"] = tuple(die["call"])
        del die["low"]
    return out


def instruction_positions(text: str, kind: str) -> dict:
    """Label -> index of the first instruction at or after it."""
    positions, index = {}, 0
    for event in walk(text, kind):
        if event[0] == "label":
            positions[event[1]] = index
        elif event[0] == "insn":
            index += 1
    return positions


def gcn_call_chains(text: str) -> list:
    """For every instruction index, the call sites around it from the innermost inlined DIE outwards."""
    dies = inlined_subroutines(text)
    positions = instruction_positions(text, "amdgcn")
    n = sum(1 for e in walk(text, "amdgcn") if e[0] == "insn")
    innermost = [None] * n
    for index, die in enumerate(dies):
        for begin, end in die["ranges"]:
            for i in range(positions[begin], positions[end]):
                if innermost[i] is None or dies[innermost[i]]["depth"] < die["depth"]:
                    innermost[i] = index
    chains = []
    for i in range(n):
        chain, die = [], innermost[i]
        while die is not None:
            chain.append(dies[die]["call"])
            die = dies[die]["parent"]
        chains.append(chain)
    return chains


# ----------------------------------------------------------------------------- attribution


def located_instructions(text: str, kind: str):
    """Yield (mnemonic, operands, chain): chain is the instruction's own location followed by its call sites,
    innermost first, as (file index, line, col) tuples; empty before the first .loc."""
    parents = {}  # PTX: location -> its inlined_at, from the latest .loc of that location
    loc, inlined_at = None, None
    chains = gcn_call_chains(text) if kind == "amdgcn" else None
    index = 0
    for event in walk(text, kind):
        if event[0] == "loc":
            loc, inlined_at = event[1], event[2]
            parents[loc] = inlined_at
        elif event[0] == "insn":
            chain = []
            if loc is not None:
                chain = [loc]
                if kind == "ptx":
                    seen, at = {loc}, inlined_at
                    while at is not None and at not in seen:
                        chain.append(at)
                        seen.add(at)
                        at = parents.get(at)
                else:
                    chain += chains[index]
            yield event[1], event[2], chain
            index += 1


def kernel_file(text: str, kind: str):
    """File index of the kernel's own source: the file of the first .loc of the code."""
    return next((e[1][0] for e in walk(text, kind) if e[0] == "loc"), None)


def empty_counts() -> dict:
    return {c: ({} if c in WIDTH_CLASSES else 0) for c in CLASSES}


def add(counts: dict, cls: str, bits) -> None:
    if cls in WIDTH_CLASSES:
        key = str(bits) if bits else "?"
        counts[cls][key] = counts[cls].get(key, 0) + 1
    else:
        counts[cls] += 1


def count_text(text: str, kind: str) -> dict:
    """{'source': kernel file, 'lines': {'file:line': counts}, 'unattributed': counts, 'total': counts}."""
    files = file_table(text)
    own = kernel_file(text, kind)
    lines, unattributed, total = {}, empty_counts(), empty_counts()
    for mnemonic, operands, chain in located_instructions(text, kind):
        cls = ptx_class(mnemonic) if kind == "ptx" else gcn_class(mnemonic, operands)
        if cls is None:
            continue
        add(total, *cls)
        in_own = [c for c in chain if c[0] == own and c[1] > 0]
        if in_own:
            key = f"{files.get(own, own)}:{in_own[-1][1]}"
            add(lines.setdefault(key, empty_counts()), *cls)
        else:
            add(unattributed, *cls)
    ordered = dict(sorted(lines.items(), key=lambda kv: int(kv[0].rsplit(":", 1)[1])))
    return {"source": files.get(own), "lines": ordered, "unattributed": unattributed, "total": total}


def kind_of(path: Path) -> str:
    if path.suffix == ".ptx":
        return "ptx"
    if path.suffix == ".amdgcn":
        return "amdgcn"
    raise SystemExit(f"asm_counts: {path}: expected a .ptx or .amdgcn file")


def count_file(path) -> dict:
    path = Path(path)
    return count_text(path.read_text(), kind_of(path))


def gcn_comment_chains(text: str) -> list:
    """Cross-check for AMDGCN: per instruction, the call chain LLVM prints after each .loc
    ('; standard.py:287:12 @[ standard.py:314:12 @[ k.py:13:30 ] ]') as [(basename, line)], innermost first."""
    out, current, in_asm = [], [], False
    for raw in text.splitlines():
        s = raw.strip()
        if s.startswith(";;#ASMSTART"):
            in_asm = True
        elif s.startswith(";;#ASMEND"):
            in_asm = False
        elif LOC.match(s.split(";", 1)[0].strip()) and not in_asm:
            comment = s.split(";", 1)[1] if ";" in s else ""
            current = [(name, int(line)) for name, line in re.findall(r"([^\s@\[\]:]*):(\d+)(?::\d+)?", comment)]
        elif s.startswith((".section", ".amdgpu_metadata")) and ".text" not in s:
            break
        else:
            body = s.split(";", 1)[0].strip()
            label = LABEL.match(body)
            if label:
                body = body[label.end():].strip()
            if body and not body.startswith(".") and re.match(r"^[a-z_][a-z0-9_]*(\s|$)", body):
                out.append(current)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = ap.parse_args(argv)
    counts = count_file(args.file)
    if args.json:
        print(json.dumps(counts, indent=1))
        return 0
    print(f"{args.file}: kernel source {counts['source']}")
    for key, c in list(counts["lines"].items()) + [("unattributed", counts["unattributed"]), ("total", counts["total"])]:
        parts = [f"{k}={v}" for k, v in c.items() if v]
        if parts:
            print(f"  {key:50s} {' '.join(parts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
