"""The CPU side of benchmarks/gpu/compare_advice.py (the GPU route of issue 30): its arguments, the kernel
signature it reads from a dump, the check of buffers against it, Nsight Compute's CSV and the result's shape.
The GPU side needs a GPU, Triton and PyTorch; none of them is imported here."""
from __future__ import annotations

import doctest
import importlib.util
import sys

import pytest
from golden_cases import DATA, ROOT


def script():
    spec = importlib.util.spec_from_file_location("compare_advice", ROOT / "benchmarks/gpu/compare_advice.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["compare_advice"] = module
    spec.loader.exec_module(module)
    return module


def test_doctests_and_no_gpu_import_at_module_level():
    m = script()
    assert doctest.testmod(m).failed == 0
    text = (ROOT / "benchmarks/gpu/compare_advice.py").read_text()
    assert "\nimport torch" not in text and "\nimport triton" not in text


def test_arguments_and_signature_of_the_first_calibration_kernel():
    m = script()
    args = m.parse_args(["k.ttgir", "--grid", "32,64", "--buffer", "a_ptr=f16:4096*32", "--arg", "M=4096",
                         "--arg", "eps=1e-5"])
    assert args.grid == (32, 64, 1) and args.buffer == [("a_ptr", "f16", 131072)]
    assert dict(args.arg) == {"M": 4096, "eps": 1e-5} and args.target == "sm90" and args.batches == 20
    sig = m.signature((DATA / "calibration" / "mte_blocked2.base.ttgir").read_text())
    assert sig[0] == ("a_ptr", "!tt.ptr<f16>") and ("K", "i32") in sig and len(sig) == 10
    problems = m.check_arguments(sig, {"a_ptr": ("f16", 1), "zz": ("f16", 1)}, {"M": 1})
    assert "pointer argument b_ptr needs --buffer b_ptr=DTYPE:NUMEL" in problems
    assert "--buffer zz: the kernel has no such argument" in problems
    assert "scalar argument N needs --arg N=VALUE" in problems


@pytest.mark.parametrize("bad", [["k", "--grid", "0"], ["k", "--grid", "1", "--buffer", "a=f99:4"],
                                 ["k", "--grid", "1", "--arg", "n"]])
def test_bad_arguments_are_refused(bad):
    with pytest.raises(SystemExit):
        script().parse_args(bad)


def test_result_shape():
    m = script()
    args = m.parse_args(["k.ttgir", "--grid", "4"])
    base = {"median_us": 80.0, "batch_us": [80.0], "sectors": {"ld": 1, "st": 8}}
    variant = {"median_us": 36.0, "batch_us": [36.0], "sectors": {"ld": 1, "st": 2}}
    r = m.result_json(args, "v.ttgir", base, variant, True, "H200", "3.9.0")
    assert r["ratio"] == pytest.approx(0.45) and r["identical"] is True and r["grid"] == [4, 1, 1]
    assert set(r) == {"dump", "variant", "target", "grid", "reps", "batches", "device", "triton_version",
                      "identical", "base", "variant_result", "ratio"}
