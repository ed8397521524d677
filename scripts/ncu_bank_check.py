"""Check the bank model against the hardware: shared-memory wavefronts measured by Nsight Compute on a GPU.

Each case stores a register layout to shared memory with a shared layout and loads it back, in a Gluon kernel
(one CTA), so that the only shared-memory instructions are that store and that load. Nsight Compute counts the
instructions and the wavefronts they took; ``ttlayout bank`` predicts both.

    # on the GPU machine (Triton with Gluon, ncu):
    ncu --csv --metrics $(python scripts/ncu_bank_check.py metrics) python scripts/ncu_bank_check.py run > ncu.csv
    # here:
    python scripts/ncu_bank_check.py compare ncu.csv

Used once to validate docs/bank_model.md; neither CI nor ttlayout needs it.
"""
from __future__ import annotations

import csv
import json
import random
import sys

METRICS = ["sm__sass_inst_executed_op_shared_st.sum", "sm__sass_inst_executed_op_shared_ld.sum",
           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
           "sm__sass_inst_executed_op_shared_stsm.sum", "sm__sass_inst_executed_op_ldsm.sum"]
DTYPES = {16: "f16", 32: "f32"}


def cases():
    """(blocked params, swizzled params, shape, bits): the README demos, then seeded random pairs."""
    out = [
        (([1, 1], [16, 2], [1, 4], [0, 1]), (1, 1, 16, [1, 0]), [16, 32], 32),
        (([1, 1], [16, 2], [1, 4], [0, 1]), (2, 1, 16, [1, 0]), [16, 32], 32),
        (([1, 1], [16, 2], [1, 4], [0, 1]), (1, 1, 1, [1, 0]), [16, 32], 32),
        (([1, 4], [4, 8], [4, 1], [1, 0]), (2, 1, 16, [1, 0]), [16, 32], 32),
        (([8, 1], [8, 4], [1, 4], [0, 1]), (1, 1, 1, [1, 0]), [64, 64], 16),
        (([8, 1], [8, 4], [1, 4], [0, 1]), (8, 8, 8, [0, 1]), [64, 64], 16),
        (([1, 8], [4, 8], [4, 1], [1, 0]), (8, 8, 8, [0, 1]), [64, 64], 16),
        (([1, 8], [4, 8], [4, 1], [1, 0]), (1, 1, 1, [1, 0]), [64, 64], 16),
    ]
    rng = random.Random(2026)
    while len(out) < 48:
        shape = rng.choice([[32, 64], [64, 64], [64, 32], [16, 128]])
        bits = rng.choice([16, 32])
        order = rng.choice([[0, 1], [1, 0]])
        spt = [rng.choice([1, 2, 4, 8]) if d == order[0] else 1 for d in range(2)]
        t0 = 1 << rng.randrange(6)
        tpw = [t0, 32 // t0]
        w0 = rng.choice([1, 2, 4])
        blocked = (spt, tpw, [w0, 4 // w0], order)
        vec = rng.choice([1, 2, 4, 8])
        max_phase = rng.choice([1, 2, 4, 8, 16])
        swizzled = (vec, rng.choice([1, 2, 4]), max_phase, rng.choice([[0, 1], [1, 0]]))
        out.append((blocked, swizzled, shape, bits))
    return out


def attr_texts(case):
    (spt, tpw, wpc, order), (vec, per_phase, max_phase, sorder), shape, bits = case
    reg = (f"#ttg.blocked<{{sizePerThread = {spt}, threadsPerWarp = {tpw}, warpsPerCTA = {wpc}, "
           f"order = {order}}}>")
    shared = f"#ttg.swizzled_shared<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = {sorder}}}>"
    return reg, shared, "tensor<%dx%dx%s>" % (shape[0], shape[1], DTYPES[bits])


def run_on_gpu():
    import torch
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl

    @gluon.jit
    def roundtrip(out_ptr, REG: gl.constexpr, SMEM: gl.constexpr, M: gl.constexpr, N: gl.constexpr,
                  DT: gl.constexpr):
        rows = gl.arange(0, M, layout=gl.SliceLayout(1, REG))
        cols = gl.arange(0, N, layout=gl.SliceLayout(0, REG))
        offs = rows[:, None] * N + cols[None, :]
        smem = gl.allocate_shared_memory(DT, [M, N], SMEM)
        smem.store(offs.to(DT))
        gl.store(out_ptr + offs, smem.load(REG))

    for (spt, tpw, wpc, order), (vec, pp, mp, sorder), (m, n), bits in cases():
        reg = gl.BlockedLayout(spt, tpw, wpc, order)
        smem = gl.SwizzledSharedLayout(vec, pp, mp, sorder)
        dt, tdt = (gl.float16, torch.float16) if bits == 16 else (gl.float32, torch.float32)
        out = torch.empty(m * n, dtype=tdt, device="cuda")
        roundtrip[(1,)](out, reg, smem, m, n, dt, num_warps=4)
        torch.cuda.synchronize()
        expect = torch.arange(m * n, device="cuda").to(tdt)
        assert torch.equal(out, expect), "round trip through shared memory changed the data"


def read_ncu(path):
    """Launch index -> {metric: value} of the round-trip kernels, from `ncu --csv` output (or the trimmed copy in
    tests/data/ncu_h100_bank.csv)."""
    launches: dict[int, dict[str, float]] = {}
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("==")]
    for row in csv.DictReader(lines):
        if "roundtrip" not in row["Kernel Name"]:
            continue                                  # torch's own kernels (empty, arange, equal)
        launches.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
    return [launches[k] for k in sorted(launches)]


def compare(path):
    """Per case and access: predicted vs measured wavefronts per instruction (the bank model's claim) and the
    instruction counts (LLVM may forward a few loaded values from the thread's own stores, so loads can be
    fewer; that does not change the wavefronts of the instructions that remain)."""
    from linlayout_cli.cli import run
    measured = read_ncu(path)
    rows, agree, same_count = [], 0, 0
    for case, m in zip(cases(), measured):
        reg, shared, ttype = attr_texts(case)
        code, out, err = run(["bank", "-r", reg, "-s", shared, "-t", ttype, "--json"])
        assert code == 0, err
        rep = json.loads(out)
        inst = rep["instructions_per_warp"] * rep["warps"]
        row = {"reg": reg, "shared": shared, "type": ttype, "conflicts": rep["conflicts"], "vector_width":
               rep["vector_width"], "matrix_instructions": m[METRICS[4]] + m[METRICS[5]]}
        ok = counted = True
        for op, key, i_metric, w_metric in (("st", "write", 0, 2), ("ld", "read", 1, 3)):
            got_i, got_w = m[METRICS[i_metric]], m[METRICS[w_metric]]
            row[op] = {"predicted": [inst, rep[key]["wavefronts"]], "measured": [got_i, got_w / got_i if got_i else None]}
            ok &= bool(got_i) and got_w == got_i * rep[key]["wavefronts"]
            counted &= got_i == inst
        row["agree"] = ok
        agree += ok
        same_count += counted
        rows.append(row)
    return {"cases": len(rows), "wavefronts_per_instruction_agree": agree, "instruction_counts_agree": same_count,
            "rows": rows}


if __name__ == "__main__":
    if sys.argv[1:2] == ["metrics"]:
        print(",".join(METRICS))
    elif sys.argv[1:2] == ["run"]:
        run_on_gpu()
    elif sys.argv[1:2] == ["compare"]:
        print(json.dumps(compare(sys.argv[2]), indent=1))
    else:
        raise SystemExit(__doc__)
