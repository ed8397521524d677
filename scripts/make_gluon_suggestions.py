#!/usr/bin/env python3
"""Triton's Gluon verdict on the Gluon code `swizzle` and `convert` print: tests/data/gluon_suggestions.jsonl.

Runs with the project's Python (ttlayout importable); every Gluon text goes to the oracle (Triton 3.9's Gluon,
`scripts/triton_oracle.py --serve`, op "gluon", each request in a forked child), which builds the layout from
the text and answers with the attribute it builds (printed canonically) and its linear layout at the shape.

Command lines, from the golden bank and convert cases:

* `swizzle -r REG -t T --json` for every distinct (register layout, shape, bit width) of golden/bank, and the
  same with `--for tma` where an nvmma_shared fits (role "suggestion": the suggested shared layout);
* `swizzle -r SRC -d DST -t T --target X --json` and `convert -r SRC -d DST -t T --target X --json` for every
  golden/convert pair ttlayout analyses (swizzle: "suggestion"; convert: "source", "destination" and, on the
  shared-memory path, "scratch").

One record per (command line, role):

    {"id", "argv", "role", "shape", "attr": the layout ttlayout means (its MLIR text in the JSON),
     "gluon": ttlayout's Gluon text for it,
     "triton": {"exit": 0 if Gluon built it, "error", "attr": the canonical text of what Gluon built,
                "linear": Gluon's to_linear_layout at the shape ({"bases", "out_sizes"|"alignment"}) | null,
                "linear_error"}}

tests/commands/test_gluon_suggestions.py reruns every command line and checks that ttlayout still prints these texts,
that Gluon built each and that what it built is the layout ttlayout meant.

Usage: python scripts/make_gluon_suggestions.py [--jobs N]   (ORACLE_PYTHON: the oracle interpreter)
"""
from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

OUT = os.path.join(ROOT, "tests", "data", "gluon_suggestions.jsonl")
ELEMENT = {8: "i8", 16: "f16", 32: "f32", 64: "f64"}


def tensor(shape, element: str) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "x" + element + ">"


def golden(suite: str):
    with open(os.path.join(ROOT, "golden", suite, "cases.jsonl")) as f:
        return [json.loads(line) for line in f]


def command_lines():
    """(id, argv, shape) of every command line whose Gluon texts are checked, in a stable order."""
    seen, out = set(), []
    for c in golden("bank"):
        if c.get("exit") != 0:
            continue
        key = (c["reg"], tuple(c["shape"]), c["bitwidth"])
        if key in seen:
            continue
        seen.add(key)
        t = tensor(c["shape"], ELEMENT[c["bitwidth"]])
        out.append((f"swizzle/bank/{c['id']}", ["swizzle", "-r", c["reg"], "-t", t, "--json"], c["shape"]))
        if len(c["shape"]) >= 2:
            out.append((f"swizzle-tma/bank/{c['id']}", ["swizzle", "-r", c["reg"], "-t", t, "--for", "tma",
                                                         "--json"], c["shape"]))
    for c in golden("convert"):
        t = tensor(c["shape"], c["elem"])
        pair = ["-r", c["src"], "-d", c["dst"], "-t", t, "--target", c["target"], "--json"]
        out.append((f"convert/{c['id']}", ["convert", *pair], c["shape"]))
        if c["target"] != "gfx1200":
            out.append((f"swizzle/convert/{c['id']}", ["swizzle", *pair], c["shape"]))
    return out


def roles(argv, obj: dict):
    """(role, ttlayout's MLIR text of that layout, its Gluon text) of one command's JSON."""
    if argv[0] == "swizzle":
        return [("suggestion", obj["suggestion"], obj["gluon"])]
    g = obj["gluon"]
    out = [("source", obj["source"], g["source"]), ("destination", obj["destination"], g["destination"])]
    if obj["shared_layout"]:
        out.append(("scratch", obj["shared_layout"], g["scratch"]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    from linlayout_cli.cli import run
    from scripts.golden.oracle import OraclePool
    records = []
    for cid, argv, shape in command_lines():
        code, out, _ = run(argv)
        if code != 0:
            continue                        # a pair ttlayout refuses (the golden suites say which): nothing printed
        for role, attr, text in roles(argv, json.loads(out)):
            if text is not None:
                records.append({"id": f"{cid}/{role}", "argv": argv, "role": role, "shape": list(shape),
                                "attr": attr, "gluon": text})
    jobs = sorted({(r["gluon"], tuple(r["shape"])) for r in records})
    pool = OraclePool(args.jobs)
    try:
        answers = pool.run_all([{"op": "gluon", "text": text, "shape": list(shape), "hw": False}
                                for text, shape in jobs])
    finally:
        pool.close()
    verdict = {job: {k: a[k] for k in ("exit", "error", "attr", "linear", "linear_error")}
               for job, a in zip(jobs, answers)}
    built = same = 0
    with open(OUT, "w", encoding="utf-8") as f:
        for r in records:
            r["triton"] = verdict[r["gluon"], tuple(r["shape"])]
            built += r["triton"]["exit"] == 0
            same += r["triton"]["attr"] == r["attr"]
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"{len(records)} Gluon texts ({len(jobs)} distinct) of {len({json.dumps(r['argv']) for r in records})} "
          f"command lines: Gluon built {built}, the same attribute as ttlayout's {same}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
