"""Issue 32 A.8: the SVG and HTML pictures of the padded, partitioned and tensor memory views hold what their text
views hold.

Every successful case of the `memory` golden suite (written from Triton 3.9 by scripts/golden/memory.py): the
picture's cells, in both views, are read back and compared with the print command's text of the same view (cell
labels, cell counts, the padding cells, the holder lists); the page's JavaScript (page.js, run with node) prints
the same text views from the bases the page embeds. Big tensors are drawn in tiles whose labels are the real places
of the tiles' first elements, within the same size bounds as the other pictures."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from golden_cases import ROOT, load_suite

from linlayout_cli import inputs
from linlayout_cli.cli import run
from linlayout_cli.render import memory_svg, svg

CASES = [c for c in load_suite("memory") if c["exit"] == 0]
NODE = shutil.which("node")
PAGE_JS = ROOT / "linlayout_cli" / "render" / "page.js"
SVG_NS = "{http://www.w3.org/2000/svg}"


def _type(case) -> str:
    return f"tensor<{'x'.join(map(str, case['shape']))}x{case['dtype']}>"


def _printed(attr: str, ttype: str):
    return inputs.printed(inputs.attribute(attr), inputs.tensor(ttype))


def _text(attr: str, ttype: str, hw: bool) -> list[str] | None:
    """The print command's view, without its header line (None: the print command refuses the case)."""
    code, out, _ = run(["-l", attr, "-t", ttype] + (["--use-hw-view"] if hw else []))
    return None if code else out.split("\n")[1:-1]


def _bits(case) -> int:
    return inputs.tensor(_type(case)).element_bits


def _ids(cases):
    return [c["id"] for c in cases]


def _same_holders(lines: tuple, holders: list[str]) -> None:
    """A cell's label lines against the holders the text view lists for it (at most MAX_LINES lines)."""
    if not holders:
        assert lines == ("-",)
    elif len(holders) <= svg.MAX_LINES:
        assert list(lines) == holders
    else:
        assert list(lines[:-1]) == holders[:svg.MAX_LINES - 1]
        assert lines[-1] == f"+{len(holders) - svg.MAX_LINES + 1} more"


# ----------------------------------------------------------------------------------------- tensor memory

TMEM = [c for c in CASES if c["kind"].startswith("tensor_memory")]


@pytest.mark.parametrize("case", TMEM, ids=_ids(TMEM))
def test_tensor_memory_pictures_hold_the_text_views_places(case):
    shown = _printed(case["attr"], _type(case))
    text = _text(case["attr"], _type(case), False)
    expected = [cell for row in text for cell in row.strip("[] ").split(", ")]
    cells = memory_svg.tmem_tensor_cells(shown.linear, shown.element_bits)
    assert cells.rows * cells.cols == len(expected) == np.prod(case["shape"])
    for lines, cell in zip(cells.lines, expected):
        _same_holders(lines, [h.strip() for h in cell.split("|") if h.strip()])
    rows = 1 << len(case["bases"]["row"])
    for lines, fills in zip(cells.lines, cells.fills.tolist()):      # each stripe: its place's row (and CTA)
        names = lines if len(fills) == 1 else lines[:len(fills)]
        for name, fill in zip(names, fills):
            m = re.fullmatch(r"(?:B(\d+):)?R(\d+):C\d+(?:\.\d+)?", name)
            if m:
                assert fill == int(m.group(1) or 0) * rows + int(m.group(2))
    hw_text = _text(case["attr"], _type(case), True)
    hw_rows = [r.split(": ", 1)[1] for r in hw_text if r.startswith("Row ")]
    expected = [tuple(s.strip() for s in cell.split("|")) for row in hw_rows
                for cell in re.split(r"(?<=[)-]), ", row)]
    hw = memory_svg.tmem_hardware_cells(shown.linear, shown.element_bits)
    assert hw.rows == len(hw_rows) and hw.rows * hw.cols == len(expected)
    for lines, want in zip(hw.lines, expected):
        if len(want) <= svg.MAX_LINES:
            assert tuple(x.replace(" ", "") for x in lines) == tuple(w.replace(" ", "") for w in want)
        else:
            assert lines[-1] == f"+{len(want) - svg.MAX_LINES + 1} more"


# ----------------------------------------------------------------------------------------- padded / partitioned

SHARED = [c for c in CASES if c["kind"] in ("padded_shared", "partitioned_shared")]
PAD = "pad"


def _text_places(hw_text: list[str]) -> dict:
    """element -> [(block, partition, position)], read off the text hardware view (`Block: b:`, `Partition: p:`,
    `Offset: N -> (i,j)`): every place of every element (the tensor view shows fewer where a CTA's share of the
    tensor is smaller than its buffer, as Triton's shared tensor view does)."""
    places: dict = {}
    block = part = 0
    for line in hw_text:
        if m := re.fullmatch(r"Block: (\d+):", line):
            block, part = int(m.group(1)), 0
        elif m := re.fullmatch(r"Partition: (\d+):", line):
            part = int(m.group(1))
        elif m := re.fullmatch(r"Offset: (\d+) -> \(([\d, ]+)\)", line):
            element = tuple(int(x) for x in m.group(2).split(","))
            places.setdefault(element, []).append((block, part, int(m.group(1))))
    return places


@pytest.mark.parametrize("case", SHARED, ids=_ids(SHARED))
def test_padded_and_partitioned_pictures_hold_the_text_views_positions(case):
    text = _text(case["attr"], _type(case), False)
    if text is None:
        return                                     # the print command refuses it (test_tmem_everywhere)
    shown = _printed(case["attr"], _type(case))
    ll, bits = shown.linear, _bits(case)
    blocks = ll.get_in_dim_size("block") if ll.has_in_dim("block") else 1
    parts = ll.get_in_dim_size("partition") if ll.has_in_dim("partition") else 1
    hw_text = _text(case["attr"], _type(case), True)
    places = _text_places(hw_text)
    cells = memory_svg.shared_memory_tensor_cells(ll, shown.padding, bits)
    shape = case["shape"]
    assert cells.rows * cells.cols == int(np.prod(shape))
    for i, (lines, fills) in enumerate(zip(cells.lines, cells.fills.tolist())):
        element = tuple(int(x) for x in np.unravel_index(i, shape))
        want = sorted((b, p, q) for b, p, q in places[element])
        names = [(f"B{b}:" if blocks > 1 else "") + (f"P{p}:" if parts > 1 else "") + str(q) for b, p, q in want]
        if len(names) <= svg.MAX_LINES:
            assert sorted(lines) == sorted(names), element
        else:
            assert set(lines[:-1]) <= set(names)
        first = dict(zip(names, want))[lines[0]][2]
        assert fills == [first * bits // 32 % 32]                    # the bank of its memory position
    # the hardware view: each buffer's positions in order, elements and padding as the text view lists them
    buffers: list[list[str]] = []
    for line in hw_text:
        if line.startswith("Partition: ") or (line.startswith("Block: ") and parts == 1):
            buffers.append([])
        m = re.fullmatch(r"Offset: (\d+)(?:\.\.(\d+))? -> (.*)", line)
        if m:
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            assert first == len(buffers[-1])
            label = PAD if m.group(3).startswith("padding") else m.group(3).replace(" ", "")
            buffers[-1] += [label] * (last - first + 1)
    hw = memory_svg.shared_memory_hardware_cells(ll, shown.padding, bits)
    per_buffer = hw.rows * hw.cols // len(buffers)
    assert len(buffers) == blocks * parts
    for k, want in enumerate(buffers):
        got = [ls[0] for ls in hw.lines[k * per_buffer:(k + 1) * per_buffer]]
        assert got[:len(want)] == want and set(got[len(want):]) <= {""}
        fills = hw.fills[k * per_buffer:(k + 1) * per_buffer, 0].tolist()
        assert fills[:len(want)] == [memory_svg.PAD_ID if w == PAD else q * bits // 32 % 32
                                     for q, w in enumerate(want)]
    assert sum(ls == (PAD,) for ls in hw.lines) == sum(w.count(PAD) for w in buffers)


def test_pad_cells_and_buffer_headings_reach_the_svg_file(tmp_path):
    attr = ("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = "
            "#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [2, 8]}>}>")
    out = tmp_path / "p.svg"
    code, _, err = run(["-l", attr, "-t", "tensor<8x8xf16>", "--format", "svg", "--use-hw-view", "-o", str(out)])
    assert code == 0, err
    root = ET.parse(out).getroot()
    texts = ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]
    cells = [c for t in root.iter(SVG_NS + "text") if t.get("class") == "m" for c in t.text.split()]
    assert "partition 0" in texts and "partition 1" in texts
    assert cells.count("pad") == 2 * 14 and "(5,4)" in cells          # 2 buffers of 32 offsets: 7 runs of 2 pads
    assert any("Padding: 2 after every 4 elements" in t for t in texts)
    assert 'class="pad"' in out.read_text()
    out = tmp_path / "t.svg"
    code, _, err = run(["-l", "#ttng.tensor_memory_scales_encoding<>", "-t", "tensor<128x4xi8>", "--format", "svg",
                        "-o", str(out)])
    assert code == 0, err
    texts = ["".join(t.itertext()) for t in ET.parse(out).getroot().iter(SVG_NS + "text")]
    assert any("R98:C0.3" in t for t in texts)                      # scales: copies for the four warps
    assert any("rows 96-127" in t for t in texts)


# ----------------------------------------------------------------------------------------- big tensors


def test_a_4096_square_padded_picture_is_tiles_of_the_real_positions():
    attr = "#ttg.padded_shared<[128:+8] {order = [1, 0], shape = [4096, 4096]}>"
    shown = _printed(attr, "tensor<4096x4096xf16>")
    cells = memory_svg.shared_memory_tensor_cells(shown.linear, shown.padding, 16)
    assert cells.rows * cells.cols <= svg.TILE_TARGET and "tile granularity" in cells.note
    tr, tc = 4096 // cells.rows, 4096 // cells.cols
    for tile in (0, 7, cells.cols + 3, cells.rows * cells.cols - 1):
        i, j = (tile // cells.cols) * tr, (tile % cells.cols) * tc
        code, out, err = run(["lookup", "-l", attr, "-t", "tensor<4096x4096xf16>", "--element", f"{i},{j}", "--json"])
        assert code == 0, err
        [place] = json.loads(out)["places"]
        assert cells.lines[tile] == (str(place["position"]),)
    hw = memory_svg.shared_memory_hardware_cells(shown.linear, shown.padding, 16)
    assert hw.rows * hw.cols <= 2 * svg.TILE_TARGET and "tile granularity" in hw.note
    assert len(svg.document(memory_svg.memory_panel(shown, True, 16))) < 2_000_000
    assert len(svg.document(memory_svg.memory_panel(shown, False, 16))) < 2_000_000


def test_big_tensor_memory_pictures_are_tiles():
    attr = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 256, colStride = 1>"
    shown = _printed(attr, "tensor<8192x8192xf16>")
    cells = memory_svg.tmem_tensor_cells(shown.linear, shown.element_bits)
    assert cells.rows * cells.cols <= svg.TILE_TARGET and "tile granularity" in cells.note
    tr, tc = 8192 // cells.rows, 8192 // cells.cols
    tile = cells.cols + 1
    code, out, _ = run(["lookup", "-l", attr, "-t", "tensor<8192x8192xf16>", "--element",
                        f"{(tile // cells.cols) * tr},{(tile % cells.cols) * tc}", "--json"])
    assert cells.lines[tile] == (json.loads(out)["places"][0]["name"],)
    assert len(svg.document(memory_svg.memory_panel(shown, False, 16))) < 2_000_000
    assert len(svg.document(memory_svg.memory_panel(shown, True, 16))) < 2_000_000


def test_offsets_at_inverts_the_padding():
    from linlayout_cli.conversions.padded_shared import Padding
    padding = Padding((2, 4), (1, 2))                                # e0 e1 p e2 e3 p p p e4 ...
    count = 64
    positions = np.arange(padding.padded_size(count), dtype=np.int64)
    got = memory_svg.offsets_at(padding, positions, count)
    want = [-1] * len(positions)
    for o in range(count):
        want[padding.padded_offset(o)] = o
    assert got.tolist() == want and got[:9].tolist() == [0, 1, -1, 2, 3, -1, -1, -1, 4]


# ----------------------------------------------------------------------------------------- the HTML page


def test_html_pages_of_the_memory_views_embed_what_the_page_needs(tmp_path):
    pages = {"#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [8, 8]}>": ("shared", "tensor<8x8xf16>"),
             "#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 2>": ("tmem", "tensor<64x64xf16>")}
    for attr, (kind, ttype) in pages.items():
        out = tmp_path / "m.html"
        code, _, err = run(["-l", attr, "-t", ttype, "--format", "html", "-o", str(out)])
        assert code == 0, err
        text = out.read_text()
        data = json.loads(re.search(r'<script type="application/json" id="ttl-data">(.*?)</script>', text, re.S)
                          .group(1))
        spec = data["layouts"][0]
        assert spec["kind"] == kind and len(text.encode()) < 100_000
        if kind == "shared":
            assert spec["padding"] == [[4, 2]]
        else:
            from linlayout_cli.analysis.info import tmem_unused
            assert spec["unused"] == list(tmem_unused(_printed(attr, ttype).linear)) and spec["unused"][0]
            assert spec["elementBits"] == 16


@pytest.mark.skipif(NODE is None, reason="node is not installed: the page's JavaScript cannot be run")
def test_page_js_prints_the_memory_text_views_from_the_pages_data():
    """page.js, fed the spec the page embeds, prints the print command's text of every memory golden view."""
    from linlayout_cli.render.html import layout_spec
    cases, want = [], {}
    for c in CASES:
        for hw in (False, True):
            text = _text(c["attr"], _type(c), hw)
            if text is None:
                continue
            shown = _printed(c["attr"], _type(c))
            cid = f"{c['id']}-{'hw' if hw else 'tensor'}"
            cases.append({"id": cid, "hw": hw, "spec": layout_spec("t", shown.linear, _bits(c), shown=shown)})
            want[cid] = "\n".join(text) + "\n"
    p = subprocess.run([NODE, str(ROOT / "tests" / "js" / "views.js"), str(PAGE_JS)], input=json.dumps(cases),
                       capture_output=True, text=True, check=True)
    got = json.loads(p.stdout)
    bad = [k for k in want if got[k] != want[k]]
    assert len(want) >= 200 and not bad, bad[:5]
