"""The second hostile probe (issue 32, part B), one test per class of input: a file of the wrong kind, output that
could be lost or clobbered, completion, the Python API and misleading messages. Each class is tried on every
member the probe found and on generated ones (Hypothesis where the class is open-ended)."""
from __future__ import annotations

import os
import shutil

import pytest
from golden_cases import DATA

from linlayout_cli.cli import run

CACHE_ENTRY = DATA / "cache" / "2HFOXRNAP2OZVNPB3R4FVRZPGPQN6H4FSJVZUQF7SURL53CKHIFQ"


# ----------------------------------------------------------------------------------------- B.1 wrong kind of file

PROSE = ("hello, this is not a kernel\n", "", "   \n\n", "#blocked = #ttg.blocked<{sizePerThread = [1], "
         "threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n", "// -----\nnotes about module layouts\n",
         "modules are great\n tt.funcs too\n")


@pytest.fixture
def cache_entry(tmp_path):
    for f in CACHE_ENTRY.iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


@pytest.mark.parametrize("command", ["audit", "advise"])
def test_every_file_triton_writes_beside_a_kernel_is_refused_by_audit_and_advise(cache_entry, command):
    others = [p for p in sorted(os.listdir(cache_entry)) if not p.endswith(".ttgir")]
    (cache_entry / "kernel.py").write_text("import triton\n@triton.jit\ndef k(x):\n    pass\n")
    assert len(others) >= 5
    for name in others + ["kernel.py"]:
        code, out, err = run([command, str(cache_entry / name)])
        assert code == 1 and out == "" and err.count("\n") == 1, (name, out[:200], err)
        assert ", not TTGIR;" in err and "0 candidates" not in err, (name, err)
    code, out, err = run([command, str(cache_entry / "fp8_matmul.ttgir")])
    assert code == 0, err


@pytest.mark.parametrize("command", ["audit", "advise"])
@pytest.mark.parametrize("text", PROSE)
def test_a_text_holding_no_module_is_refused_whatever_its_name(tmp_path, command, text):
    for name in ("x.ttgir", "x.mlir", "x.txt"):
        path = tmp_path / name
        path.write_text(text)
        for argv, stdin in (([command, str(path)], None), ([command, "-"], text)):
            code, out, err = run(argv, stdin=stdin)
            assert code == 1 and out == "" and err.startswith("ttlayout: error: "), (argv, out[:200], err)
            assert "not TTGIR" in err and err.count("\n") == 1, err


def test_a_cache_directory_does_not_rank_prose_as_a_kernel(cache_entry):
    (cache_entry / "notes.ttgir").write_text("hello\n")
    code, out, err = run(["audit", str(cache_entry), "--json"])
    import json
    report = json.loads(out)
    assert [k["kernel"] for k in report["kernels"]] == ["fp8_matmul"], report["kernels"]
    assert [f["name"].split("@")[0] for f in report["failures"]] == ["notes"], report["failures"]
