#!/usr/bin/env python3
"""Record the global memory instructions Triton 3.9 emits for each kernel dump of tests/data/kernels, so that
`ttlayout audit`'s vector widths can be checked against the compiler (tests/analysis/test_audit.py).

Each dump's TTGIR is compiled again, CPU-only, for the target it was made for (each compile in its own process),
and the widths of its global loads and stores are counted in the assembly:
PTX `ld.global[.v2|.v4].bN` / `st.global...` -> bits = lanes x N, TMA `cp.async.bulk.tensor` -> `load ?` /
`store ?` (the box is in the descriptor); AMDGCN `global_load_dword[xK]`,
`buffer_load_dword[xK]` (and stores; `_ushort`/`_short`/`_b16` 16 bits, `_ubyte`/`_byte` 8).

It also writes tests/data/kernels/global_lines.json: per dump, every global load, store, atomic and asynchronous
copy instruction of the assembly by form and width (`ld.global 128`, `st.global 16`, `cp.async 128`,
`atom.global 32`, `global_load 128`, `buffer_load 64`, `buffer_store 16`, `global_atomic 32`, ...), per Python line
of the kernel's source, counted by scripts/asm_counts.py (`global_line_counts`: `.loc`/DWARF attribution, inline
assembly at the location in force where its block begins). Neither file imports linlayout_cli.

With --cache it compiles nothing: it counts the same way the assembly stored in tests/data/cache (the real Triton
3.9 cache of scripts/make_kernel_cache.py, listed in tests/data/cache_counts.json) and writes
tests/data/cache_global_lines.json (any Python 3.9+; no Triton needed).

With --ttgir FILE --target BACKEND:ARCH:WARP it compiles one TTGIR file written for ttlayout (in Triton 3.9's
syntax: tests/data/buffer_ops/buffer_ops.gfx942.ttgir, whose ops carry their own lines as locations) and writes
the same counts beside it (FILE with .json for .ttgir).

Usage: /opt/oracle/venv/bin/python scripts/kernel_global_access.py [--only KERNEL,...]
       python3 scripts/kernel_global_access.py --cache
       /opt/oracle/venv/bin/python scripts/kernel_global_access.py --ttgir tests/data/buffer_ops/buffer_ops.gfx942.ttgir --target hip:gfx942:64
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from asm_counts import global_line_counts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "kernels")
CHILD = r'''
import json, re, sys, collections, warnings
warnings.filterwarnings("ignore")
import triton
from triton.backends.compiler import GPUTarget
path, backend, arch, warp = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
k = triton.compile(path, target=GPUTarget(backend, int(arch) if backend == "cuda" else arch, warp))
out = collections.Counter()
if backend == "cuda":
    for kind, vec, bits in re.findall(r"\b(ld|st)\.global(?:\.[a-z_]+)*?(?:\.v(\d))?\.[bfsu](\d+)\b", k.asm["ptx"]):
        out[f"{'load' if kind == 'ld' else 'store'} {int(vec or 1) * int(bits)}"] += 1
    for red, first in re.findall(r"\bcp\.(reduce\.)?async\.bulk\.tensor\.\dd\.(shared|global)", k.asm["ptx"]):
        out["load ?" if first == "shared" and not red else "store ?"] += 1    # TMA: no bits per lane
else:
    widths = {"ubyte": 8, "byte": 8, "ushort": 16, "short": 16, "dword": 32, "dwordx2": 64, "dwordx3": 96,
              "dwordx4": 128, "b8": 8, "b16": 16, "b32": 32, "b64": 64, "b96": 96, "b128": 128,
              "u8": 8, "u16": 16, "i8": 8, "i16": 16}
    for unit, kind, size in re.findall(r"\b(global|buffer)_(load|store)_(\w+?)(?:_d16(?:_hi)?)?\b", k.asm["amdgcn"]):
        if size in widths:
            out[f"{kind} {widths[size]}"] += 1
kind = "ptx" if backend == "cuda" else "amdgcn"
print(json.dumps({"widths": dict(sorted(out.items())), "kind": kind, "asm": k.asm[kind]}))
'''


def cache_lines() -> None:
    """tests/data/cache_global_lines.json from the assembly stored in tests/data/cache."""
    tests_data = os.path.dirname(DATA)
    entries = json.load(open(os.path.join(tests_data, "cache_counts.json")))["entries"]
    out = {}
    for key, e in sorted(entries.items()):
        directory = key.split("/")[0]
        kind = "ptx" if e["asm"].endswith(".ptx") else "amdgcn"
        text = open(os.path.join(tests_data, "cache", directory, e["asm"])).read()
        out[key] = {"kernel": e["kernel"], "target": e["target"], "variant": e["variant"], "kind": kind,
                    "ttgir": f"{directory}/{e['kernel']}.ttgir", "asm": f"{directory}/{e['asm']}",
                    **global_line_counts(text, kind)}
    with open(os.path.join(tests_data, "cache_global_lines.json"), "w") as f:
        json.dump({"triton_version": "3.9.0", "generator": "scripts/kernel_global_access.py --cache "
                   "(asm_counts.global_line_counts)", "entries": out}, f, indent=1, sort_keys=True)
        f.write("\n")


def compile_counts(path: str, backend: str, arch: str, warp: int) -> dict:
    """Compile one TTGIR file in a child process; its global instructions per line and location."""
    proc = subprocess.run([sys.executable, "-c", CHILD, path, backend, str(arch), str(warp)], capture_output=True,
                          text=True, timeout=600)
    if proc.returncode:
        raise SystemExit(f"kernel_global_access: {path}: {proc.stderr.strip().splitlines()[-1][:300]}")
    child = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"kind": child["kind"], **global_line_counts(child["asm"], child["kind"])}


def one_ttgir(path: str, target: str) -> None:
    """FILE.json beside a TTGIR file written for ttlayout: its compiled global instructions."""
    backend, arch, warp = target.split(":")
    out = {"triton_version": "3.9.0", "generator": f"scripts/kernel_global_access.py --ttgir {path} --target {target}",
           "target": target, **compile_counts(path, backend, arch, int(warp))}
    with open(os.path.splitext(path)[0] + ".json", "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated kernels (default: all); merges into the JSON files")
    ap.add_argument("--cache", action="store_true", help="count the stored cache's assembly; compile nothing")
    ap.add_argument("--ttgir", help="one TTGIR file to compile and count (writes FILE.json beside it)")
    ap.add_argument("--target", help="with --ttgir: BACKEND:ARCH:WARP, e.g. hip:gfx942:64")
    args = ap.parse_args(argv)
    if args.ttgir:
        one_ttgir(args.ttgir, args.target or "hip:gfx942:64")
        return
    if args.cache:
        cache_lines()
        return
    only = set(args.only.split(",")) if args.only else None
    numbers = json.load(open(os.path.join(DATA, "numbers.json")))
    old = os.path.join(DATA, "global_access.json")
    result = json.load(open(old))["dumps"] if only and os.path.exists(old) else {}
    lines_path = os.path.join(DATA, "global_lines.json")
    lines = json.load(open(lines_path))["dumps"] if only and os.path.exists(lines_path) else {}
    for d in numbers["dumps"]:
        if only and d["kernel"] not in only:
            continue
        backend, arch, warp = d["gpu_target"]
        proc = subprocess.run([sys.executable, "-c", CHILD, os.path.join(DATA, d["file"]), backend, str(arch), str(warp)],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode:
            result[d["file"]] = {"error": proc.stderr.strip().splitlines()[-1][:200]}
        else:
            child = json.loads(proc.stdout.strip().splitlines()[-1])
            result[d["file"]] = child["widths"]
            counts = global_line_counts(child["asm"], child["kind"])
            lines[d["file"]] = {"kind": child["kind"], **counts}
        print(d["file"], result[d["file"]], flush=True)
    with open(os.path.join(DATA, "global_access.json"), "w") as f:
        json.dump({"triton_version": "3.9.0", "generator": "scripts/kernel_global_access.py", "dumps": result}, f,
                  indent=1, sort_keys=True)
        f.write("\n")
    with open(lines_path, "w") as f:
        json.dump({"triton_version": "3.9.0", "generator": "scripts/kernel_global_access.py (asm_counts.global_line_counts)",
                   "dumps": dict(sorted(lines.items()))}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
