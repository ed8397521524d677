"""The audit's typed findings: each category's row carries its own fact record, the enums are their JSON words, and
the JSON report writes a record's fields in declaration order (an OPTIONAL field only when it is set)."""
from __future__ import annotations

import json

from golden_cases import ROOT

from linlayout_cli.analysis.kernel.audit import analyze_audit
from linlayout_cli.analysis.kernel.facts import (
    AsyncCopy,
    BufferInfo,
    BufferUse,
    Convert,
    Dot,
    GlobalAccess,
    Reduction,
    SharedAccess,
    Tma,
)
from linlayout_cli.analysis.kinds import Category, Path
from linlayout_cli.parsing.module import iter_modules
from linlayout_cli.reports.audit import facts_json, finding_json, record_json

KERNELS = ROOT / "tests" / "data" / "kernels"
FACTS = {Category.CONVERT: (Convert,), Category.SHARED: (SharedAccess, AsyncCopy), Category.GLOBAL: (GlobalAccess,),
         Category.REDUCE: (Reduction,), Category.SCAN: (Reduction,), Category.TMA: (Tma,), Category.DOT: (Dot,)}


def test_enums_are_their_words():
    assert [str(c) for c in Category] == ["convert", "shared", "tma", "global", "reduce", "scan", "dot", "buffer"]
    assert f"{Path.WARP_SHUFFLE}" == "warp_shuffle" == Path.WARP_SHUFFLE
    assert json.dumps({Path.NOOP: [Category.DOT]}) == '{"noop": ["dot"]}'
    assert {"noop": 1}[Path.NOOP] == 1                       # hashes as its word


def test_record_json_keeps_order_and_leaves_out_unset_optionals():
    scalar = GlobalAccess(1, 32, 1, scalar=True, limited_by="scalar pointer")
    assert list(record_json(scalar).items()) == [("vector_width", 1), ("vector_bits", 32),
                                                 ("instructions_per_thread", 1), ("scalar", True),
                                                 ("limited_by", "scalar pointer")]
    use = BufferUse("ttg.local_load", 7)
    info = BufferInfo((2, 64), 2, "#shared", 256, "f16", "#smem", (), (use,))
    assert record_json(info)["reads"] == [{"op": "ttg.local_load", "line": 7}]
    assert record_json(info)["shape"] == [2, 64]


def _rows(name: str):
    path = KERNELS / name
    return [f for m in analyze_audit(iter_modules(path.read_text())) for f in m.findings]


def test_every_row_has_its_categorys_record():
    rows = [f for name in ("flash_attention.sm90.ttgir", "fp8_matmul.sm100.ttgir", "softmax.sm80.ttgir",
                           "cumsum.sm90.ttgir") for f in _rows(name)]
    seen = set()
    for f in rows:
        if f.problem:
            assert f.facts is None
            continue
        seen.add(f.category)
        if f.category == Category.BUFFER:
            assert f.facts is None and isinstance(f.buffer, BufferInfo)
        else:
            assert isinstance(f.facts, FACTS[f.category]), (f.category, f.facts)
        row = finding_json(f)
        assert row["category"] == f.category.value
        if f.facts is not None:              # the record's fields, in its order (scratch_bytes is the row's own too)
            facts = {k: v for k, v in facts_json(f).items() if k != "buffer"}   # a dot's operands in words
            assert list(facts) == list(record_json(f.facts))
            assert [k for k in row if k in facts and k != "scratch_bytes"] == [k for k in facts if k != "scratch_bytes"]
            assert all(row[k] == v for k, v in facts.items())
    assert {Category.CONVERT, Category.SHARED, Category.GLOBAL, Category.DOT, Category.SCAN} <= seen


def test_a_dots_operands_are_records_worded_in_the_json():
    """Analysis says where each operand comes from (a record); reports/ words it, as the JSON always had it."""
    rows = [f for f in _rows("flash_attention.sm90.ttgir") if isinstance(f.facts, Dot)]
    assert rows
    for f in rows:
        words = finding_json(f)["operands"]
        assert [o.label for o in f.facts.operands] == ["A", "B"] and len(words) == 2
        for o, text in zip(f.facts.operands, words):
            assert text.startswith(o.label + " ")
            assert (str(o.line) in text) == (o.line is not None)
