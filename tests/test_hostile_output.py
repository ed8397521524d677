"""Output that cannot be hijacked: a corpus of hostile strings reaches every output format through the input
(element types and file names of a TTGIR dump, the -t type), and every format stays what it claims to be. A
terminal report holds no control character (C0, C1, bidi overrides: they are shown as escapes), an SVG parses as
XML, JSON parses, the HTML page keeps its structure (its data cannot close or comment out its <script>; the page is
also opened in Chromium by tests/test_browser.py)."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from linlayout_cli.cli import run

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
COLUMNS = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
SHARED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
# strings a dump may carry in a string literal (no '"', no newline): terminal escapes (CSI, OSC, C1 CSI), bidi
# overrides and isolates, markup that would end or comment out the page's script, rich markup, XML-illegal
# controls (NUL is refused by the reader, see test_files_io.py), a replacement character, format characters
HOSTILE = ["\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "\x1b]8;;http://x\x07link\x1b]8;;\x07", "\x9b31m", "\x9d0;x\x9c",
           "\u202eevil\u202c", "\u2066\u2069", "<!--<script>", "</script><script>alert(1)</script>", "]]>&amp;<x>",
           "[bold red]x[/]", "[/]", "\x01\x08\x0b\x0c\x7f", "\ufeff\u200b\u2028\u2029", "\ufffd", "%s%n%x"]
ALLOWED = {"\n"}


def no_controls(text: str) -> bool:
    return all(ch.isprintable() or ch in ALLOWED for ch in text)


def dump(hostile: str) -> str:
    """A dump whose op types and locations carry `hostile` (in a dialect type's string and a file name)."""
    return (f"#b = {BLOCKED}\n#loc1 = loc(\"{hostile}kernel.py\":3:4)\n"
            'module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {\n'
            f'  %c = arith.constant : tensor<16x16x!x.y<"{hostile}">, #b> loc(#loc1)\n'
            f"  %d = ttg.convert_layout %c : tensor<16x16x!x.y<\"{hostile}\">, #b> -> tensor<16x16x!x.y<\"{hostile}\">, "
            f"#ttg.slice<{{dim = 0, parent = #ttg.blocked<{{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], "
            f"warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}}>}}>> loc(\"{hostile}x.py\":1:1)\n"
            "}\n")


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
