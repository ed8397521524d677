"""Shared-memory instructions per thread in Triton 3.9's PTX against the SASS ptxas makes of it (issue 32 D).

For each case id of ``golden/shared_access/cases.jsonl`` or ``tests/data/packed_shared.jsonl`` (NVIDIA targets),
the case's kernel (``scripts/golden/shared_access.py``'s ``kernel_text``) is compiled by the oracle interpreter
(``ORACLE_PYTHON``, default ``/opt/oracle/venv/bin/python``, one subprocess per kernel), its cubin disassembled
with the ``nvdisasm`` Triton ships, and the static counts compared: ``ld.shared`` with ``LDS*``, ``st.shared``
with ``STS*``, ``ldmatrix`` with ``LDSM*``, ``stmatrix`` with ``STSM*``.  No GPU is needed.  Run from the
repository root with any Python 3.10+::

    python3 scripts/sass_shared_counts.py [-j N] [ID ...]     # default: the replicated reads of REPLICATED

Prints one line per kernel and exits 1 when some count differs.  Used once for docs/shared_memory_model.md
(section 7, replicated lanes: 47 kernels, every count equal, no load predicated); no test reads it.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE_PYTHON = os.environ.get("ORACLE_PYTHON", "/opt/oracle/venv/bin/python")
SOURCES = [os.path.join(ROOT, "golden", "shared_access", "cases.jsonl"),
           os.path.join(ROOT, "tests", "data", "packed_shared.jsonl")]
# the local kernels of both files where a rule serving replicated half / quarter warps once (docs/shared_memory_model.md
# section 7: B, H or H') would change the model's wavefronts, in a read or a write
REPLICATED = ("blocked-005 blocked-008 blocked-012 blocked-022 blocked-023 blocked-030 blocked-031 blocked-032 "
              "blocked-034 blocked-051 blocked-055 linear-004 linear-026 slice-007 slice-009 slice-010 slice-011 "
              "slice-017 shared-linear-017 blocked-sm80-003 blocked-sm80-010 linear-sm80-003 linear-sm80-005 "
              "blocked-sm100-010 linear-sm100-007 ncu-h100-015 ncu-h100-036 packed-002 packed-029 packed-039 "
              "packed-047 packed-058 packed-095 replicated-005 replicated-006 replicated-023 replicated-026 "
              "replicated-042 replicated-043 replicated-047 blocked-019 blocked-041 blocked-053 slice-013 "
              "shared-linear-019 trans8-019 trans8-055").split()
PAIRS = (("ld.shared", "LDS"), ("st.shared", "STS"), ("ldmatrix", "LDSM"), ("stmatrix", "STSM"))

# run by the oracle interpreter: compile one case, print {"ptx": {...}, "sass": {...}, "predicated_loads": n}
CHILD = r'''
import json, os, re, subprocess, sys, tempfile
import triton
from triton.backends.compiler import GPUTarget
sys.path.insert(0, sys.argv[2])
from scripts.golden import shared_access as sa
case = json.loads(sys.argv[1])
arch = {"sm80": 80, "sm90": 90, "sm100": 100}[case["target"]]
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "k.ttgir")
    with open(path, "w") as f:
        f.write(sa.kernel_text(case))
    k = triton.compile(path, target=GPUTarget("cuda", arch, 32))
    cubin = os.path.join(tmp, "k.cubin")
    with open(cubin, "wb") as f:
        f.write(k.asm["cubin"])
    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "nvdisasm")
    sass = subprocess.run([tool, "-c", cubin], capture_output=True, text=True, check=True).stdout
ptx = k.asm["ptx"]
out = {"ptx": {}, "sass": {}}
for p, s in json.loads(sys.argv[3]):
    out["ptx"][p] = len(re.findall(r"^\s*(?:@!?%p\d+\s+)?" + re.escape(p) + r"\b", ptx, re.M))
    out["sass"][s] = len(re.findall(r"\b" + s + r"(?:\.[A-Z0-9_.]+)?\s", sass))
out["predicated_loads"] = len(re.findall(r"@!?%p\d+\s+ld\.shared", ptx))
print(json.dumps(out))
'''


def load_cases() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for path in SOURCES:
        with open(path) as f:
            for line in f:
                c = json.loads(line)
                out.setdefault(c["id"], c)
    return out


def run(case: dict) -> dict:
    job = {k: case[k] for k in ("kind", "target", "num_warps", "shape", "elem", "write", "read", "shared")}
    env = dict(os.environ, TRITON_DEFAULT_FP_FUSION="1")
    p = subprocess.run([ORACLE_PYTHON, "-c", CHILD, json.dumps(job), ROOT, json.dumps(PAIRS)],
                       capture_output=True, text=True, timeout=300, env=env)
    if p.returncode:
        return {"error": (p.stderr.strip().splitlines() or ["?"])[-1][:200]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("ids", nargs="*", help="case ids (default: the replicated kernels listed in REPLICATED)")
    a = ap.parse_args(argv)
    cases = load_cases()
    ids = a.ids or REPLICATED
    unknown = [i for i in ids if i not in cases or not cases[i]["target"].startswith("sm")]
    if unknown:
        sys.exit(f"unknown or non-NVIDIA case ids: {' '.join(unknown)}")
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(run, (cases[i] for i in ids)))
    bad = 0
    for i, res in zip(ids, results):
        if "error" in res:
            bad += 1
            print(f"{i}: {res['error']}")
            continue
        same = all(res["ptx"][p] == res["sass"][s] for p, s in PAIRS)
        bad += not same
        counts = ", ".join(f"{p} {res['ptx'][p]} / {s} {res['sass'][s]}" for p, s in PAIRS if res["ptx"][p] or res["sass"][s])
        print(f"{i:18s} {cases[i]['target']:5s} {counts}; predicated loads {res['predicated_loads']}"
              f"{'' if same else '  DIFFERS'}")
    print(f"{len(ids)} kernels, {len(ids) - bad} with every PTX count equal to the SASS one")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
