"""Issue 32 C: a function's plain one-line ops (`%5 = ttg.convert_layout %4 : T -> U loc(#loc7)`) are read by one
regex, each made into its `Op` at once, without a statement, a second copy of its text or a call of `OpReader.op`.
What is read must be what the general path reads: the fields of every op, its text, line, depth, loops, region
and location. The general path is `module._statements` without a reader (as `test_huge_functions` reads it)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from helpers import op_fields, ops_by_the_general_path
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout_cli.parsing import mlir_file
from linlayout_cli.parsing import module as M

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _read(text: str) -> list[tuple]:
    return [op_fields(op) for op in M.read_module(text).ops]


def _function(body: str, after: str = "") -> str:
    return ('module attributes {"ttg.num-warps" = 4 : i32} {\n  tt.func @k(%0: i32) {\n' + body
            + "    tt.return loc(#loc2)\n  } loc(#loc2)\n} loc(#loc2)\n" + after
            + '#loc2 = loc("f.py":1:1)\n#loc3 = loc("g.py":2:3)\n#loc4 = loc("x"(#loc3))\n')


# pieces of op lines, plain and not: odd white space, multiple results, `:N` results, names with `$`, `<...>`
# before the colon, a colon without blanks, a loc without a blank before it, strings, brackets, tabs, non-ASCII
_RESULTS = st.sampled_from(["", "%1 = ", "%a, %b = ", "%r:2 = ", "%x  =  ", "%y\t=\t", "%a ,%b = ", "%v$1 = ",
                            "%1 =", "% = "])
_NAMES = st.sampled_from(["arith.addi", "ttg.convert_layout", "tt.return", "a.b$", "x.y.z", "module", "noname",
                          "tt.splat", "_u.v"])
_HEADS = st.sampled_from(["", " %0", " %0, %1", " %0,%1", " slt, %0, %1", "  %0  ", "\t%0", " %0#1", " %a:2",
                          " dense<1> ", " %0 <x> ", " 1", " %0 \u00e9"])
_TYPES = st.sampled_from(["", " : i32", " : tensor<4xi32, #a> -> tensor<4xi32, #b>", " :  i32", " : i32  ", ": i32",
                          " : i32 : f32", " : (i32) -> i32", " : tensor<4x!tt.ptr<f16>>", " : i32\t", " :\ti32",
                          " : {a}", " : i32 \"s\"", " : "])
_LOCS = st.sampled_from(["", " loc(#loc2)", "  loc(#loc3)", "\tloc(#loc4)", "loc(#loc2)", " loc(#loc2)  ",
                         " loc(#nosuch)", " loc(\"h.py\":4:5)", " loc(#loc2) // note", " loc(#loc2)(", " loc(#a.b)"])
_INDENT = st.sampled_from(["    ", "", "\t", "      ", "\x0c"])
ATTRS = ["", " {axis = 1 : i32}", "{a = 1}", " {order = array<i32: 1, 0>} ", " {a = x<y}", " {a = <b->c>}",
         " {a = {b}}", " {a = [1]}", " {} ", " {a = 1 : i32}b", " {x = \"s\"}", " {a = 1} %1", "{a}%1 ", " {a = <-1>}",
         " {a = 1 : i32} loc(#loc2)"]
BRACKETED = [" : tensor<4xi32, #ttg.slice<{dim = 1, parent = #b}>>", " : (i32) -> i32", " : (i32)", " : (i32, ",
             " : [1]] ", " : {a}}", " : f(loc(#loc2))", " : i32 loc(#loc2) x", " : {a", " : [a", " : x)", " : a{b}c",
             " : !ttg.memdesc<4xf16, #s, #smem> * !ttg.memdesc<4xf16>", " : () -> ()", " : (i32) -> i32 ", " : <{x}>"]
_ATTRS = st.sampled_from(ATTRS)
_BRACKETED = st.sampled_from([""] + BRACKETED)
_LINE = st.builds(lambda i, r, n, h, a, t, b, loc: i + r + n + h + a + (b or t) + loc, _INDENT, _RESULTS, _NAMES,
                  _HEADS, _ATTRS, _TYPES, _BRACKETED, _LOCS)
_OTHER = st.sampled_from(["", "    // a comment", "    %9 = scf.for %i = %0 to %0 step %0 iter_args(%x = %0) -> (i32) {",
                          "    } loc(#loc2)", "    default {", "    }", "    ^bb0(%q: i32):",
                          '    %8 = "tt.reduce"(%0) <{axis = 1 : i32}> ({', "    }) : (i32) -> i32 loc(#loc2)",
                          "    %7 = tt.call @f(%0,", "      %0) : (i32, i32) -> i32 loc(#loc3)",
                          "    %6 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32> loc(#loc3)"])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(_LINE, _LINE, _OTHER), min_size=1, max_size=12))
def test_plain_ops_read_as_the_general_path_reads_them(lines):
    text = _function("".join(line + "\n" for line in lines))
    try:
        expected = ops_by_the_general_path(text)
    except Exception as e:      # an unbalanced text: both paths refuse it alike
        try:
            _read(text)
        except type(e) as again:
            assert str(again) == str(e)
            return
        raise AssertionError(f"the general path refused it ({e}), the fast path did not") from None
    assert _read(text) == expected


def test_every_combination_of_pieces_reads_as_the_general_path_reads_it():
    """The attribute and type pieces, each with every head and location, one function per pair (an unbalanced
    piece makes its function fail to read, in both paths alike)."""
    heads, locs = [" %0", " %0, %1", "", " %0 <x> "], [" loc(#loc2)", "", "loc(#loc3)", "\tloc(#loc4)", "  "]
    types = ["", " : i32", " : tensor<4xi32, #a> -> tensor<4xi32, #b>", " : i32 : f32", ": i32", " :  i32"]
    for attrs in ATTRS:
        for typed in types + BRACKETED:
            body = "".join(f"    %9 = x.y{h}{attrs}{typed}{loc}\n" for h in heads for loc in locs)
            text = _function(body)
            try:
                expected = ops_by_the_general_path(text)
            except Exception as e:
                try:
                    _read(text)
                except type(e) as again:
                    assert str(again) == str(e)
                    continue
                raise AssertionError(f"the general path refused {attrs!r} {typed!r}: {e}") from None
            assert _read(text) == expected, (attrs, typed)


def test_the_regions_of_a_plain_op_reach_it():
    """`default {` after a plain op opens that op's regions (a warp_specialize whose header is one line): the op
    is read as the general path reads it, its text with the regions' trailer."""
    text = _function("    ttg.warp_specialize loc(#loc2)\n\n    // regions\n    default {\n"
                     "      ttg.warp_yield loc(#loc2)\n    } : () -> () loc(#loc3)\n"
                     "    %1 = arith.addi %0, %0 : i32 loc(#loc3)\n")
    ops = _read(text)
    assert ops == ops_by_the_general_path(text)
    assert [op[0] for op in ops][2:5] == ["ttg.warp_specialize", "ttg.warp_yield", "arith.addi"]
    assert ops[2][10] == "ttg.warp_specialize loc(#loc2) default : () -> () loc(#loc3)"
    assert ops[3][8] == 3 and ops[4][8] == 2          # depth inside the region, and after it


def test_a_plain_op_that_ends_the_text_or_shares_its_line_with_a_definition():
    for text in ("%1 = arith.addi %0, %0 : i32 loc(#l)", "%1 = arith.addi %0, %0 : i32 loc(#l) #l = loc(\"f.py\":1:2)\n",
                 "%1 = arith.addi %0, %0 : i32\n#l = loc(\"f.py\":1:2)", "  %1 = arith.addi %0 : i32   "):
        ops = _read(text)
        assert ops == ops_by_the_general_path(text) and ops[0][0] == "arith.addi"
        assert ops[0][10].startswith("%1 = arith.addi %0") and "#l =" not in ops[0][10]


def test_plain_ops_are_made_without_a_statement_and_keep_no_copy_of_their_text(monkeypatch):
    calls = []
    real = M.OpReader.op

    def counted(self, text, *args):
        calls.append(text)
        return real(self, text, *args)
    monkeypatch.setattr(M.OpReader, "op", counted)
    body = "".join(f"    %{i + 1} = ttg.convert_layout %{i} : tensor<4xi32, #a> -> tensor<4xi32, #b> loc(#loc{i % 3 + 2})\n"
                   for i in range(3000))
    module = M.read_module(_function(body))
    converts = [op for op in module.ops if op.name == "ttg.convert_layout"]
    assert len(converts) == 3000 and len(calls) == 2        # the module and the function only
    assert all(isinstance(op._text, int) for op in converts)  # an offset in the module's text, no copy of it
    assert converts[-1].text == "%3000 = ttg.convert_layout %2999 : tensor<4xi32, #a> -> tensor<4xi32, #b> loc(#loc4)"
    assert len({id(op.name) for op in converts}) == len({id(op._types) for op in converts}) == 1
    assert len({id(op.loc_text) for op in converts}) == 3
    assert converts[5].loc.file == "g.py" and converts[6].loc.file == "f.py"


def test_the_operation_scanner_steps_over_innermost_pairs_in_bulk(monkeypatch):
    """A function of many `loc(#locN)` lines is stepped over a few thousand pairs per regex step, not one bracket
    per step; the spans and errors stay those of bracket counting."""
    steps = []

    class Counting:
        def __init__(self, pattern):
            self.pattern = pattern

        def match(self, *args):
            steps.append(1)
            return self.pattern.match(*args)
    monkeypatch.setattr(mlir_file, "_OP_NESTED", Counting(mlir_file._OP_NESTED))
    body = "".join(f"    %{i + 1} = arith.addi %{i}, %{i} : i32 loc(#loc2)\n" for i in range(20000))
    table = mlir_file.scan_definitions(_function(body))
    assert len(table.op_spans) == 1 and "loc4" in table
    assert len(steps) < 40                                    # was one step per bracket: 40,000
    for bad, message in (("f((a)", "'(' is never closed"), ("f(a))", "unexpected ')'"), ("f([a)]", "unexpected ')'"),
                         ("f{(a)(b)]", "unexpected ']'")):
        try:
            mlir_file.scan_definitions(bad + "\n")
        except Exception as e:
            assert message in str(e)
        else:
            raise AssertionError(f"{bad!r} was accepted")


def test_a_huge_function_takes_a_few_hundred_bytes_an_op():
    """Peak memory of reading a 40,000-op function, in a process of its own (ru_maxrss): bounded per op (the
    general path took about 700 bytes an op, its text and statement included)."""
    script = textwrap.dedent("""
        import resource, sys
        sys.path.insert(0, sys.argv[1])
        from linlayout_cli.parsing import module as M
        n = 40000
        body = "".join(f"    %{i + 1} = ttg.convert_layout %{i} : tensor<128x128xf16, #a> -> "
                       f"tensor<128x128xf16, #b> loc(#loc{i % 1000 + 2})\\n" for i in range(n))
        locs = "".join(f'#loc{k + 2} = loc("huge.py":{k + 9}:8)\\n' for k in range(1000))
        text = ('module attributes {"ttg.num-warps" = 4 : i32} {\\n  tt.func @k(%0: i32) {\\n' + body
                + "    tt.return loc(#loc2)\\n  } loc(#loc2)\\n} loc(#loc2)\\n" + locs)
        del body
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        module = M.read_module(text)
        assert len(module.ops) == n + 3
        print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024 / n)
    """)
    out = subprocess.run([sys.executable, "-c", script, ROOT], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) < 450
