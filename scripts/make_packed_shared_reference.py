"""Reference data for two classes of shared-memory accesses (issue 32 D): what Triton 3.9 compiles them to.

* ``packed``: 8- and 16-bit tensors (f16, bf16, i8, fp8) whose register layouts give each thread 2, 4, 8 or 16
  contiguous elements along some dim, through a swizzled shared layout (``local_alloc`` + ``local_load``) or a
  ``convert_layout``.  How LLVM spells the access (``st.shared.v2.b16`` or ``st.shared.b32``, ``.v2.b8`` or
  ``.b16``) depends on how the neighbouring global access packs the registers.
* ``replicated``: reads into layouts whose lanes, warps or registers broadcast along a dim (a tensor smaller
  than the layout's tile, zero bases of a linear layout).
* ``trans8``: 8-bit tensors (i8, fp8) on sm100 (and sm90 beside them) in blocked layouts whose lanes 2-4 run
  along shared memory's contiguous dim and lanes 0-1 and registers across it: the candidates of sm100's
  ``stmatrix.m16n8`` / ``ldmatrix.m16n16`` ``.trans.b8`` forms, with near misses (swizzles, two elements per
  lane, other lane splits, too few registers) and converts.

Each case is a one-CTA kernel written by ``scripts/golden/shared_access.py`` (``kernel_text``: ``tt.load`` in
WRITE -> ``ttg.local_alloc`` -> ``ttg.local_load`` into READ -> ``tt.store``; or ``ttg.convert_layout``) and
compiled by the oracle interpreter (``ORACLE_PYTHON``, default ``/opt/oracle/venv/bin/python``), one subprocess
per kernel.  Run from the repository root with any Python 3.10+::

    python3 scripts/make_packed_shared_reference.py [-j N]      # about 15 minutes with two jobs
    python3 scripts/make_packed_shared_reference.py --class trans8   # one class (6 minutes), keep the other rows

Writes ``tests/data/packed_shared.jsonl`` (one JSON object per case, keys sorted, in generation order; cases
Triton refuses are left out): the inputs (``id``, ``class``, ``kind``, ``target``, ``num_warps``, ``shape``,
``elem``, ``bitwidth``, ``write``, ``read``, ``shared``) and the compiled kernel's ``write_ops`` / ``read_ops``
({mnemonic: static count per thread}, as the PTX spells them) and ``barriers``.  Read by
``tests/analysis/test_packed_shared.py``.  Deterministic: a rerun leaves the file unchanged.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scripts.golden import shared_access as sa  # noqa: E402
from scripts.golden.convert import _split_bits, rand_linear  # noqa: E402
from scripts.golden.text import blocked, swizzled  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "packed_shared.jsonl")
ELEMS = {16: ["f16", "bf16"], 8: ["i8", "f8E4M3FN"], 32: ["f32"]}
TARGETS = ["sm80", "sm90", "sm100"]


def contiguous_blocked(rng: random.Random, rank: int, warps: int, bits: int) -> str:
    """A blocked layout whose threads own 1-16 contiguous elements (at most 128 bits) along a random dim, and
    sometimes 2 along another."""
    order = list(range(rank))
    rng.shuffle(order)
    spt = [1] * rank
    spt[rng.randrange(rank)] = rng.choice([2, 2, 4, 8, 16][: 3 + (bits == 8) + (bits <= 16)])
    if rank > 1 and rng.random() < 0.3:
        spt[rng.randrange(rank)] *= 2
    weights = [4 if d == order[0] else 1 for d in range(rank)]
    tpw = [1 << b for b in _split_bits(rng, 5, rank, weights)]
    wpc = [1 << b for b in _split_bits(rng, warps.bit_length() - 1, rank)]
    return blocked(spt, tpw, wpc, order)


def shape_for(rng: random.Random, rank: int, lo: int, hi: int) -> list[int]:
    total = rng.randint(lo, hi)
    while True:
        bits = _split_bits(rng, total, rank)
        if all(b >= 1 for b in bits) and max(bits) <= 8:
            return [1 << b for b in bits]


def packed_cases(n: int) -> list[dict]:
    rng = random.Random(3201)
    out = []
    for i in range(n):
        target = TARGETS[i % 3]
        bits = rng.choice([16, 8])
        elem = rng.choice(ELEMS[bits])
        if elem.startswith("f8") and target == "sm80":
            elem = "i8"
        rank = rng.choice([2, 2, 3])
        warps = rng.choice([4, 8])
        shape = shape_for(rng, rank, 7, 11)
        w = contiguous_blocked(rng, rank, warps, bits)
        r = w if rng.random() < 0.4 else contiguous_blocked(rng, rank, warps, bits)
        kind = "convert" if i % 4 == 3 else "local"
        order = list(range(rank))
        rng.shuffle(order)
        shared = swizzled(rng.choice([1, 2, 4, 8]), rng.choice([1, 2]), rng.choice([1, 4, 8]), order)
        out.append(dict(kind=kind, target=target, num_warps=warps, shape=shape, elem=elem, bitwidth=bits,
                        write=w, read=r, shared=None if kind == "convert" else shared))
    return out


def broadcast_blocked(rng: random.Random, rank: int, warps: int, shape: list[int]) -> str:
    """A blocked layout whose lanes (and warps) along some dim cover more than the tensor: they broadcast."""
    order = list(range(rank))
    rng.shuffle(order)
    d = rng.randrange(rank)
    tpw = [1] * rank
    left = 32
    tpw[d] = min(left, shape[d] * rng.choice([2, 4]))
    left //= tpw[d]
    tpw[order[0] if order[0] != d else order[-1]] *= left
    wpc = [1 << b for b in _split_bits(rng, warps.bit_length() - 1, rank)]
    return blocked([1] * rank, tpw, wpc, order)


def replicated_cases(n: int) -> list[dict]:
    rng = random.Random(3202)
    out = []
    for i in range(n):
        target = TARGETS[i % 3]
        bits = rng.choice([16, 32, 32])
        elem = rng.choice(ELEMS[bits])
        rank = 2
        warps = rng.choice([4, 8])
        shape = shape_for(rng, rank, 5, 8)
        if i % 2:
            r = rand_linear(rng, shape, warps, 32)
        else:
            r = broadcast_blocked(rng, rank, warps, shape)
        w = contiguous_blocked(rng, rank, warps, bits)
        kind = "convert" if i % 4 == 3 else "local"
        shared = swizzled(rng.choice([1, 2, 4]), 1, rng.choice([1, 4, 8]), rng.choice([[1, 0], [0, 1]]))
        out.append(dict(kind=kind, target=target, num_warps=warps, shape=shape, elem=elem, bitwidth=bits,
                        write=w, read=r, shared=None if kind == "convert" else shared))
    return out


def transposed_blocked(rng: random.Random, warps: int, contig: int) -> str:
    """A rank-2 blocked layout whose lanes 0-1 run across dim `contig` and lanes 2-4 along it (stride 1),
    registers first across it; sometimes a near miss: two elements per lane along `contig`, or 2/8 lanes
    across it."""
    across = 1 - contig
    spt, tpw, wpc = [1, 1], [1, 1], [1, 1]
    spt[across] = rng.choice([1, 2, 4, 8])
    spt[contig] = rng.choice([1, 1, 1, 1, 2])
    tpw[across] = rng.choice([4, 4, 4, 4, 2, 8])
    tpw[contig] = 32 // tpw[across]
    wpc[contig] = rng.choice([1, 1, 1, 2])
    wpc[across] = warps // wpc[contig]
    return blocked(spt, tpw, wpc, [across, contig])


def trans8_cases(n: int) -> list[dict]:
    """`n` sm100 kernels (every sixth a convert), each second one followed by its sm90 twin (no .b8 forms)."""
    rng = random.Random(3203)
    out = []
    for i in range(n):
        elem = rng.choice(["f8E4M3FN", "i8"])
        warps = rng.choice([4, 8])
        contig = rng.choice([1, 1, 0])
        shape = [0, 0]
        shape[contig] = rng.choice([8, 8, 16, 32, 64])
        shape[1 - contig] = 1 << rng.randint(3, 12 - shape[contig].bit_length())
        kind = "convert" if i % 6 == 5 else "local"
        w, r = (transposed_blocked(rng, warps, contig) if rng.random() < 0.85
                else contiguous_blocked(rng, 2, warps, 8) for _ in range(2))
        vec, phases = rng.choice([(16, rng.choice([1, 2, 4, 8])), (rng.choice([1, 4, 8]), 1),
                                  (rng.choice([1, 4, 8]), rng.choice([2, 4, 8]))])
        shared = swizzled(vec, rng.choice([1, 2]), phases, [contig, 1 - contig])
        case = dict(kind=kind, target="sm100", num_warps=warps, shape=shape, elem=elem, bitwidth=8,
                    write=w, read=r, shared=None if kind == "convert" else shared)
        out.append(case)
        if i % 2:
            out.append(dict(case, target="sm90"))
    return out


def cases() -> list[dict]:
    out = []
    for cls, group in (("packed", packed_cases(96)), ("replicated", replicated_cases(48)),
                       ("trans8", trans8_cases(52))):
        for i, c in enumerate(group, 1):
            out.append({"id": f"{cls}-{i:03d}", "class": cls, **c})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--list", action="store_true", help="print the cases, compile nothing")
    ap.add_argument("--class", dest="only", choices=["packed", "replicated", "trans8"],
                    help="compile only this class; the other classes' rows are kept from the current file")
    a = ap.parse_args(argv)
    todo = cases()
    if a.list:
        for c in todo:
            print(json.dumps(c, sort_keys=True))
        return 0
    kept_rows = {}
    if a.only:
        with open(OUT) as f:
            kept_rows = {r["id"]: r for r in map(json.loads, f) if r["class"] != a.only}
        for c in todo:
            row = kept_rows.get(c["id"])
            if row is not None and any(row[k] != v for k, v in c.items()):
                sys.exit(f"{c['id']}: the file's inputs differ from this script's; rerun without --class")
    t0 = time.monotonic()
    compile_now = [c for c in todo if not a.only or c["class"] == a.only]
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        compiled = dict(zip((c["id"] for c in compile_now), pool.map(sa.run_job, compile_now)))
    kept = refused = 0
    with open(OUT, "w", newline="\n") as f:
        for case in todo:
            if case["id"] in kept_rows:
                f.write(json.dumps(kept_rows[case["id"]], sort_keys=True) + "\n")
                kept += 1
                continue
            if case["id"] not in compiled:
                continue                    # refused when its class was last compiled
            res = compiled[case["id"]]
            if "error" in res:
                refused += 1
                print(f"{case['id']}: refused: {res['error']}", file=sys.stderr)
                continue
            rec = dict(case, write_ops=res["write_ops"], read_ops=res["read_ops"], barriers=res["barriers"])
            f.write(json.dumps(rec, sort_keys=True) + "\n")
            kept += 1
    print(f"{kept} cases written to {os.path.relpath(OUT, ROOT)} ({refused} refused), "
          f"{time.monotonic() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
