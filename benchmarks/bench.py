"""ttlayout's performance goals, measured side by side with Triton 3.9 in one run.

    python benchmarks/bench.py [--oracle-python PY] [--repeat N] [--quick] [--dumps] [--cache]

Run it with the python of a venv where ttlayout is installed (`pip install .`) from a checkout (the `-i` goal
builds its dump with scripts/make_big_dump.py, the audit goal reads tests/data/kernels). --oracle-python (or
TTLAYOUT_ORACLE_PYTHON) is the python of a venv with triton==3.9.0; without it Triton's columns stay empty.

Whole-process figures are what a user waits for: the median wall time of --repeat runs of the installed
`ttlayout` script, started in an empty scratch directory with its output to /dev/null (or to `-o`), and the
peak RSS of that process alone (wait4). Triton's route to the same text is a Python process that loads
Triton's bindings, builds the layout from the same attribute text and writes `gluon_ir.get_layout_view` (the
getLayoutStr that triton-tensor-layout prints); Triton's route to a conversion's cost is compiling the one-op
kernel for sm90 (a fresh cache each run). A render time is the time at 1024x1024 minus the time at 16x16, for
each tool. --quick skips the 4096x4096 measures. The last table times the `-i` reader and `audit` on generated dumps
of 1 to 50 MB with their peak RSS (--dumps runs that table alone). The cache goals (--cache runs them alone) audit
a generated Triton cache of 1,000 kernel directories with two processes, and one kernel in process.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
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
TILE_MMA = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
            "instrShape = [16, 128, 16]}>")
TILE_BLOCKED = ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                "order = [1, 0]}>")
BANK_REG = ("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], "
            "order = [0, 1]}>")
TILE = "tensor<128x256xf16>"
VIEWS = [("blocked", BLOCKED), ("nvidia_mma v3", MMA_V3), ("swizzled_shared", SWIZZLED)]

WRAPPER = r"""
import os, sys, time
start = time.perf_counter()
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(sys.argv[1], "w") as f:
    f.write(f"{seconds} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""

TRITON_VIEW = r"""
import json, os, sys, tempfile, time
from triton._C.libtriton import ir, gluon_ir
attr, dims, hw, mode, arg = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4], sys.argv[5]
ctx = ir.context(); ir.load_dialects(ctx); builder = gluon_ir.GluonOpBuilder(ctx)
shared = "shared" in attr
body = (f"%a = ttg.local_alloc : () -> !ttg.memdesc<{dims}xf16, #a, #ttg.shared_memory, mutable>" if shared
        else f"%c = arith.constant dense<0.0> : tensor<{dims}xf16, #a>")
src = (f'#a = {attr}\nmodule attributes {{"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32}} {{\n'
       f"tt.func @f() {{\n {body}\n tt.return\n}}\n}}\n")
fd, path = tempfile.mkstemp(suffix=".mlir"); os.write(fd, src.encode()); os.close(fd)
module = ir.parse_mlir_module(path, ctx); os.unlink(path)
values = []
module.walk(lambda op: values.append(op.get_result(0)) if op.get_name() in ("arith.constant", "ttg.local_alloc")
            else None)
layout = (builder.get_gluon_layout_from_memdesc(values[0]) if shared
          else builder.get_gluon_layout_from_tensor(values[0]))
shape = [int(d) for d in dims.split("x")]
if mode == "print":                  # write the text to the file `arg`, as the tool would
    text = gluon_ir.get_layout_view(layout, shape, hw)
    with open(arg, "w") as f:
        f.write(f"Print layout attribute: {attr}\n")
        f.write(text)
else:                                # "time": the median of `arg` calls of get_layout_view alone
    times = []
    for _ in range(int(arg)):
        t = time.perf_counter(); gluon_ir.get_layout_view(layout, shape, hw); times.append(time.perf_counter() - t)
    print(json.dumps(sorted(times)[len(times) // 2]))
sys.stdout.flush()
os._exit(0)      # skip the bindings' teardown, which reports leaks on stderr
"""

TRITON_COMPILE = r"""
import os, sys
import triton
from triton.backends.compiler import GPUTarget
kernel = triton.compile(sys.argv[1], target=GPUTarget("cuda", 90, 32))
assert "ptx" in kernel.asm
os._exit(0)
"""


# ----------------------------------------------------------------------------------------- processes


class Runner:
    """Whole processes: median wall time and peak RSS of --repeat runs, in an empty scratch directory."""

    def __init__(self, repeat: int, oracle: str | None):
        self.repeat, self.oracle = repeat, oracle
        self.scratch = tempfile.mkdtemp(prefix="ttlayout-bench-")
        self.ttlayout = shutil.which("ttlayout", path=os.path.dirname(sys.executable)) or shutil.which("ttlayout")
        if not self.ttlayout:
            raise SystemExit("no ttlayout script next to this python: run the benchmark with the python of a venv "
                             "where ttlayout is installed (pip install .)")
        self.env = dict(os.environ)
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)   # a user's ttlayout runs from compiled bytecode

    def once(self, cmd, env=None) -> tuple[float, float]:
        """(seconds, peak RSS in MB) of one process; a failure stops the benchmark with its error. The process is
        started by a small wrapper, whose own memory (not this benchmark's) is the floor of the peak RSS that
        Linux reports for a child."""
        err = tempfile.TemporaryFile()
        report = os.path.join(self.scratch, "wrapper.out")
        subprocess.run([sys.executable, "-c", WRAPPER, report, *cmd], stdout=subprocess.DEVNULL, stderr=err,
                       cwd=self.scratch, env=env or self.env)
        with open(report) as f:
            seconds, kb, code = f.read().split()
        if int(code):
            err.seek(0)
            raise SystemExit(f"failed ({code}): {' '.join(cmd)[:200]}\n{err.read().decode()[-2000:]}")
        return float(seconds), int(kb) / 1024

    def median(self, cmd, repeat: int | None = None, env=None) -> tuple[float, float]:
        """(median seconds, largest peak RSS in MB) over `repeat` runs, after one unmeasured warm-up run."""
        self.once(cmd, env)
        runs = [self.once(cmd, env) for _ in range(repeat or self.repeat)]
        return statistics.median(t for t, _ in runs), max(m for _, m in runs)

    def ours(self, *args, repeat: int | None = None) -> tuple[float, float]:
        return self.median([self.ttlayout, *args], repeat)

    def triton_print(self, attr: str, dims: str, hw: bool, repeat: int | None = None):
        if not self.oracle:
            return None
        out = os.path.join(self.scratch, "triton.txt")
        result = self.median([self.oracle, "-c", TRITON_VIEW, attr, dims, "1" if hw else "0", "print", out], repeat)
        os.unlink(out)
        return result

    def python_pass(self) -> float:
        return self.median([sys.executable, "-c", "pass"])[0]


# ----------------------------------------------------------------------------------------- goals


class Goals:
    """Rows of the goal table: ttlayout's figure, Triton's where Triton has one, the ratio, and the target."""

    def __init__(self):
        self.rows = []

    def add(self, goal: str, ours: float, unit: str, limit: float, theirs: float | None = None,
            on_ratio: bool = False):
        ratio = ours / theirs if theirs else None
        value = ratio if on_ratio else ours
        holds = "n/a" if value is None else ("yes" if value <= limit else "no")
        target = f"ratio <= {limit}" if on_ratio else f"<= {limit:g} {unit}"
        self.rows.append((goal, f"{ours:.0f} {unit}" if unit != "s" else f"{ours:.2f} s",
                          "n/a" if theirs is None else (f"{theirs:.0f} {unit}" if unit != "s" else f"{theirs:.2f} s"),
                          "n/a" if ratio is None else f"{ratio:.3f}", target, holds))

    def print(self):
        print()
        row("goal", "ttlayout", "Triton", "ratio", "target", "holds")
        row("---", "---:", "---:", "---:", "---", "---")
        for r in self.rows:
            row(*r)


def row(*cells):
    print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


def render_goals(run: Runner, goals: Goals) -> None:
    """Whole-process render time at 1024x1024 (minus 16x16), ttlayout against Triton's route. The four processes
    of a view run in turn, --repeat times, so that both tools meet the same moments of a noisy machine."""
    for name, attr in VIEWS:
        for hw in (False, True):
            flag = ["--use-hw-view"] if hw else []
            out = os.path.join(run.scratch, "triton.txt")
            cmds = [[run.ttlayout, "-l", attr, "-t", "tensor<16x16xf16>", *flag],
                    [run.ttlayout, "-l", attr, "-t", "tensor<1024x1024xf16>", *flag]]
            if run.oracle:
                cmds += [[run.oracle, "-c", TRITON_VIEW, attr, dims, "1" if hw else "0", "print", out]
                         for dims in ("16x16", "1024x1024")]
            for cmd in cmds:
                run.once(cmd)                                   # warm-up
            times = [[] for _ in cmds]
            for _ in range(run.repeat):
                for cmd, ts in zip(cmds, times):
                    ts.append(run.once(cmd)[0])
            medians = [statistics.median(ts) * 1e3 for ts in times]
            theirs = medians[3] - medians[2] if run.oracle else None
            view = "hardware" if hw else "tensor"
            goals.add(f"render 1024x1024, {name} {view} view (1024^2 - 16^2)", medians[1] - medians[0], "ms", 0.1,
                      theirs, on_ratio=True)


def startup_goal(run: Runner, goals: Goals) -> None:
    ours = run.ours("-l", BLOCKED, "-t", "tensor<16x16xf16>", repeat=max(15, run.repeat))[0] * 1e3
    theirs = run.triton_print(BLOCKED, "16x16", False)
    goals.add("start-up: ttlayout -l <blocked> -t tensor<16x16xf16>", ours, "ms", 50,
              theirs[0] * 1e3 if theirs else None)


def memory_goal(run: Runner, goals: Goals) -> None:
    out = os.path.join(run.scratch, "big.txt")
    ours = run.ours("-l", BLOCKED, "-t", "tensor<4096x4096xf16>", "-o", out, repeat=1)[1]
    theirs = run.triton_print(BLOCKED, "4096x4096", False, repeat=1)
    goals.add("peak RSS, tensor view of tensor<4096x4096xf16> to -o", ours, "MB", 64,
              theirs[1] if theirs else None)
    os.unlink(out)


def command_goals(run: Runner, goals: Goals) -> None:
    goals.add(f"info -l <nvidia_mma v3> -t {TILE}", run.ours("info", "-l", TILE_MMA, "-t", TILE)[0] * 1e3, "ms", 100)
    goals.add(f"lookup --thread 5 ({TILE})",
              run.ours("lookup", "-l", TILE_MMA, "-t", TILE, "--thread", "5")[0] * 1e3, "ms", 100)
    goals.add(f"lookup --element 3,17 ({TILE})",
              run.ours("lookup", "-l", TILE_MMA, "-t", TILE, "--element", "3,17")[0] * 1e3, "ms", 100)
    ours = run.ours("convert", "-s", TILE_MMA, "-d", TILE_BLOCKED, "-t", TILE, "--target", "sm90")[0] * 1e3
    goals.add(f"convert mma -> blocked ({TILE}, sm90); Triton: compile the one-op kernel", ours, "ms", 100,
              triton_compile_ms(run))
    dumps = os.path.join(ROOT, "tests", "data", "kernels")
    largest = max((os.path.join(dumps, f) for f in os.listdir(dumps) if f.endswith(".ttgir")), key=os.path.getsize)
    goals.add(f"audit {os.path.basename(largest)} (the largest real dump, {os.path.getsize(largest) // 1024} KB)",
              run.ours("audit", largest)[0], "s", 1)
    goals.add(f"advise {os.path.basename(largest)} (every candidate priced on the whole kernel)",
              run.ours("advise", largest)[0], "s", 2)
    every = sorted(os.path.join(dumps, f) for f in os.listdir(dumps) if f.endswith(".ttgir"))
    slowest = max(every, key=lambda path: run.ours("advise", path, repeat=1)[0])
    goals.add(f"advise, slowest of the {len(every)} test dumps ({os.path.basename(slowest)})",
              run.ours("advise", slowest)[0], "s", 2)
    dump, alias = big_dump(run)
    goals.add(f"-i 4 MB dump, 80,000 #loc lines: -t tensor<64x64xf16> --alias-names {alias}",
              run.ours("-i", dump, "-t", "tensor<64x64xf16>", "--alias-names", alias)[0], "s", 0.3)
    svg = os.path.join(run.scratch, "tile.svg")
    goals.add(f"SVG, nvidia_mma v3 {TILE}", run.ours("-l", MMA_V3, "-t", TILE, "--format", "svg", "-o", svg)[0],
              "s", 0.5)
    html = os.path.join(run.scratch, "big.html")
    run.once([run.ttlayout, "-l", BLOCKED, "-t", "tensor<4096x4096xf16>", "--format", "html", "-o", html])
    goals.add("HTML page, blocked tensor<4096x4096xf16> (size)", os.path.getsize(html) / 1000, "KB", 100)


def triton_compile_ms(run: Runner) -> float | None:
    """Triton's way to a conversion's cost: compile the one-op kernel (load, convert_layout, store) for sm90."""
    if not run.oracle:
        return None
    sys.path.insert(0, ROOT)
    from scripts.golden.kernel import kernel_text
    path = os.path.join(run.scratch, "cvt.ttgir")
    with open(path, "w") as f:
        f.write(kernel_text({"src": TILE_MMA, "dst": TILE_BLOCKED, "shape": [128, 256], "elem": "f16",
                             "num_warps": 4, "target": "sm90"}))
    times = []
    for _ in range(max(3, run.repeat // 2)):
        env = dict(run.env, TRITON_CACHE_DIR=tempfile.mkdtemp(dir=run.scratch))   # no cached kernel
        times.append(run.once([run.oracle, "-c", TRITON_COMPILE, path], env)[0])
    return statistics.median(times) * 1e3


def big_dump(run: Runner) -> tuple[str, str]:
    """scripts/make_big_dump.py's deterministic 4 MB dump with 80,000 #loc lines, and its first layout alias."""
    dump = os.path.join(run.scratch, "big.ttgir")
    if not os.path.exists(dump):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_big_dump.py"), dump], check=True,
                       stdout=subprocess.DEVNULL)
    with open(dump, encoding="utf-8") as f:
        alias = re.search(r"^#([\w$-]+) = #ttg\.", f.read(), re.M).group(1)
    return dump, alias


# ----------------------------------------------------------------------------------------- tables


def in_process_render(run: Runner) -> None:
    """Render time alone (parse + convert + render into a discarding sink), in process, median."""
    from linlayout_cli.conversions import to_linear_layout
    from linlayout_cli.parsing import parse_attribute
    from linlayout_cli.render import render_layout
    print("\n### Render time in process, tensor<1024x1024xf16> (median; Triton: get_layout_view alone)\n")
    row("view", "ttlayout (ms)", "Triton (ms)", "ratio")
    row("---", "---:", "---:", "---:")
    for name, attr in VIEWS:
        for hw in (False, True):
            def once(attr=attr, hw=hw):
                render_layout(to_linear_layout(parse_attribute(attr), [1024, 1024]), hw, lambda b: None)
            once()
            times = []
            for _ in range(run.repeat):
                t = time.perf_counter()
                once()
                times.append(time.perf_counter() - t)
            ours = statistics.median(times) * 1e3
            theirs = None
            if run.oracle:
                out = subprocess.run([run.oracle, "-c", TRITON_VIEW, attr, "1024x1024", "1" if hw else "0", "time",
                                      str(max(1, run.repeat // 2))], capture_output=True, text=True)
                theirs = float(out.stdout.strip().splitlines()[-1]) * 1e3 if out.returncode == 0 else None
            row(f"{name} {'hardware' if hw else 'tensor'} view", f"{ours:.0f}",
                f"{theirs:.0f}" if theirs else "n/a", f"{ours / theirs:.3f}" if theirs else "n/a")


def scaling(run: Runner, quick: bool) -> None:
    """Whole-process time and peak RSS from 16x16 to 4096x4096, and the time per element above 16x16."""
    sizes = [16, 64, 256, 1024] + ([] if quick else [4096])
    measures = [
        ("tensor view (blocked)", lambda d: ["-l", BLOCKED, "-t", f"tensor<{d}xf16>"]),
        ("hardware view (blocked)", lambda d: ["-l", BLOCKED, "-t", f"tensor<{d}xf16>", "--use-hw-view"]),
        ("tensor view (swizzled_shared)", lambda d: ["-l", SWIZZLED, "-t", f"tensor<{d}xf16>"]),
        ("bank (blocked -> swizzled_shared)", lambda d: ["bank", "-r", BANK_REG, "-s", SWIZZLED, "-t",
                                                         f"tensor<{d}xf16>"]),
        ("convert (nvidia_mma v3 -> blocked)", lambda d: ["convert", "-s", TILE_MMA, "-d", TILE_BLOCKED, "-t",
                                                          f"tensor<{d}xf16>"]),
    ]
    print("\n### Scaling: whole process, median (ms) / peak RSS (MB); last column: µs per element above 16x16 "
          "at the largest size\n")
    row("measure", *[f"{n}x{n}" for n in sizes], "µs / element")
    row("---", *["---:"] * (len(sizes) + 1))
    for name, args in measures:
        cells, first = [], None
        for n in sizes:
            seconds, mb = run.ours(*args(f"{n}x{n}"), repeat=run.repeat if n < 4096 else 1)
            first = seconds if first is None else first
            cells.append(f"{seconds * 1e3:.0f} / {mb:.0f}")
        per = (seconds - first) / (sizes[-1] ** 2 - 256) * 1e6
        row(name, *cells, f"{per:.3f}")


CACHE_KERNELS = 1000
PER_KERNEL_DUMP = "matmul_pipelined.sm80.ttgir"      # the matmul dump closest to 22 KB (21.8 KB)


def make_cache(directory: str, count: int = CACHE_KERNELS) -> int:
    """A Triton cache of `count` kernel directories: copies of tests/data/cache's entries (every file of each, hard
    links where the file system allows), each under a distinct hash named as Triton names them (base32 of a
    sha256, without padding). Returns the number of directories."""
    import base64
    import hashlib
    source = os.path.join(ROOT, "tests", "data", "cache")
    entries = sorted(d for d in os.listdir(source) if os.path.isdir(os.path.join(source, d)))
    for i in range(count):
        entry = entries[i % len(entries)]
        key = base64.b32encode(hashlib.sha256(f"{entry}/{i}".encode()).digest()).decode().rstrip("=")
        target = os.path.join(directory, key)
        os.makedirs(target)
        for name in os.listdir(os.path.join(source, entry)):
            src, dst = os.path.join(source, entry, name), os.path.join(target, name)
            try:
                os.link(src, dst)
            except OSError:
                shutil.copyfile(src, dst)
    return count


def cache_goals(run: Runner, goals: Goals) -> None:
    """Issue 20's goals: `audit --cache` over 1,000 kernel directories as a whole process on 2 cores (-j 2), and
    one kernel audited in process (read, parse, analyse, its record) on the matmul dump closest to 22 KB."""
    cache = os.path.join(run.scratch, "cache")
    os.makedirs(cache)
    count = make_cache(cache)
    out = os.path.join(run.scratch, "cache-audit.txt")
    repeat = max(1, min(run.repeat, 3))
    seconds, peak = run.ours("audit", "--cache", cache, "-j", "2", "-o", out, repeat=repeat)
    goals.add(f"audit --cache, {count:,} kernel directories, -j 2 (peak RSS {peak:.0f} MB)", seconds, "s", 20)
    seconds, peak = run.ours("audit", "--cache", cache, "-j", "2", "--json", "-o", out, repeat=repeat)
    goals.add(f"the same, --json ({os.path.getsize(out) / 1e6:.0f} MB; peak RSS {peak:.0f} MB)", seconds, "s", 20)
    shutil.rmtree(cache, ignore_errors=True)
    goals.add(f"one kernel in process: {PER_KERNEL_DUMP} "
              f"({os.path.getsize(os.path.join(ROOT, 'tests', 'data', 'kernels', PER_KERNEL_DUMP)) / 1000:.1f} KB)",
              per_kernel_ms(), "ms", 20)


PER_KERNEL = r"""
import statistics, sys, time
from linlayout_cli import sources
from linlayout_cli.analysis.audit import Memo
kernel = sources.kernel_at(sys.argv[1])
sources.audit_kernel(kernel, memo=Memo())                     # warm-up: imports, grammar tables
runs = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    records = sources.audit_kernel(kernel, memo=Memo())       # a fresh memo: nothing cached from the last run
    runs.append(time.perf_counter() - start)
assert records and hasattr(records[0], "ops"), records
print(statistics.median(runs) * 1e3)
"""


def per_kernel_ms(repeat: int = 51) -> float:
    """The median in-process time of one kernel's audit (sources.audit_kernel: read, parse, analyse, its record)."""
    dump = os.path.join(ROOT, "tests", "data", "kernels", PER_KERNEL_DUMP)
    out = subprocess.run([sys.executable, "-c", PER_KERNEL, dump, str(repeat)], capture_output=True, text=True,
                         check=True)
    return float(out.stdout.split()[-1])


DUMP_SIZES_MB = (1, 2, 5, 10, 20, 50)


def dump_scaling(run: Runner, sizes_mb=DUMP_SIZES_MB) -> None:
    """The `-i` reader and `audit` on dumps of 1 to 50 MB (scripts/make_big_dump.py: copies of the flash-attention
    kernel in one module, one #loc line per 50 bytes), whole processes: median time, throughput and peak RSS,
    and the peak against the input. Goals (issue 23): at least 10 MB/s, peak memory at most 10x the input, a 50 MB
    dump audited in at most 5 s and 500 MB."""
    print("\n### Dumps: whole process, median (s) / MB/s / peak RSS (MB) / peak over input\n")
    row("dump", "-i reader (one alias at one shape)", "audit")
    row("---", "---:", "---:")
    for mb in sizes_mb:
        size = mb * 1_000_000
        dump = os.path.join(run.scratch, f"dump{mb}.ttgir")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_big_dump.py"), dump, "--bytes",
                        str(size), "--locs", str(size // 50)], check=True, stdout=subprocess.DEVNULL)
        real = os.path.getsize(dump) / 1e6
        with open(dump, encoding="utf-8") as f:
            alias = re.search(r"^#([\w$-]+) = #ttg\.", f.read(), re.M).group(1)
        repeat = max(1, min(run.repeat, 3 if mb >= 20 else run.repeat))
        cells = []
        for args in (["-i", dump, "-t", "tensor<64x64xf16>", "--alias-names", alias], ["audit", dump]):
            seconds, peak = run.ours(*args, repeat=repeat)
            cells.append(f"{seconds:.2f} s / {real / seconds:.1f} MB/s / {peak:.0f} MB / {peak / real:.1f}x")
        row(f"{real:.1f} MB", *cells)
        os.unlink(dump)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle-python", default=os.environ.get("TTLAYOUT_ORACLE_PYTHON"),
                    help="python of a venv with triton==3.9.0, to measure Triton side by side")
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--quick", action="store_true", help="skip the 4096x4096 measures")
    ap.add_argument("--dumps", action="store_true", help="only the dump table (the -i reader and audit, 1-50 MB)")
    ap.add_argument("--cache", action="store_true", help="only the cache goals (1,000 kernels; one kernel)")
    opts = ap.parse_args()
    run = Runner(opts.repeat, opts.oracle_python)
    if opts.cache:
        try:
            goals = Goals()
            cache_goals(run, goals)
            goals.print()
        finally:
            shutil.rmtree(run.scratch, ignore_errors=True)
        return
    if opts.dumps:
        try:
            dump_scaling(run)
        finally:
            shutil.rmtree(run.scratch, ignore_errors=True)
        return
    try:
        import platform
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, python {sys.version.split()[0]}; "
              f"python -c pass: {run.python_pass() * 1e3:.0f} ms; ttlayout: {run.ttlayout}")
        print("\n### Goals (whole processes; medians of", opts.repeat, "runs)")
        goals = Goals()
        render_goals(run, goals)
        startup_goal(run, goals)
        if not opts.quick:
            memory_goal(run, goals)
        command_goals(run, goals)
        cache_goals(run, goals)
        goals.print()
        in_process_render(run)
        scaling(run, opts.quick)
        dump_scaling(run, DUMP_SIZES_MB if not opts.quick else (1, 5, 10))
    finally:
        shutil.rmtree(run.scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
