#!/usr/bin/env python3
"""Write real compiled code of loops LLVM peels, for the tests of the assembly column's peeled first iteration.

Triton 3.9 compiles two dumps of tests/data/kernels whose K loop LLVM peels (CPU only, each in its own process):
`matmul_kloop.sm100` to PTX (`$L__BB0_6: // %.peel.next`) and `fp8_matmul.gfx942` to AMDGCN
(`; %bb.14: ; %.peel.next`). The whole assembly text goes to tests/data/peel/ (a cut would lose the AMDGCN DWARF
that attributes the instructions), with `samples.json`: each file's global instructions per Python line and the
part of them in the peeled iteration, counted by scripts/asm_counts.py (`global_line_counts`, independent of
linlayout_cli).

Usage: /opt/oracle/venv/bin/python scripts/peel_samples.py
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from asm_counts import global_line_counts  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "tests", "data", "kernels")
OUT = os.path.join(ROOT, "tests", "data", "peel")
SAMPLES = (("matmul_kloop.sm100", "cuda", "100", 32, "ptx"), ("fp8_matmul.gfx942", "hip", "gfx942", 64, "amdgcn"))
CHILD = r'''
import sys, warnings
warnings.filterwarnings("ignore")
import triton
from triton.backends.compiler import GPUTarget
path, backend, arch, warp, kind = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
k = triton.compile(path, target=GPUTarget(backend, int(arch) if backend == "cuda" else arch, warp))
sys.stdout.write(k.asm[kind])
'''


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    counts = {}
    for name, backend, arch, warp, kind in SAMPLES:
        proc = subprocess.run([sys.executable, "-c", CHILD, os.path.join(KERNELS, f"{name}.ttgir"), backend, arch,
                               str(warp), kind], capture_output=True, text=True, timeout=600)
        if proc.returncode:
            raise SystemExit(f"peel_samples: {name}: {proc.stderr.strip().splitlines()[-1][:300]}")
        file = f"{name}.{kind}"
        with open(os.path.join(OUT, file), "w") as f:
            f.write(proc.stdout)
        counts[file] = {"ttgir": f"{name}.ttgir", "kind": kind, **global_line_counts(proc.stdout, kind)}
        print(file, counts[file]["peeled"], flush=True)
    with open(os.path.join(OUT, "samples.json"), "w") as f:
        json.dump({"triton_version": "3.9.0", "generator": "scripts/peel_samples.py (asm_counts.global_line_counts)",
                   "samples": counts}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
