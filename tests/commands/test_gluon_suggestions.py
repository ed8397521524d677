"""The Gluon code `swizzle` and `convert` print, against Triton 3.9's Gluon: tests/data/gluon_suggestions.jsonl
(scripts/make_gluon_suggestions.py) holds, for the command lines of the golden bank and convert cases, ttlayout's
Gluon text of each layout it suggests or uses (the suggested shared layout; convert's source, destination and
scratch layout) and what Triton's Gluon built from that text: the attribute and its linear layout."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from golden_cases import DATA

from linlayout_cli.analysis.info import bases_of
from linlayout_cli.cli import run
from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.parsing import parse_attribute
from linlayout_cli.reports.gluon import of_layout, of_text

with open(DATA / "gluon_suggestions.jsonl", encoding="utf-8") as f:
    RECORDS = [json.loads(line) for line in f]
END_TO_END = 12                 # every 12th command line is rerun whole (the others: their texts are rewritten)


def test_the_data_covers_every_role_and_command():
    roles = Counter(r["role"] for r in RECORDS)
    assert set(roles) == {"suggestion", "source", "destination", "scratch"} and min(roles.values()) > 100, roles
    commands = {tuple(r["argv"][:1]) + (("--for",) if "--for" in r["argv"] else ()) for r in RECORDS}
    assert commands == {("swizzle",), ("swizzle", "--for"), ("convert",)}
    kinds = Counter(r["attr"].split("<", 1)[0] for r in RECORDS if r["role"] == "suggestion")
    assert {"#ttg.swizzled_shared", "#ttg.shared_linear", "#ttg.nvmma_shared"} <= set(kinds), kinds


def test_gluon_builds_the_layout_ttlayout_means():
    """Triton's Gluon built every text, into the very attribute ttlayout's MLIR text names, with the same linear
    layout at the tensor shape as ttlayout's."""
    for r in RECORDS:
        t = r["triton"]
        assert t["exit"] == 0 and t["attr"] == r["attr"], (r["id"], t["error"])
        ll = to_linear_layout(parse_attribute(r["attr"]), r["shape"])
        assert t["linear"]["bases"] == bases_of(ll), r["id"]


def test_ttlayout_writes_the_texts_triton_checked():
    for r in RECORDS:
        attr = parse_attribute(r["attr"])
        if r["role"] in ("suggestion", "scratch"):
            assert of_text(r["attr"]) == r["gluon"], r["id"]
        else:
            assert of_layout(attr, to_linear_layout(attr, r["shape"])) == r["gluon"], r["id"]


def _command_lines():
    by_argv: dict = {}
    for r in RECORDS:
        by_argv.setdefault(json.dumps(r["argv"]), []).append(r)
    return list(by_argv.values())[::END_TO_END]


@pytest.mark.parametrize("records", _command_lines(), ids=lambda rs: rs[0]["id"].rsplit("/", 1)[0])
def test_swizzle_and_convert_print_those_texts(records):
    """The command prints the checked texts, in --json and in its report."""
    argv = records[0]["argv"]
    code, out, err = run(argv)
    assert code == 0, err
    obj = json.loads(out)
    for r in records:
        assert (obj["gluon"] if r["role"] == "suggestion" else obj["gluon"][r["role"]]) == r["gluon"], r["id"]
    code, text, err = run([a for a in argv if a != "--json"])
    assert code == 0, err
    for r in records:
        assert f"\n{r['gluon']}\n" in text or f"  {r['gluon']}\n" in text, r["id"]
