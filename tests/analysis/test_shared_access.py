"""The shared-memory access model (analysis/shared_access.py) against Triton 3.9's compiled kernels
(golden/shared_access, golden/convert) and the H100 measurements of tests/data/ncu_h100_bank.csv.

Run as a script for the agreement table: ``PYTHONPATH=tests python tests/analysis/test_shared_access.py``."""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

import pytest
from golden_cases import DATA, LLVM_MERGED, canonical, compiled_cases
from helpers import ncu_bank_check

from linlayout_cli import inputs
from linlayout_cli.analysis import shared_access as sa
from linlayout_cli.analysis.convert import analyze_convert
from linlayout_cli.analysis.targets import READ, WRITE, get_target
from linlayout_cli.attributes import encodings as enc
from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.conversions.padded_shared import padding_of
from linlayout_cli.engine import gf2

CASES = compiled_cases("shared_access")
CONVERT = compiled_cases("convert")


# ----------------------------------------------------------------------------------------- layouts


@lru_cache(maxsize=None)
def register(text: str, shape: tuple):
    return inputs.linear_layout(inputs.attribute(text), list(shape))


@lru_cache(maxsize=None)
def shared(text: str, shape: tuple):
    """(linear layout, padding or None) of a shared attribute."""
    attr = inputs.attribute(text)
    if isinstance(attr, enc.PaddedSharedEncoding):
        return to_linear_layout(attr, list(shape)), padding_of(attr)
    return inputs.linear_layout(attr, list(shape)), None


def model_local(case: dict, op: str):
    shape = tuple(case["shape"])
    reg = register(case["write" if op == WRITE else "read"], shape)
    ll, padding = shared(case["shared"], shape)
    return sa.local_access(reg, ll, case["bitwidth"], op, get_target(case["target"]), padding)


def model_convert(src_text: str, dst_text: str, shape, bitwidth: int, target: str, num_warps: int):
    """(path, round trip or None) of a convert: the path from analysis/convert.py, the accesses from ours."""
    src, dst = register(src_text, tuple(shape)), register(dst_text, tuple(shape))
    report = analyze_convert(src, dst, bitwidth, get_target(target), num_warps)
    if report.path != "shared_memory":
        return report.path, None
    return report.path, sa.convert_access(src, dst, bitwidth, get_target(target), warp_sync=report.barrier == "warp")


# ----------------------------------------------------------------------------------------- golden cases

LOCAL = [c for c in CASES if c["kind"] == "local" and not c["refused"]]
CONVERTS = [c for c in CASES if c["kind"] == "convert" and not c["refused"]]


def _elements(forms: Counter, bitwidth: int) -> int:
    """Elements moved per thread by compiled accesses (a form's width from its name)."""
    total = 0
    for form, n in forms.items():
        m = re.search(r"(?:\.v(\d))?\.b(\d+)$", form) or re.search(r"()_[bu](\d+)$", form)
        total += n * int(m.group(1) or 1) * int(m.group(2)) // bitwidth
    return total


def _misaligned(case: dict, op: str) -> dict | None:
    return next((m for m in case.get("misaligned", []) if m["direction"] == op), None)


def check_local(case: dict, op: str) -> str | None:
    """None when the model equals the compiled kernel in this direction, else what differs."""
    compiled = canonical(case["write_ops" if op == WRITE else "read_ops"])
    bad = _misaligned(case, op)
    try:
        d = model_local(case, op)
    except sa.MisalignedAccess as e:
        if bad is None:
            return f"model refuses ({e}), the compiled access is aligned: {dict(compiled)}"
        got = (e.instruction, e.alignment, e.offset, e.byte)
        want = (canonical({bad["instruction"]: 1}).most_common(1)[0][0], bad["alignment"], bad["first_offset"],
                bad["first_byte"])
        return None if got == want else f"misalignment {got} != compiled {want}"
    if bad is not None:
        return f"model prices {d.instruction}, but the compiled {bad['instruction']} is misaligned"
    if (case["id"], op) in LLVM_MERGED:
        merged = sum(compiled.values()) < d.instructions_per_warp
        same = _elements(compiled, case["bitwidth"]) == d.instructions_per_warp * d.vector_bits // case["bitwidth"]
        return None if merged and same else f"expected an LLVM merge of {d.instructions_per_warp} x {d.instruction}"
    if len(compiled) != 1:
        return f"compiled forms {dict(compiled)}"
    (form, count), = compiled.items()
    if (d.instruction, d.instructions_per_warp) != (form, count):
        return f"model {d.instructions_per_warp} x {d.instruction}, compiled {count} x {form}"
    if d.instructions_per_cta != count * case["num_warps"]:
        return f"per CTA {d.instructions_per_cta} != {count} x {case['num_warps']} warps"
    return None


def check_convert(case: dict) -> str | None:
    path, rt = model_convert(case["write"], case["read"], case["shape"], case["bitwidth"], case["target"],
                             case["num_warps"])
    compiled_w, compiled_r = canonical(case["write_ops"]), canonical(case["read_ops"])
    if rt is None:
        return None if not compiled_w and not compiled_r else f"model path {path}, compiled uses shared memory"
    problems = []
    for d, compiled in ((rt.write, compiled_w), (rt.read, compiled_r)):
        if dict(compiled) != {d.instruction: d.instructions_per_warp}:
            problems.append(f"{d.op}: model {d.instructions_per_warp} x {d.instruction}, compiled {dict(compiled)}")
    bars = {k: v for k, v in case["barriers"].items() if k != "s_barrier_wait"}
    if bars != ({rt.barrier_instruction: rt.barriers} if rt.barriers else {}):
        problems.append(f"barriers: model {rt.barriers} x {rt.barrier_instruction}, compiled {case['barriers']}")
    return "; ".join(problems) or None


@pytest.mark.parametrize("case", LOCAL, ids=[c["id"] for c in LOCAL])
def test_local_write_and_read_equal_the_compiled_kernel(case):
    """local_alloc and local_load: the instruction Triton 3.9 emits and how many, in each direction; padded
    layouts whose compiled vector access is misaligned are refused with the instruction, the alignment it
    needs and the first misaligned offset."""
    problems = [f"{op}: {p}" for op in (WRITE, READ) if (p := check_local(case, op))]
    assert not problems, problems


@pytest.mark.parametrize("case", CONVERTS, ids=[c["id"] for c in CONVERTS])
def test_convert_round_trip_equals_the_compiled_kernel(case):
    assert check_convert(case) is None, check_convert(case)


def test_the_golden_suite_covers_the_issue():
    """At least 300 compiled cases; every register and shared kind, widths, ranks and the faulting paddings."""
    assert len(CASES) >= 300
    assert not any(c.get("backward_branches") for c in CASES if not c["refused"])
    text = " ".join(c["write"] + c["read"] + (c["shared"] or "") for c in CASES)
    for kind in ("blocked", "linear", "slice", "nvidia_mma<{versionMajor = 2", "nvidia_mma<{versionMajor = 3",
                 "dot_op", "amd_mfma", "swizzled_shared", "nvmma_shared", "shared_linear", "padded_shared"):
        assert kind in text, kind
    assert {c["bitwidth"] for c in CASES} == {8, 16, 32, 64}
    assert {len(c["shape"]) for c in CASES} == {1, 2, 3}
    faults = {(c["note"], m["instruction"]) for c in CASES for m in c.get("misaligned", [])}
    assert ("faulting: [64:+2] f16 with st.shared.v4", "st.shared.v4.b32") in faults
    assert ("faulting: [64:+1] f32 with st.shared.v2", "st.shared.v2.b32") in faults


def test_the_faulting_paddings_are_refused_with_their_reason():
    case = next(c for c in CASES if c["note"] == "faulting: [64:+2] f16 with st.shared.v4")
    with pytest.raises(sa.MisalignedAccess) as e:
        model_local(case, WRITE)
    assert str(e.value) == ("#ttg.padded_shared padding [64:+2] leaves st.shared.v4.b32 misaligned: it needs "
                            "16-byte alignment, but element offset 64 starts at byte 132")
    case = next(c for c in CASES if c["note"] == "faulting: [64:+1] f32 with st.shared.v2")
    with pytest.raises(sa.MisalignedAccess, match=r"st\.shared\.v2\.b32 misaligned: it needs 8-byte alignment, "
                                                  r"but element offset 64 starts at byte 260"):
        model_local(case, WRITE)


# ----------------------------------------------------------------------------------------- worked by hand


def test_row_plus_one_padding_fixes_a_column_read():
    """32x32 f32, each warp reads one column (32 lanes, stride 32 words): every lane in bank 0 -> 32 wavefronts
    per instruction; with [32:+1] lane l sits at word 33 l, bank l -> 1."""
    plain = next(c for c in CASES if c["note"] == "32x32 f32 column read, unpadded")
    fixed = next(c for c in CASES if c["note"] == "32x32 f32 column read, [32:+1]")
    a, b = model_local(plain, READ), model_local(fixed, READ)
    assert (a.instruction, a.instructions_per_warp, a.wavefronts_max) == ("ld.shared.b32", 8, 32)
    assert (b.instruction, b.instructions_per_warp, b.wavefronts_max) == ("ld.shared.b32", 8, 1)
    assert (a.wavefronts_total, b.wavefronts_total, b.ideal_wavefronts_total) == (32 * 32, 32, 32)
    assert a.conflicts == 31 and b.conflicts is None
    assert "does not price #ttg.padded_shared" in b.why


def test_transposed_f16_read_with_two_paddings():
    """64x64 f16 row-major, a warp reads 32 rows of one column (ld.shared.b16).  With [64:+P] lane l is at
    element l (64 + P): word l (32 + P/2).  Unpadded: bank 0 for every lane, 32 wavefronts; P = 8: banks 4l mod
    32, four lanes per bank, 4 wavefronts; P = 2: bank l, 1 wavefront."""
    waves = {}
    for pad in ("[]", "[(64, 8)]", "[(64, 2)]"):
        case = next(c for c in CASES if c["note"] == f"64x64 f16 transposed read {pad}")
        d = model_local(case, READ)
        assert d.instruction == "ld.shared.b16"
        waves[pad] = d.wavefronts_max
    assert waves == {"[]": 32, "[(64, 8)]": 4, "[(64, 2)]": 1}


def test_matrix_instructions_and_replicated_registers():
    """mma v2 f16 accumulator on sm90: 4 stmatrix.x4 per warp where Triton's model counts 16 st.shared.b32."""
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
    sw = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
    reg, (smem, _) = register(mma, (64, 64)), shared(sw, (64, 64))
    d = sa.local_access(reg, smem, 16, WRITE, get_target("sm90"))
    assert (d.instruction, d.instructions_per_warp, d.instructions_per_cta) == (
        "stmatrix.sync.aligned.m8n8.x4.shared.b16", 4, 16)
    assert d.wavefronts_total == d.ideal_wavefronts_total == 16 * 4
    assert d.why.startswith("Triton's model counts 16 st.shared.b32 per warp; the compiler emits 4 stmatrix")
    # sm80 has no stmatrix
    assert sa.local_access(reg, smem, 16, WRITE, get_target("sm80")).instruction == "st.shared.b32"
    # a register layout holding every element twice (a zero register basis) stores each once
    lin = ("#ttg.linear<{register = [[0, 0], [0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "
           "warp = [[8, 0], [16, 0]], block = []}>")
    plain = ("#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "
             "warp = [[8, 0], [16, 0]], block = []}>")
    row = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
    smem, _ = shared(row, (32, 16))
    a = sa.local_access(register(lin, (32, 16)), smem, 32, WRITE, get_target("sm90"))
    b = sa.local_access(register(plain, (32, 16)), smem, 32, WRITE, get_target("sm90"))
    assert a == b and a.instruction == "st.shared.v4.b32" and a.instructions_per_warp == 1


def test_read_broadcast_of_lanes_holding_copies():
    """A 1-D f32 tensor of 8 elements read by 32 lanes, lanes differing in lane-id bits 0 and 4 holding the same
    element: one ld.shared.b32, one wavefront (the hardware broadcasts each word).  (With lanes 8-31 repeating
    lanes 0-7 instead, Triton 3.9 emits ldmatrix.x1: lanes 0, 1 then hold a 16-byte row.)"""
    rep = ("#ttg.linear<{register = [], lane = [[0], [1], [2], [4], [0]], warp = [], block = []}>")
    sw = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>"
    reg, (smem, _) = register(rep, (8,)), shared(sw, (8,))
    d = sa.local_access(reg, smem, 32, READ, get_target("sm90"))
    assert (d.instruction, d.instructions_per_warp, d.wavefronts_total) == ("ld.shared.b32", 1, 1)
    copies = ("#ttg.linear<{register = [], lane = [[1], [2], [4], [0], [0]], warp = [], block = []}>")
    d = sa.local_access(register(copies, (8,)), smem, 32, READ, get_target("sm90"))
    assert (d.instruction, d.wavefronts_total) == ("ldmatrix.sync.aligned.m8n8.x1.shared.b16", 1)


# ----------------------------------------------------------------------------------------- golden/convert


CONVERT_SMEM = [c for c in CONVERT if any(k.startswith(("st.shared", "stmatrix", "ds_write", "ds_store"))
                                          for k in c["ops"])]


def _convert_direction_ops(case: dict, write: bool) -> Counter:
    prefixes = ("st.shared", "stmatrix", "ds_write", "ds_store") if write else ("ld.shared", "ldmatrix", "ds_read",
                                                                               "ds_load")
    return canonical({k: v for k, v in case["ops"].items() if k.startswith(prefixes)})


@pytest.mark.parametrize("case", CONVERT_SMEM, ids=[c["id"] for c in CONVERT_SMEM])
def test_golden_convert_round_trips(case):
    """Every shared-memory convert of golden/convert: the exact forms and counts in each direction; on NVIDIA
    Triton's conflict count is never null (ldmatrix / stmatrix included); AMD rows name AMD instructions and
    count no barrier for an in-warp exchange."""
    path, rt = model_convert(case["src"], case["dst"], case["shape"], case["bitwidth"], case["target"],
                             case["num_warps"])
    assert path == "shared_memory"
    for d, write in ((rt.write, True), (rt.read, False)):
        assert dict(_convert_direction_ops(case, write)) == {d.instruction: d.instructions_per_warp}, d
        if case["target"].startswith("sm"):
            assert d.conflicts is not None and d.wavefronts_total is not None
        else:
            assert d.instruction.startswith("ds_")
    compiled_bars = {k: v for k, v in case["ops"].items() if k.startswith(("bar.", "barrier", "s_barrier"))
                     and k != "s_barrier_wait"}          # RDNA4: one barrier is s_barrier_signal + s_barrier_wait
    assert compiled_bars == ({rt.barrier_instruction: rt.barriers} if rt.barriers else {})


# ----------------------------------------------------------------------------------------- H100 measurements


def ncu_comparison() -> list[dict]:
    """Per measured case and direction: Triton 3.9's compiled count (golden ncu-h100 section, x 4 warps), the
    measured count and wavefronts (Triton 3.6 kernels), and the model's."""
    measured = ncu_bank_check().read_ncu(DATA / "ncu_h100_bank.csv")
    golden = [c for c in CASES if c["section"] == "ncu-h100"]
    rows = []
    for case, m in zip(golden, measured):
        for op, inst, waves, matrix in ((WRITE, "shared_st", "shared_op_st", "shared_stsm"),
                                        (READ, "shared_ld", "shared_op_ld", "ldsm")):
            d = model_local(case, op)
            compiled = canonical(case["write_ops" if op == WRITE else "read_ops"])
            got_i = m[f"sm__sass_inst_executed_op_{inst}.sum"] + m[f"sm__sass_inst_executed_op_{matrix}.sum"]
            got_w = m[f"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_{waves}.sum"]
            rows.append({"id": case["id"], "op": op, "instruction": d.instruction,
                         "compiled_per_cta": sum(compiled.values()) * case["num_warps"],
                         "model_per_cta": d.instructions_per_cta, "measured_instructions": int(got_i),
                         "measured_wavefronts": int(got_w), "model_wavefronts": d.wavefronts_total,
                         "model_per_instruction": d.wavefronts_mean, "matrix": d.kind != sa.SHARED})
    return rows


def test_wavefronts_equal_the_h100_measurements():
    """Where the H100 ran the instructions Triton 3.9 compiles (same count), the measured wavefronts equal the
    model's total.  Exceptions (docs/shared_memory_model.md, section 5): ldmatrix / stmatrix, which these
    counters do not count (they read 0), and loads LLVM partly forwarded from the thread's own stores in the
    Triton 3.6 kernels (fewer loads ran): there every load that ran took the model's wavefronts per instruction."""
    rows = ncu_comparison()
    assert len(rows) == 96
    exact = forwarded = matrix = 0
    for r in rows:
        assert r["compiled_per_cta"] == r["model_per_cta"], r
        if r["matrix"]:
            assert r["measured_wavefronts"] == 0, r
            matrix += 1
        elif r["measured_instructions"] == r["model_per_cta"]:
            assert r["measured_wavefronts"] == r["model_wavefronts"], r
            exact += 1
        else:
            assert r["op"] == READ and r["measured_instructions"] < r["model_per_cta"], r
            if (r["id"], r["op"]) == ("ncu-h100-015", READ):
                continue                # 30 of 32 loads ran, some narrower: no per-instruction figure to compare
            assert r["measured_wavefronts"] == r["measured_instructions"] * r["model_per_instruction"], r
            forwarded += 1
    assert (exact, forwarded, matrix) == (71, 16, 8)


def test_replicated_quarter_warps_are_not_merged():
    """The two measured 128-bit accesses whose lanes broadcast (docs/shared_memory_model.md section 7): the H100
    served each quarter warp on its own even where quarters ask for the same words, and the model does too.

    ncu-h100-036 (lane bits 3 and 4 broadcast: all four quarter warps ask for the same eight 16-byte chunks,
    each 4-way conflicted) took 16 wavefronts per instruction, and the access touches 32 distinct words (8
    chunks of 4): a rule serving identical quarters once would say 4, identical half warps once 8.
    ncu-h100-015 (lane bit 3 broadcast, each quarter conflict-free) took 4 per store, where serving the
    identical quarters once would say 2."""
    rows = {(r["id"], r["op"]): r for r in ncu_comparison()}
    for (cid, op), per_instruction in ((("ncu-h100-036", WRITE), 16), (("ncu-h100-036", READ), 16),
                                       (("ncu-h100-015", WRITE), 4)):
        r = rows[cid, op]
        assert r["measured_wavefronts"] == r["measured_instructions"] * per_instruction, r
        assert r["model_wavefronts"] == r["model_per_cta"] * per_instruction, r
    case = next(c for c in CASES if c["id"] == "ncu-h100-036")
    shape = tuple(case["shape"])
    a = sa.access_of(register(case["read"], shape), shared(case["shared"], shape)[0])
    assert a.zero_lanes == (3, 4)
    words = {(u * 2 >> 2) + w for u in gf2.span(a.lanes) for w in range(4)}     # f16, 16 bytes a lane
    assert len(words) == 32


if __name__ == "__main__":
    table: Counter = Counter()
    fails = []
    for c in LOCAL:
        for op in (WRITE, READ):
            p = check_local(c, op)
            table[(c["section"], "ok" if p is None else "differs")] += 1
            if p:
                fails.append((c["id"], op, p))
    for c in CONVERTS:
        p = check_convert(c)
        table[(c["section"], "ok" if p is None else "differs")] += 1
        if p:
            fails.append((c["id"], "convert", p))
    for k in sorted({s for s, _ in table}):
        print(f"{k:16s} ok {table[(k, 'ok')]:4d}  differs {table[(k, 'differs')]:3d}")
    for f in fails:
        print(*f)
