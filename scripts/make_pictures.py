"""Write the README's pictures, docs/pictures/*.png, from ttlayout's own SVG and HTML output, rendered by headless
Chromium through Playwright (the browser test's set-up).

    python scripts/make_pictures.py [--chromium /usr/bin/chromium]

Pillow, if installed, turns each PNG into a 256-colour palette PNG. Each SVG is shown at its natural size (clipped to CLIP where given, so that every PNG stays small); each HTML page
is opened, hovered and clicked as a user would, then screenshot.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from linlayout_cli.cli import run  # noqa: E402

OUT = ROOT / "docs" / "pictures"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
MMA_V3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>"
MMA_V3_SMALL = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                "instrShape = [16, 16, 16]}>")
MFMA = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 1], instrShape = [32, 32, 8], isTransposed = true}>"
SWIZZLED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
NVMMA = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
COL = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>"
TRANSPOSE = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 16, order = [1, 0]}>"
BIG = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>"
PARTITIONED = ("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = "
               "#ttg.padded_shared<[4:+2] {order = [1, 0], shape = [4, 16]}>}>")
TMEM = "#ttng.tensor_memory_encoding<blockM = 64, blockN = 16, colStride = 2>"

# name, ttlayout arguments, clip (width, height) or None
SVGS = [
    ("blocked", ["-l", BLOCKED, "-t", "tensor<16x32xf16>", "--format", "svg"], None),
    ("nvidia_mma_v3", ["-l", MMA_V3_SMALL, "-t", "tensor<64x16xf16>", "--format", "svg"], (900, 1500)),
    ("amd_mfma", ["-l", MFMA, "-t", "tensor<64x32xf32>", "--format", "svg"], None),
    ("swizzled_shared", ["-l", SWIZZLED, "-t", "tensor<16x64xf16>", "--format", "svg"], None),
    ("nvmma_shared", ["-l", NVMMA, "-t", "tensor<16x64xf16>", "--format", "svg"], None),
    ("bank_conflict", ["bank", "-r", COL, "-s", TRANSPOSE, "-t", "tensor<16x32xf32>", "--format", "svg"], None),
    ("partitioned_shared", ["-l", PARTITIONED, "-t", "tensor<16x16xf16>", "--format", "svg", "--use-hw-view"],
     (1400, 900)),
    ("tensor_memory", ["-l", TMEM, "-t", "tensor<64x16xf16>", "--format", "svg", "--use-hw-view"], (900, 1100)),
]


def write(args, path: Path) -> None:
    code, out, err = run(args + ["-o", str(path)])
    if code:
        raise SystemExit(err)


def shoot_svg(page, svg: Path, png: Path, clip) -> None:
    wrapper = svg.with_suffix(".html")
    wrapper.write_text(f'<body style="margin:0;background:#fff"><img id="i" src="{svg.name}"></body>')
    page.goto(wrapper.as_uri())
    page.wait_for_function("document.getElementById('i').complete")
    w, h = page.evaluate("[document.getElementById('i').naturalWidth, document.getElementById('i').naturalHeight]")
    if clip:
        w, h = min(w, clip[0]), min(h, clip[1])
    page.set_viewport_size({"width": w, "height": h})
    page.screenshot(path=str(png))


def shoot_pages(browser, tmp: Path) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 640})
    html = tmp / "mma.html"
    write(["-l", MMA_V3, "-t", "tensor<128x128xf16>", "--format", "html"], html)
    page.goto(html.as_uri())
    page.wait_for_function("window.ttl !== undefined")
    box = page.locator("#grid").bounding_box()
    rect = page.evaluate("ttl.cellRect(9, 2)")
    page.mouse.click(box["x"] + rect["x"] + 10, box["y"] + rect["y"] + 8)
    rect = page.evaluate("ttl.cellRect(17, 6)")
    page.mouse.move(box["x"] + rect["x"] + 10, box["y"] + rect["y"] + 8)
    page.screenshot(path=str(OUT / "html_nvidia_mma_v3.png"))
    html = tmp / "nvmma.html"
    write(["-l", NVMMA, "-t", "tensor<64x64xf16>", "--format", "html"], html)
    page.goto(html.as_uri())
    page.wait_for_function("window.ttl !== undefined")
    page.fill("#search", "bank 5")
    page.press("#search", "Enter")
    box = page.locator("#grid").bounding_box()
    rect = page.evaluate("ttl.cellRect(3, 10)")
    page.mouse.move(box["x"] + rect["x"] + 10, box["y"] + rect["y"] + 8)
    page.screenshot(path=str(OUT / "html_nvmma_shared.png"))
    html = tmp / "big.html"
    write(["-l", BIG, "-t", "tensor<4096x4096xf16>", "--format", "html"], html)
    page.goto(html.as_uri())
    page.wait_for_function("window.ttl !== undefined")
    page.evaluate("ttl.centreOn(2048, 2048)")
    box = page.locator("#grid").bounding_box()
    rect = page.evaluate("ttl.cellRect(2050, 2045)")
    page.mouse.click(box["x"] + rect["x"] + 10, box["y"] + rect["y"] + 8)
    page.mouse.move(box["x"] + rect["x"] + 70, box["y"] + rect["y"] + 30)
    page.screenshot(path=str(OUT / "html_blocked_4096.png"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="write only these SVG pictures (no HTML pages)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        tmp = Path(tmp)
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        page = browser.new_page()
        for name, cmd, clip in SVGS:
            if args.only and name not in args.only:
                continue
            svg = tmp / f"{name}.svg"
            write(cmd, svg)
            shoot_svg(page, svg, OUT / f"{name}.png", clip)
        if not args.only:
            shoot_pages(browser, tmp)
        browser.close()
    for png in sorted(OUT.glob("*.png")):
        if args.only and png.stem not in args.only:
            continue
        shrink(png)
        print(f"{png.relative_to(ROOT)}: {png.stat().st_size // 1024} KB")


def shrink(png: Path) -> None:
    """A 256-colour palette PNG (a third of the size; the pictures have few colours). Needs Pillow, a tool of
    this script only (pip install pillow); without it the PNG stays as Chromium wrote it."""
    try:
        from PIL import Image
    except ImportError:
        print("pillow is not installed: PNGs left unquantised", file=sys.stderr)
        return
    image = Image.open(png).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(png, optimize=True)


if __name__ == "__main__":
    main()
