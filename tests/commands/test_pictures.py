"""Pictures: terminal colour (--color), SVG (--format svg, bank --format svg), the HTML page's JavaScript mapping
(run with node against Triton's golden text) and the notebook object.

What is checked against Triton: the coloured text with its escape codes removed, and the text views that page.js
computes from Triton's own bases. What is checked against hand-checked facts: the colours of given cells, the labels
of SVG cells (against the golden text and `analysis.lookup`), tile labels (against every element of the tile), the
bank picture's red banks and lanes (against the bank report's worst wavefront)."""
from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from golden_cases import ROOT, case_id, expected_stdout, load_suite

from linlayout_cli import inputs
from linlayout_cli.analysis import lookup
from linlayout_cli.cli import run
from linlayout_cli.render import color, palette, svg

HW_FLAGS = ("-use-hw-view", "--use-hw-view", "-use-hw-view=true")
LINEAR = [c for s in ("core", "mma") for c in load_suite(s) if "bases" in c]
PRINTED = [c for s in ("core", "files", "mma") for c in load_suite(s) if c["exit"] == 0 and "ttlayout" not in c]
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>"
TWO_CTA = ("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 2], warpsPerCTA = [1, 1], order = [1, 0], "
           "CGALayout = [[1, 0]]}>")
SWIZZLED = "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
MMA_V3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>"
NODE = shutil.which("node")
PAGE_JS = ROOT / "linlayout_cli" / "render" / "page.js"
SGR = re.compile(r"\x1b\[([0-9;]*)m([^\x1b]*)\x1b\[0m")


def linear(attr: str, ttype: str):
    t = inputs.tensor(ttype)
    return inputs.linear_layout(inputs.attribute(attr), t.shape)


def is_hw(case) -> bool:
    return any(a in HW_FLAGS for a in case["args"])


# ----------------------------------------------------------------------------------------- terminal colour


@pytest.mark.parametrize("case", PRINTED, ids=case_id)
def test_colour_removed_is_tritons_text(case, monkeypatch):
    monkeypatch.setenv("COLORTERM", "truecolor")
    code, out, err = run(case["args"] + ["--color", "always"], stdin=None)
    assert code == 0, err
    assert "\x1b[" in out or "Block: 0:\n" in out or not out.strip()
    assert color.strip(out.encode()).decode() == expected_stdout(case)


def backgrounds(text: str) -> list[tuple[str, tuple[int, int, int], bool]]:
    """(token, background RGB, underlined) of every coloured token (truecolor escape codes)."""
    out = []
    for codes, token in SGR.findall(text):
        parts = codes.split(";")
        i = parts.index("48")
        out.append((token, tuple(int(x) for x in parts[i + 2:i + 5]), "4" in parts[:i]))
    return out


def test_colour_of_each_holder_is_its_warp_and_lane(monkeypatch):
    monkeypatch.setenv("COLORTERM", "truecolor")
    code, out, _ = run(["-l", BLOCKED, "-t", "tensor<8x32xf16>", "--color", "always"])
    assert code == 0
    seen = 0
    for token, bg, underlined in backgrounds(out):
        if token == "|":
            continue
        thread = int(re.fullmatch(r"T(\d+):\d+", token).group(1))
        assert bg == palette.rgb(palette.thread_hsl(thread // 32, thread % 32, 32)), token
        assert underlined                          # 8x32 under a 8x64 tile: every element is held twice
        seen += 1
    assert seen == 8 * 32 * 2


def test_colour_of_ctas_hardware_and_shared_views(monkeypatch):
    monkeypatch.setenv("COLORTERM", "truecolor")
    _, out, _ = run(["-l", TWO_CTA, "-t", "tensor<4x4xf16>", "--color", "always"])
    first = backgrounds(out)[0]
    assert first[0] == "B0:T0:0" and first[1] == palette.rgb(palette.thread_hsl(0, 0, 4))
    b1 = [bg for tok, bg, _ in backgrounds(out) if tok.startswith("B1:T3:")]
    assert b1 and set(b1) == {palette.rgb(palette.thread_hsl(1, 3, 4))}      # CTA 1 is warp group 1
    _, out, _ = run(["-l", BLOCKED, "-t", "tensor<8x32xf16>", "--color", "always", "--use-hw-view"])
    lines = out.splitlines()
    warp1 = lines.index("Warp1:")
    cells = backgrounds(lines[warp1 + 1])
    assert [bg for _, bg, _ in cells] == [palette.rgb(palette.thread_hsl(1, lane, 32)) for lane in range(32)]
    _, out, _ = run(["-l", SWIZZLED, "-t", "tensor<8x16xf32>", "--color", "always"])
    cells = backgrounds(out)
    assert len(cells) == 128
    assert [bg for _, bg, _ in cells[:40]] == [palette.rgb(palette.bank_hsl(p % 32)) for p in range(40)]
    _, out, _ = run(["-l", SWIZZLED, "-t", "tensor<8x16xf16>", "--color", "always", "--use-hw-view"])
    assert [bg for _, bg, _ in backgrounds(out)][:6] == [palette.rgb(palette.bank_hsl(o // 2)) for o in range(6)]


def test_colour_never_and_plain_pipes_print_plain_text():
    for flags in (["--color", "never"], [], ["--color", "auto"]):
        code, out, _ = run(["-l", BLOCKED, "-t", "tensor<8x32xf16>"] + flags)
        assert code == 0 and "\x1b" not in out


def _ttlayout_in_a_terminal(args, env_extra) -> bytes:
    """Run ttlayout with its standard output on a pseudo-terminal; what it printed."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLORTERM")}
    env.update(env_extra, TERM="xterm-256color", COLUMNS="200")
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(sys.executable, [sys.executable, "-m", "linlayout_cli"] + args, env)
    chunks = []
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    return b"".join(chunks).replace(b"\r\n", b"\n")


def test_auto_colours_a_terminal_unless_no_color():
    args = ["-l", BLOCKED, "-t", "tensor<8x32xf16>"]
    coloured = _ttlayout_in_a_terminal(args, {})
    assert b"\x1b[" in coloured
    code, plain, _ = run(args)
    assert color.strip(coloured).decode() == plain
    assert b"\x1b[" not in _ttlayout_in_a_terminal(args, {"NO_COLOR": "1"})
    assert b"\x1b[" not in _ttlayout_in_a_terminal(args + ["--color", "never"], {})


def test_plain_print_imports_neither_rich_nor_pictures():
    code = ("import sys; from linlayout_cli import cli\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
            "bad = [m for m in sys.modules if m == 'rich' or m.startswith('linlayout_cli.render.') and "
            "m.split('.')[-1] in ('color', 'svg', 'html', 'bank_svg')]\nsys.stderr.write(repr(bad))")
    for extra in ([], ["--color", "auto"]):
        p = subprocess.run([sys.executable, "-c", code, "-l", BLOCKED, "-t", "tensor<16x16xf16>"] + extra,
                           capture_output=True, text=True, cwd=ROOT)
        assert p.stderr == "[]", p.stderr


# ----------------------------------------------------------------------------------------- SVG


def golden_cells(case) -> list[str]:
    rows = expected_stdout(case).split("\n")[1:-1]
    shared = "offset" in case["bases"]
    cells = []
    for row in rows:
        cells += row.strip("[] ").split("," if shared else ", ")
    return cells


TENSOR_CASES = [c for c in LINEAR if not is_hw(c) and "offset" not in c["bases"]
                and np.prod(list(c["out_dims"].values())) <= 4096][:80]


@pytest.mark.parametrize("case", TENSOR_CASES, ids=case_id)
def test_svg_cells_list_the_holders_of_tritons_text(case):
    ll = linear(case["args"][case["args"].index("-l") + 1], case["args"][case["args"].index("-t") + 1])
    cells = svg.distributed_tensor_cells(ll)
    expected = golden_cells(case)
    assert len(cells.lines) == len(expected)
    for lines, text in zip(cells.lines, expected):
        holders = [h.strip() for h in text.split("|") if h.strip()]
        if not holders:
            assert lines == ("-",)
        elif len(holders) <= svg.MAX_LINES:
            assert list(lines) == holders
        else:
            assert list(lines[:-1]) == holders[:svg.MAX_LINES - 1]
            assert lines[-1] == f"+{len(holders) - svg.MAX_LINES + 1} more"


HW_CASES = [c for c in LINEAR if is_hw(c) and "offset" not in c["bases"]
            and np.prod(list(c["out_dims"].values())) <= 4096][:40]


@pytest.mark.parametrize("case", HW_CASES, ids=case_id)
def test_svg_hardware_cells_are_tritons_coordinates(case):
    ll = linear(case["args"][case["args"].index("-l") + 1], case["args"][case["args"].index("-t") + 1])
    cells = svg.distributed_hardware_cells(ll)
    rows = [r for r in expected_stdout(case).split("\n")[1:-1] if not r.startswith(("Warp", "Block"))]
    expected = [c.replace(" ", "") for r in rows for c in re.findall(r"\([^)]*\)", r)]
    assert [ls[0] for ls in cells.lines] == expected


def test_svg_shared_cells_are_offsets_coloured_by_bank():
    ll = linear(SWIZZLED, "tensor<8x16xf16>")
    cells = svg.shared_tensor_cells(ll, 16)
    for i, (lines, fills) in enumerate(zip(cells.lines, cells.fills.tolist())):
        element = (i // 16, i % 16)
        [(block, offset)] = lookup.shared_offsets(ll, element)
        assert lines == (str(offset),)
        assert fills == [offset // 2 % 32]
    hw = svg.shared_hardware_cells(ll, 16)
    assert hw.cols == 64 and hw.col_labels[:4] == ["b0", "", "b1", ""]
    assert [ls[0] for ls in hw.lines[:3]] == ["(" + ",".join(map(str, lookup.element_at(ll, o))) + ")"
                                              for o in range(3)]


def test_svg_is_well_formed_with_axes_and_legend(tmp_path):
    out = tmp_path / "m.svg"
    code, _, err = run(["-l", MMA_V3, "-t", "tensor<64x64xf16>", "--format", "svg", "-o", str(out)])
    assert code == 0, err
    root = ET.parse(out).getroot()
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert any("warp 3" in t for t in texts) and any("lane 31" in t for t in texts)
    assert "63" in texts                                         # axis index
    rows = [t.text.split() for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "m"]
    assert len(rows) == 64 and all(len(r) == 64 for r in rows) and rows[0][:2] == ["T0:0", "T0:1"]


def test_big_tensor_is_drawn_in_tiles_labelled_with_their_warps():
    attr = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>"
    ll = linear(attr, "tensor<4096x4096xf16>")
    cells = svg.distributed_tensor_cells(ll)
    assert cells.rows * cells.cols <= svg.TILE_TARGET and "tile granularity" in cells.note
    tr, tc = 4096 // cells.rows, 4096 // cells.cols
    _, R, T, W, B = svg.hardware_dims(ll)
    row_major = ll.transpose_outs(list(reversed(ll.out_dims)))
    holders = svg.Holders([int(c) for c in row_major.flat_bases()])
    for tile in (0, 1, cells.cols + 5, cells.rows * cells.cols - 1):
        r0, c0 = (tile // cells.cols) * tr, (tile % cells.cols) * tc
        elems = ((r0 + np.arange(tr))[:, None] * 4096 + c0 + np.arange(tc)[None, :]).reshape(-1)
        hw, ok = holders.first(elems.astype(np.int64), 1)
        warps = sorted(set((hw[:, 0] // (R * T)).tolist()))
        assert cells.lines[tile] == ("W" + svg._ranges(warps),)
    text = svg.document(svg.layout_panel(ll))
    assert len(text) < 2_000_000


def test_bank_svg_marks_the_conflicting_bank_and_lanes(tmp_path):
    col = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>"
    shared = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 16, order = [1, 0]}>"
    out = tmp_path / "b.svg"
    code, _, err = run(["bank", "-r", col, "-s", shared, "-t", "tensor<16x32xf32>", "--format", "svg", "-o", str(out)])
    assert code == 0, err
    root = ET.parse(out).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    red_banks = {int(t.text) for t in root.iter(ns + "text") if t.get("class") == "hotx"}
    # the report's worst wavefront: bank 0 serves words 0 and 32 (lanes 0 and 17); 16 banks do
    from linlayout_cli.analysis.bank import analyze_bank
    from linlayout_cli.analysis.targets import READ
    report = analyze_bank(linear(col, "tensor<16x32xf32>"), linear(shared, "tensor<16x32xf32>"), 32)
    worst = report.accesses[READ].worst
    assert worst.bank in red_banks and len(red_banks) == worst.banks_at_max == 16
    assert "bank conflicts: 1" in ET.tostring(root, encoding="unicode")
    code, _, _ = run(["bank", "-r", col, "-s", "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
                      "order = [0, 1]}>", "-t", "tensor<16x32xf32>", "--format", "svg", "-o", str(out)])
    assert code == 0 and 'class="hotx"' not in out.read_text() and "conflict-free" in out.read_text()


# ----------------------------------------------------------------------------------------- HTML and page.js


def test_html_is_self_contained_and_small(tmp_path):
    attr = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>"
    out = tmp_path / "big.html"
    code, _, err = run(["-l", attr, "-t", "tensor<4096x4096xf16>", "--format", "html", "-o", str(out)])
    assert code == 0, err
    text = out.read_text()
    assert len(text.encode()) <= 100_000
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text) and "import(" not in text
    data = json.loads(re.search(r'<script type="application/json" id="ttl-data">(.*?)</script>', text, re.S)
                      .group(1))
    assert data["layouts"][0]["bases"]["warp"] == [[4, 0], [8, 0], [16, 0]]       # warps stack by 4 rows


def test_html_refuses_more_than_2_to_the_31_inputs():
    from linlayout_cli import LinearLayout
    from linlayout_cli.errors import TTLayoutError
    from linlayout_cli.render.html import layout_spec
    ll = LinearLayout({"register": [[1 << i] for i in range(31)] + [[0]]}, ["dim0"])   # 2^32 registers
    with pytest.raises(TTLayoutError, match="HTML page handles at most 2\\^31"):
        layout_spec("big", ll, 16)


needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the page's JavaScript cannot be run")


def node_views(cases) -> dict:
    p = subprocess.run([NODE, str(ROOT / "tests" / "js" / "views.js"), str(PAGE_JS)], input=json.dumps(cases),
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


@needs_node
def test_page_js_prints_tritons_views_from_tritons_bases():
    """page.js's mapping, fed the bases Triton printed, reproduces Triton's text of every golden case."""
    cases = [{"id": case_id(c), "hw": is_hw(c),
              "spec": {"kind": "shared" if "offset" in c["bases"] else "distributed",
                       "shape": list(c["out_dims"].values()), "bases": c["bases"]}} for c in LINEAR]
    got = node_views(cases)
    bad = [c["id"] for c, g in zip(LINEAR, cases) if got[g["id"]] != expected_stdout(c).split("\n", 1)[1]]
    assert len(cases) > 600 and not bad, bad[:10]


@needs_node
def test_page_js_holders_equal_the_python_engine():
    """On big layouts (no golden text): page.js's holders of sampled elements are lookup.holders'."""
    from linlayout_cli.render.html import layout_spec
    for attr, ttype in ((MMA_V3, "tensor<256x512xf16>"), (TWO_CTA, "tensor<64x64xf16>"),
                        ("#ttg.slice<{dim = 1, parent = " + BLOCKED + "}>", "tensor<1024xf16>")):
        ll = linear(attr, ttype)
        spec = layout_spec(attr, ll, 16)
        sizes = spec["shape"]
        rng = np.random.default_rng(7)
        elems = [tuple(int(rng.integers(0, s)) for s in sizes) for _ in range(50)]
        script = ("const T = require(process.argv[1]); const L = new T.Layout(JSON.parse(process.argv[2]));"
                  "const out = JSON.parse(process.argv[3]).map(c => L.holders(L.flat(c)).map(x => L.holderName(x)));"
                  "process.stdout.write(JSON.stringify(out));")
        p = subprocess.run([NODE, "-e", script, str(PAGE_JS), json.dumps(spec), json.dumps(elems)],
                           capture_output=True, text=True, check=True)
        for e, names in zip(elems, json.loads(p.stdout)):
            assert names == [h.name for h in lookup.holders(ll, e)], (attr, e)


@needs_node
def test_page_js_colours_are_the_palettes():
    script = ("const T = require(process.argv[1]); const out = [];"
              "for (let g = 0; g < 20; g++) for (const l of [0, 5, 31]) out.push(T.css(T.threadHsl(g, l, 32)));"
              "for (let b = 0; b < 32; b++) out.push(T.css(T.bankHsl(b)));"
              "out.push(T.rgb(T.threadHsl(3, 7, 32)).join(','));"
              "process.stdout.write(JSON.stringify(out));")
    p = subprocess.run([NODE, "-e", script, str(PAGE_JS)], capture_output=True, text=True, check=True)
    want = [palette.css(palette.thread_hsl(g, ln, 32)) for g in range(20) for ln in (0, 5, 31)]
    want += [palette.css(palette.bank_hsl(b)) for b in range(32)]
    want.append(",".join(map(str, palette.rgb(palette.thread_hsl(3, 7, 32)))))
    assert json.loads(p.stdout) == want


# ----------------------------------------------------------------------------------------- the Python object


def test_layout_object_shows_itself():
    from linlayout_cli import layout
    lay = layout(BLOCKED, "tensor<8x32xf16>")
    picture = lay._repr_svg_()
    assert picture.startswith("<svg") and "T0:0" in picture
    ET.fromstring(picture)
    code, out, _ = run(["-l", BLOCKED, "-t", "tensor<8x32xf16>"])
    assert lay.text() == out.split("\n", 1)[1]
    assert 'id="ttl-data"' in lay.html()
    shared = layout(SWIZZLED, "tensor<8x16xf32>")
    assert shared.element_bits == 32 and 'class="b0"' in shared.svg()


# ----------------------------------------------------------------------------------------- convert pictures

ROWS = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
COLS = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
SVG_NS = "{http://www.w3.org/2000/svg}"


def placed_texts(root):
    """(x, y, text) of every <text>, in document order, with the translations of the groups around it."""
    out = []

    def walk(node, dx, dy):
        m = re.match(r"translate\(([-\d.]+),([-\d.]+)\)", node.get("transform", ""))
        if m:
            dx, dy = dx + float(m.group(1)), dy + float(m.group(2))
        if node.tag == SVG_NS + "text":
            x = dx + float(node.get("x", 0))
            out.append((x, dy + float(node.get("y", 0)), "".join(node.itertext()), x + float(node.get("textLength", 0))))
        for child in node:
            walk(child, dx, dy)
    walk(root, 0.0, 0.0)
    return out


@pytest.mark.parametrize("src,dst,ttype,limit", [
    (ROWS, COLS, "tensor<16x16xf32>", 200_000),
    (ROWS, COLS, "tensor<64x64xf32>", 250_000),
    (ROWS, COLS, "tensor<128x128xf32>", 250_000),
    (ROWS, COLS, "tensor<8x1024xf32>", 250_000),
    (MMA_V3, ROWS, "tensor<128x256xf16>", 250_000),
    (ROWS, COLS, "tensor<4096x4096xf16>", 400_000),
], ids=lambda x: x if isinstance(x, str) and x.startswith("tensor") else None)
def test_convert_svg_fits_a_screen_and_leads_with_what_moves(src, dst, ttype, limit, tmp_path):
    """Issue 24: at 128x128 the picture was 14,192 x 6,754 px and 1.7 MB with "what moves" third and its legend
    at the end. Now it is at most 1,920 px wide (tiles where one cell per element does not fit), well-formed,
    small, and what moves comes first after the verdict with its legend beside the grid."""
    out = tmp_path / "c.svg"
    code, _, err = run(["convert", "-r", src, "-d", dst, "-t", ttype, "--format", "svg", "-o", str(out)])
    assert code == 0, err
    assert out.stat().st_size < limit
    root = ET.parse(out).getroot()
    assert int(root.get("width")) <= 1920
    texts = placed_texts(root)
    heads = [t for _, _, t, _ in texts if t.startswith(("convert: ", "What moves", "dst ", "nothing moves"))
             or "tensor view: source" in t]
    assert heads[0].startswith("convert: ") and heads[1].startswith("What moves") and "source" in heads[-1]
    legend = next((x, y) for x, y, t, _ in texts if t.startswith("stays in its thread ("))
    first_move = next(y for _, y, t, _ in texts if t.startswith(("dst ", "nothing moves")))
    rows = [(y, end) for x, y, t, end in texts if ">" in t and end > x]        # the rows of the what-moves grid
    assert rows and legend[1] < first_move
    assert legend[0] > max(end for _, end in rows) and legend[1] < min(y for y, _ in rows) + 20   # beside its top


def test_convert_moves_tiles_take_the_farthest_move_and_the_warps():
    """Hand-checked for ROWS -> COLS at 128x128 (4x4 tiles, 32 across): ROWS puts rows 4w..4w+3 of each 16-row
    block in warp w, COLS columns 4w..4w+3; inside a warp's tile both change lanes for some element. Per element
    (first holders): the same thread when row and column agree in bits 0-4 (16384 / 32 = 512), the same warp when
    they agree in bits 2-3 (16384 / 4 = 4096, so 3584 change lanes), the other 12288 change warps."""
    from linlayout_cli.render.convert_svg import moves_cells
    cells, counts, what = moves_cells(linear(ROWS, "tensor<128x128xf32>"), linear(COLS, "tensor<128x128xf32>"), 32)
    assert (cells.rows, cells.cols, what) == (32, 32, "elements") and "4x4 tile" in cells.note
    assert counts == [512, 3584, 12288, 0]
    assert (cells.lines[0], int(cells.fills[0, 0])) == (("W0>", "W0"), 1)
    assert (cells.lines[32], int(cells.fills[32, 0])) == (("W1>", "W0"), 2)      # rows 4-7, columns 0-3
    assert (cells.lines[1], int(cells.fills[1, 0])) == (("W0>", "W1"), 2)        # rows 0-3, columns 4-7


def test_bank_svg_says_how_many_words_it_left_out(tmp_path):
    """Hand-checked: 16x32 f32 rows of 128 bytes, read down a column by 16 lanes: bank 0 serves 16 words; the
    picture lists 4 and says 12 more."""
    col = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>"
    plain = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
    out = tmp_path / "b.svg"
    code, _, err = run(["bank", "-r", col, "-s", plain, "-t", "tensor<16x32xf32>", "--format", "svg", "-o", str(out)])
    assert code == 0, err
    texts = [t for _, _, t, _ in placed_texts(ET.parse(out).getroot())]
    words = [t for t in texts if t.startswith("word ") and "(0x" in t]
    assert [w.split(" (")[0] for w in words] == ["word 0", "word 32", "word 64", "word 96"]
    assert "... and 12 more words (ttlayout bank lists them all)" in texts
    code, report, _ = run(["bank", "-r", col, "-s", plain, "-t", "tensor<16x32xf32>"])
    assert len(re.findall(r"^  \d+ +0x[0-9a-f]{4} ", report, re.M)) == 16              # the text lists all 16


def test_info_lists_that_stop_say_how_many_they_left_out():
    """Hand-checked: a 64-row shared tensor has 64 row starts; info lists 16 and says 48 more."""
    code, out, err = run(["info", "-l", "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                          "elementBitWidth = 16}>", "-t", "tensor<64x64xf16>"])
    assert code == 0, err
    assert "row starts/32 banks 0 4 8 12 16 20 24 28 0 4 8 12 16 20 24 28 ... and 48 more  (first element" in out


COLOUR_SAMPLE = PRINTED[::5] + [c for c in PRINTED if "Block" in expected_stdout(c)][:10]


@pytest.mark.parametrize("case", COLOUR_SAMPLE, ids=case_id)
def test_fast_colour_is_the_per_cell_colour(case, monkeypatch):
    """Big views are painted by numpy (render/color_fast.py): byte for byte what the per-cell painters give, on
    every kind of view (distributed and shared, tensor and hardware, several CTAs)."""
    import linlayout_cli.render as render
    monkeypatch.setenv("COLORTERM", "truecolor")
    args = case["args"] + ["--color", "always"]
    per_cell = run(args)
    monkeypatch.setattr(render, "SMALL_LIMIT", 0)          # every view through the big-view paths
    fast = run(args)
    assert per_cell[0] == fast[0] == 0 and per_cell[1] == fast[1]
