"""`ttlayout -i FILE` over a file of many aliases (issue 32 B.3: 100,000 aliases took 243 MB and printed nothing
before all were done): peak memory, CPU time and the time to the first byte on a pipe.

    python benchmarks/many_aliases.py write OUT.mlir [--aliases 100000] [--uses]
    python benchmarks/many_aliases.py measure FILE.mlir [--source DIR] [-- ARGS...]

`write`: aliases #a0, #a1, ... cycling four kinds (blocked, nvidia_mma, swizzled_shared, linear) with a few
parameters each, 109 bytes an alias; `--uses` adds a module whose ops use each alias at tensor<16x16xf16>, for
`-i FILE` without `-t`. `measure`: `ttlayout -i FILE ARGS` as its own process, its standard output read from a
pipe: input MB, output MB, peak RSS (ru_maxrss from wait4), CPU seconds, wall seconds and seconds to the first
byte. `--source DIR`: run the package found in DIR (an older commit's `git archive`) for a before/after table.
Default ARGS: `-t tensor<16x16xf16>`."""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KINDS = (
    "#ttg.blocked<{{sizePerThread = [1, {a}], threadsPerWarp = [4, 8], warpsPerCTA = [{w}, 1], order = [1, 0]}}>",
    "#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = [{w}, 1], instrShape = [16, 8]}}>",
    "#ttg.swizzled_shared<{{vec = {a}, perPhase = 1, maxPhase = 8, order = [1, 0]}}>",
    "#ttg.linear<{{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0]], "
    "block = []}}>",
)


def write(path: str, count: int, uses: bool) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for i in range(count):
            f.write(f"#a{i} = " + KINDS[i % 4].format(a=(1, 2, 4, 8)[i // 4 % 4], w=(1, 2)[i // 16 % 2]) + "\n")
        if uses:
            f.write('module attributes {"ttg.num-warps" = 2 : i32, ttg.target = "cuda:90"} {\n  tt.func @k() {\n')
            for i in range(count):
                f.write(f"    %{i} = arith.constant dense<0.0> : tensor<16x16xf16, #a{i}>\n")
            f.write("    tt.return\n  }\n}\n")


def measure(path: str, args: list[str], source: str | None) -> str:
    env = dict(os.environ, PYTHONPATH=source or ROOT)
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "linlayout_cli", "-i", path, *args], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    first, out = None, 0
    while True:
        piece = child.stdout.read1(1 << 16)
        if not piece:
            break
        first = time.monotonic() - start if first is None else first
        out += len(piece)
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    shown = "-" if first is None else f"{first:.1f} s"
    return (f"{' '.join(args):40s} input {os.path.getsize(path) / 1e6:.1f} MB, exit "
            f"{os.waitstatus_to_exitcode(status)}, output {out / 1e6:.1f} MB, peak RSS {usage.ru_maxrss / 1024:.0f} MB, "
            f"CPU {usage.ru_utime + usage.ru_stime:.1f} s, wall {wall:.1f} s, first byte {shown}"
            + (f", stderr {err[:200]!r}" if err else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("out")
    w.add_argument("--aliases", type=int, default=100_000)
    w.add_argument("--uses", action="store_true")
    m = sub.add_parser("measure")
    m.add_argument("file")
    m.add_argument("--source")
    m.add_argument("args", nargs="*")
    ns = parser.parse_args()
    if ns.command == "write":
        write(ns.out, ns.aliases, ns.uses)
    else:
        print(measure(ns.file, ns.args or ["-t", "tensor<16x16xf16>"], ns.source))


if __name__ == "__main__":
    main()
