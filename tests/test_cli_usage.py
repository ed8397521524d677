"""The command line as a user meets it: help with the notation, `ttlayout help`, shell completion, and no silent
success (every input that prints nothing says why)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from golden_cases import ROOT
from linlayout_cli.cli import run

B = "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>"


def test_help_explains_the_notation_and_shows_examples():
    code, out, err = run(["--help"])
    assert code == 0 and not err
    for words in ("T4:1", "B1:T4:1", "T0:0|T32:0", "( 0: 8)", "Offset: 5 -> (1,0)", "Examples:",
                  "ttlayout -l '#ttg.blocked", "ttlayout info", "--use-hw-view", "Commands:", "bank", "lookup"):
        assert words in out, words


@pytest.mark.parametrize("argv,first", [
    (["help"], "Usage: ttlayout (-l ATTR | -i FILE) -t TYPE"),
    (["help", "bank"], "Usage: ttlayout bank [OPTIONS]"),
    (["help", "info"], "Usage: ttlayout info [OPTIONS]"),
    (["help", "notation"], "Notation"),
    (["help", "bank-model"], "# Shared-memory bank model"),
])
def test_help_command(argv, first):
    code, out, err = run(argv)
    assert code == 0 and out.startswith(first) and not err


def test_help_of_an_unknown_topic_lists_the_known_ones():
    code, out, err = run(["help", "banks"])
    assert code == 1 and out == "" and "commands: info, lookup, convert, audit, bank, swizzle" in err and "topics: notation" in err


@pytest.mark.parametrize("argv,words", [
    (["-t", "tensor<8xf16>"], "nothing to print: -t gives the shape, but no layout was given"),
    (["-l", B, "-t", "tensor<8xf16>", "--alias-names", "a"], "--alias-names picks aliases of an -i FILE"),
    (["-l", B, "-t", "tensor<8xf16>", "-t", "tensor<16xf16>"], "-t given 2 times"),
    (["-l", B, "-l", B, "-t", "tensor<8xf16>"], "-l given 2 times"),
    (["-t=tensor<8xf16>", "-l", B, "--t", "tensor<16xf16>"], "-t given 2 times"),
    (["info", "-l", B, "-t", "tensor<8xf16>", "-t", "tensor<8xf16>"], "-t given 2 times"),
    (["bank", "-r", B, "-s", B, "--target", "sm80", "--target", "sm90", "-t", "tensor<8xf16>"],
     "--target given 2 times"),
    ([], "nothing to do"),
])
def test_no_silent_success(argv, words):
    code, out, err = run(argv)
    assert code == 1 and out == "" and words in err and err.count("\n") == 1


def complete(words: str, shell: str = "bash") -> list[str]:
    """Ask ttlayout for completions as bash (or zsh / fish) would, through click's mechanism."""
    parts = words.split(" ")
    env = dict(os.environ, _TTLAYOUT_COMPLETE=f"{shell}_complete", COMP_WORDS=words, COMP_CWORD=str(len(parts) - 1),
               PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "linlayout_cli"], env=env, capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_completion_of_commands_and_options():
    assert complete("ttlayout ba") == ["plain,bank"]
    assert any("--target" in w for w in complete("ttlayout bank --tar"))
    assert any("--use-hw-view" in w for w in complete("ttlayout -l X --use"))
    assert any("--element" in w for w in complete("ttlayout lookup --ele"))


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell):
    env = dict(os.environ, _TTLAYOUT_COMPLETE=f"{shell}_source", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "linlayout_cli"], env=env, capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 0 and "_TTLAYOUT_COMPLETE" in proc.stdout


# ----------------------------------------------------------------------------------------- the quick print path

PLAIN = [["-l", B, "-t", "tensor<8xf16>"], ["-l=" + B, "--t", "tensor<8xf16>", "-use-hw-view"],
         ["-l", B, "-t", "tensor<8xf16>", "-o", "-"]]


@pytest.mark.parametrize("argv", PLAIN, ids=["plain", "llvm-spellings", "stdout"])
def test_a_plain_print_line_loads_neither_click_nor_numpy(argv):
    """The commonest use starts fast because it imports little (start-up is measured by benchmarks/bench.py; this
    only guards the imports that would cost most): no click, numpy, dataclasses (inspect) or typing."""
    code = ("import sys; from linlayout_cli.cli import run; code, out, err = run(sys.argv[1:]); "
            "print(code, out.startswith('Print layout attribute:'), "
            "sorted(m for m in ('click', 'numpy', 'dataclasses', 'typing', 'inspect') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60)
    assert done.stdout.split("\n")[0] == "0 True []", done.stdout + done.stderr


@pytest.mark.parametrize("argv", [["-l", B, "-t", "tensor<8xf16>", "--color", "never"], ["--help"],
                                  ["-l", B, "-t", "tensor<8xf16>", "-t", "tensor<4xf16>"], ["-l", B, "-t"],
                                  ["-l", B, "-t", "-o"], ["info", "-l", B, "-t", "tensor<8xf16>"],
                                  ["-l", B, "-t", "tensor<8xf16>", "--use-hw-view", "--use-hw-view"], []])
def test_anything_but_a_plain_print_line_goes_to_click(argv):
    from linlayout_cli.commands.printing import quick_options
    assert quick_options(argv) is None


def test_quick_path_prints_what_the_click_path_prints(monkeypatch):
    """Every third golden print/error case, with and without the quick path: the same status, output and error."""
    from golden_cases import load_suite

    from linlayout_cli.commands import printing
    monkeypatch.chdir(ROOT)
    cases = [c for s in ("core", "files", "mma", "errors") for c in load_suite(s)][::3]
    quick = [run(list(c["args"])) for c in cases]
    assert sum(printing.quick_options(list(c["args"])) is not None for c in cases) > len(cases) // 2
    monkeypatch.setattr(printing, "quick_options", lambda argv: None)
    for case, expected in zip(cases, quick):
        assert run(list(case["args"])) == expected, case["id"]
