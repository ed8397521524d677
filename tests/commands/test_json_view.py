"""`--format json` (`--json`) of the print command: the same grid as Triton's text, read back from the JSON, on every
golden case; with tiny batches too, so every branch meant for huge tensors runs."""
from __future__ import annotations

import json
import re

import pytest
from golden_cases import ROOT, case_id, expected_stdout, load_suite

from linlayout_cli.cli import run

PRINTED = [c for s in ("core", "files", "mma") for c in load_suite(s) if c["exit"] == 0 and "ttlayout" not in c]
HW_FLAGS = ("-use-hw-view", "--use-hw-view", "-use-hw-view=true")
COORD = re.compile(r"\(([^)]*)\)")


def json_stream(text: str) -> list[dict]:
    """Every JSON object of the output, in order (one per layout)."""
    out, dec, i = [], json.JSONDecoder(), 0
    while i < len(text):
        obj, i = dec.raw_decode(text, i)
        out += obj["layouts"] if set(obj) == {"layouts"} else [obj]     # -i FILE: one document listing them
        while i < len(text) and text[i].isspace():
            i += 1
    return out


def sections(text: str) -> list[list[str]]:
    """Triton's output split per printed layout (header line dropped, blank separator lines dropped)."""
    out: list[list[str]] = []
    for row in text.split("\n"):
        if row.startswith("Print layout attribute: "):
            out.append([])
        elif row:
            out[-1].append(row)
    return out


def leaves(x, depth: int) -> list:
    return [x] if depth == 0 else [leaf for item in x for leaf in leaves(item, depth - 1)]


def holder_name(h, sizes) -> str:
    block, warp, lane, register = h
    return (f"B{block}:" if sizes["block"] > 1 else "") + f"T{lane + warp * sizes['lane']}:{register}"


def check_tensor(obj: dict, rows: list[str]):
    shared = obj["kind"] == "shared"
    cells = []
    for row in rows:
        cells += [c.strip() for c in row.lstrip("[").rstrip("]").split("," if shared else ", ")]
    elements = leaves(obj["elements"], len(obj["shape"]))
    assert len(elements) == len(cells)
    if not shared:
        for holders, cell in zip(elements, cells):
            assert [holder_name(h, obj["sizes"]) for h in holders] == [c.strip() for c in cell.split("|") if c.strip()]
        return
    per_block = len(cells) // obj["sizes"].get("block", 1)
    shape = obj["shape"]
    for e, places in enumerate(elements):
        coords, rest = [], e
        for size in reversed(shape):
            coords.append(rest % size)
            rest //= size
        want = ":".join(str(c) for c in reversed(coords))
        for block, offset in places:
            if offset < per_block:           # Triton shows block b's first n / blocks offsets only
                assert cells[block * per_block + offset].strip("()").replace(" ", "") == want


def check_hardware(obj: dict, rows: list[str]):
    if obj["kind"] == "shared":
        printed: list[list[str]] = []
        for r in rows:
            if r.startswith("Block: "):
                printed.append([])
            else:
                printed[-1].append(COORD.search(r).group(1).replace(" ", ""))
        got = [[",".join(map(str, c)) for c in block] for block in obj["hardware"]]
        assert len(got) == len(printed)
        for shown, block in zip(printed, got):      # Triton shows each block's first n / blocks offsets only
            assert shown == block[:len(shown)]
        return
    printed = [[c.replace(" ", "") for c in COORD.findall(r)] for r in rows if r.startswith("(")]
    got = [[",".join(map(str, c)) for c in reg] for block in obj["hardware"] for warp in block for reg in warp]
    assert printed == got


def check_case(case):
    code, out, err = run(list(case["args"]) + ["--json"])
    assert code == 0, err
    objects = json_stream(out)
    expected = sections(expected_stdout(case))
    assert len(objects) == len(expected)
    hw = any(a in HW_FLAGS for a in case["args"])
    for obj, rows in zip(objects, expected):
        assert obj["view"] == ("hardware" if hw else "tensor")
        (check_hardware if hw else check_tensor)(obj, rows)


@pytest.mark.parametrize("case", PRINTED, ids=case_id)
def test_json_grid_is_tritons_grid(case, monkeypatch):
    monkeypatch.chdir(ROOT)
    check_case(case)


@pytest.mark.parametrize("chunk", [2, 16])
def test_json_in_tiny_batches(chunk, monkeypatch):
    from linlayout_cli.render import distributed
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(distributed, "CHUNK", chunk)
    for case in PRINTED[::(29 if chunk == 2 else 7)]:
        check_case(case)


def test_json_spellings_and_header():
    b = "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>"
    a = run(["-l", b, "-t", "tensor<8xf16>", "--json"])
    assert a == run(["-l", b, "-t", "tensor<8xf16>", "--format", "json"])
    obj = json.loads(a[1])
    assert obj["layout"] == b and obj["shape"] == [8] and obj["holder"] == ["block", "warp", "lane", "register"]
    # sizePerThread 2, 4 lanes, 2 warps over 8 elements: element 3 is lane 1's register 1, in both warps
    assert obj["elements"][3] == [[0, 0, 1, 1], [0, 1, 1, 1]]
