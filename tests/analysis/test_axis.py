"""Triton 3.9's AxisInfo rules (lib/Analysis/AxisInfo.cpp) as analysis/axis.py applies them: expected values are
worked out by hand from those rules (each test says how)."""
from __future__ import annotations

import pytest

from linlayout_cli.analysis.axis import MAX_DIVISIBILITY, Axes, AxisInfo, join
from linlayout_cli.parsing.module import read_modules

HEAD = "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"


def axes(body: str, args: str = "%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}"):
    text = HEAD + f"  tt.func @k({args}) {{\n" + body + "\n    tt.return\n  }\n}\n"
    module = read_modules(text)[0]
    return module, Axes(module, module.value_type)


def operand_of(module, ax, op_name: str, k: int = 0, nth: int = 0) -> AxisInfo:
    ops = [op for op in module.ops if op.name == op_name]
    return ax.operand(ops[nth], k)


LOOP = """
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %p = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
    %bound = tt.splat %n : i32 -> tensor<1024xi32>
    scf.for %s = %c0 to %n step %c1024 : i32 {
      %b = tt.splat %s : i32 -> tensor<1024xi32>
      %cols = arith.addi %b, %r : tensor<1024xi32>
      %mask = arith.cmpi slt, %cols, %bound : tensor<1024xi32>
      %ptrs = tt.addptr %p, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
      %v = tt.load %ptrs, %mask : tensor<1024x!tt.ptr<f16>>
    }"""


def test_the_induction_variable_is_divisible_by_gcd_of_lower_bound_and_step():
    # lb 0 (divisible by everything) and step 1024: the variable is 1024-divisible; splat + make_range(0, 1024):
    # contiguity 1024, divisibility gcd(1024, MAX, contiguity 1024) = 1024; addptr on f16 from a 16-divisible
    # pointer: gcd(16, 1024 * 2, 1024 * 2) = 16 bytes; the mask `cols < n` with n 16-divisible: runs of 16
    module, ax = axes(LOOP)
    ptrs = operand_of(module, ax, "tt.load", 0)
    assert (ptrs.contiguity, ptrs.divisibility, ptrs.constancy) == ((1024,), (16,), (1,))
    assert operand_of(module, ax, "tt.load", 1).constancy == (16,)
    loop = next(i for i, op in enumerate(module.ops) if op.name == "scf.for")
    assert ax.values[(loop, "a", 0)] == AxisInfo((1,), (1024,), (1,))


def test_a_step_of_unknown_divisibility_makes_the_variable_unaligned():
    module, ax = axes(LOOP.replace("step %c1024", "step %n").replace("%n: i32 {tt.divisibility = 16 : i32}", "%n: i32"),
                      args="%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32")
    ptrs = operand_of(module, ax, "tt.load", 0)
    # gcd(MAX, 1) = 1: cols starts anywhere; the pointers keep the contiguity, alignment 2 bytes (one f16)
    assert (ptrs.contiguity, ptrs.divisibility) == ((1024,), (2,))
    assert operand_of(module, ax, "tt.load", 1).constancy == (1,)


CARRIED = """
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %p0 = tt.splat %x : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
    %p = tt.addptr %p0, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
    %step = tt.splat STEP : i32 -> tensor<64xi32>
    %out = scf.for %s = %c0 to %n step %c64 iter_args(%q = %p) -> (tensor<64x!tt.ptr<f16>>) : i32 {
      %v = tt.load %q : tensor<64x!tt.ptr<f16>>
      %q2 = tt.addptr %q, %step : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
      scf.yield %q2 : tensor<64x!tt.ptr<f16>>
    }
    %w = tt.load %out : tensor<64x!tt.ptr<f16>>"""


def test_pointers_carried_by_a_loop_join_their_initial_value_and_what_the_body_yields():
    # initial: contiguity 64, gcd(16, MAX * 2, 64 * 2) = 16 bytes; advanced by 64 elements (128 bytes): still 16
    module, ax = axes(CARRIED.replace("STEP", "%c64"))
    inside, after = operand_of(module, ax, "tt.load", 0, 0), operand_of(module, ax, "tt.load", 0, 1)
    assert (inside.contiguity, inside.divisibility) == ((64,), (16,))
    assert after == inside
    # advanced by a runtime n with no divisibility: the yield is 2-byte aligned, so the carried value is too
    module, ax = axes(CARRIED.replace("STEP", "%n"), args="%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32")
    inside = operand_of(module, ax, "tt.load", 0, 0)
    assert (inside.contiguity, inside.divisibility) == ((64,), (2,))


def test_sibling_regions_reuse_names_and_each_use_sees_its_own_definition():
    # MLIR's printer scopes names per region: the second loop's %cols is not the first loop's
    body = LOOP + LOOP.replace("%c0 =", "%c0b =").replace("%c1024 =", "%c1024b =").replace(
        "%r =", "%rb =").replace("%p =", "%pb =").replace("%bound =", "%boundb =").replace(
        "tt.splat %s", "tt.splat %n").replace("%c0 to", "%c0b to").replace("step %c1024", "step %c1024b")
    module, ax = axes(body)
    first, second = operand_of(module, ax, "arith.addi", 0, 0), operand_of(module, ax, "arith.addi", 0, 1)
    assert first.divisibility == (1024,) and second.divisibility == (16,)      # splat of s, then splat of n


def test_if_results_join_both_branches():
    body = """
    %c = arith.constant true
    %c64 = arith.constant 64 : i32
    %c4 = arith.constant 4 : i32
    %a = tt.splat %c64 : i32 -> tensor<8xi32>
    %b = tt.splat %c4 : i32 -> tensor<8xi32>
    %y = scf.if %c -> (tensor<8xi32>) {
      scf.yield %a : tensor<8xi32>
    } else {
      scf.yield %b : tensor<8xi32>
    }
    %z = arith.addi %y, %y : tensor<8xi32>"""
    module, ax = axes(body)
    y = operand_of(module, ax, "arith.addi", 0)
    assert y.divisibility == (4,) and y.constancy == (8,) and y.constant is None


def test_constants_fold_and_hints_replace_the_rules():
    body = """
    %c4 = arith.constant 4 : i32
    %c8 = arith.constant 8 : i32
    %m = arith.muli %c4, %c8 : i32
    %t = tt.splat %m : i32 -> tensor<16xi32>
    %h = arith.addi %t, %t {tt.divisibility = dense<64> : tensor<1xi32>} : tensor<16xi32>
    %u = arith.addi %h, %t : tensor<16xi32>"""
    module, ax = axes(body)
    t = operand_of(module, ax, "arith.addi", 1, 0)
    assert t.constant == 32 and t.divisibility == (32,) and t.constancy == (16,)
    # 32 + 32 folds to the constant 64; the hint says 64 as well
    assert operand_of(module, ax, "arith.addi", 0, 1).divisibility == (64,)


def test_transpose_permutes_and_expand_dims_broadcast_follow_triton():
    body = """
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %b = tt.broadcast %e : tensor<1x32xi32> -> tensor<16x32xi32>
    %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<16x32xi32> -> tensor<32x16xi32>
    %z = arith.addi %t, %t : tensor<32x16xi32>"""
    module, ax = axes(body)
    b = operand_of(module, ax, "tt.trans", 0)
    # expand_dims inserts contiguity 1, constancy 1 and divisibility 1 (the range is contiguous); broadcast makes
    # the grown dim constant over 16
    assert (b.contiguity, b.divisibility, b.constancy) == ((1, 32), (1, MAX_DIVISIBILITY), (16, 1))
    t = operand_of(module, ax, "arith.addi", 0)
    assert (t.contiguity, t.constancy) == ((32, 1), (1, 16))


def test_function_argument_hints_and_unknown_while_arguments():
    body = """
    %c0 = arith.constant 0 : i32
    %w = scf.while (%a = %c0) : (i32) -> i32 {
      %cond = arith.cmpi slt, %a, %n : i32
      scf.condition(%cond) %a : i32
    } do {
    ^bb0(%b: i32):
      %b2 = arith.addi %b, %n : i32
      scf.yield %b2 : i32
    }"""
    module, ax = axes(body, args="%x: !tt.ptr<f16> {tt.divisibility = 16 : i32, tt.contiguity = 1 : i32}, %n: i32")
    fn = next(i for i, op in enumerate(module.ops) if op.name == "tt.func")
    assert ax.values[(fn, "a", 0)].divisibility == (16,)
    # the second region's argument is read from a `^bb0` line this reader skips: pessimistic and marked unknown
    assert operand_of(module, ax, "arith.addi", 0).known is False


@pytest.mark.parametrize("a,b,want", [
    (AxisInfo((4,), (16,), (1,)), AxisInfo((4,), (8,), (1,)), AxisInfo((4,), (8,), (1,))),
    # contiguities differ: the divisibility is also bounded by them (Triton's getDivisibilityFromContiguity)
    (AxisInfo((4,), (16,), (1,)), AxisInfo((2,), (16,), (1,)), AxisInfo((2,), (2,), (1,))),
])
def test_join_is_the_per_dim_gcd(a, b, want):
    assert join(a, b) == want and join(None, a) == a


def test_loops_nested_beyond_the_walks_means_claim_nothing():
    # 2000 nested loops: deeper than the walk recurses; every value is then unknown, never an error
    depth = 2000
    body = "    %c0 = arith.constant 0 : i32\n    %c1 = arith.constant 1 : i32\n"
    for k in range(depth):
        body += f"    scf.for %i{k} = %c0 to %n step %c1 : i32 {{\n"
    body += "    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>\n"
    body += "    %z = arith.addi %r, %r : tensor<8xi32>\n"
    body += "    }\n" * depth
    module, ax = axes(body)
    info = operand_of(module, ax, "arith.addi", 0)
    assert info.known is False and info.contiguity == (1,)
