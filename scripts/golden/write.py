"""Run a suite's cases through the oracle and write ``golden/<suite>/``."""
from __future__ import annotations

import json
import os
import shutil
from collections import Counter

from . import gluon, linear
from .oracle import ROOT
from .text import T

GOLDEN = os.path.join(ROOT, "golden")
MAX_OUT = 100_000  # bytes of stdout per case; larger ones get their tensor halved until they fit


def shrink_large(s, results, pool):
    """Deterministically halve the tensor of -l cases whose output is too large, and re-run them.

    A layout whose output stays too large even for a tiny tensor (heavy broadcasting) is dropped."""
    drop = set()
    for _ in range(12):
        todo = [i for i, (c, r) in enumerate(zip(s.cases, results))
                if r["exit"] == 0 and r["stdout"] is not None and len(r["stdout"]) > MAX_OUT and i not in drop
                and "_layout" in c]  # cases built with Section.add (fixed examples, -i files) are kept as they are
        if not todo:
            break
        run = []
        for i in todo:
            c = s.cases[i]
            attr, shape, hw, dtype = c["_layout"]
            if max(shape) <= 2:
                drop.add(i)
                continue
            d = max(range(len(shape)), key=lambda j: (shape[j], j))
            shape[d] //= 2
            c["_layout"] = (attr, shape, hw, dtype)
            c["args"][3] = T(shape, dtype)
            if "(shrunk)" not in c["note"]:
                c["note"] += " (shrunk)"
            run.append(i)
        new = pool.run_all([{"op": "cli", "args": s.cases[i]["args"]} for i in run])
        for i, r in zip(run, new):
            results[i] = r
    if drop:
        keep = [i for i in range(len(s.cases)) if i not in drop]
        s.cases[:] = [s.cases[i] for i in keep]
        results[:] = [results[i] for i in keep]


def deviation(case, result):
    """Deliberate differences found from Triton's result itself (see the package docstring)."""
    if result["exit"] != 0 and "orderPerDim cannot determine dimension order" in result["stderr"]:
        return {"prints": "well-defined layout Triton cannot order"}
    if (result["exit"] != 0 and "Serialized rank and rank deduced from LL" in result["stderr"]
            and case["kind"] == "amd_wmma" and "rank =" not in case["args"][1]
            and case["args"][3].count("x") == 3):
        return {"prints": "rank-3 amd_wmma without `rank = 3`: ttlayout takes the rank from the bases"}
    if result["exit"] == 0 and "tensor rank >" in case["note"]:
        return {"error": "Triton drops the extra tensor dimensions"}
    if result["exit"] == 0 and result["stdout"] == "":
        return {"error": "Triton succeeds silently with no output; ttlayout says there is nothing to print"}
    return None


def check_oracle(case, result):
    if result["exit"] in (99, 142) or "ORACLE-INTERNAL-ERROR" in result["stderr"]:
        raise RuntimeError("oracle internal failure on %s: %s" % (case["id"], result["stderr"]))


def bank_record(c, r):
    rec = {"id": c["id"], "reg": c["reg"], "shared": c["shared"], "shape": c["shape"], "bitwidth": c["bitwidth"],
           "conflicts": r["conflicts"], "exit": r["exit"], "note": c["note"]}
    if r["exit"] != 0:
        rec["stderr_first_line"] = linear.first_line(r["stderr"])
    return rec


def cli_record(c, r):
    rec = {"id": c["id"], "args": c["args"], "exit": r["exit"], "stdout": None, "kind": c["kind"], "note": c["note"]}
    dev = c.get("ttlayout") or deviation(c, r)
    if dev:
        rec["ttlayout"] = dev
    if r["exit"] == 0:
        rec["stdout"] = c["id"] + ".out"
    else:
        rec["stderr_first_line"] = linear.first_line(r["stderr"])
    return rec


def write_suite(s, pool):
    """Wipe and rewrite golden/<suite>/; returns (JSON lines, extra summary lines)."""
    d = os.path.join(GOLDEN, s.name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    if s.inputs:
        os.makedirs(os.path.join(d, "inputs"))
        for name, text in sorted(s.inputs.items()):
            with open(os.path.join(d, "inputs", name), "w", newline="\n") as f:
                f.write(text)
    extra = []
    if s.name == "gluon":
        records, extra = gluon.write_records(s, pool, d)
    elif s.name == "memory":
        from . import memory
        records = memory.run(s, pool)
    elif s.name == "bank":
        results = pool.run_all([{"op": "bank", "reg": c["reg"], "shared": c["shared"], "shape": c["shape"],
                                 "bitwidth": c["bitwidth"]} for c in s.cases])
        for c, r in zip(s.cases, results):
            check_oracle(c, r)
        records = [bank_record(c, r) for c, r in zip(s.cases, results)]
    else:
        results = pool.run_all([{"op": "cli", "args": c["args"]} for c in s.cases])
        shrink_large(s, results, pool)
        for c, r in zip(s.cases, results):
            check_oracle(c, r)
        records = [cli_record(c, r) for c, r in zip(s.cases, results)]
        for rec, r in zip(records, results):
            if rec["stdout"]:
                with open(os.path.join(d, rec["stdout"]), "wb") as f:
                    f.write(r["stdout"].encode("utf-8", "surrogateescape"))
        if s.name in linear.SUITES:
            fields, summary = linear.linear_fields(s.cases, results, pool)
            for rec in records:
                rec.update(fields.get(rec["id"], {}))
            extra.append(summary)
    lines = [json.dumps(rec, ensure_ascii=False) for rec in records]
    with open(os.path.join(d, "cases.jsonl"), "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    return lines, extra


def summarize(name, lines):
    recs = [json.loads(x) for x in lines]
    ok = sum(1 for r in recs if r.get("exit", 0) == 0)
    kinds = Counter(r.get("kind", "bank") for r in recs)
    exits = Counter(r.get("exit", 0) for r in recs)
    return ["%-7s %4d cases (%d ok) exits=%s" % (name, len(recs), ok, dict(sorted(exits.items()))),
            "        kinds: " + ", ".join("%s=%d" % kv for kv in sorted(kinds.items()))]
