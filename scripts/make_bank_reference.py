#!/usr/bin/env python3
"""Triton 3.9 numbers for tests/analysis/test_bank.py and tests/analysis/test_swizzle.py.

Runs with the project's Python (ttlayout importable); every Triton call goes to the oracle interpreter
(/opt/oracle/venv/bin/python scripts/triton_oracle.py bank ...) in a subprocess, so an abort costs one case.

Prints two Python literals to paste into the tests:

* BANK_REFERENCE: (reg, shared, shape, bitwidth, Triton's get_shared_bank_conflicts) for the README demos;
* SWIZZLE_REFERENCE: (write, read, shape, bitwidth, suggested layout, Triton's count for the write layout on
  it, Triton's count for the read layout on it) for the swizzle pairs below.

Usage: python scripts/make_bank_reference.py [--oracle /opt/oracle/venv/bin/python]
"""
from __future__ import annotations

import argparse
import os
import pprint
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

B = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"
S = "#ttg.swizzled_shared<{{vec = {}, perPhase = {}, maxPhase = {}, order = {}}}>"

ROW4 = B.format([1, 4], [4, 8], [4, 1], [1, 0])          # 16x32 f32, 128-bit row stores
COL16 = B.format([1, 1], [16, 2], [1, 4], [0, 1])        # 16x32 f32, column reads
ROW8 = B.format([1, 8], [4, 8], [4, 1], [1, 0])          # 64x64 f16, 128-bit row stores
COL8 = B.format([8, 1], [8, 4], [1, 4], [0, 1])          # 64x64 f16, column reads
MMA = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>"
MMA2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
NVMMA128 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
NVMMA0 = "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>"

BANK_CASES = [
    (COL16, S.format(1, 1, 1, [1, 0]), [16, 32], 32),
    (COL16, S.format(1, 1, 16, [1, 0]), [16, 32], 32),
    (COL16, S.format(2, 1, 16, [1, 0]), [16, 32], 32),
    (ROW4, S.format(1, 1, 16, [1, 0]), [16, 32], 32),
    (ROW4, S.format(2, 1, 16, [1, 0]), [16, 32], 32),
    (ROW8, S.format(1, 1, 1, [1, 0]), [64, 64], 16),
    (COL8, S.format(1, 1, 1, [1, 0]), [64, 64], 16),
    (COL8, S.format(8, 1, 8, [1, 0]), [64, 64], 16),
    (COL8, S.format(8, 8, 8, [0, 1]), [64, 64], 16),
    (ROW8, S.format(8, 8, 8, [0, 1]), [64, 64], 16),
    (MMA, NVMMA128, [128, 128], 16),
    (MMA, NVMMA0, [128, 128], 16),
    (MMA, S.format(1, 1, 1, [1, 0]), [128, 128], 16),
    (MMA2, NVMMA128, [64, 64], 16),
    (MMA2, NVMMA0, [64, 64], 16),
]

SWIZZLE_PAIRS = [
    (ROW4, COL16, [16, 32], 32),
    (ROW8, COL8, [64, 64], 16),
    (ROW8, COL8, [64, 64], 32),
    (ROW8, COL8, [64, 64], 8),
    (COL8, ROW8, [64, 64], 16),
    (ROW8, ROW8, [64, 64], 16),
    (B.format([1, 4], [8, 4], [2, 2], [1, 0]), B.format([4, 1], [4, 8], [2, 2], [0, 1]), [32, 32], 32),
    (B.format([2, 2], [4, 8], [4, 1], [1, 0]), B.format([1, 1], [32, 1], [1, 4], [0, 1]), [128, 64], 16),
    (B.format([1, 2], [2, 16], [2, 2], [1, 0]), B.format([2, 1], [16, 2], [2, 2], [0, 1]), [32, 64], 64),
    (B.format([1, 1, 4], [1, 4, 8], [2, 2, 1], [2, 1, 0]), B.format([1, 4, 1], [1, 8, 4], [1, 1, 4], [1, 2, 0]),
     [2, 32, 32], 16),
    (ROW8, COL8, [256, 256], 16),
    (ROW8, COL8, [128, 64], 32),
    (MMA, B.format([1, 8], [2, 16], [4, 1], [1, 0]), [128, 128], 16),
    (MMA2, B.format([8, 1], [8, 4], [1, 4], [0, 1]), [64, 64], 16),
]


def oracle(python: str, reg: str, shared: str, shape, bw: int):
    cmd = [python, os.path.join(ROOT, "scripts", "triton_oracle.py"), "bank", reg, shared,
           "x".join(map(str, shape)), str(bw)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return int(p.stdout.strip()) if p.returncode == 0 and p.stdout.strip() else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle", default="/opt/oracle/venv/bin/python")
    args = ap.parse_args()
    from linlayout_cli.analysis.swizzle import analyze_swizzle
    from linlayout_cli.conversions import to_linear_layout
    from linlayout_cli.parsing import parse_attribute

    bank_ref = []
    for reg, shared, shape, bw in BANK_CASES:
        bank_ref.append((reg, shared, shape, bw, oracle(args.oracle, reg, shared, shape, bw)))
    swz_ref = []
    for w, r, shape, bw in SWIZZLE_PAIRS:
        try:
            wl = to_linear_layout(parse_attribute(w), shape)
            rl = to_linear_layout(parse_attribute(r), shape)
        except Exception as e:          # a converter ttlayout does not have yet
            print(f"# skipped {w[:40]}...: {e}", file=sys.stderr)
            continue
        s = analyze_swizzle(wl, rl, bw)
        swz_ref.append((w, r, shape, bw, s.attr_text, oracle(args.oracle, w, s.attr_text, shape, bw),
                        oracle(args.oracle, r, s.attr_text, shape, bw)))
    print("BANK_REFERENCE = " + pprint.pformat(bank_ref, width=120))
    print()
    print("SWIZZLE_REFERENCE = " + pprint.pformat(swz_ref, width=120))


if __name__ == "__main__":
    main()
