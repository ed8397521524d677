"""A loop's first iteration that LLVM peeled, read from the block names LLVM writes in the assembly
(`$L__BB0_6: // %.peel.next`, `; %bb.14: ; %.peel.next`): the assembly column counts the peeled copy apart,
compares the model's per-iteration counts with the assembly's net of it, and shows it.

Test data: tests/data/peel/ holds Triton 3.9's whole PTX of matmul_kloop.sm100 and AMDGCN of fp8_matmul.gfx942
(written by scripts/peel_samples.py) with the independent script's counts of their peeled global instructions
(`samples.json`, scripts/asm_counts.py); tests/data/cache_global_lines.json has the same for the real cache."""
from __future__ import annotations

import json

import pytest
from golden_cases import DATA

from linlayout_cli.analysis.asm import ASM_CLASSES, kernel_asm
from linlayout_cli.analysis.audit import analyze_audit
from linlayout_cli.cli import run
from linlayout_cli.parsing.asm import read_asm
from linlayout_cli.parsing.module import read_modules

PEEL = DATA / "peel"
SAMPLES = json.loads((PEEL / "samples.json").read_text())["samples"]
CACHE = json.loads((DATA / "cache_global_lines.json").read_text())["entries"]
LOADS = ("ld.global ", "global_load ", "buffer_load ")     # the forms in the product's global_loads class


def global_loads(forms: dict) -> dict:
    """{bits: n} of the load forms of an asm_counts.global_line_counts entry ('global_load 128': 4 -> {128: 4})."""
    out: dict = {}
    for form, n in forms.items():
        if form.startswith(LOADS):
            bits = int(form.rsplit(" ", 1)[1])
            out[bits] = out.get(bits, 0) + n
    return out


def by_line(counts: dict) -> dict:
    return {int(k.rsplit(":", 1)[1]): v for k, v in counts.items()}


@pytest.mark.parametrize("file", sorted(SAMPLES))
def test_the_peeled_copy_is_the_independent_scripts(file):
    listing = read_asm((PEEL / file).read_text())
    want = {line: global_loads(forms) for line, forms in by_line(SAMPLES[file]["peeled"]).items()}
    got = {line: dict(c.global_load_bits) for line, c in listing.peeled.items() if c.global_loads}
    assert got == want and want                        # both peeled samples have one
    for line, forms in by_line(SAMPLES[file]["lines"]).items():
        assert dict(listing.at(line).global_load_bits) == global_loads(forms) or not global_loads(forms)


@pytest.mark.parametrize("key", sorted(CACHE))
def test_the_real_caches_peeled_loops_are_the_independent_scripts(key):
    entry = CACHE[key]
    listing = read_asm((DATA / "cache" / entry["asm"]).read_text())
    want = {line: global_loads(forms) for line, forms in by_line(entry["peeled"]).items()}
    assert {line: dict(c.global_load_bits) for line, c in listing.peeled.items() if c.global_loads} == want


def test_peeled_cache_kernels_agree_per_iteration_in_every_class():
    # the three stream-pipelined gfx942 matmuls of the cache: with the peeled copy netted out, every line agrees in
    # every class (shared loads and stores and barriers too: fp8_matmul line 19 is ld 32/48, st 8/12, bar 3/5,
    # gld 8/12 in total, of which ld 16, st 4, bar 2, gld 4 are the peeled iteration)
    seen = set()
    for entry in CACHE.values():
        if not entry["peeled"]:
            continue
        listing = read_asm((DATA / "cache" / entry["asm"]).read_text())
        (m,) = analyze_audit(read_modules((DATA / "cache" / entry["ttgir"]).read_text()))
        asm = kernel_asm(m, listing)
        assert asm.disagreeing == (), [(c.line, c.differences()) for c in asm.disagreeing]
        seen |= {(entry["kernel"], c.line) for c in asm.lines if c.peeled}
    assert seen == {("fp8_matmul", 19), ("matmul_epilogue_transpose", 19), ("matmul_pipelined", 19),
                    ("matmul_pipelined", 20)}
    fp8 = next(e for e in CACHE.values() if e["kernel"] == "fp8_matmul" and e["target"] == "gfx942")
    check = kernel_asm(analyze_audit(read_modules((DATA / "cache" / fp8["ttgir"]).read_text()))[0],
                       read_asm((DATA / "cache" / fp8["asm"]).read_text())).check(19)
    assert check.peeled == {"shared_loads": 16, "shared_stores": 4, "barriers": 2, "global_loads": 4}
    assert (check.asm["global_loads"], check.model["global_loads"]) == (12, 8)


def test_text_and_json_show_the_peeled_copy():
    ttgir, asm = DATA / "kernels" / "fp8_matmul.gfx942.ttgir", PEEL / "fp8_matmul.gfx942.amdgcn"
    code, out, err = run(["audit", str(ttgir), "--asm", str(asm)])
    assert code == 0 and not err
    (load,) = [ln for ln in out.splitlines() if " 79 " in ln and "tt.load" in ln]
    assert load.endswith("ld 32/32, st 8/8, bar 3/3, gld 8/8 (+ld 16, st 4, bar 2, gld 4 in a peeled first iteration)")
    assert "AMDGCN: 2 of 2 Python lines agree with the model" in out
    assert "peeled        line 19 (+ld 16, st 4, bar 2, gld 4 in a peeled first iteration)" in out
    code, out, err = run(["audit", str(ttgir), "--asm", str(asm), "--json"])
    d = json.loads(out)
    (row,) = [op for op in d["modules"][0]["ops"] if op["line"] == 79] if "modules" in d else \
        [op for op in d["ops"] if op["line"] == 79]
    assert row["asm"]["global_loads"] == 12 and row["asm"]["peeled"] == {"shared_loads": 16, "shared_stores": 4,
                                                                         "barriers": 2, "global_loads": 4}
    module_asm = (d["modules"][0] if "modules" in d else d)["asm"]
    assert module_asm["peeled"] == [{"line": 19, "peeled": row["asm"]["peeled"], "agrees": True}]
    assert module_asm["lines_agreeing"] == module_asm["lines_compared"]


def test_ptx_peel_of_the_k_loop():
    # matmul_kloop on sm100: LLVM peels the K loop for the MMA's accumulate flag; the loads of lines 19 and 20
    # appear twice (in `.lr.ph` and in the loop whose header is `%.peel.next`); the loop's latch, placed before the
    # header (`in Loop: Header=BB0_6 Depth=1`), is no part of the copy
    listing = read_asm((PEEL / "matmul_kloop.sm100.ptx").read_text())
    assert dict(listing.at(19).global_load_bits) == {128: 8} and dict(listing.peeled_at(19).global_load_bits) == {128: 4}
    assert dict(listing.at(20).global_load_bits) == {128: 4} and dict(listing.peeled_at(20).global_load_bits) == {128: 2}
    (m,) = analyze_audit(read_modules((DATA / "kernels" / "matmul_kloop.sm100.ttgir").read_text()))
    asm = kernel_asm(m, listing)
    for line in (19, 20):
        check = asm.check(line)
        assert check.agrees and check.model["global_loads"] == check.net("global_loads") == check.asm["global_loads"] // 2


@pytest.mark.parametrize("file", sorted(SAMPLES))
def test_without_the_block_names_nothing_is_netted(file):
    # the peel is read from the assembly's own words only: with LLVM's `%.peel.next` comment gone, the copy is no
    # longer recognised and the peeled lines differ again (the model counts one iteration)
    text = (PEEL / file).read_text()
    bare = text.replace("%.peel.next.preheader", "%.preheader").replace("%.peel.next", "%.next")
    listing = read_asm(bare)
    assert listing.peeled == {}
    (m,) = analyze_audit(read_modules((DATA / "kernels" / SAMPLES[file]["ttgir"]).read_text()))
    asm = kernel_asm(m, listing)
    # every line with a peeled copy (matmul_kloop's line 21 too: the dot's barriers, 7 in the text, 3 of them peeled,
    # the model's 4 per iteration) differs without it, and agrees with it
    peeled = read_asm(text).peeled
    assert set(by_line(SAMPLES[file]["peeled"])) <= set(peeled)
    assert {c.line for c in asm.disagreeing} == set(peeled)
    assert kernel_asm(m, read_asm(text)).disagreeing == ()
    assert all(c.model[k] <= c.asm[k] for c in asm.disagreeing for k in ASM_CLASSES)
