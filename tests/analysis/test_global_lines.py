"""Every global access's vector width and instructions per thread against the compiled code, per op and per Python
line: tests/data/kernels/global_lines.json holds, for each of the 100 dumps of tests/data/kernels, the global load,
store, atomic and cp.async instructions of Triton 3.9's PTX / AMDGCN by form and width, attributed to Python lines
and to source locations (line and column) by scripts/asm_counts.py (independent of linlayout_cli);
tests/data/cache_global_lines.json holds the same for the stored assembly of the real cache in tests/data/cache, and
tests/data/buffer_ops/buffer_ops.gfx942.json for a TTGIR file of every AMD buffer op (atomics and the load to shared
memory included), compiled the same way.

Per op: the audit's rows at one source location (a Python op and every copy of it the compiler made, such as a
pipeline's prologue copy) must give exactly the forms, widths and counts the assembly has at that location, and
each row's own form must be one the assembly has there. Where LLVM peeled a loop's first iteration (the TTGIR does
not decide it; docs/audit_model.md, "Loops LLVM peels"), the script counts the peeled copy apart from the block
names LLVM writes (`%.peel.next`): the model's count per iteration must equal the assembly's net of that copy, and
the copy must be exactly one more copy of the loop-body ops there."""
from __future__ import annotations

import collections
import json

import pytest
from golden_cases import DATA, ROOT

from linlayout_cli import advise
from linlayout_cli.analysis.asm import _same_file, python_line
from linlayout_cli.analysis.audit import analyze_audit
from linlayout_cli.parsing.module import read_modules

LINES = json.loads((DATA / "kernels" / "global_lines.json").read_text())["dumps"]
CACHE = json.loads((DATA / "cache_global_lines.json").read_text())["entries"]

NVIDIA = {"tt.load": "ld.global", "tt.store": "st.global", "ttg.async_copy_global_to_local": "cp.async",
          "tt.atomic_rmw": "atom.global", "tt.atomic_cas": "atom.global"}
TMA = {"ttng.async_tma_copy_global_to_local": "cp.async.bulk.tensor.load",
       "ttng.async_tma_copy_local_to_global": "cp.async.bulk.tensor.store",
       "ttng.async_tma_reduce": "cp.async.bulk.tensor.reduce"}
AMD = {"tt.load": "global_load", "tt.store": "global_store", "amdg.buffer_load": "buffer_load",
       "amdg.buffer_store": "buffer_store", "ttg.async_copy_global_to_local": "global_load_lds",
       "amdg.buffer_load_to_local": "buffer_load_lds", "tt.atomic_rmw": "global_atomic",
       "tt.atomic_cas": "global_atomic", "amdg.buffer_atomic_rmw": "buffer_atomic",
       "amdg.buffer_atomic_cas": "buffer_atomic"}

# (dump, Python line) where the assembly holds a loop iteration LLVM peeled (the `peeled` counts of
# global_lines.json, from the block names): the stream-pipelined gfx942 matmuls with one shared-memory slot
# (prologue, peeled iteration, loop) and matmul_kloop on sm100. Pinned so that a peel appearing or vanishing is seen.
PEELED = {
    ("fp8_matmul.gfx942.ttgir", 19),
    ("matmul_epilogue_transpose.gfx942.ttgir", 19),
    ("matmul_pipelined.gfx942.ttgir", 19),
    ("matmul_pipelined.gfx942.ttgir", 20),
    ("matmul_kloop.sm100.ttgir", 19),
    ("matmul_kloop.sm100.ttgir", 20),
}


def peeled_lines(entry: dict) -> dict:
    """Python line -> {form: n} of the global instructions in a peeled loop iteration (global_lines.json)."""
    return {int(k.rsplit(":", 1)[1]): v for k, v in entry.get("peeled", {}).items()}


def net(have: dict, peeled: dict) -> dict:
    """The assembly's counts without the peeled copy (forms left at zero dropped)."""
    out = {form: n - peeled.get(form, 0) for form, n in have.items()}
    return {form: n for form, n in out.items() if n}


def source_position(frames, loc, source) -> tuple[int, int] | None:
    """(line, column) where the assembly attributes an op's instructions: its outermost frame in the kernel's file."""
    own = [f for f in frames if f[1] and _same_file(f[0], source)]
    if own:
        return own[-1][1], own[-1][2]
    line = python_line(frames, loc, source)
    return None if line is None else (line, int(loc.rsplit(":", 1)[1]))


def model_ops(text: str, kind: str, source: str, in_loops: bool = False) -> dict:
    """(line, column) -> [(op, 'form bits', instructions per thread)] of the audit's global rows and cp.async rows
    (only those inside a loop with `in_loops`)."""
    forms = NVIDIA if kind == "ptx" else AMD
    out: dict = collections.defaultdict(list)
    for m in analyze_audit(read_modules(text)):
        for f in m.findings:
            if f.loops == 0 and in_loops:
                continue
            bits = getattr(f.facts, "vector_bits", None)
            form = f"{forms[f.op]} {bits}" if f.op in forms and bits is not None else None
            if kind == "ptx" and f.op in TMA and getattr(f.facts, "rank", None):
                form = f"{TMA[f.op]} {f.facts.rank}d"       # one cp.async.bulk.tensor per message an issuer sends
            if form is not None:
                out[source_position(f.frames, f.loc, source)].append((f.op, form, f.facts.instructions_per_thread))
    return out


def summed(rows) -> dict:
    c: collections.Counter = collections.Counter()
    for _, form, n in rows:
        c[form] += n
    return dict(c)


def asm_ops(entry: dict, key: str = "ops") -> dict:
    return {tuple(int(x) for x in k.rsplit(":", 2)[1:]): v for k, v in entry.get(key, {}).items()}


def check_ops(model: dict, asm: dict, peeled: dict | None = None, in_loops: dict | None = None) -> list:
    """The source locations where the model and the assembly differ: a row's form absent from the assembly there,
    or the location's counts unequal to the assembly's net of a peeled copy (`peeled`, asm_ops(entry,
    'peeled_ops')); a peeled copy must be exactly one copy of the location's loop-body rows (`in_loops`,
    model_ops(..., in_loops=True))."""
    bad = []
    peeled = peeled or {}
    for at in sorted(set(model) | set(asm) | set(peeled)):
        rows, have = model.get(at, []), asm.get(at, {})
        copy = peeled.get(at, {})
        if any(form not in have for _, form, _ in rows) or summed(rows) != net(have, copy):
            bad.append((at, rows, have))
        elif copy and summed((in_loops or {}).get(at, [])) != copy:
            bad.append((at, "peeled", copy))
    return bad


@pytest.mark.parametrize("name", sorted(LINES))
def test_each_global_op_is_the_compiled_one(name):
    entry = LINES[name]
    assert not entry["unattributed"]
    text = (DATA / "kernels" / name).read_text()
    model = model_ops(text, entry["kind"], entry["source"])
    in_loops = model_ops(text, entry["kind"], entry["source"], in_loops=True)
    assert check_ops(model, asm_ops(entry), asm_ops(entry, "peeled_ops"), in_loops) == []
    assert {(name, line) for line in peeled_lines(entry)} == {p for p in PEELED if p[0] == name}


@pytest.mark.parametrize("key", sorted(CACHE))
def test_each_global_op_of_the_real_cache_is_the_compiled_one(key):
    entry = CACHE[key]
    assert not entry["unattributed"]
    text = (DATA / "cache" / entry["ttgir"]).read_text()
    model = model_ops(text, entry["kind"], entry["source"])
    in_loops = model_ops(text, entry["kind"], entry["source"], in_loops=True)
    assert check_ops(model, asm_ops(entry), asm_ops(entry, "peeled_ops"), in_loops) == []


@pytest.mark.parametrize("name, ops", [
    ("buffer_ops.gfx942.ttgir", {"amdg.buffer_load", "amdg.buffer_store", "amdg.buffer_atomic_rmw",
                                 "amdg.buffer_atomic_cas", "amdg.buffer_load_to_local"}),
    ("async_copy.gfx942.ttgir", {"ttg.async_copy_global_to_local", "tt.store"})])
def test_each_amd_buffer_op_is_the_compiled_one(name, ops):
    # every AMD buffer op, and an async copy to shared memory without a `contiguity` attribute (the lowering takes
    # the pointers' AxisInfo: 2 x f16, `global_load_lds_dword`), compiled by Triton 3.9 for gfx942
    path = DATA / "buffer_ops" / name
    entry = json.loads(path.with_suffix(".json").read_text())
    model = model_ops(path.read_text(), entry["kind"], entry["source"])
    assert not entry["unattributed"] and check_ops(model, asm_ops(entry)) == []
    assert {op for rows in model.values() for op, _, _ in rows} == ops


def test_amd_buffer_ops_get_lines_from_their_offsets():
    # hand-checked: 64x64 f16 in sizePerThread [1, 2], threadsPerWarp [2, 32]: one instruction of the 64 lanes
    # covers 2 rows x 64 contiguous columns (128 bytes each), rows a runtime stride apart: 2 lines of 128 bytes,
    # the fewest 256 bytes can fill. The f32 atomics (sizePerThread [4], one element per instruction): 64 lanes
    # 16 bytes apart span 1024 bytes, 8 lines, where 256 bytes could fill 2.
    (m,) = analyze_audit(read_modules((DATA / "buffer_ops" / "buffer_ops.gfx942.ttgir").read_text()))
    got = {f.op: (f.facts.sectors_per_warp_access, f.facts.ideal_sectors, f.facts.sector_bytes,
                  f.facts.address_assumptions) for f in m.findings if f.op.startswith("amdg.")}
    two_rows = (2, 2, 128, ("alignment", "strided-dim"))
    assert got == {"amdg.buffer_load": two_rows, "amdg.buffer_store": two_rows,
                   "amdg.buffer_load_to_local": two_rows,
                   "amdg.buffer_atomic_rmw": (8, 2, 128, ("alignment",)),
                   "amdg.buffer_atomic_cas": (8, 2, 128, ("alignment",))}
    # a 1-D copy of 2048 f16, 8 per thread: 64 lanes x 16 bytes, 8 full lines (buffer_copy's load and store)
    (m,) = analyze_audit(read_modules((DATA / "kernels" / "buffer_copy.gfx942.ttgir").read_text()))
    assert {(f.op, f.facts.lines_per_warp_access, f.facts.ideal_sectors) for f in m.findings
            if f.op.startswith("amdg.")} == {("amdg.buffer_load", 8, 8), ("amdg.buffer_store", 8, 8)}


ADVISED = [json.loads(line) for line in (ROOT / "golden" / "advise" / "cases.jsonl").read_text().splitlines()]
ADVISED = [c for c in ADVISED if c["change"]]


def global_widths(text: str) -> tuple[dict, dict]:
    """The model's global loads and stores of a whole kernel as {bits: instructions per thread} (the assembly's
    global_loads / global_stores classes: atomics are in neither)."""
    loads: collections.Counter = collections.Counter()
    stores: collections.Counter = collections.Counter()
    for m in analyze_audit(read_modules(text)):
        for f in m.findings:
            counts = f.counts or {}
            if counts.get("global_loads") or counts.get("global_stores"):
                side = loads if counts.get("global_loads") else stores
                side[str(f.facts.vector_bits)] += f.facts.instructions_per_thread
    return dict(loads), dict(stores)


@pytest.mark.parametrize("case", ADVISED, ids=[c["id"] for c in ADVISED])
def test_advise_predicts_the_compiled_global_instructions(case):
    # golden/advise compiled each dump and the patch advise writes for it (scripts/golden/advise.py): advise's
    # predicted global counts, before and after, are the compiled ones, and so are the audit's widths of both
    change = advise(str(DATA / "kernels" / f"{case['id']}.ttgir")).changes[0]
    for k in ("global_loads", "global_stores"):
        assert (change.totals_before[k], change.totals_after[k]) == (case["compiled_before"][k],
                                                                     case["compiled_after"][k]), k
    for which, text in (("before", (DATA / "kernels" / f"{case['id']}.ttgir").read_text()),
                        ("after", (ROOT / "golden" / "advise" / case["patched"]).read_text())):
        compiled = case[f"compiled_{which}"]
        assert global_widths(text) == (compiled["global_load_bits"], compiled["global_store_bits"]), which


def model_lines(name: str, entry: dict, in_loops: bool = False) -> dict:
    """Python line -> {form: instructions per thread} of the audit's global rows (and cp.async rows)."""
    out: dict = collections.defaultdict(collections.Counter)
    text = (DATA / "kernels" / name).read_text()
    for (line, _), rows in model_ops(text, entry["kind"], entry["source"], in_loops).items():
        out[line].update(summed(rows))
    return {line: dict(c) for line, c in out.items()}


@pytest.mark.parametrize("name", sorted(LINES))
def test_each_line_is_the_compiled_one(name):
    entry = LINES[name]
    model = model_lines(name, entry)
    in_loops = model_lines(name, entry, in_loops=True)
    asm = {int(k.rsplit(":", 1)[1]): v for k, v in entry["lines"].items()}
    peeled = peeled_lines(entry)
    for line in sorted(set(model) | set(asm)):
        got = (model.get(line, {}), net(asm.get(line, {}), peeled.get(line, {})))
        assert got[0] == got[1], (line, got)
        if line in peeled:
            # the peeled copy is exactly one more copy of the line's loop-body ops
            assert peeled[line] == in_loops.get(line), (line, peeled[line])


def test_every_op_kind_of_the_issue_is_compared():
    # tt.load, tt.store, an atomic, cp.async and the AMD buffer ops all occur in the compared data
    seen = set()
    for name, entry in LINES.items():
        for rows in model_ops((DATA / "kernels" / name).read_text(), entry["kind"], entry["source"]).values():
            seen.update(op for op, _, _ in rows)
    assert {"tt.load", "tt.store", "tt.atomic_rmw", "ttg.async_copy_global_to_local", "amdg.buffer_load",
            "amdg.buffer_store"} <= seen


def test_agreement_over_every_line():
    # a line agrees when the model's global instructions per thread equal the assembly's net of a peeled copy
    # (docs/audit_model.md and README give the figure)
    compared = agreeing = 0
    peels = set()
    for name, entry in LINES.items():
        model = model_lines(name, entry)
        peeled = peeled_lines(entry)
        peels |= {(name, line) for line in peeled}
        for key, have in entry["lines"].items():
            line = int(key.rsplit(":", 1)[1])
            compared += 1
            agreeing += model.get(line, {}) == net(have, peeled.get(line, {}))
    assert peels == PEELED
    assert compared == 279 and agreeing / compared >= 0.98 and agreeing == 279


TMA_CASES = sorted(p.name for p in (DATA / "tma").glob("*.ttgir"))


@pytest.mark.parametrize("name", TMA_CASES)
def test_each_tma_copy_is_the_compiled_one(name):
    # scripts/make_tma_cases.py: one TMA load and one TMA store per case, of blocks that take 1 to 8 messages of
    # getTMABlockShape's box, issued round-robin by 1 to 4 warps (1 to 4 per issuing thread); the model's cp.async.bulk.tensor per source
    # location (rank and count per issuing thread) is the PTX's
    path = DATA / "tma" / name
    entry = json.loads(path.with_suffix(".json").read_text())
    model = model_ops(path.read_text(), entry["kind"], entry["source"])
    assert not entry["unattributed"] and check_ops(model, asm_ops(entry)) == []
    assert {op for rows in model.values() for op, _, _ in rows} == set(TMA) - {"ttng.async_tma_reduce"}


def test_tma_messages_by_hand():
    # hand-checked: a 32x256 f16 block with the 128-byte swizzle moves in boxes of 32x64 (one 128-byte row
    # innermost): 4 messages, all issued by the one warp; 2x16x128 f16: boxes of 2x16x64, 2 messages
    got = {}
    for name in ("f16_32x256_w1.sm90.ttgir", "f16_2x16x128_w1.sm90.ttgir", "f16_64x128_w4.sm90.ttgir",
                 "f16_64x512_w2.sm90.ttgir"):
        (m,) = analyze_audit(read_modules((DATA / "tma" / name).read_text()))
        got[name] = {(f.op, f.facts.box, f.facts.messages, f.facts.warps, f.facts.instructions_per_thread)
                     for f in m.findings if f.op in TMA}
    assert got["f16_32x256_w1.sm90.ttgir"] == {
        ("ttng.async_tma_copy_global_to_local", (32, 64), 4, 1, 4),
        ("ttng.async_tma_copy_local_to_global", (32, 64), 4, 1, 4)}
    assert got["f16_2x16x128_w1.sm90.ttgir"] == {
        ("ttng.async_tma_copy_global_to_local", (2, 16, 64), 2, 1, 2),
        ("ttng.async_tma_copy_local_to_global", (2, 16, 64), 2, 1, 2)}
    # 64x512 f16: 8 boxes of 64x64 shared by 2 warps, 4 each
    assert got["f16_64x512_w2.sm90.ttgir"] == {
        ("ttng.async_tma_copy_global_to_local", (64, 64), 8, 2, 4),
        ("ttng.async_tma_copy_local_to_global", (64, 64), 8, 2, 4)}
    assert got["f16_64x128_w4.sm90.ttgir"] == {
        ("ttng.async_tma_copy_global_to_local", (64, 64), 2, 4, 1),
        ("ttng.async_tma_copy_local_to_global", (64, 64), 2, 4, 1)}
