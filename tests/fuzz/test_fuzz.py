"""Fuzz tests: mutated attributes, tensor types, MLIR files and command lines never crash ttlayout.

Seeds are the real inputs of the golden suites (hundreds of attribute strings of every kind, the -i MLIR
files). Mutations: deleted, inserted and repeated characters, truncation, huge / negative / hex / typed
numbers, splices of other seeds, NUL and non-UTF-8 bytes, nesting 5,000 parents deep, megabyte-long
strings, and random option lists.

Every case must end cleanly: exit 0 with the layout on stdout and nothing on stderr, or exit 1 with
nothing on stdout and ONE stderr line `ttlayout: error: ...` of at most 300 characters; never a traceback,
a warning, another exit status, or (in the subprocess sample) a signal. Each case must end within the
Hypothesis deadline (one second). In-process cases run with `--max-elements 65536` so that a mutation
that merely asks for a big valid tensor stays fast (the limit itself is tested in test_cli_errors.py).

Profiles (tests/conftest.py): `ci` by default (deterministic, bounded), `deep` with TTLAYOUT_FUZZ=deep.
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from golden_cases import DATA, ROOT
from helpers import warm_up
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout_cli.cli import run as _run

# in-process cases cost about a millisecond: run FUZZ_SCALE times the profile's example count
FUZZ_SCALE = 3
fuzz_settings = settings(max_examples=FUZZ_SCALE * settings().max_examples)
SMALL = ["--max-elements", "65536"]
MAX_LINE = 300


# ---------------------------------------------------------------------------------------------
# seeds
# ---------------------------------------------------------------------------------------------

def _load_seeds():
    attrs, types = set(), set()
    for path in sorted((ROOT / "golden").glob("*/cases.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            args = json.loads(line).get("args") or []
            for flag, bucket in (("-l", attrs), ("-t", types)):
                if flag in args[:-1]:
                    bucket.add(args[args.index(flag) + 1])
    files = {p.name: p.read_text(encoding="utf-8", errors="replace")
             for p in sorted((ROOT / "golden").glob("*/inputs/*.mlir"))}
    return sorted(attrs), sorted(types), [files[k] for k in sorted(files)]


ATTRS, TYPES, FILES = _load_seeds()


warm_up(_run)
SHAPES = ["tensor<16x16xf16>", "tensor<1x1xf16>", "tensor<32xf32>", "tensor<4x8x16xf16>", "tensor<64x64xf16>",
          "tensor<2x2x2x2xf16>", "tensor<8x4xf16>", "tensor<1xf16>", "tensor<2x1x4xf16>", "tensor<128x128xbf16>"]


def test_seeds_present():
    assert len(ATTRS) > 200 and len(TYPES) > 10 and len(FILES) >= 5


# ---------------------------------------------------------------------------------------------
# mutation engine: the same operators driven by Hypothesis (`draw`) or by random.Random (subprocess sample)
# ---------------------------------------------------------------------------------------------

class HypothesisChooser:
    def __init__(self, draw):
        self.draw = draw

    def integer(self, lo, hi):
        return self.draw(st.integers(lo, hi))

    def choice(self, seq):
        return self.draw(st.sampled_from(seq))


class RandomChooser:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def integer(self, lo, hi):
        return self.rng.randint(lo, hi)

    def choice(self, seq):
        return self.rng.choice(seq)


CHARS = list('[]{}<>(),=:#"\\.-+?*x 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$') + \
    ["\n", "\t", "\r", "\x00", "\x1b", "\x7f", "\u00e9", "\u2028", "\ufffd", "\U0001f600", "\udcff", "//"]
NUMBERS = ["0", "-1", "-0", "3", "6", "1024", "65536", "2147483648", "4294967296", "18446744073709551616",
           "9" * 40, "9" * 5000, "0x10", "0xffffffffffffffff", "0x" + "f" * 300, "-9223372036854775808",
           "1.5", "1e5", "1 : i32", "1 : i0", "1 : i99999999999", "true", "[]", "[[]]"]
SNIPPETS = ["#ttg.slice<{dim = 0, parent = ", "#ttg.dot_op<{opIdx = 0, parent = ", "}>", ">", "}", "]", "[",
            "#blocked", "#ttg.", '"str"', " // comment\n", "loc(", ")", "CGALayout = [[0, 1]]", ", ",
            "order = [1, 0]", "rank = 3", "{-#", "#-}", "dense<", "array<i32: 1, 2>", "2:+4", "unit"]


def _numbers(s):
    return [m for m in re.finditer(r"\d+", s) if len(m.group()) < 40]


def mutate(c, s: str, seeds=ATTRS, max_ops=4) -> str:
    for _ in range(c.integer(1, max_ops)):
        op = c.choice(["delete", "insert", "repeat", "truncate", "number", "number", "splice", "snippet",
                       "cut", "nest", "huge"])
        s = s or "x"
        i = c.integer(0, len(s))
        if op == "delete":
            s = s[:i] + s[i + 1:]
        elif op == "insert":
            s = s[:i] + c.choice(CHARS) + s[i:]
        elif op == "repeat":
            j = min(len(s), i + c.integer(1, 40))
            s = s[:i] + s[i:j] * c.integer(2, 8) + s[j:]
        elif op == "truncate":
            s = s[:i]
        elif op == "number":
            nums = _numbers(s)
            if nums:
                m = c.choice(nums)
                v = int(m.group())
                new = c.choice(NUMBERS + [str(v * 2), str(v // 2), str(v + 1), str(v << 20), str(v * v)])
                s = s[:m.start()] + new + s[m.end():]
        elif op == "splice":
            other = c.choice(seeds)
            j = c.integer(0, len(other))
            s = s[:i] + other[j:j + c.integer(1, 80)] + s[i:]
        elif op == "snippet":
            s = s[:i] + c.choice(SNIPPETS) + s[i:]
        elif op == "cut":
            j = c.integer(0, len(s))
            s = s[:min(i, j)] + s[max(i, j):]
        elif op == "nest":
            n = c.choice([10, 65, 300, 5000])
            s = "#ttg.slice<{dim = 0, parent = " * n + s + "}>" * c.choice([0, n])
        elif op == "huge":
            filler = c.choice(["x", " ", "1, ", "[", "{a = ", "<", '"', "// c\n"])
            s = s[:i] + filler * c.choice([1000, 70000 // len(filler), 1_100_000 // len(filler)]) + s[i:]
    return s


@st.composite
def mutated_attribute(draw):
    return mutate(HypothesisChooser(draw), draw(st.sampled_from(ATTRS)))


@st.composite
def mutated_type(draw):
    return mutate(HypothesisChooser(draw), draw(st.sampled_from(TYPES + SHAPES)), seeds=TYPES + SHAPES)


@st.composite
def mutated_file(draw):
    return mutate(HypothesisChooser(draw), draw(st.sampled_from(FILES)), seeds=FILES + ATTRS, max_ops=6)


# ---------------------------------------------------------------------------------------------
# the clean-outcome contract
# ---------------------------------------------------------------------------------------------

def assert_clean(argv, code, out, err):
    shown = repr(argv)[:400]
    assert "Traceback" not in err, f"traceback for {shown}:\n{err[-2000:]}"
    assert "internal error" not in err, f"ttlayout bug for {shown}: {err}"
    if code == 0:
        # a note (a skipped alias, lanes per warp no GPU has) may accompany a success; nothing else may
        assert all(line.startswith("ttlayout: note: ") for line in err.splitlines()), \
            f"exit 0 with stderr for {shown}: {err[:500]!r}"
        if not any(a in ("--help", "-h", "--version") for a in argv):
            starts = (("ttlayout audit",) if argv[:1] == ["audit"] else ("Print layout attribute: ",)) + \
                (("{",) if "--json" in argv else ()) + (("<svg",) if "svg" in argv else ())
            assert out.startswith(starts) or out == "", f"odd stdout for {shown}: {out[:300]!r}"
        return
    assert code == 1, f"exit {code} for {shown}; stderr {err[:500]!r}"
    assert out == "", f"stdout not empty on error for {shown}: {out[:300]!r}"
    assert err.endswith("\n"), f"stderr does not end in a newline for {shown}: {err[:500]!r}"
    line = err[:-1]
    assert line and "\n" not in line, f"stderr is not one line for {shown}: {err[:800]!r}"
    assert line.startswith("ttlayout: error: "), f"stderr line for {shown}: {line[:300]!r}"
    assert len(line) <= MAX_LINE, f"stderr line of {len(line)} characters for {shown}: {line[:400]!r}..."
    assert line.isprintable(), f"unprintable character in the error for {shown}: {line!r}"


def run_clean(argv, stdin=None):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, out, err = _run(argv, stdin=stdin)
    assert not caught, f"warning (an extra stderr line) for {repr(argv)[:300]}: {caught[0].message}"
    assert_clean(argv, code, out, err)
    return code, out, err


# ---------------------------------------------------------------------------------------------
# in-process fuzzing
# ---------------------------------------------------------------------------------------------

@fuzz_settings
@given(attr=mutated_attribute(), ttype=st.sampled_from(SHAPES + TYPES), hw=st.booleans())
def test_mutated_attribute(attr, ttype, hw, fuzz_counter):
    run_clean(["-l", attr, "-t", ttype] + (["--use-hw-view"] if hw else []) + SMALL)
    fuzz_counter["attribute"] += 1


@fuzz_settings
@given(attr=st.sampled_from(ATTRS), ttype=mutated_type(), hw=st.booleans())
def test_mutated_tensor_type(attr, ttype, hw, fuzz_counter):
    run_clean(["-l", attr, "-t", ttype] + (["--use-hw-view"] if hw else []) + SMALL)
    fuzz_counter["tensor type"] += 1


@fuzz_settings
@given(text=mutated_file(), ttype=st.sampled_from(SHAPES), extra=st.sampled_from(
    [[], ["-use-hw-view"], ["--alias-names", "blocked"], ["-alias-names=mma,blocked"], ["--alias-names", ""],
     ["--alias-names", "a,,b,#x"]]))
def test_mutated_mlir_file(text, ttype, extra, fuzz_counter):
    run_clean(["-i", "-", "-t", ttype] + extra + SMALL, stdin=text)
    fuzz_counter["mlir file"] += 1


_BAD_BYTES = [b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xef\xbb\xbf", b"\x80\x80"]


@fuzz_settings
@given(text=mutated_file(), data=st.data())
def test_mutated_mlir_bytes(text, data, fuzz_counter):
    raw = text.encode("utf-8", "replace")
    for _ in range(data.draw(st.integers(0, 3), label="bad bytes")):
        i = data.draw(st.integers(0, len(raw)), label="at")
        raw = raw[:i] + data.draw(st.sampled_from(_BAD_BYTES), label="bytes") + raw[i:]
    fd, path = tempfile.mkstemp(suffix=".mlir")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        run_clean(["-i", path, "-t", "tensor<16x16xf16>"] + SMALL)
    finally:
        os.unlink(path)
    fuzz_counter["mlir bytes"] += 1


_OPTIONS = ["-l", "-t", "-i", "-o", "--use-hw-view", "-use-hw-view", "-use-hw-view=false", "-use-hw-view=maybe",
            "-use-hw-view=", "--max-elements", "--max-elements=0", "--max-elements=-1", "--max-elements=x",
            "--max-elements=99999999999999999999", "--max-elements=16", "--alias-names", "-alias-names=,,",
            "--alias-names=" + "a" * 2000, "--help", "--version", "-x", "--", "-", "", "bank", "swizzle",
            "-t=", "-l=", "--t", "--l=", "tensor<*xf32>", "tensor<f32>", "tensor<?x4xf16>", "tensor<3x4xf16>",
            "-i=/nonexistent/file.mlir", "-i=/", "-o=/nonexistent/dir/out.txt", "-o=/", "a\x00b", "\udcff",
            "-" * 500, "x" * 5000]


@fuzz_settings
@given(data=st.data())
def test_random_command_lines(data, fuzz_counter):
    argv = data.draw(st.lists(st.sampled_from(_OPTIONS + ATTRS[:20] + SHAPES), max_size=8), label="argv")
    if data.draw(st.booleans(), label="with -l/-t"):
        argv = ["-l", data.draw(st.sampled_from(ATTRS)), "-t", data.draw(st.sampled_from(SHAPES))] + argv
    # never write into the working tree: every -o goes to a path that cannot be created
    argv = ["/nonexistent/dir/out.txt" if i and argv[i - 1] == "-o" else a for i, a in enumerate(argv)]
    if argv and argv[-1] == "-o":
        argv.append("/nonexistent/dir/out.txt")
    if argv[:1] in (["bank"], ["swizzle"]):
        argv = argv[:1] + ["--help"]          # the analysis subcommands have their own tests
    run_clean(argv + SMALL, stdin=data.draw(st.sampled_from(FILES)))
    fuzz_counter["command line"] += 1


# ---------------------------------------------------------------------------------------------
# fixed extreme cases (always run, in process)
# ---------------------------------------------------------------------------------------------

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>"
EXTREMES = {
    "nest 5000 slices": "#ttg.slice<{dim = 0, parent = " * 5000 + BLOCKED + "}>" * 5000,
    "nest 5000 unclosed": "#ttg.slice<{dim = 0, parent = " * 5000,
    "5000 brackets": "[" * 5000 + "]" * 5000,
    "5000 braces": "{a = " * 5000 + "1" + "}" * 5000,
    "megabyte list": "#ttg.blocked<{sizePerThread = [" + "1, " * 350_000 + "1]}>",
    "megabyte identifier": "x" * 1_100_000,
    "megabyte string": '"' + "x" * 1_100_000 + '"',
    "megabyte whitespace": BLOCKED.replace(" ", " " * 20_000),
    "megabyte comment": BLOCKED + " //" + "c" * 1_100_000,
    "NUL": BLOCKED[:20] + "\x00" + BLOCKED[20:],
    "lone surrogate": BLOCKED[:20] + "\udcff" + BLOCKED[20:],
    "escape sequence": "\x1b[31m" + BLOCKED,
    "line separators": BLOCKED.replace(", ", ",\u2028\r\n\x0b\x0c\x85"),
    "huge integer": BLOCKED.replace("[1, 2]", "[1, " + "9" * 5000 + "]"),
    "huge hex": BLOCKED.replace("[1, 2]", "[1, 0x" + "f" * 5000 + "]"),
    "negative": BLOCKED.replace("[1, 2]", "[1, -2]"),
    "2^63": BLOCKED.replace("[1, 2]", "[1, 9223372036854775808]"),
    "2^40 warps": BLOCKED.replace("[2, 2]", "[1099511627776, 1]"),
    "i0": "1 : i0",
    "wide int": "1 : i99999999999999999999",
    "empty": "",
    "blank": " \n\t ",
}


@pytest.mark.parametrize("name", sorted(EXTREMES))
@pytest.mark.parametrize("ttype", ["tensor<16x16xf16>", "tensor<16xf16>"])
def test_extreme_attributes(name, ttype):
    run_clean(["-l", EXTREMES[name], "-t", ttype])


@pytest.mark.parametrize("name", sorted(EXTREMES))
def test_extreme_tensor_types_and_files(name):
    text = EXTREMES[name]
    run_clean(["-l", BLOCKED, "-t", "tensor<" + text + "xf16>"])
    run_clean(["-i", "-", "-t", "tensor<16x16xf16>"], stdin="#a = " + text + "\n#b = " + BLOCKED + "\n")
    run_clean(["-i", "-", "-t", "tensor<16x16xf16>"], stdin=text)


# ---------------------------------------------------------------------------------------------
# a sample through the real executable (signals, real argv/stdin bytes)
# ---------------------------------------------------------------------------------------------

def _subprocess_cases(n: int, seed: int = 20260319):
    rng = random.Random(seed)
    c = RandomChooser(rng)
    cases = []
    for k in range(n):
        if k % 3 == 2:
            text = mutate(c, rng.choice(FILES), seeds=FILES + ATTRS, max_ops=6)
            raw = text.encode("utf-8", "replace")
            if k % 2:
                i = rng.randint(0, len(raw))
                raw = raw[:i] + rng.choice(_BAD_BYTES) + raw[i:]
            cases.append((["-i", "-", "-t", rng.choice(SHAPES)], raw))
        else:
            attr = mutate(c, rng.choice(ATTRS))
            attr = attr.replace("\x00", "")[:100_000]            # argv: no NUL, at most 128 KiB per argument
            arg = attr.encode("utf-8", "surrogateescape") if k % 2 else attr.encode("utf-8", "replace")
            cases.append((["-l", os.fsdecode(arg), "-t", rng.choice(SHAPES + TYPES)], None))
    return cases


SUBPROCESS_CASES = 30 if os.environ.get("TTLAYOUT_FUZZ", "").lower() != "deep" else 300


def _run_subprocess(case):
    argv, stdin = case
    env = dict(os.environ, PYTHONWARNINGS="default")
    proc = subprocess.run([sys.executable, "-m", "linlayout_cli", *argv, *SMALL], input=stdin or b"",
                          capture_output=True, timeout=60, cwd=ROOT, env=env)
    return argv, proc


def test_subprocess_sample(fuzz_counter):
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(_run_subprocess, _subprocess_cases(SUBPROCESS_CASES)))
    for argv, proc in results:
        assert proc.returncode >= 0, f"killed by signal {-proc.returncode}: {repr(argv)[:300]}"
        err = proc.stderr.decode("utf-8", "replace")
        out = proc.stdout.decode("utf-8", "replace")
        assert_clean(argv, proc.returncode, out, err)
        fuzz_counter["subprocess"] += 1


# ---------------------------------------------------------------------------------------------
# audits of mutated kernels: a clean report or one error line, never an exception turned into a row
# ---------------------------------------------------------------------------------------------

KERNELS = [p.read_text(encoding="utf-8") for p in sorted((DATA / "kernels").glob("*.ttgir"))
           if p.stat().st_size < 60_000]
HOSTILE = ["\x1b[2J", "\x1b]0;pwn\x07", "\x9b31m", "\u202e", "\u2066", "\x00", "\r", "<!--<script>", "</script>",
           "]]>", "&amp;", "%s%n", "\udcff", "\ufeff", "\x85", "\u2028", '\\"', "[bold]x[/]", "[/]"]
TARGET_VALUES = ['"hip:gfx90a"', '"nonsense"', '""', '"cuda:90"', '"hip:gfx942"', '"cuda:1000000000000"', "1 : i32",
                 '"cuda:-1"', '"' + "x" * 5000 + '"']
COUNT_VALUES = ["0", "-8", "1267650600228229401496703205376", "3", "48", "64", "9" * 5000, "4", "x"]


def mutate_kernel(c, text: str) -> str:
    """A kernel dump with audit-shaped mutations: its target, warps or lanes replaced, hostile text in its
    locations and types, CR line ends, and the generic operators of `mutate`."""
    for _ in range(c.integer(1, 4)):
        op = c.choice(["target", "warps", "lanes", "hostile loc", "hostile type", "cr", "generic", "generic"])
        if op == "target":
            text = re.sub(r'ttg\.target = "[^"]*"', "ttg.target = " + c.choice(TARGET_VALUES), text, count=1)
        elif op == "warps":
            text = re.sub(r'"ttg\.num-warps" = \d+', '"ttg.num-warps" = ' + c.choice(COUNT_VALUES), text, count=1)
        elif op == "lanes":
            text = re.sub(r'"ttg\.threads-per-warp" = \d+', '"ttg.threads-per-warp" = ' + c.choice(COUNT_VALUES),
                          text, count=1)
        elif op == "hostile loc":
            text = text.replace('loc("', 'loc("' + c.choice(HOSTILE), c.integer(1, 3))
        elif op == "hostile type":
            text = text.replace("xf16", "xf16" + c.choice(HOSTILE), 1).replace("xf32", "xf32" + c.choice(HOSTILE), 1)
        elif op == "cr":
            text = text.replace("\n", "\r")
        else:
            text = mutate(c, text, seeds=KERNELS + ATTRS, max_ops=2)
    return text


@st.composite
def mutated_kernel(draw):
    return mutate_kernel(HypothesisChooser(draw), draw(st.sampled_from(KERNELS)))


def assert_clean_audit(argv, code, out, err):
    """`assert_clean` for audit: a report (or JSON) on exit 0; and nothing a terminal would act on."""
    assert "Traceback" not in err and "internal error" not in err, f"bug for {repr(argv)[:200]}: {err[-2000:]}"
    if code == 0:
        assert all(line.startswith("ttlayout: note: ") for line in err.splitlines()), err[-2000:]  # --target's
        assert out.startswith("ttlayout audit") or out.startswith("{"), out[:300]
        assert all(ch.isprintable() or ch == "\n" for ch in out), f"unprintable in the report: {out[:2000]!r}"
        if out.startswith("{"):
            json.loads(out)
        return
    assert_clean(argv, code, out, err)


@settings(max_examples=settings().max_examples)
@given(text=mutated_kernel(), extra=st.sampled_from([[], ["--json"], ["--top", "3"], ["--target", "sm80"],
                                                      ["--target", "gfx942"]]))
def test_mutated_kernel_audit(text, extra, fuzz_counter):
    """Targets, warps and lanes a GPU cannot have are one error naming them; hostile file names and types are
    escaped; any other mutation is a report or one error line. An exception inside the analysis is a bug (it
    used to become a 'not analysed' row)."""
    argv = ["audit", "-"] + extra
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, out, err = _run(argv, stdin=text)
    assert not caught, caught[0].message
    assert_clean_audit(argv, code, out, err)
    fuzz_counter["audit"] += 1


def test_unknown_target_is_named_and_overridable():
    text = (DATA / "kernels" / "transpose_copy.sm90.ttgir").read_text()
    for value in ('"hip:gfx90a"', '"nonsense"', '""'):
        bad = text.replace('ttg.target = "cuda:90"', f"ttg.target = {value}")
        code, out, err = run_clean(["audit", "-"], stdin=bad)
        assert code == 1 and f"ttg.target '{value.strip(chr(34))}' is not a target ttlayout models" in err, err
        code, out, _ = _run(["audit", "-", "--target", "sm80"], stdin=bad)
        assert code == 0 and out.startswith("ttlayout audit standard input: sm80")


@pytest.mark.parametrize("key,value", [("ttg.num-warps", "0"), ("ttg.num-warps", "-8"),
                                       ("ttg.num-warps", "1267650600228229401496703205376"),
                                       ("ttg.num-warps", "3"), ("ttg.threads-per-warp", "48")])
def test_impossible_warps_are_named(key, value):
    text = (DATA / "kernels" / "transpose_copy.sm90.ttgir").read_text()
    bad = re.sub(rf'"{re.escape(key)}" = \d+', f'"{key}" = {value}', text)
    code, out, err = run_clean(["audit", "-"], stdin=bad)
    assert code == 1 and f"{key} = {value} : i32 is not" in err, err


def test_cr_line_ends_are_line_breaks():
    text = (DATA / "kernels" / "transpose_copy.sm90.ttgir").read_text()
    for ends in ("\r", "\r\n"):
        code, out, _ = run_clean(["audit", "-"], stdin=text.replace("\n", ends))
        assert code == 0 and out == _run(["audit", "-"], stdin=text)[1]


# ---------------------------------------------------------------------------------------------
# huge and many: bounded memory, one pass (checked under a memory limit, in a child; never timed)
# ---------------------------------------------------------------------------------------------

LIMITED = """
import resource, sys
limit = int(sys.argv[1]) << 20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from linlayout_cli import cli
sys.argv = ["ttlayout"] + sys.argv[2:]
cli.main()
"""
LAYOUTS = ('#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], '
           'order = [1, 0]}>\n#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], '
           'warpsPerCTA = [1, 4], order = [0, 1]}>\n')
MODULE = ('module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} '
          '{\n  tt.func public @k(%a: tensor<64x64xf32, #blocked>) {\n{body}    tt.return\n  }\n}\n')
CONVERT = "    %c{k} = ttg.convert_layout %a : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1> loc({loc})\n"


def limited_run(megabytes: int, argv, stdin: bytes = b"", cwd=None):
    """ttlayout in a child whose address space is capped (RLIMIT_AS): a run that needs more fails there."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", LIMITED, str(megabytes), *argv], input=stdin, capture_output=True,
                          timeout=300, cwd=cwd or ROOT, env=env)


def _module(body: str) -> str:
    return LAYOUTS + MODULE.replace("{body}", body)


@pytest.mark.parametrize("what", ["string", "whitespace", "escapes", "dense", "comment"])
def test_huge_literals_are_read_in_bounded_memory(what):
    """A 10 MB string attribute took 1.33 GB (a regex kept ~130 bytes per character); the reader is linear now,
    so 10 MB of any literal reads within a 400 MB address space (the interpreter and numpy take ~250; 4 MB of
    escaped quotes, each one a step, would have needed ~500 MB more)."""
    filler = {"string": '"' + "a" * 10_000_000 + '"', "whitespace": "1" + " " * 10_000_000,
              "escapes": '"' + '\\"' * 2_000_000 + '"', "dense": "dense<[" + "1, " * 3_000_000 + "1]>",
              "comment": "1 // " + "c" * 10_000_000}[what]
    text = LAYOUTS + f"#x = {filler}\n" + _module(CONVERT.format(k=0, loc='"f.py":1:1'))[len(LAYOUTS):]
    for argv in (["-i", "-", "-t", "tensor<16x16xf16>", "--alias-names", "blocked"], ["audit", "-"]):
        proc = limited_run(400, argv, text.encode())
        assert proc.returncode == 0 and proc.stderr == b"", proc.stderr[-500:]


def test_many_ops_modules_and_nested_locations_are_one_pass():
    """10,000 identical conversions are analysed once (cached by kind, layouts, shape and target), 2,000
    `// -----` modules one after another, a location nested 20,000 callsites deep without recursion."""
    convs = _module("".join(CONVERT.format(k=k, loc='"f.py":1:1') for k in range(10_000)))
    code, out, err = run_clean(["audit", "-", "--json"], stdin=convs)
    report = json.loads(out)
    assert code == 0 and report["summary"]["conversions"] == {"shared_memory": 10_000}
    assert report["shared_bytes"] == 16384                      # each scratch lives at its own op
    modules = "// -----\n".join([_module(CONVERT.format(k=0, loc='"f.py":1:1'))] * 2000)
    code, out, err = run_clean(["audit", "-", "--json"], stdin=modules)
    assert code == 0 and len(json.loads(out)["modules"]) == 2000
    nested = '"f.py":1:1'
    for _ in range(20_000):
        nested = f'callsite({nested} at "g.py":2:2)'
    code, out, err = run_clean(["audit", "-", "--json"], stdin=_module(CONVERT.format(k=0, loc=nested)))
    (op,) = [o for o in json.loads(out)["ops"] if o["op"] == "ttg.convert_layout"]
    assert code == 0 and op["loc"] == "f.py:1:1"


def test_a_stray_brace_is_one_error_naming_its_line():
    """It made audit re-read the file 200 times and blame '200 alias definitions'."""
    lines = _module("".join(CONVERT.format(k=k, loc='"f.py":1:1') for k in range(300))).split("\n")
    lines.insert(10, "  }")
    for argv in (["audit", "-"], ["-i", "-"], ["-i", "-", "-t", "tensor<16x16xf16>"]):
        code, out, err = run_clean(argv, stdin="\n".join(lines))
        # the inserted '}' closes the function early; the module's own last '}' is the one left over
        assert code == 1 and err.startswith(f"ttlayout: error: line {len(lines) - 1}, column 1: unexpected '}}'"), err


def test_big_memory_views_stream_under_a_memory_limit(tmp_path):
    """The tensor-memory view at 2048^2 took 1.31 GB and at 4096^2 under a limit ended in a traceback and a
    temporary file; all views stream now."""
    tmem = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 256, colStride = 1>"
    padded = "#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [512, 512]}>"
    for attr, ttype in ((tmem, "tensor<2048x2048xf32>"), (padded, "tensor<512x512xf16>")):
        for hw in ([], ["--use-hw-view"]):
            out = tmp_path / "view.txt"
            proc = limited_run(500, ["-l", attr, "-t", ttype, "-o", str(out)] + hw, cwd=tmp_path)
            assert proc.returncode == 0 and proc.stderr == b"", proc.stderr[-500:]
            assert out.stat().st_size > 1_000_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["view.txt"]


# ---------------------------------------------------------------------------------------------
# odd -o targets (in process: paths only; descriptors and signals are in test_files_io.py)
# ---------------------------------------------------------------------------------------------

@fuzz_settings
@given(data=st.data())
def test_odd_output_targets(data, fuzz_counter):
    """Whatever -o names (a device, a directory, the input, a path under a file, a name with odd characters),
    the run is clean, and the input file survives."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        source = tmp / "in.mlir"
        source.write_text(LAYOUTS)
        (tmp / "file").write_text("x")
        (tmp / "link").symlink_to(source)
        target = data.draw(st.sampled_from([
            "/dev/null", "/dev/full", str(tmp), str(tmp / "file" / "x"), str(tmp / "no" / "x"), str(source),
            str(tmp / "link"), str(tmp / "." / "in.mlir"), str(tmp / "new.txt"), str(tmp / "a\x1b[2Jb"),
            str(tmp / ("x" * 300)), str(tmp / "\u202e.txt"), "-"]), label="target")
        command = data.draw(st.sampled_from([["-i", str(source), "-t", "tensor<16x16xf16>"],
                                             ["-i", str(source), "-t", "tensor<16x16xf16>", "--format", "svg"],
                                             ["-l", BLOCKED, "-t", "tensor<16x16xf16>", "--json"]]), label="argv")
        run_clean(command + ["-o", target])
        if "-i" in command:                       # the input is never the output
            assert source.read_text() == LAYOUTS
        assert not [p for p in tmp.iterdir() if p.name.startswith(".ttlayout-")]
    fuzz_counter["-o target"] += 1
