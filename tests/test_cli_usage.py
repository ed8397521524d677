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
