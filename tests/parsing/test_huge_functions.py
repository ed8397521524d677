"""Issue 32 C: a function of any size is read op by op. Statements become ops as soon as nothing can be added
to their text (`module._statements(make=...)`), and the rows and locations of repeated ops share one copy of
what they have in common; none of that may change what is read."""
from __future__ import annotations

import pytest
from golden_cases import DATA
from helpers import op_fields, ops_by_the_general_path

from linlayout_cli.parsing import module as M

DUMPS = sorted(DATA.glob("kernels/*.ttgir"))
WARP_SPECIALIZE = """\
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @k(%a: i32) {
    %0 = arith.addi %a, %a : i32 loc(#loc1)
    ttg.warp_specialize(%a)
    default {
      ttg.warp_yield loc(#loc1)
    }
    partition0(%b: i32) num_warps(4) {
      ttg.warp_return loc(#loc1)
    } : (i32) -> () loc(#loc1)
    %1 = scf.for %i = %a to %a step %a iter_args(%x = %a) -> (i32) : i32 {
      scf.yield %x : i32 loc(#loc1)
    } {tt.num_stages = 2 : i32} loc(#loc1)
    tt.return loc(#loc1)
  } loc(#loc1)
} loc(#loc1)
#loc1 = loc("f.py":1:1)
"""


@pytest.mark.parametrize("text", [p.read_text() for p in DUMPS] + [WARP_SPECIALIZE],
                         ids=[p.name for p in DUMPS] + ["warp_specialize"])
def test_ops_made_as_their_statements_complete_are_the_ops_read_at_the_end(text):
    ops = [op_fields(op) for op in M.read_module(text).ops]
    assert ops and ops == ops_by_the_general_path(text)


def test_the_regions_of_a_warp_specialize_and_a_loop_reach_their_op():
    ops = {op.name: op for op in M.read_module(WARP_SPECIALIZE).ops}
    assert ops["ttg.warp_specialize"].partition_warps() == (4,)
    assert ops["ttg.warp_specialize"].operand_types == ("i32",)
    assert ops["scf.for"].iter_args() == (("%x", "%a"),) and "tt.num_stages" in ops["scf.for"].text


def test_repeated_type_texts_and_plain_location_aliases_are_kept_once():
    body = "".join(f"    %{i + 1} = arith.addi %{i}, %{i} : tensor<4xi32> loc(#loc{i % 3 + 2})\n" for i in range(50))
    text = ('module attributes {"ttg.num-warps" = 4 : i32} {\n  tt.func @k(%0: tensor<4xi32>) {\n' + body
            + "    tt.return loc(#loc2)\n  } loc(#loc2)\n} loc(#loc2)\n"
            + "".join(f'#loc{k + 2} = loc("f.py":{k + 1}:1)\n' for k in range(3)))
    ops = [op for op in M.read_module(text).ops if op.name == "arith.addi"]
    assert len({id(op._types) for op in ops}) == 1
    assert [op.loc.line for op in ops[:4]] == [1, 2, 3, 1]
    assert ops[0].loc.frames is ops[3].loc.frames
