"""Every global access's vector width and instructions per thread against the compiled code, per Python line:
tests/data/kernels/global_lines.json holds, for each of the 100 dumps of tests/data/kernels, the global load,
store, atomic and cp.async instructions of Triton 3.9's PTX / AMDGCN by form and width, attributed to Python lines
by scripts/asm_counts.py (independent of linlayout_cli). The audit's rows of each line, summed, must give the same
forms and counts; the only differences are LLVM peeling a loop's first iteration (the TTGIR does not decide it),
listed below with both sides exactly."""
from __future__ import annotations

import collections
import json

import pytest
from golden_cases import DATA

from linlayout_cli.analysis.asm import python_line
from linlayout_cli.analysis.audit import analyze_audit
from linlayout_cli.parsing.module import read_modules

LINES = json.loads((DATA / "kernels" / "global_lines.json").read_text())["dumps"]

NVIDIA = {"tt.load": "ld.global", "tt.store": "st.global", "ttg.async_copy_global_to_local": "cp.async",
          "tt.atomic_rmw": "atom.global", "tt.atomic_cas": "atom.global"}
AMD = {"tt.load": "global_load", "tt.store": "global_store", "amdg.buffer_load": "buffer_load",
       "amdg.buffer_store": "buffer_store", "ttg.async_copy_global_to_local": "global_load_lds",
       "tt.atomic_rmw": "global_atomic", "tt.atomic_cas": "global_atomic"}

# (dump, Python line) -> (model, assembly): LLVM peels the first iteration of these loops, so the loop's loads
# appear 1.5 times (the stream-pipelined gfx942 matmuls) or twice (matmul_kloop on sm100: `%.peel.next` in the PTX)
PEELED = {
    ("fp8_matmul.gfx942.ttgir", 19): ({"global_load 128": 8}, {"global_load 128": 12}),
    ("matmul_epilogue_transpose.gfx942.ttgir", 19): ({"global_load 128": 8}, {"global_load 128": 12}),
    ("matmul_pipelined.gfx942.ttgir", 19): ({"global_load 128": 4}, {"global_load 128": 6}),
    ("matmul_pipelined.gfx942.ttgir", 20): ({"global_load 128": 4}, {"global_load 128": 6}),
    ("matmul_kloop.sm100.ttgir", 19): ({"ld.global 128": 4}, {"ld.global 128": 8}),
    ("matmul_kloop.sm100.ttgir", 20): ({"ld.global 128": 2}, {"ld.global 128": 4}),
}


def model_lines(name: str, entry: dict) -> dict:
    """Python line -> {form: instructions per thread} of the audit's global rows (and cp.async rows)."""
    forms = NVIDIA if entry["kind"] == "ptx" else AMD
    (m,) = analyze_audit(read_modules((DATA / "kernels" / name).read_text()))
    out: dict = collections.defaultdict(collections.Counter)
    for f in m.findings:
        bits = getattr(f.facts, "vector_bits", None)
        if f.op in forms and bits is not None:
            line = python_line(f.frames, f.loc, entry["source"])
            out[line][f"{forms[f.op]} {bits}"] += f.facts.instructions_per_thread
    return {line: dict(c) for line, c in out.items()}


@pytest.mark.parametrize("name", sorted(LINES))
def test_each_global_access_is_the_compiled_one(name):
    entry = LINES[name]
    model = model_lines(name, entry)
    asm = {int(k.rsplit(":", 1)[1]): v for k, v in entry["lines"].items()}
    assert not entry["unattributed"]
    for line in sorted(set(model) | set(asm)):
        got = (model.get(line, {}), asm.get(line, {}))
        assert got[0] == got[1] or PEELED.get((name, line)) == got, (line, got)


def test_agreement_over_every_line():
    compared = sum(len(e["lines"]) for e in LINES.values())
    assert compared == 274 and (compared - len(PEELED)) / compared > 0.977
