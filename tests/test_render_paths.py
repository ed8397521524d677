"""The plain-Python renderer (small layouts) and the numpy renderers (everything else) against Triton's golden
text: every golden case that prints is rendered by each path in turn, whatever its size."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linlayout_cli import render
from linlayout_cli.cli import run
from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.errors import TTLayoutError
from linlayout_cli.parser import parse_attribute
from linlayout_cli.render.small import entries

try:
    from golden_cases import ROOT, case_id, expected_stdout, load_suite, short_diff
except ImportError:  # tests/ used as a package
    from tests.golden_cases import ROOT, case_id, expected_stdout, load_suite, short_diff
try:
    from test_properties import KINDS
except ImportError:  # tests/ used as a package
    from tests.test_properties import KINDS

PRINTED = [c for s in ("core", "files", "mma") for c in load_suite(s) if c["exit"] == 0 and "ttlayout" not in c]
LIMITS = {"numpy": 0, "python": 1 << 62}


@pytest.mark.parametrize("path", sorted(LIMITS))
def test_path_matches_triton(path, monkeypatch):
    assert len(PRINTED) > 500
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(render, "SMALL_LIMIT", LIMITS[path])
    for case in PRINTED:
        code, out, err = run(list(case["args"]))
        expected = expected_stdout(case)
        assert code == 0 and out == expected, "%s path, %s (%s)\n%s%s" % (
            path, case_id(case), case["note"], err, short_diff(expected, out))


def _render(layout, hw: bool, limit: int) -> str:
    old, render.SMALL_LIMIT = render.SMALL_LIMIT, limit
    try:
        return render.layout_str(layout, hw)
    finally:
        render.SMALL_LIMIT = old


@pytest.mark.parametrize("kind", sorted(KINDS))
@given(data=st.data())
def test_paths_agree_on_random_layouts(kind, data, fuzz_counter):
    """Random valid layouts of every kind and random shapes up to 4096 elements: identical text from both paths."""
    attr = parse_attribute(data.draw(KINDS[kind], label="attribute"))
    dims = data.draw(st.lists(st.integers(0, 5).map(lambda k: 1 << k), min_size=attr.rank, max_size=attr.rank)
                     .filter(lambda d: math.prod(d) <= 4096), label="shape")
    try:
        layout = to_linear_layout(attr, dims)
    except TTLayoutError:
        return
    if entries(layout) > 1 << 14:
        return
    for hw in (False, True):
        assert _render(layout, hw, LIMITS["python"]) == _render(layout, hw, LIMITS["numpy"]), (str(attr), dims, hw)
    fuzz_counter["property"] += 1
