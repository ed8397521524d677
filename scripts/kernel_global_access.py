#!/usr/bin/env python3
"""Record the global memory instructions Triton 3.9 emits for each kernel dump of tests/data/kernels, so that
`ttlayout audit`'s vector widths can be checked against the compiler (tests/analysis/test_audit.py).

Each dump's TTGIR is compiled again, CPU-only, for the target it was made for (each compile in its own process),
and the widths of its global loads and stores are counted in the assembly:
PTX `ld.global[.v2|.v4].bN` / `st.global...` -> bits = lanes x N; AMDGCN `global_load_dword[xK]`,
`buffer_load_dword[xK]` (and stores; `_ushort`/`_short`/`_b16` 16 bits, `_ubyte`/`_byte` 8).

It also writes tests/data/kernels/global_lines.json: per dump, every global load, store, atomic and asynchronous
copy instruction of the assembly by form and width (`ld.global 128`, `st.global 16`, `cp.async 128`,
`atom.global 32`, `global_load 128`, `buffer_load 64`, `buffer_store 16`, `global_atomic 32`, ...), per Python line
of the kernel's source, counted by scripts/asm_counts.py (`global_line_counts`: `.loc`/DWARF attribution, inline
assembly at the location in force where its block begins). Neither file imports linlayout_cli.

Usage: /opt/oracle/venv/bin/python scripts/kernel_global_access.py [--only KERNEL,...]
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


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated kernels (default: all); merges into the JSON files")
    args = ap.parse_args(argv)
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
