"""Output that cannot be hijacked: a corpus of hostile strings reaches every output format through the input
(element types and file names of a TTGIR dump, the -t type), and every format stays what it claims to be. A
terminal report holds no control character (C0, C1, bidi overrides: they are shown as escapes), an SVG parses as
XML, JSON parses, the HTML page keeps its structure (its data cannot close or comment out its <script>; the page is
also opened in Chromium by tests/browser/test_browser.py). The corpus (`HOSTILE`) and the dump that carries
it (`dump`) live in tests/helpers.py."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from helpers import HOSTILE, dump

from linlayout_cli.cli import run

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
COLUMNS = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
SHARED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
ALLOWED = {"\n"}


def no_controls(text: str) -> bool:
    return all(ch.isprintable() or ch in ALLOWED for ch in text)


@pytest.mark.parametrize("hostile", HOSTILE, ids=lambda h: ascii(h)[1:30])
def test_terminal_outputs_hold_no_control_character(hostile):
    text = dump(hostile)
    code, out, err = run(["-i", "-"], stdin=text)                     # 'at tensor<...>' header of each use
    assert code == 0 and no_controls(out) and "at tensor<16x16x!x.y<" in out, (out[:300], err)
    code, out, err = run(["audit", "-"], stdin=text)                   # Python column, header, verdicts
    assert code == 0 and no_controls(out), out
    ttype = f'tensor<64x64x!tt.ptr<"{hostile}">>'
    for argv in (["convert", "-s", BLOCKED, "-d", COLUMNS, "-t", ttype], ["bank", "-r", BLOCKED, "-s", SHARED, "-t", ttype],
                 ["swizzle", "-r", BLOCKED, "-t", ttype], ["info", "-l", BLOCKED, "-t", ttype]):
        code, out, err = run(argv)
        assert code in (0, 1) and no_controls(out) and no_controls(err[:-1]), (argv, out[:300], err)


@pytest.mark.parametrize("hostile", HOSTILE, ids=lambda h: ascii(h)[1:30])
def test_svg_json_and_page_stay_well_formed(hostile):
    text = dump(hostile)
    code, svg, err = run(["-i", "-", "--format", "svg"], stdin=text)
    assert code == 0, err
    root = ET.fromstring(svg)                                           # well-formed XML
    titles = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert no_controls(titles) and "16x16 tensor view" in titles
    code, out, err = run(["audit", "-", "--json"], stdin=text)
    assert code == 0 and json.loads(out)["ops"]
    code, page, err = run(["-i", "-", "--format", "html"], stdin=text)
    assert code == 0, err
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", page, re.S)
    assert len(scripts) == 2 and page.endswith("</body></html>\n")       # the data could not end its script early
    data = scripts[0]
    assert "<" not in data and ">" not in data and "&" not in data       # not even '<!--' inside it
    layouts = json.loads(data)["layouts"]
    assert all("x.y<" in spec["title"] for spec in layouts)             # the values themselves are kept
    head = page[:page.index("<style>")]
    assert no_controls(head.replace("\n", "")), head


def test_the_svg_title_of_a_cut_cell_names_every_holder():
    """A cell of 8 holders shows 3 and '+5 more'; its tooltip lists all 8 (they were nowhere in the file)."""
    attr = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
    code, svg, _ = run(["-l", attr, "-t", "tensor<4x4xf16>", "--format", "svg"])
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    tips = [t.text for t in root.iter(ns + "title")]
    assert code == 0 and len(tips) == 16 and "+5 more" in svg
    # element (0, 0): every thread t with t % 4 == 0 and (t // 8) % 4 == 0 under the 16x8 tile, register 0
    assert tips[0].split("|") == [f"T{t}:0" for t in (0, 4, 32, 36, 64, 68, 96, 100)]
