#!/usr/bin/env python3
"""TMA copies of several block shapes, element sizes and warp counts, compiled by Triton 3.9 for sm90 (CPU only,
each case in its own process): tests/data/tma/CASE.sm90.ttgir and, beside it, CASE.sm90.json with the
`cp.async.bulk.tensor` instructions of the PTX per source location (scripts/asm_counts.py global_line_counts).
Triton splits a block into messages of getTMABlockShape's box (inner dim one swizzle row, every dim <= 256) and
the warps issue them round-robin, so these cases cover 1 to 8 messages and 1 to 4 per issuing thread (a
block over 256 rows included).

Usage: /opt/oracle/venv/bin/python scripts/make_tma_cases.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from asm_counts import global_line_counts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "tma")
# name: (kernel, pointer type, constexprs, num_warps)
CASES = {
    "f16_64x128_w4": ("tma_copy_2d", "*fp16", {"BM": 64, "BN": 128}, 4),
    "f16_32x256_w1": ("tma_copy_2d", "*fp16", {"BM": 32, "BN": 256}, 1),
    "f32_16x64_w2": ("tma_copy_2d", "*fp32", {"BM": 16, "BN": 64}, 2),
    "f8_128x32_w4": ("tma_copy_2d", "*fp8e4nv", {"BM": 128, "BN": 32}, 4),
    "f16_2x16x128_w1": ("tma_copy_3d", "*fp16", {"BL": 2, "BM": 16, "BN": 128}, 1),
    "f16_512x64_w1": ("tma_copy_2d", "*fp16", {"BM": 512, "BN": 64}, 1),
    "f16_64x512_w2": ("tma_copy_2d", "*fp16", {"BM": 64, "BN": 512}, 2),
}
CHILD = r'''
import json, sys, warnings
warnings.filterwarnings("ignore")
import importlib.util
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
src, kernel, ptr, constexprs, warps = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), int(sys.argv[5])
spec = importlib.util.spec_from_file_location("tma_copy", src)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
fn = getattr(mod, kernel)
ints = ["L", "M", "N"] if kernel.endswith("3d") else ["M", "N"]
signature = {"src": ptr, "dst": ptr, **{k: "i32" for k in ints}, **{k: "constexpr" for k in constexprs}}
k = triton.compile(ASTSource(fn, signature, constexprs), target=GPUTarget("cuda", 90, 32),
                   options={"num_warps": warps})
print(json.dumps({"ttgir": k.asm["ttgir"], "ptx": k.asm["ptx"]}))
'''


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    src = os.path.join("tests", "data", "tma", "src", "tma_copy.py")
    for name, (kernel, ptr, constexprs, warps) in CASES.items():
        proc = subprocess.run([sys.executable, "-c", CHILD, src, kernel, ptr, json.dumps(constexprs), str(warps)],
                              capture_output=True, text=True, timeout=600, cwd=ROOT)
        if proc.returncode:
            raise SystemExit(f"make_tma_cases: {name}: {proc.stderr.strip().splitlines()[-1][:300]}")
        child = json.loads(proc.stdout.strip().splitlines()[-1])
        child = {k: v.replace(ROOT + os.sep, "") for k, v in child.items()}   # locations relative to the repo
        with open(os.path.join(OUT, f"{name}.sm90.ttgir"), "w") as f:
            f.write(child["ttgir"])
        out = {"triton_version": "3.9.0", "generator": "scripts/make_tma_cases.py", "target": "cuda:90:32",
               "kernel": kernel, "num_warps": warps, "constexprs": constexprs, "kind": "ptx",
               **global_line_counts(child["ptx"], "ptx")}
        with open(os.path.join(OUT, f"{name}.sm90.json"), "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")
        print(name, out["ops"], flush=True)


if __name__ == "__main__":
    main()
