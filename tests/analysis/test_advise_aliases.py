"""Every layout alias appears in `advise`'s report (issue 30, item 4): changed, or why not (cannot change and the
op that fixes it, every candidate priced worse, refused, or left out by the MAX_PRICED bound), in text and JSON;
shared aliases are searched with the swizzle, padding and nvmma_shared candidates."""
from __future__ import annotations

import json

import pytest
from golden_cases import DATA

from linlayout_cli import advise
from linlayout_cli.analysis import advise as model
from linlayout_cli.analysis.advise_candidates import usages
from linlayout_cli.cli import run
from linlayout_cli.parsing.module import read_module

KERNELS = DATA / "kernels"
SAMPLE = ["matmul_epilogue_transpose.sm90", "matmul_epilogue_transpose.gfx942", "flash_attention.gfx942",
          "transpose_copy.sm90", "reduce_sum_axis0.sm90", "fp8_matmul.sm80"]


def _path(name: str) -> str:
    return str(KERNELS / f"{name}.ttgir")


def _outcomes(name: str) -> dict:
    return {o.alias: o for o in advise(_path(name)).modules[0].aliases}


@pytest.mark.parametrize("name", SAMPLE)
def test_every_alias_is_in_the_report_text_and_json(name):
    names = list(usages(read_module(open(_path(name)).read())))
    a = advise(_path(name)).modules[0]
    assert [o.alias for o in a.aliases] == names and names
    assert all(o.status in model.STATUSES for o in a.aliases)
    changed = {al.alias for c in a.changes for al in c.aliases}
    assert {o.alias for o in a.aliases if o.status == "changed"} == changed
    code, out, _ = run(["advise", _path(name)])
    section = out.split("\nevery alias\n", 1)[1].split("\ncandidates refused\n", 1)[0].splitlines()
    assert [row.split()[0] for row in section if row.startswith("  #")] == [f"#{n}" for n in names]
    code, out, _ = run(["advise", _path(name), "--json"])
    doc = json.loads(out)
    assert [x["alias"] for x in doc["aliases"]] == [f"#{n}" for n in names]
    assert all(x["status"] in model.STATUSES and x["why"] for x in doc["aliases"])


def test_an_alias_that_cannot_change_names_the_op_that_fixes_it():
    o = _outcomes("transpose_copy.sm90")
    assert {o[n].status for n in o} == {"ineligible"}
    assert all(x.fixed.op == "tt.trans" and x.fixed.line for x in o.values())
    code, out, _ = run(["advise", _path("transpose_copy.sm90"), "--json"])
    row = json.loads(out)["aliases"][0]
    assert row["fixed_by"]["op"] == "tt.trans" and "tt.trans at line" in row["why"]


def test_an_alias_whose_candidates_are_all_refused_or_worse_says_so():
    o = _outcomes("matmul_epilogue_transpose.sm90")
    assert o["blocked1"].status == "changed" and o["blocked1"].changes == (1,)
    assert o["blocked"].status == "priced-worse" and o["blocked"].refused == 3 and o["blocked"].best_saving < 0
    assert o["mma"].status == "ineligible" and o["mma"].fixed.code == "dot-operand"


def test_a_multi_buffered_wgmma_operand_is_searched_with_the_other_nvmma_swizzles():
    """#shared holds 3 x 128 x 64 stages read by wgmma: the 64- and 32-byte swizzles are priced (before, the
    3-stage shape failed the fit check and the alias was silently left out)."""
    o = _outcomes("matmul_epilogue_transpose.sm90")["shared"]
    assert o.status == "priced-worse" and o.priced == 2


def test_a_conflicted_shared_alias_that_swizzle_fixes_is_changed():
    """flash_attention.gfx942: K goes through #shared1 (vec 1, no swizzle), read with 15 bank conflicts per
    local_load; the swizzle search's best is a shared_linear, which advise does not propose on gfx942 (its compiled
    code does not follow the model), so the best swizzled_shared is priced as well and wins."""
    a = advise(_path("flash_attention.gfx942")).modules[0]
    o = {x.alias: x for x in a.aliases}["shared1"]
    assert o.status == "changed" and o.conflicts == 30
    change = a.changes[o.changes[0] - 1]
    assert change.aliases[0].after.startswith("#ttg.swizzled_shared<{vec = 4")
    loads = [op for op in change.ops if op.op == "ttg.local_load"]
    assert loads and all(op.before["bank_conflicts"] == 15 and op.after["bank_conflicts"] == 0 for op in loads)


def test_the_priced_bound_is_reported_per_alias_and_spares_a_conflicted_shared_alias(monkeypatch):
    monkeypatch.setattr(model, "MAX_PRICED", 1)
    a = advise(_path("flash_attention.gfx942")).modules[0]
    o = {x.alias: x for x in a.aliases}
    assert o["shared"].status == "priced-worse"                # first in file order: the one priced
    assert o["shared1"].priced == 1 and o["shared1"].status == "changed"    # conflicted: priced past the bound
    assert o["shared2"].priced == 1                                         # conflicted too
    b = advise(_path("fp8_matmul.sm80")).modules[0]
    left = [x for x in b.aliases if x.status == "not-priced"]
    assert left and all(x.priced == 0 and x.not_priced and x.not_priced + x.refused == x.candidates for x in left)
    from linlayout_cli.reports.advise import outcome_text
    assert all("not priced: the search stopped at 1 candidates" in outcome_text(x) for x in left)
