"""The HTML page in a real browser: headless Chromium (Debian's package) driven by Playwright.

For a few layouts the page must load without a console error; hovering a cell must show a tooltip naming the
element's holders as `analysis.lookup` computes them; clicking a cell must highlight exactly the cells of its
thread (shared layouts: its bank), counted on the canvas's pixels; the hardware view and the search box must work;
a 4096x4096 page must stay under 100 KB and interactive; the padded, partitioned and tensor memory pages show
their memory positions, padding, banks, TMEM rows and slots as `lookup` and the text views give them. Screenshots are saved in the test's temporary folder.

Skipped, with the reason, only where Playwright or a Chromium executable cannot be found (`.ci/run` installs
chromium; set TTLAYOUT_CHROMIUM to use another executable)."""
from __future__ import annotations

import os
import re
import shutil

import pytest
from golden_cases import DATA
from helpers import HOSTILE, dump

from linlayout_cli import inputs
from linlayout_cli.analysis import lookup
from linlayout_cli.cli import run

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>"
BIG = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>"
MMA_V3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>"
MFMA = ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>")
SWIZZLED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HIGHLIGHT = (224, 0, 122)


def find_chromium() -> str | None:
    named = os.environ.get("TTLAYOUT_CHROMIUM")
    if named:
        return named if os.path.exists(named) else None
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _skip_reason() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install '.[test]')"
    if find_chromium() is None:
        return "no Chromium executable found (apt-get install chromium, or set TTLAYOUT_CHROMIUM)"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from playwright.sync_api import sync_playwright
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=find_chromium(), args=LAUNCH_ARGS, headless=True,
            viewport={"width": 1280, "height": 860})
        yield context
        context.close()


class Page:
    """One opened layout page, with the console errors it logged."""
    READY = "window.ttl !== undefined"              # the page's script has run

    def __init__(self, browser, path):
        self.page = browser.new_page()
        self.errors = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(path.as_uri())
        self.page.wait_for_function(self.READY)

    def js(self, code, arg=None):
        return self.page.evaluate(code, arg)

    def centre(self, r, c):
        box = self.js("([r, c]) => ttl.cellRect(r, c)", [r, c])
        canvas = self.page.locator("#grid").bounding_box()
        return canvas["x"] + box["x"] + box["w"] / 2, canvas["y"] + box["y"] + box["h"] / 2

    def hover(self, r, c) -> str:
        self.page.mouse.move(*self.centre(r, c))
        return self.page.locator("#tip").text_content()

    def click(self, r, c) -> str:
        self.page.mouse.click(*self.centre(r, c))
        return self.page.locator("#status").text_content()

    def highlighted(self) -> set:
        """(row, col) of every visible cell drawn with the highlight border, read from the canvas pixels."""
        cells = self.js("""() => {
            const cv = document.getElementById('grid'), ctx = cv.getContext('2d'), d = devicePixelRatio;
            return ttl.visibleCells().map(c => {
                const p = ctx.getImageData(Math.round((c.x + 1) * d), Math.round((c.y + 1) * d), 1, 1).data;
                return [c.r, c.c, p[0], p[1], p[2]];
            });
        }""")
        return {(r, c) for r, c, *px in cells if tuple(px) == HIGHLIGHT}, {(r, c) for r, c, *_ in cells}

    def shot(self, path):
        self.page.mouse.move(1, 1)
        self.page.screenshot(path=str(path))


def write_page(tmp_path, attr, ttype, name, *flags):
    out = tmp_path / f"{name}.html"
    code, _, err = run(["-l", attr, "-t", ttype, "--format", "html", "-o", str(out)] + list(flags))
    assert code == 0, err
    return out


def linear(attr, ttype):
    return inputs.linear_layout(inputs.attribute(attr), inputs.tensor(ttype).shape)


@pytest.mark.parametrize("name,attr,ttype", [("blocked", BLOCKED, "tensor<32x32xf16>"),
                                             ("nvidia_mma_v3", MMA_V3, "tensor<64x64xf16>"),
                                             ("amd_mfma", MFMA, "tensor<64x64xf16>")])
def test_distributed_page_hover_click_search(browser, tmp_path, name, attr, ttype):
    ll = linear(attr, ttype)
    page = Page(browser, write_page(tmp_path, attr, ttype, name))
    r, c = 5, 9
    tip = page.hover(r, c)
    holders = lookup.holders(ll, (r, c))
    assert tip.startswith(f"element ({r}, {c})")
    for h in holders:
        assert f"{h.name}: block {h.block}, warp {h.warp}, lane {h.lane}, register {h.register}" in tip
    status = page.click(r, c)
    first = holders[0]
    mine = {e for e in (held.element for held in lookup.thread_elements(ll, first.thread, first.block))}
    assert f"T{first.thread} (warp {first.warp}, lane {first.lane}): {len(mine)} elements highlighted" in status
    lit, visible = page.highlighted()
    assert lit == {cell for cell in visible if cell in mine} and lit
    page.shot(tmp_path / f"{name}-tensor.png")
    # the hardware view: rows are registers of each warp, columns lanes
    page.page.click("#v-hardware")
    R = ll.get_in_dim_size("register")
    tip = page.hover(R + 2, 7)                            # warp 1, register 2, lane 7
    assert f"T{7 + ll.get_in_dim_size('lane')}:2" in tip
    assert "warp 1, lane 7, register 2" in tip
    element = ll.apply([("register", 2), ("lane", 7), ("warp", 1)] + ([("block", 0)] if ll.has_in_dim("block") else []))
    assert tip.startswith("element (" + ", ".join(str(v) for _, v in element) + ")")
    page.page.click("#v-tensor")
    page.page.fill("#search", "T3")
    page.page.press("#search", "Enter")
    assert "T3 (warp 0, lane 3)" in page.page.locator("#status").text_content()
    page.page.fill("#search", "2, 3")
    page.page.press("#search", "Enter")
    status = page.page.locator("#status").text_content()
    assert status.startswith("element (2, 3)") and lookup.holders(ll, (2, 3))[0].name in status
    assert page.errors == []


def test_shared_page_shows_offset_and_bank(browser, tmp_path):
    ll = linear(SWIZZLED, "tensor<32x64xf16>")
    page = Page(browser, write_page(tmp_path, SWIZZLED, "tensor<32x64xf16>", "swizzled_shared"))
    tip = page.hover(3, 10)
    [(block, offset)] = lookup.shared_offsets(ll, (3, 10))
    assert tip == f"element (3, 10)\noffset {offset}, bank {offset * 16 // 32 % 32} (16-bit elements)"
    status = page.click(3, 10)
    bank = offset // 2 % 32
    same_bank = {(r, c) for r in range(32) for c in range(64)
                 if lookup.shared_offsets(ll, (r, c))[0][1] // 2 % 32 == bank}
    assert status.startswith(f"Bank {bank}: {len(same_bank)} offsets highlighted")
    lit, visible = page.highlighted()
    assert lit == {cell for cell in visible if cell in same_bank} and lit
    page.shot(tmp_path / "swizzled-tensor.png")
    page.page.fill("#search", "offset 77")
    page.page.press("#search", "Enter")
    coords = lookup.element_at(ll, 77)
    assert page.page.locator("#status").text_content() == (
        f"offset 77 holds element ({', '.join(map(str, coords))}), bank {77 // 2 % 32}")
    assert page.errors == []


def test_4096_square_page_is_small_and_interactive(browser, tmp_path):
    path = write_page(tmp_path, BIG, "tensor<4096x4096xf16>", "big")
    assert path.stat().st_size <= 100_000
    ll = linear(BIG, "tensor<4096x4096xf16>")
    page = Page(browser, path)
    page.page.click("#fit")                               # the whole tensor: one pixel per few elements
    assert page.js("ttl.state.zx") < 0.01 and page.js("ttl.state.zy") < 0.5
    page.shot(tmp_path / "big-fit.png")
    page.js("ttl.state.zoom = ttl.state.zx = ttl.state.zy = 1; ttl.centreOn(100, 2000)")
    tip = page.hover(100, 2000)
    [h] = lookup.holders(ll, (100, 2000))
    assert f"{h.name}: block 0, warp {h.warp}, lane {h.lane}, register {h.register}" in tip
    status = page.click(100, 2000)
    assert re.search(rf"T{h.thread} \(warp {h.warp}, lane {h.lane}\): 65536 elements highlighted", status)
    lit, visible = page.highlighted()
    mine = {c for c in visible if lookup.holders(ll, c)[0].thread == h.thread}
    assert lit == mine and lit
    page.page.click("#fit")
    page.shot(tmp_path / "big-selected.png")
    assert page.errors == []


# ----------------------------------------------------------------------------------------- memory views

PADDED = "#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [8, 8]}>"
PARTITIONED = ("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = "
               "#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [2, 8]}>}>")
TMEM = "#ttng.tensor_memory_encoding<blockM = 128, blockN = 32, colStride = 1>"
SCALES = "#ttng.tensor_memory_scales_encoding<>"


def _places(attr, ttype, element):
    import json
    code, out, err = run(["lookup", "-l", attr, "-t", ttype, "--element", ",".join(map(str, element)), "--json"])
    assert code == 0, err
    return json.loads(out)["places"]


@pytest.mark.parametrize("name,attr,ttype", [("padded", PADDED, "tensor<8x8xf16>"),
                                             ("partitioned", PARTITIONED, "tensor<8x8xf16>")])
def test_padded_and_partitioned_pages_show_positions_banks_and_padding(browser, tmp_path, name, attr, ttype):
    """Hover: the element's offset, memory position and bank as `lookup --element` gives them; click: the cells
    whose memory position is in that bank; the hardware view's padding cells say which pairs insert them."""
    from linlayout_cli.render import memory_svg
    shown = inputs.printed(inputs.attribute(attr), inputs.tensor(ttype))
    page = Page(browser, write_page(tmp_path, attr, ttype, name))
    assert "shared layout" in page.page.locator("#shape").text_content()
    r, c = 3, 5
    [place] = _places(attr, ttype, (r, c))
    tip = page.hover(r, c)
    part = f"partition {place['partition']}, " if name == "partitioned" else ""
    bank = place["position"] * 16 // 32 % 32
    assert tip == f"element ({r}, {c})\n{part}offset {place['offset']}, position {place['position']}, bank {bank} " \
                  "(16-bit elements)"
    page.click(r, c)
    cells = memory_svg.shared_memory_tensor_cells(shown.linear, shown.padding, 16)
    same = {(i // 8, i % 8) for i, f in enumerate(cells.fills[:, 0].tolist()) if f == bank}
    lit, visible = page.highlighted()
    assert lit == {cell for cell in visible if cell in same} and lit
    page.shot(tmp_path / f"{name}-tensor.png")
    page.page.click("#v-hardware")
    hw = memory_svg.shared_memory_hardware_cells(shown.linear, shown.padding, 16)
    assert page.js("[ttl.grid().rows, ttl.grid().cols]") == [hw.rows, hw.cols]
    assert page.hover(0, 4) == "position 4: padding (4:+2), bank 2"
    last = hw.lines[(hw.rows - 1) * hw.cols:]
    col = next(k for k, ls in enumerate(last) if ls[0].startswith("("))        # the last line's first element
    assert page.hover(hw.rows - 1, col).startswith(f"element ({last[col][0][1:-1].replace(',', ', ')})")
    page.page.fill("#search", "offset 5")
    page.page.press("#search", "Enter")
    assert page.page.locator("#status").text_content() == "offset 5 is padding"
    page.page.fill("#search", "offset 6")
    page.page.press("#search", "Enter")
    assert page.page.locator("#status").text_content().startswith("offset 6 (linear offset 4) holds element (")
    page.shot(tmp_path / f"{name}-hardware.png")
    assert page.errors == []


@pytest.mark.parametrize("name,attr,ttype", [("tmem", TMEM, "tensor<128x32xf16>"),
                                             ("tmem_scales", SCALES, "tensor<128x4xi8>")])
def test_tensor_memory_pages_show_rows_columns_and_slots(browser, tmp_path, name, attr, ttype):
    """Hover: every place of the element (`R2:C1.1`, as `lookup --element` names them) with its row's warp and
    lane; click: the cells held by that TMEM row; the hardware view: rows x 32-bit columns, each cell's slots."""
    from linlayout_cli.render import memory_svg
    shown = inputs.printed(inputs.attribute(attr), inputs.tensor(ttype))
    page = Page(browser, write_page(tmp_path, attr, ttype, name))
    assert "tensor memory layout" in page.page.locator("#shape").text_content()
    r, c = 2, 3
    places = _places(attr, ttype, (r, c))
    tip = page.hover(r, c)
    for p in places:
        assert f"{p['name']}: row {p['row']} (warp {p['row'] // 32} of the warpgroup, lane {p['row'] % 32})" in tip
    first = min(places, key=lambda p: (p["block"], p["row"], p["column"], p["slot"]))
    status = page.click(r, c)
    cells = memory_svg.tmem_tensor_cells(shown.linear, shown.element_bits)
    cols = cells.cols
    mine = {(i // cols, i % cols) for i, lines in enumerate(cells.lines)
            if any(n.startswith(f"R{first['row']}:") for n in lines)}
    assert status.startswith(f"R{first['row']} (warp {first['row'] // 32}, lane {first['row'] % 32}): {len(mine)} "
                             "elements highlighted")
    lit, visible = page.highlighted()
    assert lit == {cell for cell in visible if cell in mine} and lit
    page.shot(tmp_path / f"{name}-tensor.png")
    page.page.click("#v-hardware")
    hw = memory_svg.tmem_hardware_cells(shown.linear, shown.element_bits)
    assert page.js("[ttl.grid().rows, ttl.grid().cols]") == [hw.rows, hw.cols]
    tip = page.hover(1, 1)
    for s, text in enumerate(hw.lines[hw.cols + 1]):
        assert f"slot {s}: element ({text[1:-1].replace(',', ', ')})" in tip
    page.page.fill("#search", "R34")
    page.page.press("#search", "Enter")
    assert page.page.locator("#status").text_content().startswith("R34 (warp 1, lane 2): ")
    page.shot(tmp_path / f"{name}-hardware.png")
    assert page.errors == []


def test_hostile_titles_cannot_break_the_page(browser, tmp_path):
    """Layout titles holding '<!--<script>', '</script>', markup and control characters (from a dump's element
    types): the page still loads its script and shows the title as text. Before, '<!--<script>' in the data
    swallowed the rest of the page (only '</' was escaped)."""
    for k, hostile in enumerate(HOSTILE):
        out = tmp_path / f"hostile{k}.html"
        code, _, err = run(["-i", "-", "--format", "html", "-o", str(out)], stdin=dump(hostile))
        assert code == 0, err
        page = Page(browser, out)
        state = page.js("() => [document.scripts.length, document.getElementById('title').textContent, "
                        "!!document.getElementById('legend'), document.title]")
        assert page.errors == [] and state[0] == 2 and state[2], (hostile, page.errors, state)
        assert "x.y<" in state[1]                      # the title as text (its '<' and '>' literal)
        page.page.close()


# ----------------------------------------------------------------------------------------- many kernels


class KernelsPage(Page):
    """The page of `ttlayout audit DIR --format html`, with the console errors it logged."""
    READY = "window.ttlKernels !== undefined"

    def column(self, key):
        """The cells of one column as shown, top to bottom."""
        index = self.page.evaluate("(k) => Array.from(document.querySelectorAll('#kernels th'))"
                                   ".findIndex(th => th.dataset.key === k)", key)
        return self.page.evaluate("(i) => Array.from(document.querySelectorAll('#kernels tbody tr'), "
                                  "r => r.cells[i].textContent)", index)

    def rows(self, selector):
        return self.page.evaluate("(s) => Array.from(document.querySelectorAll(s), "
                                  "r => Array.from(r.cells, c => c.textContent))", selector)


def test_kernels_page_sorts_and_lists_a_kernels_ops(browser, tmp_path):
    """The cache's 73 kernels: the table sorts by a clicked column (numbers high to low first, names A to Z), and
    a click on a kernel lists its op rows, as many as the JSON report gives it, costliest first."""
    import json
    cache = str(DATA / "cache")
    out = tmp_path / "kernels.html"
    code, _, err = run(["audit", "--cache", cache, "--format", "html", "-o", str(out)])
    assert code == 0, err
    code, text, _ = run(["audit", "--cache", cache, "--json"])
    kernels = json.loads(text)["kernels"]
    page = KernelsPage(browser, out)
    assert len(page.column("name")) == 73 and page.column("name") == [k["name"] for k in kernels]
    page.page.click("#kernels th[data-key=shared]")
    shared = [int(x) for x in page.column("shared")]
    assert shared == sorted(shared, reverse=True) and shared[0] == max(k["shared_bytes"] for k in kernels)
    page.page.click("#kernels th[data-key=shared]")
    assert [int(x) for x in page.column("shared")] == sorted(shared)
    page.page.click("#kernels th[data-key=name]")
    assert page.column("name") == sorted(k["name"] for k in kernels)
    page.page.click("#kernels th[data-key=asm]")                          # most agreeing first, as a fraction
    ratios = [int(a) / int(b) for a, b in (x.split("/") for x in page.column("asm"))]
    assert ratios == sorted(ratios, reverse=True) and ratios[-1] < 1 <= ratios[0]
    page.page.click("#kernels th[data-key=shared]")                       # back to the largest first
    want = max(kernels, key=lambda k: (k["shared_bytes"], k["cost"]))
    page.page.click(f"#kernels tbody tr:nth-child({page.column('name').index(want['name']) + 1})")
    assert page.page.locator("#detail-title").text_content().startswith(f"{want['name']} ({want['target']}, ")
    ops = page.rows("#ops tbody tr")
    assert len(ops) == len(want["ops"]) > 0
    assert [float(o[0]) for o in ops] == sorted((o["cost"] for o in want["ops"]), reverse=True)
    assert {(int(o[1]), o[2]) for o in ops} == {(o["line"], o["op"]) for o in want["ops"]}
    assert page.rows("#kernels tbody tr.on")[0][2] == want["name"]
    notes = page.page.locator("#detail-notes li").all_text_contents()
    assert notes == ([want["shared_note"]] if want["shared_note"] else []) + want["notes"]
    asm = want["asm"]                    # the kernel's PTX is beside it: agreeing / compared Python lines, and
    assert page.rows("#kernels tbody tr.on")[0][-1] == f"{asm['lines_agreeing']}/{asm['lines_compared']}"
    lines = {(o["line"], o["op"]): o["asm"] for o in want["ops"]}     # each op's line in the assembly
    for o in ops:
        counts = lines[(int(o[1]), o[2])]
        assert o[-1] == (", ".join(f"{short} {counts[c]}" for c, short in
                                   (("shared_loads", "ld"), ("shared_stores", "st"), ("shuffles", "shfl"),
                                    ("barriers", "bar"), ("global_loads", "gld"), ("global_stores", "gst"))
                                   if counts.get(c)) or "none")
    page.page.screenshot(path=str(tmp_path / "kernels.png"))
    assert page.errors == []


def test_hostile_kernel_names_cannot_break_the_kernels_page(browser, tmp_path):
    """Kernel files whose names, locations and types carry '</script>', '<!--<script>', markup and control
    characters: the page loads its two scripts, lists every kernel, and shows the strings as text."""
    names = []
    for k, hostile in enumerate(HOSTILE):
        name = f"k{k}" + hostile.replace("/", "_")
        (tmp_path / f"{name}.ttgir").write_text(dump(hostile), encoding="utf-8")
        names.append(name)
    out = tmp_path / "page.html"
    code, _, err = run(["audit", str(tmp_path), "--format", "html", "-o", str(out), "-j", "1"])
    assert code == 0, err
    page = KernelsPage(browser, out)
    assert page.page.evaluate("document.scripts.length") == 2 and page.errors == []
    shown = page.column("name")
    assert len(shown) == len(HOSTILE)
    assert "k7<!--<script>" in shown and "k8<_script><script>alert(1)<_script>" in shown
    page.page.click("#kernels tbody tr:nth-child(1)")
    assert page.rows("#ops tbody tr") and page.errors == []
