"""CuTe notation in and out (issue 22), checked against an independent CuTe implementation.

Ground truth is facebookresearch's `tensor-layouts` (pure-Python CuTe algebra, the `test` extra): for every golden
case with Triton's own bases (suites core and mma) that has a CuTe form,

(a) the library evaluates ttlayout's CuTe text at every (thread, value) - every element for a shared layout - and
    gets the row-major element index (the offset) that Triton's bases give;
(b) ttlayout reads the text back to the same linear layout, and to a Triton attribute whose layout it is.

The text reaches the library through a small reader in tests/helpers.py (not ttlayout's parser). The library is
called at every point for layouts of up to EVERY_POINT points; above that (a CuTe layout being the sum of its
top-level modes by definition) it is called at every coordinate of each top-level mode with the others at 0, and
the helper adds the results (and applies the library's Swizzle to the sum).

TLX's three vectors (test/TLX/dump-layout.mlir in facebookexperimental/triton) are exact-text tests.
"""
from __future__ import annotations

import numpy as np
import pytest
import tensor_layouts as tl
from golden_cases import ROOT, case_id, cases_with_bases, option_values, tensor_shape
from helpers import (
    expected_offsets,
    expected_thread_value,
    library_layout,
    library_offsets,
    library_thread_value,
    table_rows,
    triton_layout,
)
from hypothesis import given
from hypothesis import strategies as st
from tensor_layouts.atoms_nv import SM80_16x8x8_F32F16F16F32_TN

from linlayout_cli.analysis.cute import CATEGORIES, cute_form, cute_text
from linlayout_cli.attributes.cute import CuteLayout, Swizzle
from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.conversions.cute import cute_kind, cute_to_attribute, cute_to_linear
from linlayout_cli.engine import LinearLayout
from linlayout_cli.errors import ParseError, ShapeError, UnsupportedError
from linlayout_cli.parsing import parse_attribute
from linlayout_cli.parsing.cute import is_cute_text, parse_cute

CASES = cases_with_bases()


# ----------------------------------------------------------------------------------------- TLX's three vectors

TLX_VECTORS = [
    ("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>", [64],
     "((_32,_2,_2),_1):((_1,_32,_0),_0)"),
    ("#ttg.swizzled_shared<{vec = 2, perPhase = 2, maxPhase = 4, order = [1, 0]}>", [32, 32],
     "Swizzle<2,1,5> o (_32,_32):(_32,_1)"),
    ("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>", [64], "_64:_1"),
]


@pytest.mark.parametrize("attr, shape, text", TLX_VECTORS, ids=["blocked", "swizzled", "plain"])
def test_tlx_vectors_exact_text(attr, shape, text):
    assert cute_text(to_linear_layout(parse_attribute(attr), shape)) == text


@pytest.mark.parametrize("attr, shape, text", TLX_VECTORS, ids=["blocked", "swizzled", "plain"])
def test_tlx_vectors_read_back_to_the_attribute(attr, shape, text):
    assert str(cute_to_attribute(parse_cute(text), shape)) == attr


# ----------------------------------------------------------------------------------------- every golden case


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_golden_case_cute_form_against_the_library(case):
    shape = tensor_shape(option_values(case["args"])["t"])
    ll = triton_layout(case)
    form = cute_form(ll, case["kind"])
    if form.layout is None:
        assert form.reason and "\n" not in form.reason
        with pytest.raises(UnsupportedError, match="^no CuTe form: "):
            cute_text(ll, case["kind"])
        return
    text = form.text
    layout = library_layout(text)
    if form.kind == "distributed":
        want = expected_thread_value(case, shape)
        got = library_thread_value(layout, *want.shape)
    else:
        want = expected_offsets(case, shape)
        got = library_offsets(layout, shape)
    assert tl.size(layout) == want.size, text
    np.testing.assert_array_equal(got, want, err_msg=text)
    # (b) read back: the same linear layout, and an attribute with exactly that layout
    back = cute_to_linear(parse_cute(text), shape, kind=form.kind, lanes=form.lanes or 32, blocks=form.blocks)
    assert back == ll, text
    attr = cute_to_attribute(parse_cute(text), shape, kind=form.kind, lanes=form.lanes or 32, blocks=form.blocks)
    assert to_linear_layout(parse_attribute(str(attr)), shape).transpose_outs(ll.out_dims) == ll, str(attr)


def test_docs_table_is_the_golden_count():
    """docs/cute.md's per-kind table is what the golden cases give (regenerate its rows with
    `helpers.table_rows()`)."""
    doc = (ROOT / "docs" / "cute.md").read_text(encoding="utf-8")
    header = "| kind | cases | CuTe form | " + " | ".join(CATEGORIES) + " |"
    assert header in doc
    for row in table_rows():
        assert row in doc, row


# ----------------------------------------------------------------------------------------- reading CuTe text


def test_parse_accepts_the_usual_spellings():
    want = CuteLayout((8, 64), (64, 1), Swizzle(3, 4, 3))
    for text in ("Swizzle<3,4,3> o (_8,_64):(_64,_1)", "cute: Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
                 "  cute :Swizzle< 3 , 4 , 3 >  o  ( 8 , 64 ) : ( 64 , 1 ) "):
        assert parse_cute(text) == want
    assert parse_cute("(32, 32) : (32, 1)") == CuteLayout((32, 32), (32, 1))       # tensor-layouts' str()
    assert parse_cute("(_64):(_1)") == parse_cute("_64:_1") == CuteLayout(64, 1)
    assert parse_cute("((_4,_16)):((_16,_1))") == CuteLayout(((4, 16),), ((16, 1),))


@pytest.mark.parametrize("text, message", [
    ("", "column 1: expected an integer ('_32' or '32') or '(' but found end of input"),
    ("(_32,_2):(_1", "column 13: expected ',' or ')' but found end of input"),
    ("_64 _1", "column 5: expected ':' between the shape and the stride but found '_1'"),
    ("_64:_1 x", "column 8: expected end of input but found 'x'"),
    ("(_32,_2):(_1,_2,_3)", "column 10: the stride is not congruent with the shape: (_1,_2,_3) has 3 modes where "
                            "the shape's (_32,_2) has 2"),
    ("(_32,_0):(_1,_2)", "column 1: every shape entry must be positive, got _0 in (_32,_0)"),
    ("Swizzle<3,1,2> o _8:_1", "column 1: Swizzle<3,1,2> is not a CuTe swizzle: it needs B >= 0, M >= 0 and |S| >= B"),
    ("Swizzle<2,1,5> (_32):(_1)", "column 16: expected 'o' (composition) after the swizzle but found '('"),
    ("Sw<2,1,5> o _4 o _8:_1", "column 13: a composed layout's offset must be _0 (the layout starts at offset 0), "
                               "got _4"),
])
def test_parse_errors_name_the_column(text, message):
    with pytest.raises(ParseError) as info:
        parse_cute(text)
    assert str(info.value) == message


def test_cute_text_is_told_from_attributes():
    assert all(map(is_cute_text, ["cute: _64:_1", "Swizzle<2,1,5> o (_32,_32):(_32,_1)", "((_32,_2),_1):((_1,_32),_0)",
                                  "64:1", "_64:_1"]))
    assert not any(map(is_cute_text, ["#ttg.blocked<{}>", "ttgl.BlockedLayout([1], [32], [4], [0])", "#blocked"]))


# ----------------------------------------------------------------------------------------- CuTe -> Triton


def test_reading_picks_the_interpretation():
    assert cute_kind(parse_cute("((_32,_2,_2),_1):((_1,_32,_0),_0)"), [64]) == "distributed"
    assert cute_kind(parse_cute("_64:_1"), [64]) == "shared"
    assert cute_kind(parse_cute("(_32,_32):(_32,_1)"), [32, 32]) == "shared"          # the dims themselves
    assert cute_kind(parse_cute("(_32,_32):(_1,_32)"), [16, 64]) == "distributed"     # 32 threads x 32 values
    assert cute_kind(parse_cute("_1024:_1"), [32, 32]) == "shared"                    # the row-major index


def test_mma_v2_accumulator_reads_as_its_linear_layout():
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"
    ll = to_linear_layout(parse_attribute(mma), [64, 64])
    text = cute_text(ll)
    assert text == "((_4,_8,_4),(_2,_2,_8)):((_2,_64,_1024),(_1,_512,_8))"
    assert cute_to_linear(parse_cute(text), [64, 64]) == ll
    assert str(cute_to_attribute(parse_cute(text), [64, 64])).startswith("#ttg.linear<{register = [[0, 1], [8, 0]")


def test_mma_v2_tile_is_cutlass_sm80_accumulator_atom():
    """Triton's mma v2 accumulator on one 16x8 tile is CUTLASS's SM80 m16n8 C layout (tensor-layouts' atom, whose
    codomain is the column-major index m + 16 n): the same element for every (thread, value)."""
    mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"
    text = cute_text(to_linear_layout(parse_attribute(mma), [16, 8]))
    ours = library_layout(text)
    atom = SM80_16x8x8_F32F16F16F32_TN.c_layout
    for t in range(32):
        for v in range(4):
            m, n = atom(t, v) % 16, atom(t, v) // 16
            assert ours(t, v) == m * 8 + n, (t, v, text)


def test_a_plain_and_a_flat_shared_layout_become_swizzled_shared():
    row_major = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
    assert str(cute_to_attribute(parse_cute("(_32,_32):(_32,_1)"), [32, 32])) == row_major
    assert str(cute_to_attribute(parse_cute("_1024:_1"), [32, 32])) == row_major
    col_major = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>"
    assert str(cute_to_attribute(parse_cute("(_32,_64):(_1,_32)"), [32, 64])) == col_major


def test_an_unnamed_shared_layout_becomes_shared_linear():
    attr = cute_to_attribute(parse_cute("((_2,_16),_32):((_1,_64),_2)"), [32, 32])
    assert str(attr).startswith("#ttg.shared_linear<{offset = [[1, 0], [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], "
                                "[2, 0]")


@pytest.mark.parametrize("text, shape, kind, message", [
    ("((_32,_3),_1):((_1,_32),_0)", [96], None, "tensor dimension of size 96 is not supported"),
    ("((_32,_3),_1):((_1,_32),_0)", [128], "distributed",
     "thread mode 1 (_3:_32) has size 3: a Triton layout needs every CuTe mode size to be a power of two"),
    ("((_32,_4),_2):((_1,_32),_96)", [128], None,
     "thread mode 1 (_4:_32) and value mode 0 (_2:_96) overlap: strides 32 and 96 both set bit 5 of the element "
     "index, so CuTe's sum carries where a Triton layout XORs"),
    ("((_32,_2),_2):((_1,_32),_128)", [128], None,
     "value mode 0 (_2:_128) reaches element index 128, beyond the 128 of the tensor"),
    ("((_32,_2),_2):((_1,_64),_32)", [256], None,
     "no mode reaches bit 7 of the element index (dim0 bit 7): the layout does not cover the 256 elements of "
     "tensor<256> one to one"),
    ("(_32,_32):(_0,_1)", [32, 32], None,
     "dim0 mode 0 (_32:_0) has stride 0: it puts several elements at one offset, and a shared layout needs one "
     "offset per element"),
    ("(_32,_32):(_64,_1)", [32, 32], None,
     "dim0 mode 0 (_32:_64) reaches offset 1024, beyond the 1024 of the tensor"),
    ("(_16,_32):(_32,_1)", [32, 32], "shared",
     "the shared layout (_16,_32):(_32,_1) has shape (_16,_32), which is not tensor<32x32>"),
    ("(_4,_4,_4):(_16,_4,_1)", [8, 8], None,
     "(_4,_4,_4):(_16,_4,_1) fits tensor<8x8> neither as a thread-value layout"),
    ("Swizzle<1,0,-12> o _1024:_1", [1024], None,
     "Swizzle<1,0,-12> moves dim0 mode 0 (_1024:_1) to offset 4097, beyond the 1024 offsets of the tensor"),
])
def test_reading_errors_name_the_mode(text, shape, kind, message):
    with pytest.raises(ShapeError) as info:
        cute_to_linear(parse_cute(text), shape, kind=kind)
    assert str(info.value).startswith(message), str(info.value)


# ----------------------------------------------------------------------------------------- no CuTe form


def _reason(case_name: str) -> str:
    case = next(c for c in CASES if case_id(c) == case_name)
    return cute_form(triton_layout(case), case["kind"]).reason


def test_reasons_there_is_no_cute_form():
    assert _reason("core/generic_linear-002") == (
        "an XOR in a distributed layout: lane bit 0 -> (0, 2) and lane bit 1 -> (0, 2) both move dim1 bit 1; "
        "CuTe's strides add, they cannot XOR")
    assert _reason("core/rotating-002") == (
        "a swizzle CuTe's functor cannot express: offset bit 3 is XORed with both bit 4 and bit 7; "
        "Swizzle<B,M,S> XORs each bit with one other")
    assert _reason("mma/nvmma_shared-64-001") == (
        "an nvmma_shared variant that cannot be written: offset bit 3 -> (0, 0) is a broadcast: two offsets hold "
        "each element (padding or a broadcast), so no element -> offset map exists")
    assert _reason("core/spec-013") == (
        "block bit 0 -> (0, 0) is a broadcast: blocks hold copies of the tensor, so no element -> offset map exists")


# ----------------------------------------------------------------------------------------- worked examples


@pytest.mark.parametrize("name, min_examples", [
    ("linlayout_cli.attributes.cute", 4), ("linlayout_cli.parsing.cute", 3), ("linlayout_cli.conversions.cute", 3),
    ("linlayout_cli.conversions.named", 2), ("linlayout_cli.analysis.cute", 3)])
def test_docstring_examples(name, min_examples):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= min_examples, result


# ----------------------------------------------------------------------------------------- random layouts

@st.composite
def distributed_layouts(draw):
    """A random distributed layout without XORs: each element bit on one hardware bit, some bits broadcast."""
    shape = [1 << draw(st.integers(0, 4)) for _ in range(draw(st.integers(1, 3)))]
    bits = [(d, k) for d, n in enumerate(shape) for k in range(n.bit_length() - 1)]
    bits = draw(st.permutations(bits)) + [None] * draw(st.integers(0, 3))
    bits = draw(st.permutations(bits))
    sizes = {}
    rest = len(bits)
    for dim in ("lane", "warp", "block"):
        sizes[dim] = draw(st.integers(0, min(rest, 5 if dim == "lane" else 2)))
        rest -= sizes[dim]
    sizes["register"] = rest

    def basis(bit):
        return [0] * len(shape) if bit is None else [1 << bit[1] if d == bit[0] else 0 for d in range(len(shape))]
    bases, pos = {}, 0
    for dim in ("register", "lane", "warp", "block"):
        bases[dim] = [basis(b) for b in bits[pos:pos + sizes[dim]]]
        pos += sizes[dim]
    return LinearLayout(bases, [(f"dim{d}", n) for d, n in enumerate(shape)])


@given(distributed_layouts())
def test_random_distributed_layouts_round_trip(ll):
    form = cute_form(ll)
    shape = [n for _, n in ll.get_out_dims()]
    assert form.layout is not None
    lanes = ll.get_in_dim_size("lane")
    assert cute_to_linear(parse_cute(form.text), shape, kind="distributed", lanes=lanes, blocks=form.blocks) == ll
    layout = library_layout(form.text)        # at (thread, value): the row-major element the bases give
    n_threads = lanes * ll.get_in_dim_size("warp") * ll.get_in_dim_size("block")
    for t in range(n_threads):
        for v in range(ll.get_in_dim_size("register")):
            hw = [("register", v), ("lane", t % lanes), ("warp", t // lanes % ll.get_in_dim_size("warp")),
                  ("block", t // lanes // ll.get_in_dim_size("warp"))]
            coords = [c for _, c in ll.apply(hw)]
            index = 0
            for c, n in zip(coords, shape):
                index = index * n + c
            assert layout(t, v) == index


@st.composite
def shared_cute_layouts(draw):
    """A random element -> offset CuTe layout: the element bits on a permutation of the offset bits, per dim, with
    a random CuTe swizzle that keeps the offsets in range."""
    shape = [1 << draw(st.integers(0, 4)) for _ in range(draw(st.integers(1, 3)))]
    total = sum(n.bit_length() - 1 for n in shape)
    perm = draw(st.permutations(range(total)))
    modes, pos = [], 0
    for n in shape:
        k = n.bit_length() - 1
        strides = [1 << p for p in perm[pos:pos + k]]
        pos += k
        modes.append(((2,) * k or 1, tuple(strides) or 0) if k != 1 else (2, strides[0]))
    swizzle = None
    if total >= 2 and draw(st.booleans()):
        b = draw(st.integers(1, total // 2))
        s = draw(st.integers(b, total - b))
        m = draw(st.integers(0, total - b - s))
        swizzle = Swizzle(b, m, s)
    shapes = tuple(m[0] for m in modes)
    strides = tuple(m[1] for m in modes)
    layout = CuteLayout(shapes, strides, swizzle) if len(shape) > 1 else CuteLayout(shapes[0], strides[0], swizzle)
    return layout, shape


@given(shared_cute_layouts())
def test_random_shared_layouts_round_trip(case):
    layout, shape = case
    ll = cute_to_linear(layout, shape, kind="shared")
    form = cute_form(ll)
    assert form.layout is not None, form.reason
    assert cute_to_linear(parse_cute(form.text), shape, kind="shared") == ll
    want = library_offsets(library_layout(str(layout)), shape)
    got = library_offsets(library_layout(form.text), shape)
    np.testing.assert_array_equal(got, want)
