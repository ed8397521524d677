"""The command line as a user meets it: help with the notation, `ttlayout help`, shell completion, and no silent
success (every input that prints nothing says why)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from golden_cases import DATA, ROOT

from linlayout_cli.cli import run
from linlayout_cli.commands import SUBCOMMANDS

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
    (["help", "cute"], "# CuTe notation"),
    (["help", "audit-model"], "# How `ttlayout audit` reads a kernel"),
])
def test_help_command(argv, first):
    code, out, err = run(argv)
    assert code == 0 and out.startswith(first) and not err


def test_help_of_an_unknown_topic_lists_the_known_ones():
    code, out, err = run(["help", "banks"])
    assert code == 1 and out == "" and "topics: notation" in err
    assert f"no command or topic 'banks' (did you mean 'bank'?); commands: {', '.join(SUBCOMMANDS)}, print, help" in err


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


# ----------------------------------------------------------------------------------------- the quick path

M = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>"
S = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
KERNEL = str(DATA / "kernels" / "softmax.sm90.ttgir")
PLAIN = [["-l", B, "-t", "tensor<8xf16>"], ["-l=" + B, "--t", "tensor<8xf16>", "-use-hw-view"],
         ["-l", B, "-t", "tensor<8xf16>", "-o", "-"], ["info", "-l", M, "-t", "tensor<128x256xf16>"],
         ["lookup", "-l", M, "-t", "tensor<128x256xf16>", "--thread", "5"],
         ["convert", "-s", M, "-d", "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = "
          "[4, 1], order = [1, 0]}>", "-t", "tensor<128x256xf16>"],
         ["bank", "-r", B, "-s", S.replace("[1, 0]", "[0]"), "-t", "tensor<64xf16>", "--target=sm80"],
         ["audit", KERNEL, "--top", "3"], ["audit", KERNEL, KERNEL.replace("softmax", "cumsum"), "--top", "3"]]


@pytest.mark.parametrize("argv", PLAIN, ids=["plain", "llvm-spellings", "stdout", "info", "lookup", "convert", "bank",
                                             "audit", "audit-many"])
def test_a_plain_command_line_does_not_load_click(argv):
    """Short commands start fast because they import little (start-up is measured by benchmarks/bench.py and
    benchmarks/startup.py; this only guards the imports that would cost most): no click; printing also loads no
    numpy, dataclasses (inspect) or typing, and a kernel's audit no dataclasses, inspect or typing."""
    code = ("import json, sys; from linlayout_cli.cli import run; code, out, err = run(sys.argv[1:]); "
            "print(json.dumps([code, err, sorted(m for m in ('click', 'numpy', 'dataclasses', 'typing', 'inspect') "
            "if m in sys.modules)]))")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60)
    status, err, heavy = json.loads(done.stdout)
    # (the README's 4-lane example gets a note that no GPU has 4-lane warps)
    assert status == 0 and (err == "" or err.startswith("ttlayout: note: 4 lanes per warp")), done.stdout + done.stderr
    printing = argv[0] not in SUBCOMMANDS
    assert "click" not in heavy and (not printing or heavy == []), heavy
    assert argv[0] != "audit" or not {"dataclasses", "inspect", "typing"} & set(heavy), heavy


@pytest.mark.parametrize("argv", [["-l", B, "-t", "tensor<8xf16>", "--color", "sometimes"], ["--help"],
                                  ["-l", B, "-t", "tensor<8xf16>", "-t", "tensor<4xf16>"], ["-l", B, "-t"],
                                  ["-l", B, "-t", "-o"], ["info", "--help"], ["lookup", "--thread", "x"],
                                  ["audit", "--top", "x"], ["audit", "a", "--jobs", "0"], ["bank", "--format", "png"],
                                  ["print", "-l", B],
                                  ["help", "info"], ["-l", B, "-t", "tensor<8xf16>", "--use-hw-view", "--use-hw-view"],
                                  ["convert", "-t=tensor<8xf16>"], []])
def test_anything_but_a_plain_line_goes_to_click(argv):
    from linlayout_cli.commands import quick
    assert quick(argv) is None


def test_quick_path_prints_what_the_click_path_prints(monkeypatch):
    """Every third golden print/error case, every PLAIN line, and each with its last word dropped: the same
    status, output and error with and without the quick path."""
    from golden_cases import load_suite

    import linlayout_cli.commands as commands
    monkeypatch.chdir(ROOT)
    lines = [list(c["args"]) for s in ("core", "files", "mma", "errors") for c in load_suite(s)][::3] + PLAIN
    lines += [line[:-1] for line in PLAIN]
    quick = [run(line) for line in lines]
    assert sum(commands.quick(line) is not None for line in lines) > len(lines) // 2
    monkeypatch.setattr(commands, "quick", lambda argv: None)
    for line, expected in zip(lines, quick):
        assert run(line) == expected, line


ENTRY = ("import atexit, sys\n"
         "if sys.argv[1] == 'handler':\n"
         "    atexit.register(lambda: sys.stderr.write('exit handler ran\\n'))\n"
         "sys.argv = ['ttlayout'] + sys.argv[2:]\n"
         "from linlayout_cli.cli import entry\n"
         "entry()\n"
         "sys.stderr.write('entry returned\\n')\n")


@pytest.mark.parametrize("handler", ["none", "handler"])
def test_the_entry_point_ends_the_process_after_flushing(tmp_path, handler):
    """`entry` (the `ttlayout` script, `python -m linlayout_cli`) ends the process itself once stdout and stderr
    are flushed: the whole output arrives through a pipe, the status is main's, and an -o file is complete. A run
    that registered an exit handler ends the ordinary way, so the handler still runs."""
    big = ["-l", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
           "order = [1, 0]}>", "-t", "tensor<256x256xf16>"]
    expected = run(big)
    done = subprocess.run([sys.executable, "-c", ENTRY, handler, *big], capture_output=True, text=True, timeout=120)
    said = "exit handler ran\n" if handler == "handler" else ""
    assert (done.returncode, done.stdout, done.stderr) == (0, expected[1], said)
    bad = subprocess.run([sys.executable, "-c", ENTRY, handler, "-l", "#ttg.blocked<{", "-t", "tensor<8xf16>"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.startswith("ttlayout: error: ") and bad.stderr.endswith("\n" + said)
    out = tmp_path / "view.txt"
    done = subprocess.run([sys.executable, "-c", ENTRY, handler, *big, "-o", str(out)], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, out.read_text()) == (0, "", expected[1])
