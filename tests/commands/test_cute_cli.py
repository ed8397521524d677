"""CuTe notation on the command line and in Python (issue 22): `info`'s cute line, `--format cute`, CuTe text in
every layout option, `help cute`, `layout().cute()`.

Each result is checked against something ttlayout did not compute: facebookresearch's `tensor-layouts` evaluating
the printed text (through the tests' own reader of the text, in tests/helpers.py), Triton's bases in the golden
cases, Triton's own printed grids, bank-conflict counts and convert_layout lowerings (golden/bank, golden/convert),
or layouts worked out by hand in the comments.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

import numpy as np
import pytest
import tensor_layouts as tl
from golden_cases import (
    ROOT,
    case_id,
    cases_with_bases,
    expected_stdout,
    measured,
    option_values,
    tensor_shape,
    without_encoding,
)
from helpers import (
    expected_offsets,
    expected_thread_value,
    library_layout,
    library_offsets,
    library_thread_value,
    table_rows,
)

from linlayout_cli import layout
from linlayout_cli.analysis.cute import cute_form
from linlayout_cli.cli import run
from linlayout_cli.commands import TOPICS
from linlayout_cli.engine import LinearLayout
from linlayout_cli.errors import UnsupportedError
from linlayout_cli.notebook import linear_layout

CASES = cases_with_bases()
HW_FLAGS = ("-use-hw-view", "--use-hw-view", "-use-hw-view=true")
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
BLOCKED_CUTE = "((_32,_4),(_4,_2)):((_4,_128),(_1,_512))"      # docs/cute.md's first worked example, by hand
XOR_LINEAR = "#ttg.generic_linear<{register = [], lane = [[0, 1], [0, 2]], warp = [[1, 1]], block = []}>"
TLX_VECTORS = [
    ("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>", "tensor<64xf32>",
     "((_32,_2,_2),_1):((_1,_32,_0),_0)"),
    ("#ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>", "tensor<32x32xf32>",
     "Swizzle<2,1,5> o (_32,_32):(_32,_1)"),
    ("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>", "tensor<64xf32>", "_64:_1"),
]


def ok(argv, stdin=None) -> str:
    code, out, err = run(argv, stdin)
    notes = [line for line in err.splitlines() if " lane" in line and "per warp" in line and "note:" in line]
    assert code == 0 and len(notes) == len(err.splitlines()), err      # (a toy layout's lanes: a note at most)
    return out


def error_line(argv, stdin=None) -> str:
    """The one error line of a failing command, which printed nothing."""
    code, out, err = run(argv, stdin)
    assert (code, out) == (1, ""), (code, out[:200])
    assert err.startswith("ttlayout: error: ") and err.count("\n") == 1, err
    return err[len("ttlayout: error: "):-1]


def layout_args(case) -> list[str]:
    """The case's -l and -t (without an encoding in -t, which Triton ignores beside -l)."""
    values = option_values(case["args"])
    return ["-l", values["l"], "-t", without_encoding(values["t"])]


def bases_of(ll: LinearLayout) -> dict:
    return {d: [list(b) for b in ll.get_in_dim_bases(d)] for d in ll.in_dims}


def assert_library_gives(text: str, bases: dict, shape) -> None:
    """tensor-layouts, evaluating `text`, gives the element (the offset) that the bases give at every (thread,
    value) (every element of a shared layout)."""
    lib = library_layout(text)
    case = {"bases": {"register": [], "lane": [], "warp": [], "block": [], **bases}}
    if "offset" in bases:
        want, got = expected_offsets(case, shape), library_offsets(lib, shape)
    else:
        want = expected_thread_value(case, shape)
        got = library_thread_value(lib, *want.shape)
    assert tl.size(lib) == want.size, text
    np.testing.assert_array_equal(got, want, err_msg=text)


def same_threads(got: dict, want: dict) -> bool:
    """The same map from flat thread (lane + lanes x (warp + warps x block)) and register to elements: the lane /
    warp split may differ (CuTe text carries no lanes per warp), and one CTA holds what the blocks held."""
    flat = ("offset", "block") if "offset" in want else ("lane", "warp", "block")

    def cat(b):
        return [x for d in flat for x in b.get(d, [])]
    return cat(got) == cat(want) and got.get("register", []) == want.get("register", [])


def xor_in_bases(bases: dict, shape) -> bool:
    """Two of the hardware bases, flattened to row-major element indices, set the same bit: an XOR that integer
    strides cannot add (computed here from Triton's bases)."""
    seen = 0
    for dim in ("register", "lane", "warp", "block"):
        for b in bases.get(dim, []):
            x = 0
            for c, n in zip(b, shape):
                x = x * n + c
            if seen & x:
                return True
            seen |= x
    return False


# ----------------------------------------------------------------------------------------- every golden case


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_golden_case_through_the_command_line(case):
    """info's cute text, evaluated by tensor-layouts, gives Triton's bases; `--format cute` prints it; the text
    `info` gives back (`cute_input`) read through -l is Triton's layout again (its bases, and Triton's own printed
    grid where the view does not show the lane / warp split); without a CuTe form, the reason is one line and
    `--format cute` fails with it."""
    args = layout_args(case)
    shape = tensor_shape(args[3])
    d = json.loads(ok(["info", *args, "--json"]))
    if d["cute"] is None:
        reason = d["cute_reason"]
        assert reason and "\n" not in reason and d["cute_input"] is None
        assert xor_in_bases(case["bases"], shape) == (d["category"] == "distributed")
        assert error_line([*args, "--format", "cute"]) == f"no CuTe form: {reason}"
        return
    text = d["cute"]
    assert d["cute_reason"] is None
    assert_library_gives(text, case["bases"], shape)
    back_text = d["cute_input"]
    assert ok([*args, "--format", "cute"]) == back_text + "\n"       # the text says what it is (issue 32 A.9)
    word = "tv" if d["category"] == "distributed" else "shared"
    blocks = 1 << len(case["bases"].get("block", []))
    prefix = back_text[:len(back_text) - len(text)]
    assert back_text.endswith(text) and (prefix == "" or re.fullmatch(rf"cute-{word}(\[.*\])?: ", prefix)), back_text
    assert (f"ctas={blocks}" in prefix) == (blocks > 1)
    back = json.loads(ok(["info", "-l", back_text, "-t", args[3], "--json"]))
    assert back["category"] == d["category"]
    assert same_threads(back["bases"], case["bases"]), back["attr"]
    assert back["bases"].get("block", []) == case["bases"].get("block", [])      # blocks read back as blocks
    if back["bases"] == case["bases"] or not any(a in HW_FLAGS for a in case["args"]):
        hw = [a for a in case["args"] if a in HW_FLAGS][:1]
        printed = ok(["-l", back_text, "-t", args[3], *hw])
        want = expected_stdout(case)
        assert printed.splitlines()[0] == f"Print layout attribute: {back['attr']}"
        if not case["bases"].get("block"):           # one CTA: Triton's grid, line for line
            assert printed.splitlines()[1:] == want.splitlines()[1:]


@pytest.mark.parametrize("attr, ttype, text", TLX_VECTORS, ids=["blocked", "swizzled", "plain"])
def test_tlx_vectors_through_the_command_line(attr, ttype, text):
    assert ok(["-l", attr, "-t", ttype, "--format", "cute"]) == text + "\n"
    assert f"\ncute          {text}\n" in ok(["info", "-l", attr, "-t", ttype])
    assert ok(["-l", text, "-t", ttype]).startswith(f"Print layout attribute: {attr}\n")
    assert ok(["-l", "cute: " + text, "-t", ttype]) == ok(["-l", attr, "-t", ttype])


# ----------------------------------------------------------------------------------------- -r, -d, -s


def _golden(suite: str) -> list[dict]:
    lines = (ROOT / "golden" / suite / "cases.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]


CONVERT = {c["id"]: c for c in _golden("convert")}


def cute_of_bases(bases: dict, shape) -> str | None:
    """CuTe text for Triton's bases (ttlayout's writer), checked here with tensor-layouts before it is used."""
    ll = LinearLayout(bases, [(f"dim{d}", s) for d, s in enumerate(shape)])
    form = cute_form(ll)
    if form.layout is None:
        return None
    assert_library_gives(form.text, bases, shape)
    return form.text


@pytest.mark.parametrize("cid", sorted(CONVERT)[::9])
def test_convert_takes_cute_text_as_triton_lowers_it(cid):
    """`convert -r CUTE -d CUTE` on a sample of golden pairs: Triton's layouts (the thread mode split into warps of
    the --target's lanes: 64 on gfx942 / gfx950) and the path and scratch Triton's compiler chose."""
    case = CONVERT[cid]
    src, dst = (cute_of_bases(case[k], case["shape"]) for k in ("src_ll", "dst_ll"))
    if src is None or dst is None:
        pytest.skip("no CuTe form")
    shape = "x".join(map(str, case["shape"]))
    src, dst = (f"cute-tv: {t}" for t in (src, dst))
    got = json.loads(ok(["convert", "-r", src, "-d", dst, "-t", f"tensor<{shape}x{case['elem']}>", "--target",
                         case["target"], "--json"]))
    for key, triton in (("source", "src_ll"), ("destination", "dst_ll")):
        got_bases = bases_of(linear_layout(got[key], case["shape"]))
        assert {d: b for d, b in got_bases.items() if b} == {d: b for d, b in case[triton].items() if b}
    want = measured(case)
    assert (got["path"], got["scratch_bytes"], got["per_thread"]) == (want.path, case["scratch_bytes"], want.counts)


BANK = [c for c in _golden("bank") if c["exit"] == 0]


@pytest.mark.parametrize("case", BANK[::6], ids=lambda c: c["id"])
def test_bank_takes_cute_text_with_tritons_count(case):
    """`bank -r CUTE -s CUTE` gives Triton 3.9's get_shared_bank_conflicts count of the layouts the text is."""
    texts = []
    for attr in (case["reg"], case["shared"]):
        ll = linear_layout(attr, case["shape"])
        form = cute_form(ll)
        if form.layout is None or ll.has_in_dim("lane") and ll.get_in_dim_size("lane") != 32:
            pytest.skip("no CuTe form, or not 32 lanes (the text carries no lanes per warp)")
        assert_library_gives(form.text, bases_of(ll), case["shape"])
        texts.append(form.text)
    shape = "x".join(map(str, case["shape"]))
    got = json.loads(ok(["bank", "-r", texts[0], "-s", texts[1], "-t", f"tensor<{shape}xi{case['bitwidth']}>",
                         "--json"]))
    assert got["conflicts"] == case["conflicts"]


def test_lanes_per_warp_come_from_the_target(tmp_path):
    """128 threads x 8 values at 32x32: thread bits step columns 4, 8, 16, then rows 1, 2, 4, 8; values step
    columns 1, 2, then row 16. Warps of 32 lanes: threadsPerWarp [4, 8], warpsPerCTA [4, 1]; of 64 (gfx942):
    [8, 8] and [2, 1]."""
    text = "((_64,_2),(_4,_2)):((_4,_256),(_1,_512))"
    args = ["-r", text, "-s", "(_32,_32):(_32,_1)", "-t", "tensor<32x32xf16>", "--json"]
    blocked = "#ttg.blocked<{{sizePerThread = [1, 4], threadsPerWarp = {}, warpsPerCTA = {}, order = [1, 0]}}>"
    assert json.loads(ok(["bank", *args]))["register_layout"] == blocked.format([4, 8], [4, 1])
    assert json.loads(ok(["bank", *args, "--target", "gfx942"]))["register_layout"] == blocked.format([8, 8], [2, 1])
    rdna = ["convert", "-r", text, "-d", text, "-t", "tensor<32x32xf16>", "--target", "gfx1200", "--json"]
    assert json.loads(ok(rdna))["source"] == blocked.format([4, 8], [4, 1])          # RDNA4 runs wave32
    dump = tmp_path / "amd.ttgir"                       # no --target: the dump's ttg.target decides
    dump.write_text('#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n'
                    'module attributes {"ttg.num-warps" = 2 : i32, ttg.target = "hip:gfx942", '
                    '"ttg.threads-per-warp" = 64 : i32} {\n}\n')
    got = json.loads(ok(["bank", "-r", text, "-s", "#shared", "-i", str(dump), "-t", "tensor<32x32xf16>", "--json"]))
    assert got["register_layout"] == blocked.format([8, 8], [2, 1])
    assert layout(text, "tensor<32x32xf16>", lanes=64).title == blocked.format([8, 8], [2, 1])


def test_an_option_reads_its_own_kind_and_a_prefix_says_which():
    """At 32x32, `(_32,_32):(_32,_1)` is the row-major shared layout, or 32 threads holding a row each."""
    rows = "#ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>"
    plain = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
    t = ["-t", "tensor<32x32xf16>"]
    assert ok(["-l", "cute-shared: (_32,_32):(_32,_1)", *t]).startswith(f"Print layout attribute: {plain}\n")
    assert ok(["-l", "cute-tv: (_32,_32):(_32,_1)", *t]).startswith(f"Print layout attribute: {rows}\n")
    both = error_line(["-l", "(_32,_32):(_32,_1)", *t])               # written by someone else: both readings named
    assert "reads two ways" in both and "shared #ttg.swizzled_shared<{vec = 1" in both
    assert "thread-value #ttg.blocked<{sizePerThread = [1, 32]" in both
    got = json.loads(ok(["bank", "-r", "(_32,_32):(_32,_1)", "-s", "(_32,_32):(_32,_1)", *t, "--json"]))
    assert (got["register_layout"], got["shared_layout"]) == (rows, plain)
    d = json.loads(ok(["info", "-l", rows, *t, "--json"]))
    assert (d["cute"], d["cute_input"]) == ("(_32,_32):(_32,_1)", "cute-tv: (_32,_32):(_32,_1)")
    assert "\ncute          cute-tv: (_32,_32):(_32,_1)\n" in ok(["info", "-l", rows, *t])
    assert "\ncute          cute-shared: (_32,_32):(_32,_1)\n" in ok(["info", "-l", plain, *t])


def test_cute_text_in_t_with_the_same_encoding_is_one_layout():
    """A 128-byte swizzle at 64x64 f16: row bits 0-2 (offset bits 6-8) XOR the 8-element chunk (offset bits 3-5),
    which is Swizzle<3,3,3>; the same layout as the nvmma_shared encoding written in -t."""
    nvmma = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
    memdesc = f"!ttg.memdesc<64x64xf16, {nvmma}, #ttg.shared_memory>"
    out = ok(["-l", "Swizzle<3,3,3> o (_64,_64):(_64,_1)", "-t", memdesc])
    assert out.splitlines()[1:] == ok(["-l", nvmma, "-t", "tensor<64x64xf16>"]).splitlines()[1:]
    assert "different layouts" in error_line(["-l", "Swizzle<2,3,3> o (_64,_64):(_64,_1)", "-t", memdesc])


def test_print_format_cute_of_a_dump(tmp_path):
    """-i with -t: one line per alias (`#name = TEXT`); -i alone: one per alias and shape, and an alias without a
    CuTe form is one error line while the others still print (exit 1)."""
    dump = tmp_path / "k.ttgir"
    dump.write_text(f"#blocked = {BLOCKED}\n#xor = {XOR_LINEAR}\n"
                    "module {\n  tt.func @f(%a: tensor<32x32xf16, #blocked>, %b: tensor<2x4xf16, #xor>) {\n"
                    "    %0 = arith.addf %a, %a : tensor<32x32xf16, #blocked>\n"
                    "    %1 = arith.addf %b, %b : tensor<2x4xf16, #xor>\n    tt.return\n  }\n}\n")
    out = ok(["-i", str(dump), "--alias-names", "blocked", "-t", "tensor<32x32xf16>", "--format", "cute"])
    assert out == f"#blocked = {BLOCKED_CUTE}\n"
    code, out, err = run(["-i", str(dump), "--format", "cute"])
    assert code == 1
    assert out == f"#blocked = {BLOCKED_CUTE} at tensor<32x32xf16> (line 5)\n"
    assert err.startswith("ttlayout: error: #xor at tensor<2x4xf16>: no CuTe form: an XOR in a distributed layout")
    assert err.count("\n") == 1
    assert_library_gives(BLOCKED_CUTE, bases_of(linear_layout(BLOCKED, [32, 32])), [32, 32])


# ----------------------------------------------------------------------------------------- errors


ERRORS = [
    # 32 = 0b100000 and 33 = 0b100001 both set bit 5: CuTe adds them, a Triton layout would XOR
    (["-l", "((_4,_2),_2):((_32,_33),_1)", "-t", "tensor<64x2xf32>"],
     r"^CuTe text in -l at tensor<64x2>: thread mode 0 \(_4:_32\) and thread mode 1 \(_2:_33\) overlap: strides 32 "
     r"and 33 both set bit 5 of the element index"),
    (["-l", "((_4,_8),(_2,_3)):((_2,_16),(_1,_128))", "-t", "tensor<64x2xf32>"],
     r"value mode 1 \(_3:_128\) has size 3: a Triton layout needs every CuTe mode size to be a power of two$"),
    (["-l", "cute: (_32,_2):(_1", "-t", "tensor<64xf32>"], r"^column 19: expected ',' or '\)' but found end of input"),
    (["-l", "cute: 1 : i32", "-t", "tensor<4x4xf16>"], r"^column 11: expected an integer"),
    (["info", "-l", "(_32,_2):(_1,_32)"], r"^missing -t: CuTe layout text needs the tensor type for its shape"),
    (["bank", "-r", BLOCKED, "-s", "cute-tv: (_32,_32):(_32,_1)", "-t", "tensor<32x32xf16>"],
     r"^-s takes a shared layout, but its CuTe text says 'cute-tv:'"),
    (["bank", "-r", BLOCKED, "-s", "(_32,_32):(_0,_1)", "-t", "tensor<32x32xf16>"],
     r"^CuTe text in -s at tensor<32x32>: dim0 mode 0 \(_32:_0\) has stride 0"),
    # offsets 0..1023 hold the 32x32 elements: a row stride of 64 reaches past them
    (["bank", "-r", BLOCKED, "-s", "(_32,_32):(_64,_1)", "-t", "tensor<32x32xf16>"],
     r"^CuTe text in -s at tensor<32x32>: .* beyond the 1024 of the tensor$"),
    (["convert", "-r", BLOCKED, "-d", "((_32,_2,_2),_1):((_1,_32,_0),_0)", "-t", "tensor<32x32xf16>"],
     r"^CuTe text in -d at tensor<32x32>: no mode reaches bit 6 of the element index \(dim0 bit 1\)"),
    ([*["-l", XOR_LINEAR, "-t", "tensor<2x4xf16>"], "--format", "cute"],
     r"^no CuTe form: an XOR in a distributed layout: lane bit 0 -> \(0, 1\) and warp bit 0 -> \(1, 1\) both move "
     r"dim1 bit 0"),
    (["-l", "#ttg.padded_shared<[2:+1, 4:+2] {order = [1, 0], shape = [2, 4]}>", "-t", "tensor<2x4xf16>", "--format",
      "cute"], r"^no CuTe form: ttlayout writes no CuTe text for padded shared memory"),
]


@pytest.mark.parametrize("argv, message", ERRORS, ids=range(len(ERRORS)))
def test_errors_are_one_line_with_no_output_file(argv, message, tmp_path):
    assert re.search(message, error_line(argv)), error_line(argv)
    out = tmp_path / "out.txt"
    assert re.search(message, error_line([*argv, "-o", str(out)]))
    assert not out.exists()


def test_attribute_text_that_starts_like_cute_is_still_an_attribute():
    """`-l '1 : i32'` is Triton's golden error (a builtin attribute), not a CuTe parse error."""
    assert error_line(["-l", "1 : i32", "-t", "tensor<4x4xf16>"]) == "Unsupported tensor layout attribute: 1 : i32"


# ----------------------------------------------------------------------------------------- help, Python


def test_help_cute_is_the_shipped_document():
    assert "cute" in TOPICS
    doc = (ROOT / "docs" / "cute.md").read_text(encoding="utf-8")
    assert ok(["help", "cute"]) == doc.rstrip("\n") + "\n"
    for words in ("## Three worked examples", "A blocked layout", "An mma v2 accumulator", "A 128-byte swizzled"):
        assert words in doc
    assert "ttlayout help cute" in ok(["help", "notation"])
    assert "cute" in ok(["help"]).split("Help on a command or topic (")[1].split(")")[0]


def test_python_layout_cute_and_cute_text_in():
    b = layout(BLOCKED, "tensor<32x32xf16>")
    assert b.cute() == BLOCKED_CUTE
    assert_library_gives(b.cute(), bases_of(b.linear), [32, 32])
    back = layout(BLOCKED_CUTE, "tensor<32x32xf16>")
    assert back.title == BLOCKED and back.linear == b.linear
    with pytest.raises(UnsupportedError, match="^no CuTe form: an XOR in a distributed layout"):
        layout(XOR_LINEAR, "tensor<2x4xf16>").cute()
    shared = linear_layout("(_32,_32):(_1,_32)", [32, 32], "shared")        # column-major: offset = i + 32 j
    assert [list(b) for b in shared.get_in_dim_bases("offset")] == [[1 << k, 0] for k in range(5)] + \
        [[0, 1 << k] for k in range(5)]


# ----------------------------------------------------------------------------------------- docs, start-up


def test_readme_section_and_its_examples():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## CuTe notation\n", 1)[1].split("\n## ", 1)[0]
    for row in table_rows():
        assert row in section, row
    for attr, ttype, text in TLX_VECTORS:
        assert f"| `{attr}` | `{ttype}` | `{text}` |" in section
    examples: list = []
    for block in re.findall(r"^```\n(.*?)^```", section, re.M | re.S):
        for line in block.splitlines(keepends=True):
            if line.startswith("$ ttlayout "):
                examples.append([line[len("$ ttlayout "):-1], ""])
            else:
                examples[-1][1] += line
    assert len(examples) == 5
    for command, shown in examples:
        pipe = None
        if " | " in command:
            command, pipe = command.split(" | ")
        code, out, err = run(shlex.split(command))
        if pipe == "head -1":
            out = out.splitlines(keepends=True)[0]
        elif pipe == "grep cute":
            out = "".join(line for line in out.splitlines(keepends=True) if "cute" in line)
        assert out + err == shown, command


@pytest.mark.parametrize("argv, cute_loaded", [
    (["-l", BLOCKED, "-t", "tensor<16x16xf16>"], False),
    (["-l", BLOCKED_CUTE, "-t", "tensor<32x32xf16>"], True),
])
def test_print_loads_the_cute_modules_only_for_cute_text(argv, cute_loaded):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "linlayout_cli", *argv], capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-500:]
    modules = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")]
    assert "linlayout_cli.inputs" in modules
    assert any("cute" in m for m in modules) == cute_loaded, [m for m in modules if "cute" in m]
