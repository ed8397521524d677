"""`--triton X.Y|auto` and `TTLAYOUT_TRITON`: choosing the release, its errors, the commands that model 3.9's
compiler, `ttlayout help releases`, and that 3.9 (the default) never loads the release tables. Expected texts come
from each release's own tool (golden/releases, see tests/golden/test_releases.py): here only the choosing."""
from __future__ import annotations

import subprocess
import sys

import pytest

from linlayout_cli.cli import run

BLOCKED = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [2], warpsPerCTA = [1], order = [0]}>"
# at tensor<2xf16>, Triton 3.2 and 3.8 (scripts/triton_oracle.py run in /opt/oracle/triton-3.X) list both registers
# of a thread holding an element twice; Triton 3.9 lists the first
OLD = "[T0:0|T0:2|T1:0|T1:2, T0:1|T0:3|T1:1|T1:3]\n"
NEW = "[T0:0|T1:0, T0:1|T1:1]\n"


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    monkeypatch.delenv("TTLAYOUT_TRITON", raising=False)


def body(out: str) -> str:
    return out.split("\n", 1)[1]


def test_default_is_39_and_older_releases_list_every_register():
    assert body(run(["-l", BLOCKED, "-t", "tensor<2xf16>"])[1]) == NEW
    assert body(run(["--triton", "3.9", "-l", BLOCKED, "-t", "tensor<2xf16>"])[1]) == NEW
    for release in ("3.2", "3.5", "3.8"):
        code, out, err = run(["--triton", release, "-l", BLOCKED, "-t", "tensor<2xf16>"])
        assert code == 0 and all(line.startswith("ttlayout: note: ") for line in err.splitlines())   # the lanes note
        assert body(out) == OLD


def test_header_in_the_release_spelling():
    code, out, _ = run(["--triton=3.2", "-l", BLOCKED, "-t", "tensor<2xf16>"])
    assert out.startswith("Print layout attribute: #triton_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [2], ")
    cga = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0], " \
          "CGALayout = [[0, 1]]}>"
    out = run(["--triton", "3.5", "-l", cga, "-t", "tensor<8x16xf16>"])[1]
    assert out.split("\n")[0].endswith("order = [1, 0], CTAsPerCGA = [1, 2], CTASplitNum = [1, 2], CTAOrder = [1, 0]}>")
    assert run(["--triton", "3.6", "-l", cga, "-t", "tensor<8x16xf16>"])[1].split("\n")[0].endswith(
        "CGALayout = [[0, 1]]}>")


def test_environment_variable_and_option():
    env = {"TTLAYOUT_TRITON": "3.4"}
    code, out, err = _subprocess(["-l", BLOCKED, "-t", "tensor<2xf16>"], env)
    assert code == 0 and body(out) == OLD
    code, out, err = _subprocess(["--triton", "3.9", "-l", BLOCKED, "-t", "tensor<2xf16>"], env)
    assert code == 0 and body(out) == NEW                  # the option wins


def test_unknown_release_lists_the_known_ones():
    code, out, err = run(["--triton", "3.1", "-l", BLOCKED, "-t", "tensor<2xf16>"])
    assert code == 1 and out == ""
    assert err == ("ttlayout: error: unknown Triton release '3.1' for --triton (known: 3.2, 3.3, 3.4, 3.5, 3.6, "
                   "3.7, 3.8, 3.9, auto)\n")
    assert run(["-l", BLOCKED, "-t", "tensor<2xf16>", "--triton"])[2].startswith("ttlayout: error: --triton needs")


def test_auto_reads_package_metadata(monkeypatch):
    from linlayout_cli.commands import triton
    monkeypatch.setattr(triton, "_installed", lambda: "3.4.0")
    code, out, err = run(["--triton", "auto", "-l", BLOCKED, "-t", "tensor<2xf16>"])
    assert code == 0 and body(out) == OLD
    assert err.splitlines()[0] == "ttlayout: note: --triton auto: Triton 3.4.0 is installed; printing as Triton 3.4"
    monkeypatch.setattr(triton, "_installed", lambda: None)
    code, out, err = run(["--triton", "auto", "-l", BLOCKED, "-t", "tensor<2xf16>"])
    assert code == 0 and body(out) == NEW
    assert err.splitlines()[0] == "ttlayout: note: --triton auto: no Triton installed; printing as Triton 3.9"
    monkeypatch.setattr(triton, "_installed", lambda: "3.1.0")
    code, out, err = run(["--triton", "auto", "-l", BLOCKED, "-t", "tensor<2xf16>"])
    assert code == 1 and "the installed Triton is 3.1.0" in err


def test_a_kind_the_release_lacks_is_one_error_line():
    linear = "#ttg.linear<{register = [], lane = [[1]], warp = [], block = []}>"
    code, out, err = run(["--triton", "3.2", "-l", linear, "-t", "tensor<2xf16>"])
    assert (code, out) == (1, "")
    assert err == "ttlayout: error: Triton 3.2 has no #ttg.linear layout (it came in Triton 3.3)\n"
    code, _, err = run(["info", "--triton", "3.2", "-l", linear, "-t", "tensor<2xf16>"])
    assert code == 1 and "Triton 3.2 has no #ttg.linear" in err


def test_compiler_models_refuse_another_release():
    code, out, err = run(["convert", "--triton", "3.4", "-r", BLOCKED, "-d", BLOCKED, "-t", "tensor<2xf16>"])
    assert (code, out) == (1, "")
    assert "convert models Triton 3.9's compiler" in err and err.count("\n") == 1


def test_help_releases_lists_each_release():
    code, out, _ = run(["help", "releases"])
    assert code == 0
    for release in ("3.2:", "3.5:", "3.8:", "3.9: the default"):
        assert release in out
    assert "CTAsPerCGA / CTASplitNum / CTAOrder instead of CGALayout" in out


def test_default_print_does_not_load_the_release_tables():
    code = ("import sys; from linlayout_cli.cli import run; run(['-l', %r, '-t', 'tensor<2xf16>']); "
            "print('linlayout_cli.attributes.releases' in sys.modules, 'linlayout_cli.commands.triton' in sys.modules)"
            % BLOCKED)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env({})).stdout
    assert out == "False False\n"


def _env(extra: dict) -> dict:
    import os
    env = {k: v for k, v in os.environ.items() if k != "TTLAYOUT_TRITON"}
    env.update(extra)
    return env


def _subprocess(args, extra: dict):
    p = subprocess.run([sys.executable, "-m", "linlayout_cli", *args], capture_output=True, text=True,
                       env=_env(extra))
    return p.returncode, p.stdout, p.stderr


ROWS = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
COLS = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
SWIZZLED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
KERNEL = "tests/data/kernels/matmul.sm90.ttgir"
COMPILER_RUNS = {
    "convert": ["convert", "-r", ROWS, "-d", COLS, "-t", "tensor<64x64xf16>"],
    "bank": ["bank", "-r", ROWS, "-s", SWIZZLED, "-t", "tensor<64x64xf16>"],
    "swizzle": ["swizzle", "-r", ROWS, "-d", COLS, "-t", "tensor<64x64xf16>"],
    "audit": ["audit", KERNEL],
    "advise": ["advise", KERNEL],
}


@pytest.mark.parametrize("command", sorted(COMPILER_RUNS))
def test_compiler_models_say_which_release_they_model(command, monkeypatch):
    """Text: the target line ends 'models Triton 3.9'; JSON: "triton": "3.9" beside "target" (per module for audit
    and advise)."""
    import json
    import pathlib
    monkeypatch.chdir(pathlib.Path(__file__).resolve().parents[2])
    code, out, err = run(COMPILER_RUNS[command])
    assert code == 0, err
    assert sum(1 for line in out.splitlines() if line.endswith("; models Triton 3.9")) == 1, out[:600]
    code, out, err = run([*COMPILER_RUNS[command], "--json"])
    assert code == 0, err
    doc = json.loads(out)
    records = doc if isinstance(doc, list) else doc.get("modules", [doc])
    assert records and all(r["triton"] == "3.9" and "target" in r for r in records), out[:600]


CGA_BLOCKED = ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], "
               "CGALayout = [[0, 1]]}>")
# Triton 3.2's own printer writes this layout so (golden/releases/3.2: CGALayout bases -> CTA fields, its dialect)
CGA_BLOCKED_32 = ("#triton_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                  "order = [1, 0], CTAsPerCGA = [1, 2], CTASplitNum = [1, 2], CTAOrder = [1, 0]}>")


def test_info_and_diff_write_the_layout_as_the_release_does():
    import json
    code, out, _ = run(["info", "--triton", "3.2", "-l", CGA_BLOCKED, "-t", "tensor<16x16xf16>"])
    assert code == 0 and out.splitlines()[0] == CGA_BLOCKED_32
    code, out, _ = run(["info", "--triton", "3.2", "-l", CGA_BLOCKED, "-t", "tensor<16x16xf16>", "--json"])
    assert code == 0 and json.loads(out)["attr"] == CGA_BLOCKED_32
    code, out, _ = run(["diff", "--triton", "3.2", CGA_BLOCKED, CGA_BLOCKED, "-t", "tensor<16x16xf16>"])
    assert code == 0 and f"A             {CGA_BLOCKED_32}  (distributed)" in out.splitlines()
    code, out, _ = run(["info", "-l", CGA_BLOCKED, "-t", "tensor<16x16xf16>"])       # 3.9: as given
    assert code == 0 and out.splitlines()[0] == CGA_BLOCKED
