"""Gluon constructors, both ways, against Triton 3.9's Gluon (``golden/gluon``, written by ``scripts/golden/gluon.py``).

Out: ``ttlayout info`` prints each golden layout as Gluon code (``gluon``: its own class, ``gluon_linear``: the
linear one). The recorded texts must still be ttlayout's, Triton's Gluon must have built from them a layout with
the case's very view and bases, and ttlayout must read each text back to the attribute Triton's Gluon built and
print the case's grid again. In: every Gluon layout class of Triton 3.9 has hand-written cases whose Triton view
(or refusal) ttlayout must reproduce; bad constructors fail with one clean line and nothing is ever executed.
"""
from __future__ import annotations

import ast
import builtins
import json

import pytest
from golden_cases import GOLDEN, case_id, expected_stdout, load_suite, option_values, replace_layout, short_diff

from linlayout_cli import inputs
from linlayout_cli.cli import run
from linlayout_cli.errors import TTLayoutError
from linlayout_cli.parsing import gluon as reader
from linlayout_cli.reports import gluon as writer

RECORDS = load_suite("gluon")
TRIPS = [c for c in RECORDS if "source" in c]
HAND = [c for c in RECORDS if "source" not in c]
SOURCES = {case_id(c): c for suite in ("core", "mma") for c in load_suite(suite) if "bases" in c}
ROLES = (("class", "gluon"), ("linear", "gluon_linear"))

# Where Triton's Gluon cannot confirm a text although the text is right (the view agrees): its to_linear_layout
# wraps every distributed layout in a #ttg.linear, which aborts unless the bases are a permutation matrix.
KNOWN_NO_BASES = "LinearEncodingAttr requires a permutation matrix layout"


def texts(rec):
    """(role, text) of a round-trip record; the class text only where it differs from the linear one."""
    out = [("linear", rec["gluon_linear"])]
    if rec["gluon"] != rec["gluon_linear"]:
        out.append(("class", rec["gluon"]))
    return [(role, t) for role, t in out if t is not None]


def header(stdout: str) -> str:
    return stdout.split("\n", 1)[0][len("Print layout attribute: "):]


def view(stdout: str) -> str:
    return stdout.split("\n", 1)[1]


def one_error_line(code, out, err):
    assert code == 1 and out == ""
    assert err.startswith("ttlayout: error: ") and err.count("\n") == 1 and "Traceback" not in err, err


def test_every_golden_layout_is_round_tripped():
    assert sorted(SOURCES) == sorted(c["source"] for c in TRIPS)
    assert len(TRIPS) > 600 and len(HAND) > 60


@pytest.mark.parametrize("rec", TRIPS, ids=[c["id"] for c in TRIPS])
def test_info_prints_the_recorded_texts(rec):
    values = option_values(SOURCES[rec["source"]]["args"])
    tensor = values["t"]
    if tensor.startswith("tensor<") and "," in tensor:      # an encoding in -t, deliberately different from -l
        tensor = tensor.split(",", 1)[0] + ">"
    code, out, err = run(["info", "-l", values["l"], "-t", tensor, "--json"])
    assert code == 0, err
    d = json.loads(out)
    assert (d["gluon"], d["gluon_linear"]) == (rec["gluon"], rec["gluon_linear"]), \
        "ttlayout's Gluon texts changed: regenerate with python3 -m scripts.golden --suite gluon"


@pytest.mark.parametrize("rec", TRIPS, ids=[c["id"] for c in TRIPS])
def test_triton_builds_the_same_layout(rec):
    """Triton's Gluon gave each text the case's view and bases, and the class text the case's very attribute."""
    src = SOURCES[rec["source"]]
    for role, _ in texts(rec):
        assert rec[role + "_same_view"] is True, rec.get(role + "_error")
        if rec[role + "_same_bases"] is None:
            assert KNOWN_NO_BASES in rec[role + "_error"]
        else:
            assert rec[role + "_same_bases"] is True
    own_class = src["kind"] not in ("linear", "generic_linear")       # those are rebuilt at their own size
    if rec["gluon"] not in (None, rec["gluon_linear"]) and own_class:
        assert rec["class_attr"] == header(expected_stdout(src))
    # no linear text exactly where Triton's own linear attribute of these bases does not reproduce the case
    assert (rec["gluon_linear"] is None) == (src["linear_attr"] is None or not src["linear_same_view"])


@pytest.mark.parametrize("rec", TRIPS, ids=[c["id"] for c in TRIPS])
def test_texts_read_back_as_tritons_attribute_and_grid(rec):
    src = SOURCES[rec["source"]]
    for role, text in texts(rec):
        assert str(inputs.attribute(text)) == rec[role + "_attr"]
        code, out, err = run(replace_layout(src["args"], text))
        assert code == 0, err
        assert header(out) == rec[role + "_attr"]
        if view(out) != view(expected_stdout(src)):
            pytest.fail("%s text prints another grid\n%s" % (role, short_diff(view(expected_stdout(src)), view(out))),
                        pytrace=False)


@pytest.mark.parametrize("case", HAND, ids=[c["id"] for c in HAND])
def test_hand_written_case_is_read_like_tritons_gluon(case):
    args = ["-l", case["gluon"], "-t", "tensor<%sxf16>" % "x".join(map(str, case["shape"]))]
    code, out, err = run(args + (["-use-hw-view"] if case["hw"] else []))
    if case["stdout"] is None and case["exit"] != 0:   # Triton's Gluon refused it
        one_error_line(code, out, err)
    elif case["stdout"] is None:                # Triton built it but cannot view it (padded, partitioned, TMEM):
        assert code == 0 and header(out) == case["attr"], err   # ttlayout's own views (commands/test_memory_views.py)
    else:
        assert code == 0, err
        assert out == "Print layout attribute: %s\n%s" % (case["attr"], (GOLDEN / "gluon" / case["stdout"]).read_text())
    if case["exit"] == 0:
        assert str(inputs.attribute(case["gluon"])) == case["attr"]
    else:
        with pytest.raises(TTLayoutError):
            inputs.attribute(case["gluon"])


BUILT = [c for c in HAND if c["exit"] == 0]


@pytest.mark.parametrize("case", BUILT, ids=[c["id"] for c in BUILT])
def test_class_text_of_tritons_attribute_builds_it_again(case):
    attr = inputs.attribute(case["attr"])
    assert str(inputs.attribute(writer.class_text(attr))) == case["attr"]


def test_every_gluon_class_has_hand_written_cases():
    built = {reader.class_name(ast.parse(c["gluon"], mode="eval").body.func) for c in BUILT}
    assert built == set(reader.CLASSES)


def test_hand_written_facts_about_layouts_ttlayout_cannot_print():
    """Triton's own answers kept for later: padded and partitioned layouts, tensor memory."""
    facts = {c["id"]: c for c in HAND}
    assert "cannot be visualized" in facts["padded_shared-001"]["view_error"]
    assert "no linear layout" in facts["padded_shared-001"]["linear_error"]
    assert facts["partitioned_shared-001"]["linear"]["bases"]["offset"]       # the 'partition' in-dim is dropped
    assert set(facts["tensor_memory-001"]["linear"]["bases"]) == {"row", "col"}


B = "BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])"


@pytest.mark.parametrize("text", ["ttgl." + B, "gl." + B, "triton.experimental.gluon.language." + B, B,
                                  "ttgl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])",
                                  "ttgl.BlockedLayout((1, 4), (4, 8), [4, 1], order=(1, 0), cga_layout=[])",
                                  "  ttgl.BlockedLayout(\n [1, 4], [4, 8],\n [4, 1], [1, 0],\n)  "])
def test_spellings_of_one_constructor(text):
    assert str(inputs.attribute(text)) == ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
                                           "warpsPerCTA = [4, 1], order = [1, 0]}>")


@pytest.mark.parametrize("text, words", [
    ("ttgl.FooLayout(1)", "unknown Gluon layout class ttgl.FooLayout"),
    ("ttgl.BlockedLayout([1], [32], [4], [0], sizes=[1])", "has no argument 'sizes'"),
    ("ttgl.BlockedLayout([1], [32], [4])", "missing argument 'order'"),
    ("ttgl.BlockedLayout(size_per_thread=1, threads_per_warp=[32], warps_per_cta=[4], order=[0])",
     "'size_per_thread' must be a list of integers"),
    ("ttgl.amd.AMDMFMALayout(3, [32, 32, 8], 1, [2, 2])", "'transposed' must be True or False, got 1"),
    ("ttgl.BlockedLayout([1], [32], [4], ['0'])", "'order' must be a non-negative integer, got '0'"),
    ("ttgl.BlockedLayout([1], [32], [4], [0], order=[0])", "argument 'order' twice"),
    ("ttgl.BlockedLayout([1], [32], [4], [0], [], 7)", "at most 5 arguments, got 6"),
    ("ttgl.SliceLayout(0, ttgl.SwizzledSharedLayout(1, 1, 1, [0]))", "parent must be a distributed layout"),
    ("ttgl.DotOperandLayout(0, [1], 2)", "'parent' must be a Gluon layout constructor call"),
    ("ttgl.DistributedLinearLayout([[1]], [], [], [], [4])", "must reach every element of shape [4]"),
    ("ttgl.NVMMASharedLayout(64, 8, fp4_padded=True)", "fp4_padded only supports 128 byte swizzling"),
    ("ttgl.amd.BlockedLayout([1], [32], [4], [0])", "Gluon's BlockedLayout is ttgl.BlockedLayout"),
    ("ttgl.BlockedLayout([1], [32], [4], [0]", "not a Gluon constructor call"),
    ("ttgl.BlockedLayout(*[[1], [32], [4], [0]])", "'*' and '**' arguments are not supported"),
    ("ttgl.BlockedLayout(**{'order': [0]})", "'*' and '**' arguments are not supported"),
])
def test_bad_constructor_is_one_clean_line_naming_the_problem(text, words):
    code, out, err = run(["-l", text, "-t", "tensor<4xf16>"])
    one_error_line(code, out, err)
    assert words in err


@pytest.mark.parametrize("text", [
    "__import__('os').system('touch {marker}')",
    "ttgl.BlockedLayout.__init__(__import__('os').system('touch {marker}'))",
    "ttgl.BlockedLayout([__import__('os').system('touch {marker}')], [32], [4], [0])",
    "ttgl.BlockedLayout([1], [32], [4], [0], cga_layout=open('{marker}', 'w'))",
    "ttgl.__class__.__base__.__subclasses__()",
    "ttgl.BlockedLayout((lambda: open('{marker}', 'w'))(), [32], [4], [0])",
    "ttgl.BlockedLayout([x for x in [1]], [32], [4], [0])",
    "ttgl.BlockedLayout([1], [32], [4], [0]) if open('{marker}', 'w') else 0",
    "eval('1')",
])
def test_constructor_text_is_never_executed(text, tmp_path, monkeypatch):
    marker = tmp_path / "executed"

    def refuse(*_args, **_kwargs):
        raise AssertionError("the Gluon text reached eval/exec")
    for name in ("eval", "exec"):
        monkeypatch.setattr(builtins, name, refuse)
    code, out, err = run(["-l", text.format(marker=marker), "-t", "tensor<4xf16>"])
    one_error_line(code, out, err)
    assert not marker.exists()


def test_info_says_so_where_gluon_has_no_layout():
    src = SOURCES["core/rotating-001"]            # amd_rotating_shared whose bases are no shared_linear
    values = option_values(src["args"])
    code, out, err = run(["info", "-l", values["l"], "-t", values["t"], "--json"])
    assert code == 0 and json.loads(out)["gluon"] is None and json.loads(out)["gluon_linear"] is None
    code, out, err = run(["info", "-l", values["l"], "-t", values["t"]])
    assert code == 0 and "none: Gluon builds no layout with these bases" in out


def test_shared_linear_takes_no_shape_and_distributed_linear_checks_its_own():
    code, out, err = run(["-l", "ttgl.SharedLinearLayout([[0, 1], [1, 0]])", "-t", "tensor<2x2xf16>"])
    assert code == 0 and header(out) == "#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>", err
    code, out, err = run(["-l", "ttgl.DistributedLinearLayout([[1]], [], [], [], [2, 2])", "-t", "tensor<2x2xf16>"])
    one_error_line(code, out, err)
    assert "every entry of reg_bases must have 2 values" in err


def test_mlir_text_still_goes_to_the_mlir_parser():
    assert not reader.looks_like_gluon("#ttg.blocked<{sizePerThread = [1]}>")
    assert not reader.looks_like_gluon('loc("x.py":1:2)')
    assert reader.looks_like_gluon("ttgl.BlockedLayout(")
    assert reader.looks_like_gluon(" BlockedLayout (")
