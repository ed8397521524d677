"""Issue 32 A.8: every command that answers for one layout takes every kind the print command takes.

Tensor memory against Triton 3.9 itself (golden/memory, written by scripts/golden/memory.py from the oracle):
`info` shows Triton's toLinearLayout bases and getTmemAllocSizes; `lookup --element` names the places the print
command's tensor memory view shows for that element; `diff` says equal exactly when Triton's bases are equal.
Then the matrix: each kind of the golden suites x info, lookup, diff and the json / svg / cute formats."""
from __future__ import annotations

import json
import re

import pytest
from golden_cases import load_suite

from linlayout_cli.cli import run

TMEM_CASES = [c for c in load_suite("memory") if c["kind"].startswith("tensor_memory") and c["exit"] == 0
              and c.get("alloc") is not None]


def _type(case) -> str:
    return f"tensor<{'x'.join(map(str, case['shape']))}x{case['dtype']}>"


def _ids(cases):
    return [c["id"] for c in cases]


@pytest.mark.parametrize("case", TMEM_CASES, ids=_ids(TMEM_CASES))
def test_info_gives_tritons_bases_and_allocation(case):
    code, out, err = run(["info", "-l", case["attr"], "-t", _type(case), "--json"])
    assert code == 0, err
    got = json.loads(out)
    assert got["category"] == "tensor memory"
    assert {d: got["bases"].get(d, []) for d in case["bases"]} == case["bases"]
    assert got["out_dims"] == case["out_dims"]
    assert got["tensor_memory"]["alloc"] == case["alloc"]             # Triton's getTmemAllocSizes
    code, text, err = run(["info", "-l", case["attr"], "-t", _type(case)])
    assert code == 0, err
    rows, cols = case["alloc"]
    assert f"{rows} rows x {cols} 32-bit column" in text


_CELL = re.compile(r"(?:B\d+:)?R\d+:C\d+(?:\.\d+)?")


def _view_cells(case) -> list[list[str]]:
    """The print command's tensor memory view, cell by cell (each cell's holder names)."""
    code, out, err = run(["-l", case["attr"], "-t", _type(case)])
    assert code == 0, err
    rows = [line for line in out.splitlines()[1:] if line.strip()]
    return [[_CELL.findall(cell) for cell in re.split(r",\s(?=\s*(?:B\d+:)?R)", row)] for row in rows]


@pytest.mark.parametrize("case", TMEM_CASES[::4], ids=_ids(TMEM_CASES[::4]))
def test_lookup_element_names_the_places_the_view_shows(case):
    cells = _view_cells(case)
    n0, n1 = case["shape"]
    assert len(cells) == n0 and all(len(r) == n1 for r in cells)
    for i, j in {(0, 0), (n0 - 1, n1 - 1), (n0 // 2, n1 // 3), (n0 // 3 + 1, n1 - 1), (1, 1 % n1)}:
        code, out, err = run(["lookup", "-l", case["attr"], "-t", _type(case), "--element", f"{i},{j}", "--json"])
        assert code == 0, err
        assert [p["name"] for p in json.loads(out)["places"]] == cells[i][j], (i, j)


def test_lookup_thread_and_offset_on_tensor_memory_say_what_it_has():
    case = TMEM_CASES[0]
    for option in (["--thread", "3"], ["--offset", "3"]):
        code, out, err = run(["lookup", "-l", case["attr"], "-t", _type(case), *option])
        assert code == 1 and not out
        assert err.count("\n") == 1 and "tensor memory layout has rows and columns" in err


def test_diff_of_tensor_memory_layouts_is_equal_exactly_when_tritons_bases_are():
    by_shape: dict = {}
    for c in TMEM_CASES:
        by_shape.setdefault((_type(c), c["dtype"]), []).append(c)
    pairs = [(a, b) for group in by_shape.values() for a in group[:4] for b in group[:4] if a is not b]
    assert len(pairs) >= 6
    for a, b in pairs:
        code, out, err = run(["diff", a["attr"], b["attr"], "-t", _type(a), "--exit-code"])
        assert code == (0 if a["bases"] == b["bases"] else 1), (a["id"], b["id"], err)
        assert out.startswith("equal:" if a["bases"] == b["bases"] else "different:")


def test_diff_of_tensor_memory_and_a_register_layout_names_both_kinds():
    case = TMEM_CASES[0]
    blocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
    code, out, err = run(["diff", case["attr"], blocked, "-t", _type(case)])
    assert code == 0, err
    assert "A is a tensor memory layout, B a distributed one" in out
