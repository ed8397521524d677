"""Picture benchmarks: the HTML page of a 4096x4096 tensor (size) and the SVG of a 128x256 tile (size, time).

    python benchmarks/pictures.py [--repeat 7]

Run with the python of a venv where ttlayout is installed. Time = parse + convert + render into memory, in process,
median of --repeat runs (the first, which pays the imports, is not counted). Goals: HTML <= 100 KB; SVG <= 2 MB
written in <= 0.5 s.
"""
from __future__ import annotations

import argparse
import statistics
import time

BLOCKED = ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
           "order = [1, 0]}>")
MMA_V3 = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], "
          "instrShape = [16, 256, 16]}>")
NVMMA = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
SWIZZLED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"


def picture(fmt: str, attr: str, ttype: str, hw: bool = False) -> bytes:
    from linlayout_cli.cli import run
    code, out, err = run(["-l", attr, "-t", ttype, "--format", fmt] + (["--use-hw-view"] if hw else []))
    if code:
        raise SystemExit(err)
    return out.encode()


def timed(fn, repeat: int):
    fn()
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    rows = []
    for what, fmt, attr, ttype, hw, goal in (
            ("HTML, blocked, tensor<4096x4096xf16>", "html", BLOCKED, "tensor<4096x4096xf16>", False,
             "<= 100 KB"),
            ("SVG, nvidia_mma v3, tensor<128x256xf16>, tensor view", "svg", MMA_V3, "tensor<128x256xf16>", False,
             "<= 2 MB, <= 0.5 s"),
            ("SVG, nvidia_mma v3, tensor<128x256xf16>, hardware view", "svg", MMA_V3, "tensor<128x256xf16>", True,
             ""),
            ("SVG, blocked, tensor<128x256xf16>", "svg", BLOCKED, "tensor<128x256xf16>", False, "<= 2 MB, <= 0.5 s"),
            ("SVG, nvmma_shared 128B, tensor<128x256xf16>", "svg", NVMMA, "tensor<128x256xf16>", False, ""),
            ("SVG, swizzled_shared, tensor<128x256xf16>, hardware view", "svg", SWIZZLED, "tensor<128x256xf16>",
             True, ""),
            ("SVG, blocked, tensor<4096x4096xf16> (tiles)", "svg", BLOCKED, "tensor<4096x4096xf16>", False, "")):
        seconds, out = timed(lambda fmt=fmt, attr=attr, ttype=ttype, hw=hw: picture(fmt, attr, ttype, hw), args.repeat)
        rows.append((what, len(out), seconds, goal))
    print(f"{'picture':60} {'bytes':>10} {'seconds':>8}  goal")
    for what, size, seconds, goal in rows:
        print(f"{what:60} {size:>10,} {seconds:>8.3f}  {goal}")


if __name__ == "__main__":
    main()
