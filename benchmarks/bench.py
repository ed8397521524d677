"""ttlayout benchmarks: render time (beside Triton's own printer when available), start-up, `-i` on a 4 MB dump,
peak memory, scaling.

    python benchmarks/bench.py [--oracle-python /path/to/venv-with-triton-3.9/bin/python] [--repeat 5] [--quick]
                               [--big-dump-only]

Run it with the python of a venv where ttlayout is installed (`pip install .`), so that start-up is what users see.

Render time = parse + convert + render into a discarding sink, in process, median of --repeat runs.
Triton's figure is gluon_ir.get_layout_view (the same getLayoutStr the C++ tool calls) timed by --oracle-python in
a subprocess, same machine, same run. Start-up and memory are measured on whole `python -m linlayout_cli` processes.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCKED = ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
           "order = [1, 0]}>")
MMA_V3 = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], "
          "instrShape = [16, 256, 16]}>")
SWIZZLED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"

RENDER_CASES = [
    ("blocked tensor view", BLOCKED, False),
    ("blocked hw view", BLOCKED, True),
    ("nvidia_mma v3 tensor view", MMA_V3, False),
    ("nvidia_mma v3 hw view", MMA_V3, True),
    ("swizzled_shared tensor view", SWIZZLED, False),
    ("swizzled_shared hw view", SWIZZLED, True),
]

ORACLE_SCRIPT = r"""
import json, sys, tempfile, time, os
from triton._C.libtriton import ir, gluon_ir
attr, shape, hw, repeat = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
ctx = ir.context(); ir.load_dialects(ctx); b = gluon_ir.GluonOpBuilder(ctx)
dims = "x".join(map(str, shape))
shared = "shared" in attr
body = (f"%a = ttg.local_alloc : () -> !ttg.memdesc<{dims}xf16, #a, #ttg.shared_memory, mutable>" if shared
        else f"%c = arith.constant dense<0.0> : tensor<{dims}xf16, #a>")
src = f'#a = {attr}\nmodule attributes {{"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32}} {{\n' \
      f'tt.func @f() {{\n {body}\n tt.return\n}}\n}}\n'
path = tempfile.mktemp(suffix=".mlir"); open(path, "w").write(src)
mod = ir.parse_mlir_module(path, ctx); os.unlink(path)
vals = []
mod.walk(lambda op: vals.append(op.get_result(0)) if op.get_name() in ("arith.constant", "ttg.local_alloc") else None)
lay = b.get_gluon_layout_from_memdesc(vals[0]) if shared else b.get_gluon_layout_from_tensor(vals[0])
times = []
for _ in range(repeat):
    t = time.perf_counter(); gluon_ir.get_layout_view(lay, shape, hw); times.append(time.perf_counter() - t)
print(json.dumps(sorted(times)[len(times) // 2]))
"""


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def ttlayout_render_time(attr: str, shape, hw: bool, repeat: int) -> float:
    from linlayout_cli.conversions import to_linear_layout
    from linlayout_cli.parsing import parse_attribute
    from linlayout_cli.render import render_layout

    def once():
        render_layout(to_linear_layout(parse_attribute(attr), shape), hw, lambda b: None)
    once()                                        # warm the grammar cache and numpy
    return median_time(once, repeat)


def triton_render_time(oracle: str | None, attr: str, shape, hw: bool, repeat: int):
    if not oracle:
        return None
    out = subprocess.run([oracle, "-c", ORACLE_SCRIPT, attr, json.dumps(shape), "1" if hw else "0", str(repeat)],
                         capture_output=True, text=True)
    if out.returncode:
        return None
    return float(out.stdout.strip().splitlines()[-1])


def process_times(args, repeat: int):
    cmd = [sys.executable, "-m", "linlayout_cli", *args]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def peak_rss_mb(args) -> float:
    """Peak resident memory of one ttlayout process (a fresh wrapper process, so only that child is counted)."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, sys.executable, "-m", "linlayout_cli", *args],
                         capture_output=True, text=True, check=True)
    return int(out.stdout.strip()) / 1024


def row(*cells):
    print("| " + " | ".join(str(c) for c in cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle-python", default=os.environ.get("TTLAYOUT_ORACLE_PYTHON"),
                    help="python of a venv with triton==3.9.0, to time Triton's printer side by side")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="skip the 4096x4096 measures")
    ap.add_argument("--big-dump-only", action="store_true", help="only the -i timings on the 4 MB dump")
    opts = ap.parse_args()
    repeat = opts.repeat
    if opts.big_dump_only:
        big_dump_times(repeat)
        return

    venv = "venv" if sys.prefix != sys.base_prefix else "no venv: site-packages .pth files add to start-up"
    print(f"machine: {os.cpu_count()} cores, python {sys.version.split()[0]} ({venv})")
    print("\n### Render time, tensor<1024x1024xf16> (median, parse + convert + render, in process)\n")
    row("case", "ttlayout (s)", "Triton get_layout_view (s)", "ratio")
    row("---", "---", "---", "---")
    for name, attr, hw in RENDER_CASES:
        ours = ttlayout_render_time(attr, [1024, 1024], hw, repeat)
        theirs = triton_render_time(opts.oracle_python, attr, [1024, 1024], hw, max(1, repeat // 2))
        ratio = f"{ours / theirs:.3f}x" if theirs else "n/a"
        row(name, f"{ours:.3f}", f"{theirs:.3f}" if theirs else "n/a", ratio)

    print("\n### Whole process (median of 15 runs)\n")
    small = ["-l", BLOCKED, "-t", "tensor<16x16xf16>"]
    row("command", "wall (ms)")
    row("---", "---")
    row("python -c pass", f"{process_times_raw([sys.executable, '-c', 'pass'], 15) * 1e3:.0f}")
    row("ttlayout -l <blocked> -t tensor<16x16xf16>", f"{process_times(small, 15) * 1e3:.0f}")

    big_dump_times(repeat)

    if not opts.quick:
        print("\n### Peak RSS, tensor view of tensor<4096x4096xf16> written with -o\n")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "big.txt")
            mb = peak_rss_mb(["-l", BLOCKED, "-t", "tensor<4096x4096xf16>", "-o", out])
            size = os.path.getsize(out) / 1e6
        row("measure", "value")
        row("---", "---")
        row("peak RSS (MB)", f"{mb:.0f}")
        row("output size (MB)", f"{size:.0f}")

    print("\n### Scaling of the blocked tensor view (in process, median)\n")
    row("shape", "elements", "seconds", "µs / element")
    row("---", "---", "---", "---")
    sizes = [16, 64, 256, 1024] + ([] if opts.quick else [4096])
    for n in sizes:
        t = ttlayout_render_time(BLOCKED, [n, n], False, repeat if n < 4096 else 1)
        row(f"{n}x{n}", n * n, f"{t:.4f}", f"{t / (n * n) * 1e6:.3f}")

    print("\n### Bank-conflict report, 256x256 f16 (in process, median)\n")
    row("measure", "ms")
    row("---", "---")
    for label, extra in (("ttlayout bank (text report)", []), ("ttlayout bank --json", ["--json"])):
        row(label, f"{bank_time(extra, repeat) * 1e3:.1f}")


def big_dump_times(repeat: int) -> None:
    """`-i` on the 4 MB dump with 80,000 `#loc` lines that scripts/make_big_dump.py writes (deterministically):
    one alias picked with --alias-names, and every layout alias (no --alias-names)."""
    maker = os.path.join(ROOT, "scripts", "make_big_dump.py")
    if not os.path.exists(maker):
        print("\n(scripts/make_big_dump.py not found: big-dump timings skipped; run from a checkout)")
        return
    print(f"\n### -i on a 4 MB dump with 80,000 #loc lines (whole process, median of {max(repeat, 5)} runs)\n")
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "big.ttgir")
        subprocess.run([sys.executable, maker, dump], check=True, stdout=subprocess.DEVNULL)
        with open(dump, encoding="utf-8") as f:
            text = f.read()
        alias = re.search(r"^#([\w$-]+) = #ttg\.", text, re.M).group(1)       # its first layout alias
        row("command", "wall (ms)")
        row("---", "---")
        for label, extra in ((f"ttlayout -i BIG -t tensor<64x64xf16> --alias-names {alias}", ["--alias-names", alias]),
                             ("ttlayout -i BIG -t tensor<64x64xf16> (every layout alias)", [])):
            t = process_times(["-i", dump, "-t", "tensor<64x64xf16>", *extra], max(repeat, 5))
            row(label, f"{t * 1e3:.0f}")


def process_times_raw(cmd, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bank_time(extra, repeat: int) -> float:
    from linlayout_cli.cli import run
    args = ["bank", "-r", "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], "
            "order = [0, 1]}>", "-s", SWIZZLED, "-t", "tensor<256x256xf16>", *extra]
    code, _, err = run(args)
    if code:
        raise SystemExit(f"bank benchmark failed: {err}")
    return median_time(lambda: run(args), repeat)

if __name__ == "__main__":
    main()
