"""Suite ``advise``: every change ``ttlayout advise`` proposes for the test kernels, compiled by Triton 3.9.

Run from the repository root with any Python 3.10+; ttlayout runs in ``TTLAYOUT_PYTHON`` (default
``.venv/bin/python``), each compile in the oracle interpreter (``ORACLE_PYTHON``, default
``/opt/oracle/venv/bin/python``), one subprocess per compile (Triton aborts the process on some inputs)::

    python -m scripts.golden.advise [-j N] [--only KERNEL.TARGET] [--list]

For every dump ``tests/data/kernels/<kernel>.<target>.ttgir`` (sm80, sm90, sm100, gfx942):

1. ``ttlayout advise DUMP --json --write PATCHED`` (the best change, if there is one);
2. ``triton.compile(DUMP, target=GPUTarget(...))`` and, when a change was written,
   ``triton.compile(PATCHED, ...)``; each compile's whole-kernel counts in the assembly's classes
   (``scripts/asm_counts.py``, the independent counter: ``ld.shared*`` + ``ldmatrix*``, ``st.shared*`` +
   ``stmatrix*``, ``shfl.sync*``, ``bar.sync`` / ``barrier.sync``, ``ld.global*``, ``st.global*``; AMD: ``ds_read*``,
   ``ds_write*``, ``ds_bpermute*`` / ``ds_swizzle*`` / ``v_permlane*`` / DPP, ``s_barrier``, ``global_load*`` /
   ``buffer_load*``, ``global_store*`` / ``buffer_store*``; global classes as instruction counts) and
   ``metadata.shared`` (as ``shared_bytes``).

Written (the directory is wiped and rewritten):

* ``golden/advise/cases.jsonl``, one object per dump in file-name order::

      {"id": "<kernel>.<target>", "kernel", "target", "dump": path, "changes": how many changes advise proposed,
       "candidates_priced", "change": null | {"aliases": [{"alias", "before", "after", "gluon", "why"}],
       "totals_before", "totals_after", "tradeoffs"} (the one written),
       "patched": null | "patched/<id>.ttgir", "accepted": null | whether Triton compiled the patched file,
       ["error": its first error line], "compiled_before": {class: count, ..., "shared_bytes"},
       "compiled_after": null | the same for the patched file}

* ``golden/advise/patched/<id>.ttgir``: the patched dumps (the input with the changed alias definitions).

``tests/analysis/test_advise.py`` compares, for every case with a change, the compiled change in counts (after minus
before) with the predicted one (``totals_after`` minus ``totals_before`` of today's advice), or with the
difference ``docs/advise_model.md`` documents for that case.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

from .oracle import ORACLE_PYTHON, ROOT

OUT_DIR = os.path.join(ROOT, "golden", "advise")
KERNELS = os.path.join(ROOT, "tests", "data", "kernels")
TTLAYOUT_PYTHON = os.environ.get("TTLAYOUT_PYTHON", os.path.join(ROOT, ".venv", "bin", "python"))
TARGETS = {"sm80": ("cuda", 80, 32), "sm90": ("cuda", 90, 32), "sm100": ("cuda", 100, 32),
           "gfx942": ("hip", "gfx942", 64)}
CLASSES = ("shared_loads", "shared_stores", "shuffles", "barriers", "global_loads", "global_stores")
COMPILE_TIMEOUT_S = 600


def dumps(only=None) -> list[tuple[str, str, str]]:
    """(id, kernel, target) of every dump, in file-name order."""
    out = []
    for name in sorted(os.listdir(KERNELS)):
        if not name.endswith(".ttgir"):
            continue
        kernel, target = name[:-len(".ttgir")].rsplit(".", 1)
        if target in TARGETS and (not only or name[:-len(".ttgir")] in only):
            out.append((f"{kernel}.{target}", kernel, target))
    return out


# ----------------------------------------------------------------------------------------- in the oracle


def compile_counts(path: str, target: str) -> dict:
    """Compile one TTGIR file (in the oracle interpreter) and count its assembly: {class: count, "shared_bytes"}."""
    import triton
    from triton.backends.compiler import GPUTarget
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import asm_counts
    backend, arch, warp = TARGETS[target]
    k = triton.compile(path, target=GPUTarget(backend, arch, warp))
    kind = "ptx" if backend == "cuda" else "amdgcn"
    total = asm_counts.count_text(k.asm[kind], kind)["total"]
    out = {c: (sum(total[c].values()) if isinstance(total[c], dict) else total[c]) for c in CLASSES}
    out["global_load_bits"] = dict(sorted(total["global_loads"].items()))
    out["global_store_bits"] = dict(sorted(total["global_stores"].items()))
    out["shared_bytes"] = k.metadata.shared
    return out


def _compile_in_oracle(path: str, target: str) -> dict:
    """{"ok": True, "counts": ...} or {"ok": False, "error": first error line}, from a subprocess."""
    with tempfile.TemporaryDirectory(prefix="advise-cache-") as cache:
        env = dict(os.environ, TRITON_CACHE_DIR=cache, TRITON_ALWAYS_COMPILE="1")
        try:
            p = subprocess.run([ORACLE_PYTHON, "-m", "scripts.golden.advise", "--compile", path, target], cwd=ROOT,
                               env=env, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return {"ok": False, "error": f"timed out after {COMPILE_TIMEOUT_S} s"}
    last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    if p.returncode == 0 and last.startswith("{"):
        return {"ok": True, "counts": json.loads(last)}
    lines = [x for x in p.stderr.splitlines() if "error" in x.lower() or "Assertion" in x] or p.stderr.splitlines()
    return {"ok": False, "error": (lines[0] if lines else f"exit {p.returncode}")[:400]}


# ----------------------------------------------------------------------------------------- one case


def run_case(case: tuple[str, str, str], work: str) -> dict:
    cid, kernel, target = case
    dump = os.path.join(KERNELS, f"{cid}.ttgir")
    patched = os.path.join(work, f"{cid}.ttgir")
    p = subprocess.run([TTLAYOUT_PYTHON, "-m", "linlayout_cli", "advise", dump, "--json", "--write", patched],
                       cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{cid}: ttlayout advise failed: {p.stderr.strip()}")
    advice = json.loads(p.stdout)
    record = {"id": cid, "kernel": kernel, "target": target, "dump": os.path.relpath(dump, ROOT),
              "changes": len(advice["changes"]), "candidates_priced": advice["candidates_priced"], "change": None,
              "patched": None, "accepted": None}
    before = _compile_in_oracle(dump, target)
    if not before["ok"]:
        raise SystemExit(f"{cid}: the original dump does not compile: {before['error']}")
    record["compiled_before"] = before["counts"]
    record["compiled_after"] = None
    if advice["changes"]:
        c = advice["changes"][0]
        record["change"] = {"aliases": c["aliases"], "totals_before": c["totals_before"],
                            "totals_after": c["totals_after"], "tradeoffs": c["tradeoffs"]}
        record["patched"] = f"patched/{cid}.ttgir"
        after = _compile_in_oracle(patched, target)
        record["accepted"] = after["ok"]
        if after["ok"]:
            record["compiled_after"] = after["counts"]
        else:
            record["error"] = after["error"]
    return record


def generate(jobs: int, only=None) -> list[dict]:
    cases = dumps(only)
    with tempfile.TemporaryDirectory(prefix="advise-golden-") as work:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            records = list(pool.map(lambda c: run_case(c, work), cases))
        if only is None and os.path.isdir(OUT_DIR):
            shutil.rmtree(OUT_DIR)
        os.makedirs(os.path.join(OUT_DIR, "patched"), exist_ok=True)
        for r in records:
            if r["patched"]:
                shutil.copyfile(os.path.join(work, f"{r['id']}.ttgir"), os.path.join(OUT_DIR, r["patched"]))
    if only is None:
        with open(os.path.join(OUT_DIR, "cases.jsonl"), "w") as f:
            for r in records:
                f.write(json.dumps(r, sort_keys=True) + "\n")
    return records


def summary(records: list[dict]) -> list[str]:
    changed = [r for r in records if r["change"]]
    accepted = [r for r in changed if r["accepted"]]
    return [f"advise  {len(records)} dumps, {len(changed)} with a change, {len(accepted)} accepted by Triton, "
            f"{len(changed) - len(accepted)} rejected"]


def listing() -> list[str]:
    return [f"advise  {len(dumps())} dumps (tests/data/kernels)"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.golden.advise", description=__doc__.splitlines()[0])
    ap.add_argument("-j", "--jobs", type=int, default=min(4, os.cpu_count() or 1))
    ap.add_argument("--only", action="append", help="KERNEL.TARGET (repeatable); prints, writes nothing but "
                                                    "the patched files")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--compile", nargs=2, metavar=("TTGIR", "TARGET"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.compile:
        print(json.dumps(compile_counts(*a.compile), sort_keys=True))
        return 0
    if a.list:
        print("\n".join(listing()))
        return 0
    records = generate(a.jobs, a.only)
    if a.only:
        for r in records:
            print(json.dumps(r, sort_keys=True))
    print("\n".join(summary(records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
