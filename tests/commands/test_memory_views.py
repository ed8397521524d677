"""ttlayout's views of the layouts Triton 3.9's triton-tensor-layout cannot print, against Triton's own facts.

``golden/memory/cases.jsonl`` (``python3 -m scripts.golden --suite memory``) holds, per case, what Triton's library
computes: ``paddedLinearLayout`` / ``toLinearLayout`` bases, ``applyPadding`` of every offset,
``getPaddedSize`` and ``getTmemAllocSizes``, Gluon's ``to_linear_layout`` of tensor memory layouts and the ``tmem_load`` register layouts of
``_compute_tmem_reg_layout``.  Here ttlayout's conversions must give the same numbers, and its printed views are
read back and compared with an independent evaluation of Triton's bases (XOR of the bases of the set bits) under
the documented reading rules (README, "Layouts Triton 3.9 cannot print").  The hand-worked examples are in
``test_memory_examples.py``.
"""
from __future__ import annotations

import re

import pytest
from golden_cases import load_suite

from linlayout_cli.cli import run
from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.conversions.padded_shared import Padding
from linlayout_cli.conversions.tmem_registers import register_layout
from linlayout_cli.errors import TTLayoutError
from linlayout_cli.parsing import parse_attribute

CASES = load_suite("memory")


def covers_tensor(case) -> bool:
    return [case["out_dims"]["dim%d" % i] for i in range(len(case["shape"]))] == case["shape"]


# Triton 3.9 also returns a layout for a partitioned_shared whose pieces are larger than its padded layout; that
# layout misses part of the tensor, and ttlayout refuses it (like the errors suite's meaningless prints)
OK = [c for c in CASES if c["exit"] == 0 and covers_tensor(c)]
REFUSED = [c for c in CASES if c["exit"] != 0 or not covers_tensor(c)]
SHARED = [c for c in OK if c["kind"] in ("padded_shared", "partitioned_shared")]
PADDED = [c for c in SHARED if "padded_offsets" in c]
TMEM = [c for c in OK if c["kind"].startswith("tensor_memory")]
VIEWED = [c for c in TMEM if c["shape"][0] * c["shape"][1] <= 8192]     # views are read back in plain Python
REGS = [(c, r) for c in TMEM for r in c.get("registers", [])]
BITS = {"f32": 32, "f16": 16, "bf16": 16, "i8": 8, "f8E4M3FN": 8}
COORD = re.compile(r"\(([^()]*)\)")


def ids(cases):
    return [c["id"] for c in cases]


def tensor(case):
    return "tensor<%sx%s>" % ("x".join(map(str, case["shape"])), case["dtype"])


def triton_bases(case) -> dict:
    """Triton's bases with every component keyed by out-dim name: {in dim: [{dim: c}, ..]}."""
    names = list(case["out_dims"])
    return {d: [dict(zip(names, v)) for v in vs] for d, vs in case["bases"].items()}


def ours(case):
    return to_linear_layout(parse_attribute(case["attr"]), case["shape"])


def evaluate(case, **ins) -> tuple[int, ...]:
    """Triton's layout at one input point: XOR of the bases of the set bits, as (dim0, dim1, ...)."""
    names = list(case["out_dims"])
    acc = [0] * len(names)
    for dim, value in ins.items():
        for k, basis in enumerate(case["bases"].get(dim, [])):
            if value >> k & 1:
                acc = [a ^ b for a, b in zip(acc, basis)]
    out = dict(zip(names, acc))
    return tuple(out["dim%d" % i] for i in range(len(names)))


def size(case, dim):
    return 1 << len(case["bases"].get(dim, []))


def cli(*args):
    code, out, err = run(list(args))
    assert code == 0 and not err, err
    return out.splitlines()[1:]


def coords(text: str):
    return tuple(int(x) for x in re.split(r"[,:]", text))


# ----------------------------------------------------------------------------------------- the suite itself


def test_suite_covers_every_kind():
    kinds = {c["kind"] for c in OK}
    assert kinds == {"padded_shared", "partitioned_shared", "tensor_memory", "tensor_memory_scales"}
    assert len(PADDED) >= 40 and len(TMEM) >= 40 and len(VIEWED) >= 30 and len(REGS) >= 400
    assert REFUSED


# ----------------------------------------------------------------------------------------- conversions


@pytest.mark.parametrize("case", OK, ids=ids(OK))
def test_bases_equal_triton(case):
    layout = ours(case)
    assert {d: layout.get_out_dim_size(d) for d in layout.out_dims} == case["out_dims"]
    got = {d: [dict(zip(layout.out_dims, v)) for v in vs] for d, vs in layout.get_bases().items()}
    want = triton_bases(case)
    for dim in set(got) | set(want):            # an in dim of size 1 may be absent on one side
        assert got.get(dim, []) == want.get(dim, []), dim


@pytest.mark.parametrize("case", TMEM, ids=ids(TMEM))
def test_tmem_rows_and_cols_equal_gluon(case):
    if case.get("gluon") is None:
        pytest.skip("Gluon's to_linear_layout failed on this layout")
    bases = ours(case).get_bases()
    assert [list(b) for b in bases["row"]] == case["gluon"]["rows"]
    assert [list(b) for b in bases["col"]] == case["gluon"]["cols"]


@pytest.mark.parametrize("case", PADDED, ids=ids(PADDED))
def test_padding_equals_triton(case):
    pairs = [(1 << i, 1 << p) for i, p in case["shifts"]]
    padding = Padding(tuple(i for i, _ in pairs), tuple(p for _, p in pairs))
    attr = parse_attribute(case["attr"])
    inner = getattr(attr, "partition_layout", attr)
    assert (inner.intervals, inner.paddings) == (padding.intervals, padding.paddings)
    assert [padding.padded_offset(o) for o in range(len(case["padded_offsets"]))] == case["padded_offsets"]
    if "padded_size" in case:                   # getPaddedSize(shape): the whole shape as one buffer
        n = 1
        for d in case["shape"]:
            n *= d
        assert padding.padded_size(n) == case["padded_size"]


@pytest.mark.parametrize("case,regs", REGS, ids=["%s-%dw-%s" % (c["id"], r["warps"], r["instr"]) for c, r in REGS])
def test_tmem_register_layout_equals_gluon(case, regs):
    bits = BITS[case["dtype"]]
    if regs["exit"] != 0:
        with pytest.raises(TTLayoutError):
            register_layout(ours(case), regs["instr"], regs["warps"], bits)
        return
    layout = register_layout(ours(case), regs["instr"], regs["warps"], bits)
    assert {d: [list(b) for b in v] for d, v in layout.get_bases().items()} == regs["bases"]


@pytest.mark.parametrize("case", REFUSED, ids=ids(REFUSED))
def test_triton_refusals_are_one_clean_line(case):
    code, out, err = run(["-l", case["attr"], "-t", tensor(case)])
    assert code == 1 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# ----------------------------------------------------------------------------------------- shared memory views


def buffers(case):
    """(block, partition) buffers in print order."""
    return [(b, p) for b in range(size(case, "block")) for p in range(size(case, "partition"))]


@pytest.mark.parametrize("case", SHARED, ids=ids(SHARED))
def test_shared_hardware_view_reads_back_as_triton(case):
    lines = cli("-l", case["attr"], "-t", tensor(case), "--use-hw-view")
    positions = case.get("padded_offsets") or list(range(size(case, "offset")))
    shifts = [(1 << i, 1 << p) for i, p in case.get("shifts", [])]
    want = []
    for b, p in buffers(case):
        if p == 0:
            want.append("Block: %d:" % b)
        if "partition" in case["bases"]:
            want.append("Partition: %d:" % p)
        for o, position in enumerate(positions):
            gap = position - positions[o - 1] - 1 if o else 0
            if gap:
                pads = ", ".join("%d:+%d" % (i, q) for i, q in shifts if o % i == 0)
                where = "%d..%d" % (position - gap, position - 1) if gap > 1 else str(position - 1)
                want.append(("Offset: %s -> padding (%s)" % (where, pads), None))
            want.append((position, evaluate(case, offset=o, block=b, partition=p)))
    got = []
    for line in lines:
        m = re.fullmatch(r"Offset: (\d+) -> \(([\d, ]+)\)", line)
        got.append((int(m.group(1)), coords(m.group(2).replace(" ", ""))) if m else
                   (line, None) if "padding" in line else line)
    assert got == want


@pytest.mark.parametrize("case", SHARED, ids=ids(SHARED))
def test_shared_tensor_view_reads_back_as_triton(case):
    lines = cli("-l", case["attr"], "-t", tensor(case))
    cells = [c.replace(" ", "") for line in lines for c in COORD.findall(line)]
    n = 1
    for s in case["shape"]:
        n *= s
    positions = case.get("padded_offsets") or list(range(size(case, "offset")))
    count = len(positions)
    per_block = n // size(case, "block")
    want = []
    for e in range(n):
        b, r = divmod(e, per_block)
        p, o = divmod(r, count)
        want.append(evaluate(case, offset=o, block=b, partition=p))
        if o + 1 < count:
            want += ["pad"] * (positions[o + 1] - positions[o] - 1)
    assert [("pad" if set(c) <= set("-:") else coords(c)) for c in cells] == want
    assert len(lines) == n // case["shape"][-1]


# ----------------------------------------------------------------------------------------- tensor memory views


def tmem_rule(case):
    """The reading rule: a zero basis at row 32 or 64 is a copy, any other zero basis an unused slot; Triton's
    col c of b-bit elements is 32-bit column c * b // 32, slot c % (32 // b)."""
    bits = BITS[case["dtype"]]
    slots = 32 // bits
    rows, cols = case["bases"]["row"], case["bases"]["col"]
    row_unused = sum(1 << k for k, v in enumerate(rows) if not any(v) and k not in (5, 6))
    col_unused = sum(1 << k for k, v in enumerate(cols) if not any(v))
    show = slots > 1 and any(c % slots for c in range(1 << len(cols)) if not c & col_unused)
    return slots, row_unused, col_unused, show


@pytest.mark.parametrize("case", VIEWED, ids=ids(VIEWED))
def test_tmem_tensor_view_reads_back_as_triton(case):
    lines = cli("-l", case["attr"], "-t", tensor(case))
    slots, row_unused, col_unused, show = tmem_rule(case)
    blocks = size(case, "block")
    want = {}
    for b in range(blocks):
        for r in range(1 << len(case["bases"]["row"])):
            for c in range(1 << len(case["bases"]["col"])):
                if r & row_unused or c & col_unused:
                    continue
                text = ("B%d:" % b if blocks > 1 else "") + "R%d:C%d" % (r, c // slots) + (".%d" % (c % slots) if show else "")
                want.setdefault(evaluate(case, row=r, col=c, block=b), []).append(text)
    s0, s1 = case["shape"]
    got = {}
    for i, line in enumerate(lines):
        cells = line.strip("[] ").split(", ")
        assert len(cells) == s1
        for j, cell in enumerate(cells):
            got[(i, j)] = [t.strip() for t in cell.split("|")]
    assert got == want


@pytest.mark.parametrize("case", VIEWED, ids=ids(VIEWED))
def test_tmem_hardware_view_reads_back_as_triton(case):
    lines = cli("-l", case["attr"], "-t", tensor(case), "--use-hw-view")
    slots, row_unused, col_unused, _ = tmem_rule(case)
    ncols = 1 << len(case["bases"]["col"])
    want = []
    for b in range(size(case, "block")):
        want.append("Block: %d:" % b)
        for r in range(1 << len(case["bases"]["row"])):
            cells = []
            for k in range(-(-ncols // slots)):
                cells.append(tuple(None if c >= ncols or c & col_unused or r & row_unused
                                   else evaluate(case, row=r, col=c, block=b) for c in range(k * slots, (k + 1) * slots)))
            want.append((r, cells))
    got = []
    for line in lines:
        m = re.fullmatch(r"Row (\d+): (.*)", line)
        if not m:
            got.append(line)
            continue
        slots_text = re.findall(r"\(([^()]*)\)|-", m.group(2))        # "(i,j)" or "-" per slot, in order
        flat = [coords(t.replace(" ", "")) if t else None for t in slots_text]
        got.append((int(m.group(1)), [tuple(flat[k:k + slots]) for k in range(0, len(flat), slots)]))
    assert got == want


@pytest.mark.parametrize("case,regs", [(c, r) for c, r in REGS if r["exit"] == 0][::7],
                         ids=["%s-%dw-%s" % (c["id"], r["warps"], r["instr"]) for c, r in REGS if r["exit"] == 0][::7])
def test_tmem_warps_option_prints_gluons_register_layout(case, regs):
    args = ["-l", case["attr"], "-t", tensor(case), "--tmem-warps", str(regs["warps"]), "--tmem-instr", regs["instr"]]
    code, out, err = run(args)
    assert code == 0 and not err, err
    note = out.splitlines()[1]
    b = regs["bases"]
    linear = "#ttg.linear<{register = %s, lane = %s, warp = %s, block = %s}>" % tuple(
        str(b[d]) for d in ("register", "lane", "warp", "block"))
    assert note == "tmem_load register layout (%d warps, %s): %s" % (regs["warps"], regs["instr"], linear)
    assert out.splitlines()[2:] == cli("-l", linear, "-t", tensor(case))


@pytest.mark.parametrize("case", VIEWED, ids=ids(VIEWED))
def test_tmem_hardware_view_spans_tritons_allocation(case):
    """The hardware view's 32-bit columns per row, and its rows holding data, are what Triton allocates
    (getTmemAllocSizes): the column rule col * bits / 32 and the unused-row rule agree with Triton's allocator."""
    lines = cli("-l", case["attr"], "-t", tensor(case), "--use-hw-view")
    rows = [line.split(": ", 1)[1] for line in lines if line.startswith("Row ")][:128]   # first CTA
    columns = {len(re.findall(r"\([^()]*\)|-", r)) // (32 // BITS[case["dtype"]]) for r in rows}
    used = sum(1 for r in rows if "(" in r)
    assert [used, columns] == [case["alloc"][0], {case["alloc"][1]}]
