"""`audit` throughput and peak memory on dumps of every shape (issue 32 C: huge functions at full speed).

    python benchmarks/huge_dump.py write OUT.ttgir [--converts 450000]
    python benchmarks/huge_dump.py measure [--converts 450000] [--source DIR] [--repeat N]

`write`: a TTGIR dump that is ONE function of N `ttg.convert_layout` ops. The function starts with one constant
and converts it round the three layouts #mma -> #blocked -> #blocked1 -> #mma (sm80), every op with its own
`loc(#locK)` naming one of 1,000 Python lines (an unrolled loop), the `#locK` defined after the module as Triton
does: 116 bytes per op, so the default 450,000 converts make a 52 MB file (issue 32 reports 49 MB). Deterministic; the generator needs only the standard library.

`measure`: `ttlayout audit FILE -o OUT` as a whole process, on the one-function dump, on the benchmark dump of
scripts/make_big_dump.py (flash_attention.sm90 repeated as 176 functions, 4 MB) and on the largest real dump of
tests/data/kernels: the input's MB per second of wall time (and of CPU time, user + system, which a loaded machine
disturbs less), and the process's peak RSS (ru_maxrss of the child, from wait4: the whole process, the interpreter
and its imports included) against the input's size. `--source DIR`: run the ttlayout package found in DIR (a
checkout, e.g. an older commit's `git archive`) instead of the one this python imports, for a before/after table.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HEAD = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#loc = loc("huge.py":7:1)
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", \
"ttg.threads-per-warp" = 32 : i32} {
  tt.func public @huge() attributes {noinline = false} {
    %0 = arith.constant dense<0.000000e+00> : tensor<128x128xf16, #mma> loc(#loc1)
"""
LAYOUTS = ("#mma", "#blocked", "#blocked1")
SOURCE_LINES = 1000          # an unrolled loop: many ops come from the same few Python lines


def write(path: str, converts: int) -> None:
    """One function, `converts` converts cycling #mma -> #blocked -> #blocked1 -> #mma, then its #loc lines."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(HEAD)
        for i in range(converts):
            src, dst = LAYOUTS[i % 3], LAYOUTS[(i + 1) % 3]
            f.write(f"    %{i + 1} = ttg.convert_layout %{i} : tensor<128x128xf16, {src}> -> "
                    f"tensor<128x128xf16, {dst}> loc(#loc{i % SOURCE_LINES + 2})\n")
        f.write("    tt.return loc(#loc1)\n  } loc(#loc)\n} loc(#loc)\n#loc1 = loc(\"huge.py\":8:4)\n")
        for k in range(SOURCE_LINES):
            f.write(f"#loc{k + 2} = loc(\"huge.py\":{9 + k}:8)\n")


def run_once(path: str, source: str | None, scratch: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MB) of `ttlayout audit path -o scratch/out.txt` as its own process."""
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = source
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "linlayout_cli", "audit", path, "-o",
                              os.path.join(scratch, "out.txt")], env=env, cwd=scratch,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    err = child.stderr.read().decode() if child.stderr else ""
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"audit {path} failed: {err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def measure(converts: int, source: str | None, repeat: int) -> None:
    scratch = tempfile.mkdtemp(prefix="ttlayout-huge-")
    one = os.path.join(scratch, "one_function.ttgir")
    write(one, converts)
    bench = os.path.join(scratch, "benchmark.ttgir")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_big_dump.py"), bench], check=True,
                   stdout=subprocess.DEVNULL)
    kernels = os.path.join(ROOT, "tests", "data", "kernels")
    real = max((os.path.join(kernels, f) for f in os.listdir(kernels) if f.endswith(".ttgir")), key=os.path.getsize)
    cases = [(f"one function, {converts:,} converts", one), ("benchmark dump (one kernel x 176 functions)", bench),
             (f"largest real dump ({os.path.basename(real)})", real)]
    print("| dump | input | wall | MB/s (wall) | CPU | MB/s (CPU) | peak RSS | RSS / input |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, path in cases:
        size = os.path.getsize(path) / 1e6
        runs = [run_once(path, source, scratch) for _ in range(repeat)]
        wall = sorted(r[0] for r in runs)[len(runs) // 2]
        cpu = sorted(r[1] for r in runs)[len(runs) // 2]
        rss = max(r[2] for r in runs)
        print(f"| {name} | {size:.2f} MB | {wall:.1f} s | {size / wall:.2f} | {cpu:.1f} s | {size / cpu:.2f} | "
              f"{rss:.0f} MB | {rss / size:.1f}x |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="write the one-function dump")
    w.add_argument("out")
    w.add_argument("--converts", type=int, default=450_000)
    m = sub.add_parser("measure", help="audit's MB/s and peak RSS on each shape of dump")
    m.add_argument("--converts", type=int, default=450_000)
    m.add_argument("--source", help="a checkout whose linlayout_cli to run (default: the one this python imports)")
    m.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    if args.command == "write":
        write(args.out, args.converts)
    else:
        measure(args.converts, args.source, args.repeat)


if __name__ == "__main__":
    main()
