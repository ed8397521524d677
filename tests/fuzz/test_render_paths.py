"""The three renderers against Triton's golden text: plain Python (small layouts), row templates (large ones whose
text repeats) and numpy (everything else). Every golden case that prints is rendered by each path in turn,
whatever its size; the templates run with tiny units, so rows split across units and units of several rows
both occur, and without their cost limit, so they take every layout they can."""
from __future__ import annotations

import math

import pytest
from golden_cases import ROOT, case_id, expected_stdout, load_suite, short_diff
from hypothesis import given
from hypothesis import strategies as st
from test_properties import KINDS

from linlayout_cli import render
from linlayout_cli.attributes.encodings import PaddedSharedEncoding, PartitionedSharedEncoding
from linlayout_cli.cli import run
from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.conversions.padded_shared import padding_of
from linlayout_cli.errors import TTLayoutError
from linlayout_cli.parsing import parse_attribute
from linlayout_cli.render import memory, templates
from linlayout_cli.render.small import entries

PRINTED = [c for s in ("core", "files", "mma") for c in load_suite(s) if c["exit"] == 0 and "ttlayout" not in c]
PATHS = ("numpy", "python", "templates")


def _use(path: str, monkeypatch, fields: int = 8) -> None:
    """Route every render through one path."""
    monkeypatch.setattr(render, "SMALL_LIMIT", 1 << 62 if path == "python" else 0)
    monkeypatch.setattr(templates, "FIELDS", fields)
    monkeypatch.setattr(templates, "MAX_COST_SHARE", float("inf"))
    if path == "numpy":
        monkeypatch.setattr(templates, "render", lambda layout, hw, write: False)


@pytest.mark.parametrize("path", PATHS)
def test_path_matches_triton(path, monkeypatch):
    assert len(PRINTED) > 500
    monkeypatch.chdir(ROOT)
    _use(path, monkeypatch)
    for case in PRINTED:
        code, out, err = run(list(case["args"]))
        expected = expected_stdout(case)
        assert code == 0 and out == expected, "%s path, %s (%s)\n%s%s" % (
            path, case_id(case), case["note"], err, short_diff(expected, out))


def test_templates_take_the_golden_layouts(monkeypatch):
    """The template path is not silently declining: it renders most golden layouts itself (the others miss
    elements, or are multi-CTA shared layouts whose blocks show fewer offsets than they hold)."""
    _use("templates", monkeypatch, fields=templates.FIELDS)
    taken = []
    real = templates.render

    def counted(layout, hw, write):
        taken.append(real(layout, hw, write))
        return taken[-1]
    monkeypatch.setattr(templates, "render", counted)
    monkeypatch.chdir(ROOT)
    for case in PRINTED[::7]:
        run(list(case["args"]))
    assert len(taken) > 90 and sum(taken) >= 0.9 * len(taken), (sum(taken), len(taken))


def _render(layout, hw: bool, path: str, attr=None) -> str:
    """Triton's views of `layout` through one path, or for a padded / partitioned shared `attr` ttlayout's memory
    view."""
    with pytest.MonkeyPatch.context() as mp:
        _use(path, mp, fields=4)
        if not isinstance(attr, (PaddedSharedEncoding, PartitionedSharedEncoding)):
            return render.layout_str(layout, hw)
        inner = getattr(attr, "partition_layout", attr)
        padding = padding_of(inner) if isinstance(inner, PaddedSharedEncoding) else None
        parts: list[bytes] = []
        (memory.shared_hardware_view if hw else memory.shared_tensor_view)(layout, padding, parts.append)
        return b"".join(parts).decode()


@pytest.mark.parametrize("kind", sorted(KINDS))
@given(data=st.data())
def test_paths_agree_on_random_layouts(kind, data, fuzz_counter):
    """Random valid layouts of every kind and random shapes up to 4096 elements: identical text from all paths."""
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
        texts = {path: _render(layout, hw, path, attr) for path in PATHS}
        assert texts["python"] == texts["numpy"] == texts["templates"], (str(attr), dims, hw)
    fuzz_counter["property"] += 1


SMALL_PRINTED = [c for c in PRINTED if int(c["id"].split("-")[-1]) % 5 == 0]


@pytest.mark.parametrize("chunk", [2, 16])
def test_numpy_batches_match_triton(chunk, monkeypatch):
    """The numpy renderers with tiny batches and tables, so that every branch meant for huge tensors runs on the
    golden cases: rows split across batches, one warp or block at a time, cells streamed in chunks (very
    replicated layouts), entries and coordinates formatted without look-up tables."""
    from linlayout_cli.render import chars, distributed
    monkeypatch.chdir(ROOT)
    _use("numpy", monkeypatch)
    monkeypatch.setattr(distributed, "CHUNK", chunk)
    monkeypatch.setattr(distributed, "TABLE_LIMIT", chunk)
    monkeypatch.setattr(chars, "TABLE_SIZE", chunk)
    for case in SMALL_PRINTED:
        code, out, err = run(list(case["args"]))
        expected = expected_stdout(case)
        assert code == 0 and out == expected, "CHUNK %d, %s (%s)\n%s%s" % (
            chunk, case_id(case), case["note"], err, short_diff(expected, out))


def test_partial_layout_leaves_cells_empty():
    """A layout that does not reach every element (an amd_wmma with non-power-of-two warp bases is one):
    register 1 -> (0, 1), lane 1 -> (0, 0), so row 1 is never held. Worked out by hand."""
    from linlayout_cli.engine import LinearLayout
    layout = LinearLayout({"register": [[0, 1]], "lane": [[0, 0]]}, [("dim0", 2), ("dim1", 2)],
                          require_surjective=False)
    for path in PATHS:
        assert _render(layout, False, path) == "[[T0:0|T1:0, T0:1|T1:1]\n[ , ]]\n"
        assert _render(layout, True, path) == "Warp0:\n(0,0), (0,0)\n(0,1), (0,1)\n"


@pytest.mark.parametrize("fields", [4096, 64])
@pytest.mark.parametrize("attr, shape", [
    ("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>", [512, 256]),
    ("#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1], CTAsPerCGA = [1, 2], "
     "CTASplitNum = [1, 2], CTAOrder = [1, 0]}>", [512, 512]),
])
def test_shared_hardware_view_numbers_six_digit_offsets(attr, shape, fields, monkeypatch):
    """Offsets past 10,000 and 100,000 (digits written column by column, a unit crossing a power of ten), and
    the numbering restarting at each block: the templates give numpy's text, which the golden cases check."""
    layout = to_linear_layout(parse_attribute(attr), shape)
    texts = {}
    for path in ("numpy", "templates"):
        with monkeypatch.context() as patch:
            _use(path, patch, fields)
            texts[path] = render.layout_str(layout, True)
    assert texts["templates"] == texts["numpy"]
    text = texts["templates"]
    last_offset = math.prod(shape) // text.count("Block: ") - 1
    assert "Offset: 99999 -> " in text and text.splitlines()[-1].startswith("Offset: %d -> " % last_offset)


@pytest.mark.parametrize("start, count", [(0, 4096), (98, 4), (9_990, 20), (99_995, 4096), (1_234_567, 1000)])
def test_digit_columns(start, count):
    """Each decimal place of a run of numbers, against str()."""
    for place in range(7):
        expected = bytes(48 + (n // 10 ** place) % 10 for n in range(start, start + count))
        assert templates._digit_column(place, start, count) == expected
