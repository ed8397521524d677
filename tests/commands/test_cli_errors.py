"""Every input on which Triton 3.9's triton-tensor-layout aborts (SIGABRT, SIGFPE,
SIGSEGV, LLVM ERROR) or prints a diagnostic gives a clean ttlayout error: exit 1, nothing on stdout, one
stderr line `ttlayout: error: ...` (at most 300 characters) that names the problem. Also the size limits
(--max-elements, 2^31 elements, 64 layout bits, rank) and the option errors.

The golden error suite (tests/golden/test_golden.py, golden/errors) checks the same contract on Triton's own
failing inputs; this file pins the message of each known abort case and runs the abort classes through the
real executable, where a signal would show.
"""
from __future__ import annotations

import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest
from golden_cases import ROOT

from linlayout_cli.cli import run
from linlayout_cli.inputs import DEFAULT_MAX_ELEMENTS, HARD_MAX_ELEMENTS

B2 = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>"
SW = "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
MMA2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
NVMMA128 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
LIN = "#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = []}>"


def clean_error(argv, stdin=None):
    code, out, err = run(argv, stdin=stdin)
    assert code == 1, f"exit {code} for {argv!r}\nstdout: {out[:300]}\nstderr: {err[:300]}"
    assert out == "", out[:300]
    assert err.endswith("\n") and "\n" not in err[:-1], repr(err[:600])
    line = err[:-1]
    assert line.startswith("ttlayout: error: ") and len(line) <= 300 and "Traceback" not in line, line
    assert "internal error" not in line, line
    return line[len("ttlayout: error: "):]


# (case, argv, words the message must contain) - one row per input class on which Triton aborts or prints a
# diagnostic (docs/layouts-reference.md §8 lists them with Triton's behaviour), plus ttlayout's own limits
ABORT_CASES = [
    ("non-power-of-two dim, distributed", ["-l", B2, "-t", "tensor<3x4xf16>"], ["3", "power of two"]),
    ("non-power-of-two dim 6, distributed", ["-l", B2, "-t", "tensor<4x6xf16>"], ["6", "power of two"]),
    ("zero dim, distributed", ["-l", B2, "-t", "tensor<0x4xf16>"], ["0", "power of two"]),
    ("non-power-of-two dim, shared", ["-l", SW, "-t", "tensor<3x4xf16>"], ["3", "power of two"]),
    ("zero dim, shared", ["-l", SW, "-t", "tensor<4x0xf16>"], ["0", "power of two"]),
    ("dynamic dim, distributed", ["-l", B2, "-t", "tensor<?x4xf16>"], ["dynamic", "?"]),
    ("dynamic dim, shared", ["-l", SW, "-t", "tensor<?x4xf16>"], ["dynamic", "?"]),
    ("rank mismatch, blocked", ["-l", B2, "-t", "tensor<4x4x4xf16>"], ["rank 3", "rank 2"]),
    ("rank mismatch, nvidia_mma", ["-l", MMA2, "-t", "tensor<64xf16>"], ["rank 1", "rank 2"]),
    ("rank mismatch, swizzled rank 1 tensor", ["-l", SW, "-t", "tensor<16xf16>"], ["rank 1", "rank 2"]),
    ("rank mismatch, linear", ["-l", LIN, "-t", "tensor<4xf16>"], ["rank 1", "rank 2"]),
    ("rank-0 tensor", ["-l", B2, "-t", "tensor<f32>"], ["rank-0"]),
    ("unranked tensor", ["-l", B2, "-t", "tensor<*xf32>"], ["unranked"]),
    ("-t not a type", ["-l", B2, "-t", "garbage"], ["tensor type", "garbage"]),
    ("-t memref", ["-l", B2, "-t", "memref<4xf32>"], ["Invalid tensor type argument: memref<4xf32>"]),
    ("unknown attribute", ["-l", "#ttg.foo<{}>", "-t", "tensor<4xf16>"], ["unknown attribute", "foo"]),
    ("garbage attribute", ["-l", "garbage", "-t", "tensor<4xf16>"], ["column 1", "expected an attribute value"]),
    ("undefined alias", ["-l", "#blocked", "-t", "tensor<4xf16>"], ["undefined symbol alias id 'blocked'"]),
    ("non-layout attribute", ["-l", "#ttg.shared_memory", "-t", "tensor<4xf16>"],
     ["Unsupported tensor layout attribute", "#ttg.shared_memory"]),
    ("tensor memory tensor shorter than blockM (Triton: assert)",
     ["-l", "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>", "-t", "tensor<64x128xf32>"],
     ["smaller than", "repsM"]),
    ("padded_shared tensor shape differs from the layout's", ["-l", "#ttg.padded_shared<[32:+4] {order = [1, 0], "
                                                              "shape = [16, 16]}>", "-t", "tensor<32x16xf16>"],
     ["32x16", "16x16"]),
    ("partitioned_shared with fewer rows than pieces (Triton: assert)",
     ["-l", "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, "
            f"partitionLayout = {SW}}}>", "-t", "tensor<1x16xf16>"], ["pieces"]),
    ("nvmma box too small for the swizzle", ["-l", NVMMA128, "-t", "tensor<8x32xf16>"], ["TMA", "block shape"]),
    ("nvmma collapsed box smaller than the core matrix", ["-l", NVMMA128, "-t", "tensor<4x64xf16>"],
     ["Illegal shared layout", "collapsed"]),
    ("nvmma rank 1 with swizzle", ["-l", "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, "
                                   "elementBitWidth = 16, rank = 1}>", "-t", "tensor<64xf16>"], ["rank"]),
    ("shared_linear shape mismatch", ["-l", "#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>",
                                      "-t", "tensor<4x4xf16>"], ["shape", "2x2"]),
    ("nvidia_mma without instrShape", ["-l", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                       "warpsPerCTA = [2, 2]}>", "-t", "tensor<32x32xf16>"], ["instrShape"]),
    ("amd_mfma rank 3 without tilesPerWarp", ["-l", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 2, 2], "
                                              "instrShape = [32, 32], isTransposed = false}>",
                                              "-t", "tensor<2x64x64xf16>"], ["tilesPerWarp", "rank-3"]),
    ("linear layout not surjective", ["-l", "#ttg.linear<{register = [[0, 2]], lane = [[1, 0]], warp = [], "
                                      "block = []}>", "-t", "tensor<2x4xf16>"], ["surjective"]),
    ("64x4 mfma, isTransposed omitted (false)", ["-l", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], "
                                                "instrShape = [64, 4]}>", "-t", "tensor<128x8xf16>"],
     ["64x4", "transposed"]),
    ("nvmma swizzlingByteWidth omitted", ["-l", "#ttg.nvmma_shared<{transposed = false, elementBitWidth = 16}>",
                                          "-t", "tensor<64x64xf16>"], ["swizzlingByteWidth"]),
    ("nvmma elementBitWidth omitted", ["-l", "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false}>",
                                       "-t", "tensor<64x64xf16>"], ["elementBitWidth"]),
    ("swizzled perPhase = 0 (Triton: SIGFPE)", ["-l", SW.replace("perPhase = 1", "perPhase = 0"),
                                                "-t", "tensor<16x16xf16>"], ["perPhase = 0"]),
    ("swizzled maxPhase = 0 (Triton: SIGFPE)", ["-l", SW.replace("maxPhase = 4", "maxPhase = 0"),
                                                "-t", "tensor<16x16xf16>"], ["maxPhase = 0"]),
    ("rotating perPhase = 0 (Triton: SIGFPE)", ["-l", "#ttg.amd_rotating_shared<{vec = 2, perPhase = 0, "
                                                "maxPhase = 4, order = [1, 0]}>", "-t", "tensor<16x16xf16>"],
     ["perPhase = 0"]),
    ("rotating order not a permutation", ["-l", "#ttg.amd_rotating_shared<{vec = 2, perPhase = 1, maxPhase = 1, "
                                          "order = [1024, 0]}>", "-t", "tensor<16x16xf16>"], ["order", "permutation"]),
    ("64x4 mfma not transposed", ["-l", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [64, 4], "
                                  "isTransposed = false}>", "-t", "tensor<64x64xf16>"], ["64x4", "transposed"]),
    ("nvidia_mma v2 instrShape length != rank", ["-l", MMA2.replace("[16, 8]", "[16, 8, 16]"),
                                                 "-t", "tensor<32x32xf16>"], ["instrShape", "rank 2"]),
    ("slice without dim", ["-l", f"#ttg.slice<{{parent = {B2}}}>", "-t", "tensor<16xf16>"], ["dim"]),
    ("slice without parent", ["-l", "#ttg.slice<{dim = 0}>", "-t", "tensor<16xf16>"], ["column 6"]),
    ("huge shape over --max-elements", ["-l", B2, "-t", "tensor<65536x65536xf16>"],
     ["4294967296 elements", "--max-elements"]),
    ("huge shape over 2^31", ["-l", B2, "-t", "tensor<65536x65536xf16>", "--max-elements", str(1 << 40)],
     ["2^31"]),
    ("more than 64 layout bits", ["-l", "#ttg.linear<{register = [[1]], lane = [[2]], warp = ["
                                  + ", ".join(["[0]"] * 66) + "], block = []}>", "-t", "tensor<4xf16>"],
     ["too large", "64"]),
]


@pytest.mark.parametrize("argv,words", [(a, w) for _, a, w in ABORT_CASES], ids=[n for n, _, _ in ABORT_CASES])
def test_abort_case_is_a_clean_error(argv, words):
    message = clean_error(argv)
    for word in words:
        assert word in message, f"message does not mention {word!r}: {message}"


def test_one_by_one_tensor_with_128_threads_prints():
    # Triton prints this one: all 128 threads share the single element
    code, out, err = run(["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], "
                                "order = [1, 0]}>", "-t", "tensor<1x1xf16>"])
    assert code == 0 and not err
    assert out.splitlines()[1].startswith("[[  T0:0|  T1:0|") and out.endswith("|T127:0]]\n")


# The abort classes through the real executable: Triton dies by SIGABRT (134) / SIGFPE (136) here.
SIGNAL_CASES = [c for c in ABORT_CASES if any(k in c[0] for k in (
    "non-power-of-two dim, distributed", "zero dim, shared", "rank mismatch, blocked", "unranked", "perPhase = 0",
    "maxPhase = 0", "too small for the swizzle", "collapsed", "64x4", "slice without dim",
    "shorter than blockM", "fewer rows than pieces",
    "not surjective", "64 layout bits"))]


def _subprocess(argv):
    return subprocess.run([sys.executable, "-m", "linlayout_cli", *argv], capture_output=True, timeout=60, cwd=ROOT)


def test_abort_cases_in_a_real_process():
    assert len(SIGNAL_CASES) >= 12
    with ThreadPoolExecutor(max_workers=4) as pool:
        procs = list(pool.map(_subprocess, [a for _, a, _ in SIGNAL_CASES]))
    for (name, _argv, _words), proc in zip(SIGNAL_CASES, procs):
        assert proc.returncode == 1, f"{name}: exit {proc.returncode} (negative = killed by a signal)"
        assert proc.stdout == b""
        lines = proc.stderr.decode().splitlines()
        assert len(lines) == 1 and lines[0].startswith("ttlayout: error: "), (name, proc.stderr[:500])


# ---------------------------------------------------------------------------------------------
# limits
# ---------------------------------------------------------------------------------------------

def _peak_bytes(argv):
    tracemalloc.start()
    try:
        result = run(argv)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("argv,what", [
    (["-l", B2, "-t", "tensor<16384x8192xf16>"], "tensor has 134217728 elements"),
    (["-l", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [134217728], order = [0]}>",
      "-t", "tensor<1xf16>"], "hardware index space has 4294967296 elements"),
    (["-l", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [134217728], order = [0]}>",
      "-t", "tensor<1xf16>", "--use-hw-view"], "hardware index space has 4294967296 elements"),
    (["-l", "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = ["
      + ", ".join(["[0, 0]"] * 27) + "]}>", "-t", "tensor<1x2xf16>"], "hardware index space has 268435456 elements"),
])
def test_default_limit_refuses_before_allocating(argv, what):
    (code, out, err), peak = _peak_bytes(argv)
    assert code == 1 and not out and what in err, err
    assert f"the limit of {DEFAULT_MAX_ELEMENTS}" in err and "raise it with --max-elements N" in err, err
    assert peak < 16 * 1024 * 1024, f"{peak} bytes allocated before refusing"


def test_max_elements_option():
    small = ["-l", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>"]
    assert "tensor has 32 elements, more than the limit of 16" in clean_error(small + ["-t", "tensor<32xf16>",
                                                                                     "--max-elements", "16"])
    code, out, err = run(small + ["-t", "tensor<16xf16>", "--max-elements", "16"])
    assert code == 0 and out.startswith("Print layout attribute:")
    assert err.startswith("ttlayout: note: 4 lanes per warp")          # toy 4-lane warps: a note, no error
    code, out, _ = run(small + ["-t", "tensor<32xf16>", "--max-elements=32"])
    assert code == 0
    for bad in ("0", "-1", "abc", "1.5", "0x10", ""):
        assert "--max-elements" in clean_error(small + ["-t", "tensor<16xf16>", "--max-elements", bad])


def test_default_limit_keeps_the_output_near_a_gigabyte():
    # a rank-2 tensor view prints at most ~16 bytes per element
    assert DEFAULT_MAX_ELEMENTS * 16 <= 1.1e9 and HARD_MAX_ELEMENTS == 1 << 31
    code, out, _ = run(["--help"])
    assert code == 0 and "--max-elements" in out


def test_hard_limit_and_huge_values():
    assert "the hard limit is 2^31" in clean_error(["-l", B2, "-t", "tensor<65536x65536xf16>",
                                                    "--max-elements", "99999999999999999999"])
    # a shape whose element count has thousands of digits is reported as a power of two
    message = clean_error(["-l", B2, "-t", "tensor<" + "1024x" * 3000 + "f16>"])
    assert "too large" in message or "rank" in message
    assert "rank" in clean_error(["-l", B2, "-t", "tensor<" + "1x" * 33 + "f16>"])
    assert "about 2^" in clean_error(["-l", B2, "-t", "tensor<" + "1024x" * 30 + "f16>"])
    assert "64-bit" in clean_error(["-l", B2, "-t", "tensor<99999999999999999999x4xf16>"])


def test_limits_are_fast():
    start = time.perf_counter()
    for argv in (["-l", B2, "-t", "tensor<65536x65536xf16>"],
                 ["-l", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1099511627776], "
                        "order = [0]}>", "-t", "tensor<1xf16>"]):
        clean_error(argv)
    assert time.perf_counter() - start < 1.0


# ---------------------------------------------------------------------------------------------
# option errors and message hygiene
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,words", [
    ([], ["nothing to do"]),
    (["-l", B2], ["missing -t"]),
    (["-t", "tensor<4xf16>", "-use-hw-view=maybe"], ["-use-hw-view"]),
    (["-l", B2, "-t", "tensor<16x16xf16>", "--bogus"], ["--bogus"]),
    (["-l", B2, "-t", "tensor<16x16xf16>", "extra" * 200], ["unexpected argument"]),
    (["-l"], ["-l"]),
    (["-i", "-", "-t", "tensor<16x16xf16>", "--alias-names", "nope"], ["Can't find the layout attribute: nope"]),
])
def test_option_errors(argv, words):
    message = clean_error(argv, stdin="#blocked = " + B2 + "\n")
    for word in words:
        assert word in message, message


def test_long_and_unprintable_inputs_are_abbreviated_and_escaped():
    long_attr = "#ttg.foo<{" + "a" * 5000 + "}>"
    assert len(clean_error(["-l", long_attr, "-t", "tensor<4xf16>"])) < 300
    message = clean_error(["-l", "#ttg.shared_memory", "-t", "tensor<4xf16>", "x\x1b[31m\x00" + "y" * 1000])
    assert "\x1b" not in message and "\x00" not in message and "\\x1b" in message
    message = clean_error(["-i", "-", "-t", "tensor<4xf16>", "--alias-names", "a\u2028b\r\nc"], stdin="")
    assert "\u2028" not in message and "\r" not in message


def test_no_traceback_for_every_golden_error_case_in_a_real_process():
    """A sample of Triton's own failing inputs through the executable (the in-process suite has them all)."""
    import json
    cases = [json.loads(line) for line in (ROOT / "golden/errors/cases.jsonl").read_text().splitlines() if line]
    aborts = [c for c in cases if c["exit"] in (134, 136, 139) and "ttlayout" not in c][:12]
    with ThreadPoolExecutor(max_workers=4) as pool:
        procs = list(pool.map(_subprocess, [c["args"] for c in aborts]))
    for case, proc in zip(aborts, procs):
        assert proc.returncode == 1, (case["id"], proc.returncode, proc.stderr[:300])
        assert len(proc.stderr.decode().splitlines()) == 1 and not proc.stdout, case["id"]


@pytest.fixture(autouse=True)
def _repo_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_a_bug_is_still_one_line(monkeypatch):
    """An unexpected exception inside ttlayout (a bug) is reported on one line, never as a traceback."""
    from linlayout_cli import render
    def broken(*args):
        raise IndexError("list index out of range")
    monkeypatch.setattr(render, "render_layout", broken)
    code, out, err = run(["-l", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], "
                                "order = [0]}>", "-t", "tensor<32xf16>"])
    assert code == 1 and out.startswith("Print layout attribute: ")   # stdout is streamed; -o files are not
    assert err == ("ttlayout: error: internal error (IndexError: list index out of range); please report this "
                   "command line\n")
