#!/opt/oracle/venv/bin/python
"""Compile kernels of tests/data/kernels/src with one argument left unaligned, so that one fact limits their global
vector: test data for the audit's `limited_by` (issue 24).

Run with the oracle interpreter (Triton 3.9.0), from anywhere:

    /opt/oracle/venv/bin/python scripts/make_limit_dumps.py

Each case is one `triton.compile(ASTSource(fn, signature, constexprs, attrs), target=GPUTarget("cuda", 90, 32))`
in its own child process, as `scripts/make_kernel_dumps.py` compiles (same paths, same install-prefix cut). Every
pointer and i32 argument is marked `tt.divisibility = 16`, as Triton's launcher marks such values, except the
arguments a case lists as unaligned: a launch with an odd `n_cols` or an odd pointer. The script writes
`tests/data/limits/<case>.sm90.ttgir` (`k.asm["ttgir"]`) and `tests/data/limits/limits.json`: per case, its
configuration and the widths of the global loads and stores of its PTX (`ld.global[.v2|.v4].bN` ->
lanes x N bits, counted as `scripts/kernel_global_access.py` counts them).
"""
from __future__ import annotations

import collections
import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = Path("tests/data/limits")
sys.path.insert(0, str(REPO / "scripts"))

# case -> (kernel, signature, constexprs, num_warps, unaligned arguments, what limits the vector and why)
CASES = {
    "softmax_f32_odd_cols": (
        "softmax", {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32", "out_row_stride": "i32",
                    "n_rows": "i32", "n_cols": "i32"},
        {"BLOCK_M": 4, "BLOCK_N": 1024}, 4, ["n_cols"],
        "the mask cols < n_cols: n_cols has no divisibility, so runs of equal mask bits are 1 long"),
    "vector_add_odd_x": (
        "vector_add", {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
        {"BLOCK": 1024}, 4, ["x_ptr"],
        "pointer divisibility: x_ptr is not known to be 16-byte aligned (the y and out accesses keep 128 bits)"),
}


def compile_case(name: str) -> dict:
    import triton
    from make_kernel_dumps import SRC_DIR, load_relative_module, stable_paths
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    os.chdir(REPO)
    kernel, signature, constexprs, warps, unaligned, why = CASES[name]
    fn = getattr(load_relative_module(SRC_DIR / f"{kernel}.py"), kernel)
    full = {n: ("constexpr" if n in constexprs else signature[n]) for n in fn.arg_names}
    attrs = {(fn.arg_names.index(n),): [["tt.divisibility", 16]]
             for n, ty in signature.items() if (ty.startswith("*") or ty == "i32") and n not in unaligned}
    k = triton.compile(ASTSource(fn, full, constexprs, attrs), target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": warps, "num_stages": 3})
    site_packages = str(Path(triton.__file__).resolve().parent.parent)
    out = OUT_DIR / f"{name}.sm90.ttgir"
    out.write_text(stable_paths(k.asm["ttgir"], site_packages))
    widths = collections.Counter()
    for kind, vec, bits in re.findall(r"\b(ld|st)\.global(?:\.[a-z_]+)*?(?:\.v(\d))?\.[bfsu](\d+)\b", k.asm["ptx"]):
        widths[f"{'load' if kind == 'ld' else 'store'} {int(vec or 1) * int(bits)}"] += 1
    return {"case": name, "file": out.name, "kernel": kernel, "source": str(SRC_DIR / f"{kernel}.py"),
            "signature": signature, "constexprs": constexprs, "num_warps": warps, "unaligned": unaligned,
            "limit": why, "ptx_global_access": dict(sorted(widths.items()))}


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        print(json.dumps(compile_case(args[1])))
        return 0
    (REPO / OUT_DIR).mkdir(parents=True, exist_ok=True)
    cases = []
    for name in CASES:
        proc = subprocess.run([sys.executable, __file__, "--child", name], cwd=REPO, capture_output=True, text=True,
                              timeout=600, env=dict(os.environ, TRITON_DEFAULT_FP_FUSION="1"))
        if proc.returncode:
            raise SystemExit(f"{name}: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode}")
        cases.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        print(name, cases[-1]["ptx_global_access"], flush=True)
    (REPO / OUT_DIR / "limits.json").write_text(json.dumps(
        {"triton_version": "3.9.0", "generator": "scripts/make_limit_dumps.py", "target": "sm90", "cases": cases},
        indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
