"""ttlayout's engine vs. Triton 3.9's own linear layouts of the golden cases (suites core and mma).

Every success case printing one ``-l`` layout records Triton's ``toLinearLayout(shape, attr)``: its ``bases`` per
input dimension and its ``out_dims``, in Triton's order (``scripts/golden/linear.py``).  ttlayout's
``to_linear_layout(parse_attribute(attr), shape)`` must give exactly those.  Where Triton prints the view of
``linear_attr`` (those bases written as an attribute, in Triton's canonical print) exactly like the case's view
(``linear_same_view``), ttlayout must print that attribute exactly as Triton does too.
"""
from __future__ import annotations

import pytest
from golden_cases import (
    ROOT,
    case_id,
    expected_stdout,
    load_suite,
    option_values,
    replace_layout,
    short_diff,
    tensor_shape,
)

from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.parsing import parse_attribute

SUITES = ("core", "mma")
ALL = [c for suite in SUITES for c in load_suite(suite)]
CASES = [c for c in ALL if "bases" in c]
SAME_VIEW = [c for c in CASES if c["linear_same_view"]]


def prints_one_layout(case):
    values = option_values(case["args"])
    return case["exit"] == 0 and "l" in values and "i" not in values


def test_every_single_layout_success_case_has_triton_bases():
    missing = [case_id(c) for c in ALL if prints_one_layout(c) and "bases" not in c]
    assert not missing, "regenerate with scripts/make_golden.py: %s" % missing[:10]
    assert len(CASES) > 600


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_engine_bases_are_tritons(case):
    values = option_values(case["args"])
    ll = to_linear_layout(parse_attribute(values["l"]), tensor_shape(values["t"]))
    got = [(dim, [list(b) for b in bases]) for dim, bases in ll.get_bases().items()]
    assert got == list(case["bases"].items()), case["note"]
    assert ll.get_out_dims() == list(case["out_dims"].items()), case["note"]


@pytest.fixture(scope="module")
def run():
    from linlayout_cli.cli import run as _run

    return _run


@pytest.mark.parametrize("case", SAME_VIEW, ids=[case_id(c) for c in SAME_VIEW])
def test_linear_attr_prints_like_triton(case, run, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run(replace_layout(case["args"], case["linear_attr"]))
    assert code == 0, err
    view = expected_stdout(case).split("\n", 1)[1]
    expected = "Print layout attribute: %s\n%s" % (case["linear_attr"], view)
    if out != expected:
        pytest.fail("stdout differs from Triton (%s)\n%s" % (case["note"], short_diff(expected, out)), pytrace=False)
