#!/opt/oracle/venv/bin/python
"""Shared-memory scratch of `tt.reduce` as Triton 3.9's compiler allocates it, for the audit's reduction model.

    /opt/oracle/venv/bin/python scripts/make_reduce_reference.py [--only NAME] [--print]

Each case is a one-op TTGIR kernel written here (load a tile in a given #ttg.blocked layout, reduce it along one
axis with an addition, store the result in the slice layout), compiled CPU-only by ``triton.compile`` for
sm80, sm90, sm100 and gfx942 in its own child process (Triton aborts the process on some inputs). Nothing else
in the kernel takes shared memory, so the compiler's ``metadata.shared`` is the reduction's scratch. The cases
put warps along and across the reduced axis, lanes along and across it, one and two operands, 8- to 64-bit
elements. ``tests/data/reduce_scratch.json`` gets, per case and target, the layout, shape, axis, element
types and ``shared``; tests compare ttlayout's scratch with it. ttlayout never imports Triton.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "data" / "reduce_scratch.json"
sys.path.insert(0, str(REPO / "scripts"))
from make_convert_golden import _pointer_block, _tensor  # noqa: E402

TARGETS = {"sm80": ("cuda", 80, 32), "sm90": ("cuda", 90, 32), "sm100": ("cuda", 100, 32),
           "gfx942": ("hip", "gfx942", 64)}


def blocked(spt, tpw, wpc, order) -> str:
    return (f"#ttg.blocked<{{sizePerThread = {list(spt)}, threadsPerWarp = {list(tpw)}, "
            f"warpsPerCTA = {list(wpc)}, order = {list(order)}}}>")


def cases() -> list[dict]:
    """(name, layout per warp size, shape, axis, element types, warps). Layouts are given for 32-lane warps and
    64-lane warps (the lanes along the last dimension doubled)."""
    out = []

    def add(name, spt, tpw32, wpc, order, shape, axis, elems=("f32",)):
        tpw64 = list(tpw32)
        tpw64[order[0]] *= 2
        out.append({"name": name, "layout32": blocked(spt, tpw32, wpc, order), "layout64": blocked(spt, tpw64, wpc, order),
                    "shape": list(shape), "axis": axis, "elems": list(elems), "num_warps": wpc[0] * wpc[1]})

    # the example: tl.sum(tile, axis=0) over [64, 64] f32 with 4 warps (the default layout of the kernel)
    add("col_sum_warps_across_rows", [1, 4], [4, 8], [4, 1], [1, 0], [64, 64], 0)
    add("row_sum_warps_across_rows", [1, 4], [4, 8], [4, 1], [1, 0], [64, 64], 1)
    add("col_sum_warps_along_cols", [1, 4], [4, 8], [1, 4], [1, 0], [64, 64], 0)
    add("row_sum_warps_along_cols", [1, 4], [4, 8], [1, 4], [1, 0], [64, 64], 1)
    add("col_sum_warps_both", [1, 4], [4, 8], [2, 2], [1, 0], [64, 64], 0)
    add("row_sum_warps_both", [1, 4], [4, 8], [2, 2], [1, 0], [64, 64], 1)
    add("col_sum_8_warps", [1, 4], [8, 4], [8, 1], [1, 0], [128, 32], 0)
    add("row_sum_lanes_along", [1, 8], [1, 32], [1, 4], [1, 0], [4, 1024], 1)        # softmax rows
    add("col_sum_lanes_across", [4, 1], [32, 1], [4, 1], [0, 1], [256, 8], 0)
    add("col_sum_registers_only", [64, 1], [1, 32], [1, 4], [0, 1], [64, 128], 0)
    add("col_sum_f16", [1, 8], [4, 8], [4, 1], [1, 0], [64, 64], 0, ("f16",))
    add("col_sum_i8", [1, 8], [4, 8], [4, 1], [1, 0], [64, 64], 0, ("i8",))
    add("col_sum_f64", [1, 2], [4, 8], [4, 1], [1, 0], [64, 64], 0, ("f64",))
    add("col_sum_two_operands", [1, 4], [4, 8], [4, 1], [1, 0], [64, 64], 0, ("f32", "i32"))
    add("col_sum_f16_and_i64", [1, 4], [4, 8], [4, 1], [1, 0], [64, 64], 0, ("f16", "i64"))
    add("col_sum_small_tile", [1, 1], [4, 8], [4, 1], [1, 0], [16, 16], 0)
    add("row_sum_broadcast_tile", [1, 4], [4, 8], [4, 1], [1, 0], [8, 16], 1)
    return out


def kernel_text(case: dict, target: str) -> str:
    backend, arch, warp_size = TARGETS[target]
    layout = case["layout64" if warp_size == 64 else "layout32"]
    shape, axis, elems = case["shape"], case["axis"], case["elems"]
    rshape = [s for k, s in enumerate(shape) if k != axis]
    sliced = f"#ttg.slice<{{dim = {axis}, parent = #src}}>"
    tgt = f"cuda:{arch}" if backend == "cuda" else f"hip:{arch}"
    lines = [f"#src = {layout}",
             f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {case["num_warps"]} : i32, '
             f'"ttg.threads-per-warp" = {warp_size} : i32, ttg.target = "{tgt}"}} {{',
             "  tt.func public @red(" + ", ".join(
                 f"%in{k}: !tt.ptr<{e}> {{tt.divisibility = 16 : i32}}, %out{k}: !tt.ptr<{e}> "
                 "{tt.divisibility = 16 : i32}" for k, e in enumerate(elems)) + ") attributes {noinline = false} {"]
    values = []
    for k, e in enumerate(elems):
        ptr = _pointer_block(lines, f"a{k}_", "#src", shape, f"%in{k}", e)
        lines.append(f"    %v{k} = tt.load {ptr} : {_tensor(shape, '!tt.ptr<' + e + '>', '#src')}")
        values.append(f"%v{k}")
    args = ", ".join([f"%x{k}: {e}" for k, e in enumerate(elems)] + [f"%y{k}: {e}" for k, e in enumerate(elems)])
    lines.append(f'    %r:{len(elems)} = "tt.reduce"({", ".join(values)}) <{{axis = {axis} : i32}}> ({{')
    lines.append(f"    ^bb0({args}):")
    sums = []
    for k, e in enumerate(elems):
        op = "arith.addf" if e.startswith("f") else "arith.addi"
        lines.append(f"      %s{k} = {op} %x{k}, %y{k} : {e}")
        sums.append(f"%s{k}")
    lines.append(f"      tt.reduce.return {', '.join(sums)} : {', '.join(elems)}")
    lines.append(f"    }}) : ({', '.join(_tensor(shape, e, '#src') for e in elems)}) -> "
                 f"({', '.join(_tensor(rshape, e, sliced) for e in elems)})")
    for k, e in enumerate(elems):
        ptr = _pointer_block(lines, f"b{k}_", sliced, rshape, f"%out{k}", e)
        lines.append(f"    tt.store {ptr}, %r#{k} : {_tensor(rshape, '!tt.ptr<' + e + '>', sliced)}")
    lines += ["    tt.return", "  }", "}", ""]
    return "\n".join(lines)


CHILD = r"""
import json, os, sys
import triton
from triton.backends.compiler import GPUTarget
backend, arch, warp = json.loads(sys.argv[2])
k = triton.compile(sys.argv[1], target=GPUTarget(backend, arch, warp))
print(json.dumps({"shared": k.metadata.shared}))
sys.stdout.flush()
os._exit(0)
"""


def compile_case(case: dict, target: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "red.ttgir")
        with open(path, "w") as f:
            f.write(kernel_text(case, target))
        env = dict(os.environ, TRITON_CACHE_DIR=os.path.join(tmp, "cache"))
        proc = subprocess.run([sys.executable, "-c", CHILD, path, json.dumps(TARGETS[target])], capture_output=True,
                              text=True, env=env, timeout=300)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1][:300]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="one case name")
    ap.add_argument("--print", action="store_true", help="print the kernel text of --only and exit")
    args = ap.parse_args()
    chosen = [c for c in cases() if not args.only or c["name"] == args.only]
    if args.print:
        print(kernel_text(chosen[0], "sm90"))
        return 0
    results = []
    for case in chosen:
        for target in TARGETS:
            got = compile_case(case, target)
            warp = TARGETS[target][2]
            results.append({"name": case["name"], "target": target, "layout": case["layout64" if warp == 64 else
                            "layout32"], "shape": case["shape"], "axis": case["axis"], "elems": case["elems"],
                            "num_warps": case["num_warps"], **got})
            print(json.dumps(results[-1]), flush=True)
    if not args.only:
        import triton
        OUT.write_text(json.dumps({"triton": triton.__version__, "script": "scripts/make_reduce_reference.py",
                                   "cases": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
