"""`ttlayout advise` against Triton 3.9's compiler: every change it proposes for the test kernels was compiled
(golden/advise, `python -m scripts.golden.advise`), Triton accepted it, and the compiler's change in counts equals
the predicted one, or the difference is the one docs/advise_model.md documents for that case. Also: the patched
dump differs from the input in the changed alias definitions only, the search's constraints, the command line, the
Python API, and the ranking of the three layout changes timed on an H200
(/work/shared/calibration/h200-layout-changes.md, transcribed in docs/advise_model.md)."""
from __future__ import annotations

import json
import re

import pytest
from golden_cases import DATA, ROOT

from linlayout_cli import advise
from linlayout_cli.analysis import advise as model
from linlayout_cli.cli import run
from linlayout_cli.reports.advise import fixed_text, refusal_words, tradeoffs

KERNELS = DATA / "kernels"
GOLDEN = ROOT / "golden" / "advise"
DOC = ROOT / "docs" / "advise_model.md"
CLASSES = ("shared_loads", "shared_stores", "shuffles", "barriers", "global_loads", "global_stores", "shared_bytes")


def golden_cases() -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / "cases.jsonl").read_text().splitlines()]


CHANGED = [c for c in golden_cases() if c["change"]]


@pytest.fixture(scope="module")
def advice() -> dict:
    """Today's advice for every dump the golden suite has a change for."""
    return {c["id"]: advise(str(KERNELS / f"{c['id']}.ttgir")) for c in CHANGED}


def documented_exceptions() -> dict:
    """{(case, class): (predicted, compiled)} from the table between the markers in docs/advise_model.md."""
    text = DOC.read_text()
    table = text.split("<!-- exceptions -->", 1)[1].split("<!-- end exceptions -->", 1)[0]
    out = {}
    for row in table.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) >= 4 and re.fullmatch(r"[+-]?\d+", cells[2] or "x"):
            out[(cells[0].strip("`"), cells[1].strip("`"))] = (int(cells[2]), int(cells[3]))
    return out


# ----------------------------------------------------------------------------------------- against the compiler


def test_the_golden_suite_covers_every_dump_and_has_changes():
    ids = {c["id"] for c in golden_cases()}
    assert ids == {p.name[:-len(".ttgir")] for p in KERNELS.glob("*.ttgir")}
    assert len(CHANGED) >= 10


def test_triton_accepted_every_proposal():
    rejected = [(c["id"], c.get("error")) for c in CHANGED if not c["accepted"]]
    assert rejected == []


@pytest.mark.parametrize("case", CHANGED, ids=[c["id"] for c in CHANGED])
def test_todays_change_is_the_one_compiled(case, advice):
    """The patched dump advise writes today is byte for byte the one Triton compiled (else regenerate)."""
    assert advice[case["id"]].patched() == (GOLDEN / case["patched"]).read_text()


def test_a_dump_without_a_compiled_change_gets_none_today():
    """A change advise proposes today was compiled too (else regenerate: python -m scripts.golden.advise)."""
    unchanged = [c["id"] for c in golden_cases() if not c["change"]]
    assert [i for i in unchanged if advise(str(KERNELS / f"{i}.ttgir")).modules[0].changes] == []


@pytest.mark.parametrize("case", CHANGED, ids=[c["id"] for c in CHANGED])
def test_predicted_change_in_counts_is_the_compilers(case, advice):
    change = advice[case["id"]].changes[0]
    exceptions = documented_exceptions()
    before, after = case["compiled_before"], case["compiled_after"]
    for k in CLASSES:
        predicted = change.totals_after[k] - change.totals_before[k]
        compiled = after[k] - before[k]
        documented = exceptions.get((case["id"], k))
        if documented is None:
            assert predicted == compiled, (k, predicted, compiled)
        else:
            assert (predicted, compiled) == documented, (k, predicted, compiled)


def test_every_documented_exception_is_a_real_difference(advice):
    """No stale row: each documented (case, class) differs today exactly as the table says."""
    cases = {c["id"]: c for c in CHANGED}
    for (cid, k), (predicted, compiled) in documented_exceptions().items():
        c = cases[cid]
        change = advice[cid].changes[0]
        assert change.totals_after[k] - change.totals_before[k] == predicted != compiled
        assert c["compiled_after"][k] - c["compiled_before"][k] == compiled


def test_the_patch_changes_only_the_alias_definitions(advice):
    for c in CHANGED:
        original = (KERNELS / f"{c['id']}.ttgir").read_text().splitlines(keepends=True)
        patched = advice[c["id"]].patched().splitlines(keepends=True)
        assert len(original) == len(patched)
        changed = [(a, b) for a, b in zip(original, patched) if a != b]
        names = {a["alias"] for a in c["change"]["aliases"]}
        assert {a.split(" =", 1)[0] for a, _ in changed} == names
        for a, b in changed:
            assert a.split("=", 1)[0] == b.split("=", 1)[0]


def test_crlf_and_other_bytes_are_kept(tmp_path):
    text = (KERNELS / "reduce_sum_axis1_wide.sm90.ttgir").read_text().replace("\n", "\r\n")
    source = tmp_path / "k.ttgir"
    source.write_bytes(text.encode())
    out = tmp_path / "p.ttgir"
    assert run(["advise", str(source), "--write", str(out)])[0] == 0
    patched = out.read_bytes().decode()
    assert patched.count("\r\n") == text.count("\r\n")
    diff = [(a, b) for a, b in zip(text.split("\r\n"), patched.split("\r\n")) if a != b]
    assert len(diff) == 1 and diff[0][0].startswith("#blocked1 = ") and diff[0][1].startswith("#blocked1 = ")


# ----------------------------------------------------------------------------------------- the search


def test_aliases_a_transpose_or_a_dot_fixes_are_not_changed():
    a = advise(str(KERNELS / "transpose_copy.sm90.ttgir")).modules[0]
    assert a.changes == () and a.candidates_priced == 0
    assert [n for n, _ in a.ineligible] == ["blocked", "blocked1"]
    assert all(why.op == "tt.trans" and "tt.trans at line" in fixed_text(why) for _, why in a.ineligible)
    m = advise(str(KERNELS / "matmul_epilogue_transpose.sm90.ttgir")).modules[0]
    assert fixed_text(dict(m.ineligible)["mma"]).startswith(
        "it is an operand or the accumulator layout of ttng.warp_group_dot")


def test_a_cp_async_narrower_than_four_bytes_is_refused():
    """Triton 3.9 asserts in LoadStoreOpToLLVM on such a copy (seen while building this suite)."""
    a = advise(str(KERNELS / "matmul_epilogue_transpose.sm90.ttgir")).modules[0]
    assert any(isinstance(why, model.Refusal) and why.bits == 16 for _, _, why in a.refused)   # a record ...
    assert any("cp.async would move 16 bits per lane" in refusal_words(why) for _, _, why in a.refused)  # worded
    assert all("cp.async" not in t for c in a.changes for t in tradeoffs(c))


def test_a_broadcast_between_two_aliases_ties_them():
    """`tt.broadcast` from #blocked1 to #blocked2 (gfx942 epilogue): Triton requires matching layouts up to
    broadcasting, so neither may change alone (Triton rejected such a change while this suite was built)."""
    a = advise(str(KERNELS / "matmul_epilogue_transpose.gfx942.ttgir")).modules[0]
    why = {n: fixed_text(f) for n, f in a.ineligible}
    assert "tt.broadcast at line" in why["blocked1"] and "tt.broadcast at line" in why["blocked2"]


def test_the_search_is_deterministic_and_bounded():
    path = str(KERNELS / "fp8_matmul.sm80.ttgir")
    assert advise(path).json() == advise(path).json()
    a = advise(path).modules[0]
    aliases = len(model.usages(_module(path)))
    assert a.candidates_priced + len(a.refused) <= aliases * model.MAX_CANDIDATES + model.MAX_PAIRS


def _module(path):
    from linlayout_cli.parsing.module import read_module
    return read_module(open(path).read())


def test_coalesced_blocked_is_tritons_default_layout():
    """The layouts Triton chose for these loads (the dumps' #blocked) come out of the same rule."""
    assert str(model.coalesced_blocked((64, 64), (1, 0), 4, 4, 32)) == \
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>"
    assert str(model.coalesced_blocked((128, 64), (1, 0), 8, 8, 32)) == \
        "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>"
    assert str(model.coalesced_blocked((64, 128), (1, 0), 8, 8, 64)) == \
        "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [8, 1], order = [1, 0]}>"


# ----------------------------------------------------------------------------------------- calibration


# The three changes timed on an H200 (docs/advise_model.md, "Calibration"), in the cost model's terms, per warp:
# shared wavefronts and barriers removed (the compiled PTX's counts), and the store's instructions and 32-byte
# sectors per warp instruction before -> after. Times: x0.45, x1.19, x3.60.
CALIBRATION = {
    "matmul epilogue, store in the accumulator's layout": dict(shared=8 + 8, barriers=15, store=((64, 16), (64, 4))),
    "fp8 matmul, store in the accumulator's layout": dict(shared=8 + 8, barriers=1, store=((8, 16), (32, 8))),
    # 16 sectors after: the address model (two rows' 4 bytes share a sector; tests/analysis/test_global_sectors.py)
    "transpose copy, store in the load's layout": dict(shared=32 + 32, barriers=1, store=((8, 16), (32, 16))),
}


def saving(shared: int, barriers: int, store) -> float:
    w = model.WEIGHTS
    (n0, s0), (n1, s1) = store
    return (w.wavefront * shared + w.barrier * barriers
            + n0 * (w.global_instruction + w.sector * s0) - n1 * (w.global_instruction + w.sector * s1))


def test_the_weights_rank_the_timed_changes_as_the_gpu_did():
    s = [saving(**row) for row in CALIBRATION.values()]
    assert s[0] > 0 > s[1] > s[2]


def test_the_fp8_epilogue_change_the_gpu_found_slower_is_priced_below_zero():
    """fp8_matmul.sm90: the C store layout becomes the wgmma accumulator's (the H200 timed it x1.19): the convert
    goes, the stores narrow from 128 to 32 bits; advise prices it below zero and does not propose it."""
    path = KERNELS / "fp8_matmul.sm90.ttgir"
    module = _module(str(path))
    from linlayout_cli.analysis.audit import Memo
    pricer = model.Pricer(module, None, Memo())
    mma = module.aliases["mma"]
    audit = pricer.price((model.Candidate("blocked2", mma, "test"),))
    assert model.kernel_cost(audit) > model.kernel_cost(pricer.base)
    ops, _ = model.touched(pricer.base, audit, {"blocked2"})
    store = next(o for o in ops if o.op == "tt.store")
    assert (store.before["vector_bits"], store.after["vector_bits"]) == (128, 32)
    assert advise(str(path)).changes == ()


def test_the_epilogue_change_keeps_the_stores_wide():
    """matmul_epilogue_transpose.sm90: the proposed change removes barriers and keeps 128-bit stores."""
    c = advise(str(KERNELS / "matmul_epilogue_transpose.sm90.ttgir")).changes[0]
    assert c.saving > 0 and c.totals_after["barriers"] < c.totals_before["barriers"]
    assert all(o.op != "tt.store" for o in c.ops)


# ----------------------------------------------------------------------------------------- command line and API


def test_json_shape():
    code, out, err = run(["advise", str(KERNELS / "reduce_sum_axis1_wide.sm90.ttgir"), "--json"])
    assert code == 0 and not err
    d = json.loads(out)
    assert {"kernel", "target", "changes", "candidates_priced"} <= d.keys()
    assert d["kernel"] == "reduce_sum_axis1_wide" and d["target"] == "sm90"
    c = d["changes"][0]
    assert {"alias", "before", "after", "gluon", "ops", "totals_before", "totals_after"} <= c.keys()
    assert c["alias"] == "#blocked1" and c["gluon"].startswith("ttgl.SliceLayout(dim=1, parent=ttgl.BlockedLayout(")
    assert {"shared_loads", "shared_stores", "shuffles", "barriers", "shared_bytes"} <= c["totals_before"].keys()
    assert all({"op", "line", "loc", "before", "after"} <= o.keys() for o in c["ops"])


def test_nothing_helps_says_so_with_the_count(tmp_path):
    out = tmp_path / "p.ttgir"
    code, text, err = run(["advise", str(KERNELS / "vector_add.sm90.ttgir"), "--write", str(out)])
    assert code == 0
    assert "no layout change lowers the cost: 1 candidate priced, none cheaper" in text
    assert "nothing written" in text and not out.exists()


def test_write_never_overwrites_the_input(tmp_path):
    source = tmp_path / "k.ttgir"
    source.write_text((KERNELS / "reduce_sum_axis0.sm90.ttgir").read_text())
    code, out, err = run(["advise", str(source), "--write", str(source)])
    assert code == 1 and "writing it would destroy the input" in err
    assert source.read_text() == (KERNELS / "reduce_sum_axis0.sm90.ttgir").read_text()


def test_write_dir_and_change_number(tmp_path):
    path = KERNELS / "reduce_sum_axis0.sm90.ttgir"
    assert run(["advise", str(path), "--write-dir", str(tmp_path)])[0] == 0
    assert (tmp_path / path.name).read_text() == advise(str(path)).patched()
    code, out, err = run(["advise", str(path), "--write-dir", str(tmp_path), "--write", "x"])
    assert code == 1 and "not both" in err
    code, out, err = run(["advise", str(path), "--change", "99", "--write", str(tmp_path / "y")])
    assert code == 1 and "--change 99" in err and not (tmp_path / "y").exists()


def test_stdin_and_python_sources():
    text = (KERNELS / "reduce_sum_axis0.sm90.ttgir").read_text()
    code, out, _ = run(["advise", "-", "--json"], stdin=text)
    assert code == 0 and json.loads(out)["file"] == "standard input"
    from_text, from_path = advise(text), advise(str(KERNELS / "reduce_sum_axis0.sm90.ttgir"))
    assert from_text.patched() == from_path.patched() != text

    class Compiled:                                  # the shape of triton.compiler.CompiledKernel
        asm = {"ttgir": text}
        metadata = {"name": "reduce_sum_axis0"}
    assert advise(Compiled()).patched() == from_path.patched()
    assert advise(Compiled()).text().startswith("ttlayout advise ")
