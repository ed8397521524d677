"""`bank`, `convert` and `swizzle` print the shared-access model (analysis/shared_access.py): their command-line
outputs against Triton 3.9's compiled kernels (golden/shared_access, golden/convert), the H100 counters
(tests/data/ncu_h100_bank.csv) and hand-worked figures, never against the code's own output."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import lru_cache

import pytest
from golden_cases import DATA, LLVM_MERGED, canonical, compiled_cases
from helpers import ncu_bank_check

from linlayout_cli.cli import run
from linlayout_cli.parsing import parse_attribute

CASES = compiled_cases("shared_access")
CONVERT = compiled_cases("convert")


def tensor(case: dict) -> str:
    return f"tensor<{'x'.join(map(str, case['shape']))}x{case['elem']}>"


@lru_cache(maxsize=None)
def bank_json(reg: str, shared: str, ttype: str, target: str) -> tuple[int, dict | str]:
    code, out, err = run(["bank", "-r", reg, "-s", shared, "-t", ttype, "--target", target, "--json"])
    return code, (json.loads(out) if code == 0 else err)


def compiled(case: dict, op: str) -> tuple[str, int] | None:
    """The one compiled form of a direction and its count per warp (None when the direction mixes forms)."""
    forms = canonical(case["write_ops" if op == "write" else "read_ops"])
    return next(iter(forms.items())) if len(forms) == 1 else None


# ----------------------------------------------------------------------------------------- bank


# bank takes one register layout for both directions: the golden local cases that store and load the same one
SAME = [c for c in CASES if c["kind"] == "local" and not c["refused"] and c["write"] == c["read"]]
PRICED = [c for c in SAME if not c.get("misaligned")]
FAULTING = [c for c in SAME if any(m["direction"] == "write" for m in c.get("misaligned", []))]


@pytest.mark.parametrize("case", PRICED, ids=[c["id"] for c in PRICED])
def test_bank_json_names_the_compiled_instruction_and_count(case):
    """`bank --json`: under `write` and `read`, the instruction Triton 3.9 compiled and how many per warp and per
    CTA (padded layouts included), Triton's count beside them (null only for a padded layout)."""
    code, obj = bank_json(case["write"], case["shared"], tensor(case), case["target"])
    if code == 1 and "too small for a bank analysis" in obj:
        return                          # as Triton's get_shared_bank_conflicts aborts (tests/analysis/test_bank.py)
    assert code == 0, obj
    padded = case["shared"].startswith("#ttg.padded_shared")
    for op in ("write", "read"):
        d = obj[op]
        if (case["id"], op) in LLVM_MERGED:   # LLVM merged some of Triton's accesses (docs, section 6)
            assert sum(canonical(case[f"{op}_ops"]).values()) < d["instructions_per_warp"]
            continue
        form, count = compiled(case, op)
        assert (d["instruction"], d["instructions_per_warp"]) == (form, count), op
        assert d["instructions_per_cta"] == count * case["num_warps"]
        assert (d["conflicts"] is None) == padded
        if d["wavefronts_total"] is not None:
            assert d["ideal_wavefronts_total"] <= d["wavefronts_total"] <= d["wavefronts"] * d["instructions_per_cta"]
            assert d["wavefronts_mean"] * d["instructions_per_cta"] == pytest.approx(d["wavefronts_total"])
    if not padded:                                  # the old fields stay
        for key in ("conflicts", "vector_width", "wavefronts", "ideal_wavefronts", "instructions_per_warp"):
            assert key in obj
        assert {"access_bits", "k", "phases", "triton_instruction", "simulated_wavefronts"} <= set(obj["write"])


TRANS8 = [json.loads(line) for line in (DATA / "packed_shared.jsonl").read_text().splitlines()
          if '"trans8"' in line and '"local"' in line]


@pytest.mark.parametrize("op", ["write", "read"])
def test_bank_names_sm100_8bit_transposed_matrix_forms(op):
    """`bank --json` on the `trans8` kernels of tests/data/packed_shared.jsonl (fp8 / i8, sm100 and their sm90
    twins): each direction's layout gets the form and count Triton 3.9 compiled, `stmatrix.m16n8` /
    `ldmatrix.m16n16 .trans.b8` included (bank stores and loads one layout: that direction's)."""
    b8 = 0
    for case in TRANS8:
        code, obj = bank_json(case[op], case["shared"], tensor(case), case["target"])
        if code == 1 and "too small for a bank analysis" in obj:
            continue                    # as Triton's get_shared_bank_conflicts aborts (tests/analysis/test_bank.py)
        assert code == 0, (case["id"], obj)
        (form, count), = case[f"{op}_ops"].items()
        assert (obj[op]["instruction"], obj[op]["instructions_per_warp"]) == (form, count), case["id"]
        b8 += form.endswith(".trans.shared.b8")
    assert b8 >= 5

@pytest.mark.parametrize("case", FAULTING, ids=[c["id"] for c in FAULTING])
def test_bank_refuses_a_padding_the_compiled_kernel_faults_on(case):
    """The compiled vector store is misaligned (golden `misaligned`): one error line naming that instruction,
    the alignment it needs and the first misaligned offset and its byte."""
    bad = next(m for m in case["misaligned"] if m["direction"] == "write")
    code, err = bank_json(case["write"], case["shared"], tensor(case), case["target"])
    assert code == 1 and err.startswith("ttlayout: error: #ttg.padded_shared padding [") and err.count("\n") == 1
    form = canonical({bad["instruction"]: 1}).most_common(1)[0][0]
    assert (f"leaves {form} misaligned: it needs {bad['alignment']}-byte alignment, but element offset "
            f"{bad['first_offset']} starts at byte {bad['first_byte']}") in err


def test_the_issue_s_faulting_paddings_in_text():
    case = next(c for c in CASES if c["note"] == "faulting: [64:+2] f16 with st.shared.v4")
    code, out, err = run(["bank", "-r", case["write"], "-s", case["shared"], "-t", tensor(case)])
    assert code == 1 and out == ""
    assert err == ("ttlayout: error: #ttg.padded_shared padding [64:+2] leaves st.shared.v4.b32 misaligned: it "
                   "needs 16-byte alignment, but element offset 64 starts at byte 132\n")
    case = next(c for c in CASES if c["note"] == "faulting: [64:+1] f32 with st.shared.v2")
    code, out, err = run(["bank", "-r", case["write"], "-s", case["shared"], "-t", tensor(case), "--json"])
    assert code == 1 and out == "" and "st.shared.v2.b32 misaligned: it needs 8-byte alignment" in err


COLUMN = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>"


def test_the_row_plus_one_padding_in_the_report():
    """32x32 f32 read one column per warp instruction (golden issue-001 / issue-002 read: 8 ld.shared.b32 per
    warp).  Unpadded, lane l is at word 32 l: bank 0 for all 32 lanes, 32 wavefronts per instruction, and Triton
    counts 2^5 - 1 = 31 conflicts; with [32:+1] lane l is at word 33 l, bank l: 1 wavefront."""
    plain, fixed = (next(c for c in CASES if c["id"] == i) for i in ("issue-001", "issue-002"))
    assert plain["read"] == fixed["read"] == COLUMN
    form, count = compiled(fixed, "read")
    assert (form, count) == compiled(plain, "read") == ("ld.shared.b32", 8)
    code, out, err = run(["bank", "-r", COLUMN, "-s", plain["shared"], "-t", tensor(plain)])
    assert code == 0, err
    assert out.startswith("bank conflicts: 31 ")
    assert (f"read          {count} x {form} per warp, {4 * count} per CTA; 32 wavefronts each, {32 * 4 * count} per "
            f"CTA (ideal {4 * count})\n              Triton's model: 31 conflicts · on the GPU: {32 * 4 * count} "
            f"wavefronts per CTA where {4 * count} would do\n") in out
    code, out, err = run(["bank", "-r", COLUMN, "-s", fixed["shared"], "-t", tensor(fixed)])
    assert code == 0, err
    assert out.startswith("shared-memory wavefronts: 64 per CTA, ideal 64  (write + read on the GPU; "
                          "#ttg.padded_shared padding [32:+1]")
    assert (f"read          {count} x {form} per warp, {4 * count} per CTA; 1 wavefront each, {4 * count} per CTA "
            f"(ideal {4 * count})\n              on the GPU: conflict-free ({4 * count} wavefronts per CTA)\n") in out
    code, obj = bank_json(COLUMN, fixed["shared"], tensor(fixed), "sm90")
    assert obj["conflicts"] is None and obj["padding"] == [[32, 1]]
    assert (obj["read"]["wavefronts"], obj["read"]["wavefronts_total"]) == (1, 32)


def test_padded_transposed_f16_reads():
    """64x64 f16 read down a column by 32 lanes (golden issue-003/005/007: 32 ld.shared.b16 per warp): with
    [64:+P] lane l is at word l (32 + P/2): P = 8 -> banks 4 l mod 32, 4 lanes per bank: 4 wavefronts; P = 2 ->
    bank l: 1; unpadded: 32."""
    for pad, waves in (("[]", 32), ("[(64, 8)]", 4), ("[(64, 2)]", 1)):
        case = next(c for c in CASES if c["note"] == f"64x64 f16 transposed read {pad}")
        code, obj = bank_json(case["read"], case["shared"], tensor(case), "sm90")
        assert code == 0, obj
        assert (obj["read"]["instruction"], obj["read"]["instructions_per_warp"]) == compiled(case, "read")
        assert obj["read"]["wavefronts"] == waves


def test_bank_names_matrix_instructions_with_both_figures():
    """A golden local case that compiles to stmatrix / ldmatrix: the text names them with their counts, Triton's
    count and the GPU's figure, and a why sentence (Triton's model counts st.shared.b32)."""
    case = next(c for c in SAME if c["id"] == "ncu-h100-013")
    (wform, wcount), (rform, rcount) = compiled(case, "write"), compiled(case, "read")
    assert wform.startswith("stmatrix") and rform.startswith("ldmatrix")
    code, out, err = run(["bank", "-r", case["write"], "-s", case["shared"], "-t", tensor(case)])
    assert code == 0, err
    triton = int(re.match(r"bank conflicts: (\d+) ", out).group(1))
    assert f"write         {wcount} x {wform} per warp, {wcount * case['num_warps']} per CTA; " in out
    assert f"read          {rcount} x {rform} per warp, {rcount * case['num_warps']} per CTA; " in out
    assert f"Triton's model: {triton} conflicts · on the GPU: " in out
    assert "why: Triton's model counts 16 st.shared.b32 per warp; the compiler emits 4 stmatrix" in out


def test_bank_wavefronts_equal_the_h100_counters():
    """`bank --json` on the measured pairs (one layout stored and loaded, tests/data/ncu_h100_bank.csv): where the
    H100 ran as many plain ld/st.shared as Triton 3.9 compiles, the measured wavefronts equal `wavefronts_total`."""
    measured = ncu_bank_check().read_ncu(DATA / "ncu_h100_bank.csv")
    cases = [c for c in CASES if c["section"] == "ncu-h100"]
    checked = 0
    for case, m in zip(cases, measured):
        code, obj = bank_json(case["write"], case["shared"], tensor(case), case["target"])
        assert code == 0, obj
        for op, inst, waves in (("write", "shared_st", "shared_op_st"), ("read", "shared_ld", "shared_op_ld")):
            form, count = compiled(case, op)
            ran = m[f"sm__sass_inst_executed_op_{inst}.sum"]
            if form.startswith(("ldmatrix", "stmatrix")) or ran != count * case["num_warps"]:
                continue
            assert obj[op]["wavefronts_total"] == m[f"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_{waves}.sum"]
            checked += 1
    assert checked == 71


def test_padded_bank_has_no_picture():
    code, out, err = run(["bank", "-r", COLUMN, "-s", "#ttg.padded_shared<[32:+1] {order = [1, 0], shape = [32, 32]}>",
                          "-t", "tensor<32x32xf32>", "--format", "svg"])
    assert code == 1 and out == "" and "padded_shared" in err and err.count("\n") == 1


# ----------------------------------------------------------------------------------------- convert


def measured_directions(case: dict) -> tuple[dict, dict, dict]:
    ops = case["ops"]
    write = canonical({k: v for k, v in ops.items() if k.startswith(("st.shared", "stmatrix", "ds_write", "ds_store"))})
    read = canonical({k: v for k, v in ops.items() if k.startswith(("ld.shared", "ldmatrix", "ds_read", "ds_load"))})
    bars = {k: v for k, v in ops.items() if k.startswith(("bar.", "barrier", "s_barrier")) and k != "s_barrier_wait"}
    return dict(write), dict(read), bars


SMEM_CONVERTS = [c for c in CONVERT if measured_directions(c)[0]]


@lru_cache(maxsize=None)
def convert_json(case_id: str) -> dict:
    case = next(c for c in CONVERT if c["id"] == case_id)
    code, out, err = run(["convert", "-r", case["src"], "-d", case["dst"], "-t", tensor(case), "--target",
                          case["target"], "--json"])
    assert code == 0, err
    return json.loads(out)


def test_convert_json_prices_every_golden_shared_memory_convert():
    """Every golden convert through shared memory: `shared_access` names the compiled instruction of each direction
    and its count per thread (x warps per CTA), and the compiled barriers; `bank_conflicts` is never null on
    NVIDIA (ldmatrix / stmatrix included); AMD names its own instructions everywhere, in the verdict too."""
    assert len(SMEM_CONVERTS) > 300
    for case in SMEM_CONVERTS:
        obj = convert_json(case["id"])
        write, read, bars = measured_directions(case)
        sa = obj["shared_access"]
        for d, want in ((sa["write"], write), (sa["read"], read)):
            assert {d["instruction"]: d["instructions_per_warp"]} == want, (case["id"], d)
            assert d["instructions_per_cta"] == d["instructions_per_warp"] * case["num_warps"]
        assert ({sa["barrier_instruction"]: sa["barriers"]} if sa["barriers"] else {}) == bars, case["id"]
        if case["target"].startswith("sm"):
            assert None not in obj["bank_conflicts"].values(), case["id"]
            assert sa["write"]["conflicts"] == obj["bank_conflicts"]["store"]
            assert sa["read"]["conflicts"] == obj["bank_conflicts"]["load"]
            assert sa["write"]["wavefronts_total"] is not None and sa["read"]["wavefronts_total"] is not None
        else:
            text = json.dumps(obj).replace('"kind": "ld/st.shared"', "")     # the access category, not a name
            assert "st.shared" not in text and "ld.shared" not in text, case["id"]
            assert obj["store_instruction"].startswith("ds_") and obj["load_instruction"].startswith("ds_")
            assert f"({sa['write']['instruction']})" in obj["verdict"], obj["verdict"]


def test_convert_json_off_the_shared_memory_path():
    case = next(c for c in CONVERT if not measured_directions(c)[0] and c["scratch_bytes"] == 0)
    assert convert_json(case["id"])["shared_access"] is None


def test_convert_text_with_stmatrix():
    """A golden convert compiled to stmatrix.x2.trans stores and ld.shared.v4 loads: the report names both exact
    forms with their per-warp and per-CTA counts over both rounds."""
    case = next(c for c in CONVERT if c["id"] == "blocked-021")
    write, read, bars = measured_directions(case)
    (wform, wcount), = write.items()
    (rform, rcount), = read.items()
    assert wform == "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16"
    code, out, err = run(["convert", "-r", case["src"], "-d", case["dst"], "-t", tensor(case)])
    assert code == 0, err
    w = case["num_warps"]
    assert f"(store {wform}, load {rform}), {bars['bar.sync']} barriers (bar.sync)" in out
    assert f"store         {wcount} x {wform} per warp, {wcount * w} per CTA; " in out
    assert f"load          {rcount} x {rform} per warp, {rcount * w} per CTA; " in out
    assert "store v4 (stmatrix.trans) with 0 conflicts" in out.splitlines()[0]


IN_WARP = [c for c in CASES if c["kind"] == "convert" and c["note"] == "in-warp transpose"
           and c["target"].startswith("gfx")]


@pytest.mark.parametrize("case", IN_WARP, ids=[c["id"] for c in IN_WARP])
def test_amd_in_warp_exchange_counts_no_barrier(case):
    """golden/shared_access convert-gfx942/gfx950 "in-warp transpose": ds_write / ds_read and no s_barrier."""
    assert not case["barriers"]
    code, out, err = run(["convert", "-r", case["write"], "-d", case["read"], "-t", tensor(case), "--target",
                          case["target"]])
    assert code == 0, err
    (wform, wcount), (rform, rcount) = compiled(case, "write"), compiled(case, "read")
    per_thread = next(line for line in out.splitlines() if line.startswith("per thread"))
    assert per_thread == (f"per thread    0 shuffles, {wcount} shared stores ({wform}), {rcount} shared loads "
                          f"({rform}), 0 barriers")
    assert "st.shared" not in out and "ld.shared" not in out
    assert f"store v1 ({wform})" in out.splitlines()[0]


# ----------------------------------------------------------------------------------------- swizzle


def swizzle_json(write: str, read: str, ttype: str, target: str = "sm90") -> dict:
    code, out, err = run(["swizzle", "-r", write, "-d", read, "-t", ttype, "--target", target, "--json"])
    assert code == 0, err
    return json.loads(out)


def test_swizzle_never_proposes_a_faulting_padding():
    """golden issue-013: [64:+2] under 8 f16 per thread compiles to a misaligned st.shared.v4.b32.  The best
    padding for that layout keeps the compiled vector's 16-byte alignment: a padding of a multiple of 8 f16."""
    case = next(c for c in CASES if c["note"] == "faulting: [64:+2] f16 with st.shared.v4")
    (form, _), = canonical(case["write_ops"]).items()
    vec_bytes = 16 if form.endswith(".v4.b32") else None
    obj = swizzle_json(case["write"], case["read"], tensor(case))
    best = obj["on_the_gpu"]["best_padding"]
    assert best is not None and obj["on_the_gpu"]["paddings_priced"] > 0
    (interval, pad), = best["padding"]
    assert pad * 2 % vec_bytes == 0
    assert best["write"]["instruction"] == form
    attr = parse_attribute(best["layout"])
    assert (tuple(attr.intervals), tuple(attr.paddings)) == ((interval,), (pad,))


def test_swizzle_lists_the_row_plus_one_padding_beside_the_swizzle():
    """The 32x32 f32 column read (golden issue-002: [32:+1] compiles to 8 st.shared.b32 and 8 ld.shared.b32 per
    warp): the best padding costs the ideal 32 + 32 wavefronts (one per instruction, hand-worked), as does the
    suggested swizzle; the suggestion is unchanged, the padding an alternative row with a note."""
    case = next(c for c in CASES if c["id"] == "issue-002")
    code, out, err = run(["swizzle", "-r", case["write"], "-d", case["read"], "-t", tensor(case)])
    assert code == 0, err
    assert out.startswith("#ttg.swizzled_shared<") or out.startswith("#ttg.shared_linear<")
    obj = swizzle_json(case["write"], case["read"], tensor(case))
    best = obj["on_the_gpu"]["best_padding"]
    assert best["padding"] == [[32, 1]]
    assert (best["write"]["instructions_per_warp"], best["read"]["instructions_per_warp"]) == (8, 8)
    assert (best["wavefronts_total"], best["ideal_wavefronts_total"]) == (64, 64)
    assert obj["suggestion"] == out.splitlines()[0] and obj["kind"] != "padded_shared"
    assert "on the GPU, per CTA" in out and "padding [32:+1]" in out
    assert "best padding = #ttg.padded_shared<[32:+1]" in out
    assert "note: padding is usable only for a buffer you allocate" in out


def test_a_padding_cheaper_than_the_suggestion_is_said_so():
    """compare_on_gpu's note when the padding wins on the GPU: a suggestion replaced by the unswizzled layout
    (32 wavefronts per column read) against [32:+1] (1)."""
    from linlayout_cli.analysis.swizzle import analyze_swizzle, compare_on_gpu, hardware_order, swizzled_offsets
    from linlayout_cli.analysis.targets import get_target
    from linlayout_cli.notebook import linear_layout
    from linlayout_cli.records import replace
    row = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>"
    w, r = linear_layout(row, [32, 32], "distributed", "w"), linear_layout(COLUMN, [32, 32], "distributed", "r")
    s = analyze_swizzle(w, r, 32, get_target("sm90"))
    plain = tuple(swizzled_offsets([32, 32], 1, 1, 1, hardware_order(w)))
    g = compare_on_gpu(w, r, 32, get_target("sm90"), replace(s, offsets=plain, attr_text=s.baseline_text))
    assert g.suggested.wavefronts_total == g.unswizzled.wavefronts_total > g.padding.wavefronts_total == 64
    assert g.note.startswith("on the GPU the best padding beats the suggested swizzle (64 against ")


# ----------------------------------------------------------------------------------------- start-up


@pytest.mark.parametrize("args", [
    ["bank", "-r", COLUMN, "-s", "#ttg.padded_shared<[32:+1] {order = [1, 0], shape = [32, 32]}>", "-t",
     "tensor<32x32xf32>", "--json"],
    ["bank", "-r", COLUMN, "-s", "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", "-t",
     "tensor<32x32xf32>"],
    ["convert", "-r", COLUMN, "-d", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = "
     "[4, 1], order = [1, 0]}>", "-t", "tensor<32x32xf16>"],
    ["swizzle", "-r", COLUMN, "-t", "tensor<32x32xf32>"],
], ids=["bank-padded", "bank", "convert", "swizzle"])
def test_no_numpy_import(args):
    """The shared-access model is plain Python: these commands start without numpy (60-100 ms to import)."""
    code = ("import sys\nfrom linlayout_cli.cli import run\n"
            f"c, o, e = run({args!r})\nassert c == 0, e\nprint('numpy' in sys.modules)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"
