#!/usr/bin/env python3
"""Time a TTGIR dump against its `ttlayout advise --write` variant on a GPU, check both compute the same bytes,
and read the global sectors Nsight Compute counts (issue 30, item 5). CI never runs it: it needs a GPU, Triton 3.9
and an array library whose tensors have `data_ptr()` (PyTorch, CuPy through a thin wrapper).

    python benchmarks/gpu/compare_advice.py KERNEL.ttgir --grid 32,64 \\
        --buffer a_ptr=f16:4096*32 --buffer b_ptr=f16:32*4096 --buffer ct_ptr=f16:4096*4096 \\
        --arg M=4096 --arg N=4096 --arg K=32 ... [--variant PATCHED.ttgir] [--target sm90] -o result.json

Without --variant the script runs `ttlayout advise KERNEL.ttgir --write TMP` (the best change). Both dumps are
compiled with `triton.compile(path, target=GPUTarget("cuda", 90, 32))`, launched with Triton's own launcher
(`compiled[grid](*args)`) on fresh copies of the same random inputs, every buffer compared bit for bit, then timed
interleaved: `--batches` batches of `--reps` launches each, alternating base and variant, CUDA events around each
batch, the median per launch. When `ncu` is on PATH, each kernel is launched once more under Nsight Compute
(`--ncu`, a child of this script) and `l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum` are read from its CSV.

The JSON (`result_json`) holds, per side, the median microseconds per launch, the batch times and the sectors;
`ratio` (variant / base time) and `identical`. A test can compare the sectors with the audit model's
`sectors_per_warp_access` x warp-level instructions.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "i8": "int8", "i16": "int16",
          "i32": "int32", "i64": "int64", "u8": "uint8", "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}
METRICS = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")
TARGETS = {"sm80": ("cuda", 80, 32), "sm90": ("cuda", 90, 32), "sm100": ("cuda", 100, 32)}


def parse_args(argv=None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", help="the TTGIR dump (as Triton wrote it)")
    ap.add_argument("--variant", help="the changed dump (default: `ttlayout advise --write` of the dump)")
    ap.add_argument("--change", type=int, default=1, help="which of advise's changes to write (default 1)")
    ap.add_argument("--target", default="sm90", choices=sorted(TARGETS))
    ap.add_argument("--grid", required=True, type=_grid, help="X[,Y[,Z]]")
    ap.add_argument("--buffer", action="append", default=[], type=_buffer, metavar="NAME=DTYPE:NUMEL",
                    help="a pointer argument: element type and size (NUMEL may be a product, 64*64)")
    ap.add_argument("--arg", action="append", default=[], type=_scalar, metavar="NAME=VALUE",
                    help="a scalar argument")
    ap.add_argument("--reps", type=int, default=10, help="launches per timed batch")
    ap.add_argument("--batches", type=int, default=20, help="timed batches per side, interleaved")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-o", "--output", default="-", help="the JSON result (default stdout)")
    ap.add_argument("--ncu", choices=("base", "variant"), help=argparse.SUPPRESS)     # child run under ncu
    return ap.parse_args(argv)


def _grid(text: str) -> tuple[int, int, int]:
    parts = [int(p) for p in text.split(",") if p.strip()]
    if not 1 <= len(parts) <= 3 or any(p < 1 for p in parts):
        raise argparse.ArgumentTypeError(f"grid {text!r}: one to three positive integers")
    return tuple(parts + [1] * (3 - len(parts)))  # type: ignore[return-value]


def _buffer(text: str) -> tuple[str, str, int]:
    m = re.fullmatch(r"\s*(\w+)\s*=\s*(\w+)\s*:\s*([\d*\s]+)", text)
    if m is None or m.group(2) not in DTYPES:
        raise argparse.ArgumentTypeError(f"buffer {text!r}: NAME=DTYPE:NUMEL with DTYPE one of {', '.join(DTYPES)}")
    numel = 1
    for factor in m.group(3).split("*"):
        numel *= int(factor)
    return m.group(1), m.group(2), numel


def _scalar(text: str) -> tuple[str, float | int]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"arg {text!r}: NAME=VALUE")
    try:
        return name.strip(), int(value)
    except ValueError:
        try:
            return name.strip(), float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"arg {text!r}: VALUE is no number") from None


def signature(ttgir: str) -> list[tuple[str, str]]:
    """The kernel's arguments in order, (name, type), from its `tt.func` header.

    >>> signature('tt.func public @k(%a_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("a"(#loc)), %n: i32 loc("n"(#loc))) {')
    [('a_ptr', '!tt.ptr<f16>'), ('n', 'i32')]
    """
    m = re.search(r"tt\.func\s+(?:public\s+)?@\w+\(", ttgir)
    if m is None:
        raise ValueError("no tt.func in the dump")
    depth, i = 1, m.end()
    while depth and i < len(ttgir):
        depth += {"(": 1, ")": -1}.get(ttgir[i], 0)
        i += 1
    return re.findall(r"%(\w+)\s*:\s*(!tt\.ptr<[^>]+>|[a-z]\w*)", ttgir[m.end():i - 1])


def check_arguments(sig, buffers: dict, scalars: dict) -> list[str]:
    """What is missing or extra between the kernel's signature and the command line (empty when they match)."""
    problems = []
    for name, ty in sig:
        if ty.startswith("!tt.ptr") and name not in buffers:
            problems.append(f"pointer argument {name} needs --buffer {name}=DTYPE:NUMEL")
        elif not ty.startswith("!tt.ptr") and name not in scalars:
            problems.append(f"scalar argument {name} needs --arg {name}=VALUE")
    known = {n for n, _ in sig}
    problems += [f"--buffer {n}: the kernel has no such argument" for n in buffers if n not in known]
    problems += [f"--arg {n}: the kernel has no such argument" for n in scalars if n not in known]
    return problems


def result_json(args, variant_path: str, base: dict, variant: dict, identical: bool, device: str,
                triton_version: str) -> dict:
    """The result file's shape: one object per side with `median_us`, `batch_us` and `sectors` (ld, st or None)."""
    ratio = variant["median_us"] / base["median_us"] if base.get("median_us") else None
    return {"dump": args.dump, "variant": variant_path, "target": args.target, "grid": list(args.grid),
            "reps": args.reps, "batches": args.batches, "device": device, "triton_version": triton_version,
            "identical": identical, "base": base, "variant_result": variant, "ratio": ratio}


def parse_ncu_csv(text: str) -> dict:
    """Nsight Compute's `--csv` output -> {'ld': sectors, 'st': sectors} (summed over the kernels it profiled).

    >>> parse_ncu_csv('"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\\n'
    ...               '"0","k","l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum","sector","2,097,152"\\n')
    {'ld': None, 'st': 2097152}
    """
    out: dict = {"ld": None, "st": None}
    header = None
    import csv
    for row in csv.reader(line for line in text.splitlines() if line.startswith('"')):
        if header is None:
            header = row
            continue
        record = dict(zip(header, row))
        metric, value = record.get("Metric Name", ""), record.get("Metric Value", "").replace(",", "")
        for key, name in zip(("ld", "st"), METRICS):
            if metric == name and value.replace(".", "").isdigit():
                out[key] = (out[key] or 0) + int(float(value))
    return out


# ----------------------------------------------------------------------------------------- GPU side

def _compile(path: str, target: str):
    import triton
    from triton.backends.compiler import GPUTarget
    return triton.compile(path, target=GPUTarget(*TARGETS[target]))


def _inputs(sig, buffers: dict, scalars: dict, seed: int):
    import torch
    gen = torch.Generator(device="cuda").manual_seed(seed)
    values = []
    for name, ty in sig:
        if ty.startswith("!tt.ptr"):
            dtype, numel = buffers[name]
            torch_dtype = getattr(torch, DTYPES[dtype])
            if torch_dtype.is_floating_point and torch_dtype.itemsize >= 2:
                t = torch.randn(numel, generator=gen, device="cuda", dtype=torch.float32).to(torch_dtype)
            else:
                t = torch.randint(0, 16, (numel,), generator=gen, device="cuda", dtype=torch.int32).to(torch_dtype)
            values.append(t)
        else:
            values.append(scalars[name])
    return values


def _launch(kernel, grid, values):
    kernel[grid](*values)


def _time(kernels: dict, grid, values: dict, reps: int, batches: int) -> dict:
    import torch
    times: dict = {k: [] for k in kernels}
    for _ in range(batches):
        for side, kernel in kernels.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(reps):
                _launch(kernel, grid, values[side])
            end.record()
            torch.cuda.synchronize()
            times[side].append(start.elapsed_time(end) * 1000.0 / reps)
    return {k: {"median_us": statistics.median(v), "batch_us": v} for k, v in times.items()}


def _ncu(args, side: str) -> dict:
    """Run this script under ncu for one launch of one side; the sectors it counted."""
    cmd = ["ncu", "--csv", "--metrics", ",".join(METRICS), sys.executable, os.path.abspath(__file__)]
    cmd += sys.argv[1:] + ["--ncu", side]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return parse_ncu_csv(proc.stdout)


def main(argv=None) -> int:
    args = parse_args(argv)
    text = open(args.dump).read()
    sig = signature(text)
    buffers = {n: (d, k) for n, d, k in args.buffer}
    scalars = dict(args.arg)
    problems = check_arguments(sig, buffers, scalars)
    if problems:
        print("compare_advice: " + "; ".join(problems), file=sys.stderr)
        return 2
    variant_path = args.variant
    tmp = None
    if variant_path is None:
        tmp = tempfile.mkdtemp(prefix="advice-")
        variant_path = os.path.join(tmp, os.path.basename(args.dump))
        subprocess.run([sys.executable, "-m", "linlayout_cli", "advise", args.dump, "--write", variant_path,
                        "--change", str(args.change)], check=True)
    kernels = {"base": _compile(args.dump, args.target), "variant": _compile(variant_path, args.target)}
    if args.ncu:
        values = _inputs(sig, buffers, scalars, args.seed)
        _launch(kernels[args.ncu], args.grid, values)
        import torch
        torch.cuda.synchronize()
        return 0
    import torch
    import triton
    values = {side: _inputs(sig, buffers, scalars, args.seed) for side in kernels}
    for side in kernels:
        _launch(kernels[side], args.grid, values[side])
    torch.cuda.synchronize()
    identical = all(a.view(torch.uint8).equal(b.view(torch.uint8)) for a, b in zip(values["base"], values["variant"])
                    if hasattr(a, "data_ptr"))
    timed = _time(kernels, args.grid, values, args.reps, args.batches)
    for side in kernels:
        timed[side]["sectors"] = _ncu(args, side) if shutil.which("ncu") else None
    result = result_json(args, variant_path, timed["base"], timed["variant"], identical,
                         torch.cuda.get_device_name(), triton.__version__)
    out = json.dumps(result, indent=1)
    if args.output == "-":
        print(out)
    else:
        with open(args.output, "w") as f:
            f.write(out + "\n")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
