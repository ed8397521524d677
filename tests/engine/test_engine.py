"""Tests for the GF(2) linear-layout engine (linlayout_cli.engine)."""

import copy
import pickle
import random

import numpy as np
import pytest

from linlayout_cli.engine import LinearLayout, bit_shifts, divide_left, flatten, gf2, lstsq, unflatten
from linlayout_cli.engine.bits import is_pow2, log2, next_pow2
from linlayout_cli.errors import LayoutError

L = LinearLayout

# #ttg.blocked sizePerThread [1,1], threadsPerWarp [8,4], warpsPerCTA [2,2], order [1,0] on a 4x8 tensor:
# 128 threads on 32 elements, so lane 16 and warp 2 replicate; BLOCKED_4X8_STR is Triton 3.9's toString of it.
BLOCKED_4X8_BASES = {
    "register": [],
    "lane": [[0, 1], [0, 2], [1, 0], [2, 0], [0, 0]],
    "warp": [[0, 4], [0, 0]],
    "block": [],
}
BLOCKED_4X8_STR = (
    "\n"
    " - register is a size 1 dimension\n"
    " - lane=1 -> (0, 1)\n"
    "   lane=2 -> (0, 2)\n"
    "   lane=4 -> (1, 0)\n"
    "   lane=8 -> (2, 0)\n"
    "   lane=16 -> (0, 0)\n"
    " - warp=1 -> (0, 4)\n"
    "   warp=2 -> (0, 0)\n"
    " - block is a size 1 dimension\n"
    "where out dims are: [dim0 (size 4), dim1 (size 8)]"
)


def blocked_4x8():
    return L(BLOCKED_4X8_BASES, ["dim0", "dim1"])


def random_layout(rng, ins, outs, zero_prob=0.2):
    """ins: [(name, bits)], outs: [(name, size)]; components uniform below the size."""
    bases = {}
    for name, bits in ins:
        bases[name] = [[0 if rng.random() < zero_prob else rng.randrange(size) for _, size in outs]
                       for _ in range(bits)]
    return L(bases, outs, require_surjective=False)


def random_invertible(rng, dim_bits, in_name="in", out_name="out"):
    """A random bijection on dim_bits bits (random independent columns)."""
    cols, basis = [], gf2.XorBasis()
    while len(cols) < dim_bits:
        v = rng.randrange(1, 1 << dim_bits)
        if basis.insert(v):
            cols.append(v)
    return L({in_name: [[c] for c in cols]}, [out_name])


def identity_on(layout_dims):
    ident = L.empty()
    for name, size in layout_dims:
        ident = ident * L.identity1D(size, name, name)
    return ident


# --------------------------------------------------------------------------- printing


def test_to_string_blocked_4x8():
    ll = blocked_4x8()
    assert str(ll) == BLOCKED_4X8_STR
    assert ll.get_out_dim_sizes() == {"dim0": 4, "dim1": 8}


def test_to_string_empty_layouts():
    assert str(L.empty()) == "\n(empty layout)"
    assert str(L({}, [("dim0", 1), ("dim1", 1)])) == \
        "\n(empty layout with out-dims [dim0 (size 1), dim1 (size 1)])"
    assert str(L.identity1D(1, "offset", "dim0")) == \
        "\n - offset is a size 1 dimension\nwhere out dims are: [dim0 (size 1)]"


def test_repr_rebuilds_equal_layout():
    ll = blocked_4x8()
    assert eval(repr(ll), {"LinearLayout": LinearLayout}) == ll


# --------------------------------------------------------------------------- construction


def test_inferred_sizes_next_pow2():
    # NextPow2 is strictly greater: basis 4 needs size 8, basis 5 also 8; unused out dim -> 1.
    ll = L({"in": [[1, 0, 0], [2, 0, 0], [4, 0, 0], [0, 1, 0]]}, ["a", "b", "c"])
    assert ll.get_out_dims() == [("a", 8), ("b", 2), ("c", 1)]
    ll = L({"in": [[1], [2], [5]]}, ["a"])
    assert ll.get_out_dim_size("a") == 8


def test_surjectivity_error_message_matches_triton():
    # Text produced by Triton 3.9 for the same bases (stderr of
    #   b.to_linear_layout(b.get_distributed_linear_layout([[2,0]],[[0,1]],[],[],[4,2]), [4,2])
    # run under /opt/oracle/venv/bin/python), minus the "LLVM ERROR: " prefix.
    expected = (
        "Layout is expected to be surjective, i.e. every `out` coordinate can be reached by some "
        "`in` coordinate, but was not:\n"
        " - register=1 -> (2, 0)\n"
        " - lane=1 -> (0, 1)\n"
        " - warp is a size 1 dimension\n"
        " - block is a size 1 dimension\n"
        "where out dims are: [dim0 (size 4), dim1 (size 2)]"
    )
    with pytest.raises(LayoutError) as err:
        L({"register": [[2, 0]], "lane": [[0, 1]], "warp": [], "block": []}, ["dim0", "dim1"])
    assert str(err.value) == expected


def test_explicit_sizes_allow_non_surjective():
    ll = L({"in": [[1], [4]]}, [("out", 32)], require_surjective=False)
    assert ll.get_out_dim_size("out") == 32
    assert not ll.is_surjective() and ll.is_injective()
    with pytest.raises(LayoutError, match="surjective"):
        L({"in": [[1], [4]]}, [("out", 32)])


@pytest.mark.parametrize("bases, outs, message", [
    ({"in": [[-1]]}, [("o", 2)], "non-negative"),
    ({"in": [[1, 0]]}, [("o", 2)], "same size"),
    ({"in": [[1]]}, [("o", 3)], "powers of 2"),
    ({"in": [[4]]}, [("o", 4)], "Invalid basis 4 for in-dim 'in' and out-dim 'o'"),
    ({"in": [[1]]}, [("o", 2), "p"], "all names"),
    ({"in": [[1, 1]]}, [("o", 2), ("o", 2)], "duplicate out"),
    ({"in": [[1, 1]]}, ["o", "o"], "duplicate out"),
])
def test_invalid_construction(bases, outs, message):
    with pytest.raises(LayoutError, match=message):
        L(bases, outs, require_surjective=False)


def test_pairs_and_numpy_ints_accepted():
    ll = L([("in", np.array([[1], [2]]))], [("out", np.int64(4))])
    assert ll == L.identity1D(4, "in", "out")


def test_identity_and_zeros():
    ident = L.identity1D(8, "i", "o")
    assert ident.get_bases() == {"i": ((1,), (2,), (4,))}
    assert ident.get_out_dims() == [("o", 8)] and ident.is_invertible()
    one = L.identity1D(1, "i", "o")
    assert one.get_in_dim_size("i") == 1 and one.get_out_dim_size("o") == 1
    assert L.identity1D(0, "i", "o") == L.empty()
    zeros = L.zeros1D(4, "i", "o")
    assert zeros.get_bases() == {"i": ((0,), (0,))} and zeros.get_out_dim_size("o") == 1
    wide = L.zeros1D(4, "i", "o", out_dim_size=4)
    assert wide.get_out_dim_size("o") == 4 and not wide.is_surjective()
    with pytest.raises(LayoutError):
        L.identity1D(6, "i", "o")


def test_accessors():
    ll = blocked_4x8()
    assert ll.in_dims == ["register", "lane", "warp", "block"]
    assert ll.out_dims == ["dim0", "dim1"]
    assert ll.num_in_dims == 4 and ll.num_out_dims == 2
    assert ll.get_in_dim_size("lane") == 32 and ll.get_in_dim_size_log2("warp") == 2
    assert ll.get_total_in_dim_size() == 128 and ll.get_total_in_dim_size_log2() == 7
    assert ll.get_total_out_dim_size() == 32 and ll.get_total_out_dim_size_log2() == 5
    assert ll.get_out_dim_size_log2("dim1") == 3
    assert ll.get_basis("lane", 2) == (1, 0) and ll.get_basis("warp", 0, "dim1") == 4
    assert ll.get_in_dim_bases("warp") == ((0, 4), (0, 0))
    assert ll.has_in_dim("lane") and not ll.has_in_dim("dim0")
    assert ll.has_out_dim("dim0") and not ll.has_out_dim("lane")
    assert ll.get_in_dims() == [("register", 1), ("lane", 32), ("warp", 4), ("block", 1)]
    with pytest.raises(LayoutError):
        ll.get_in_dim_size("offset")
    with pytest.raises(LayoutError):
        ll.get_basis("warp", 2)


def test_equality_and_hash():
    a, b = blocked_4x8(), blocked_4x8()
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != a.transpose_ins(["lane", "register", "warp", "block"])
    assert a != a.transpose_outs(["dim1", "dim0"])
    wider = L(BLOCKED_4X8_BASES, [("dim0", 8), ("dim1", 8)], require_surjective=False)
    assert a != wider and a.equal_ignoring_out_dim_sizes(wider)
    with pytest.raises(AttributeError):
        a._bases = ()
    assert pickle.loads(pickle.dumps(a)) == a == copy.deepcopy(a)


def test_more_than_64_bits_rejected():
    big = L.identity1D(1 << 30, "i", "o")
    with pytest.raises(LayoutError, match="too large"):
        big * big * big


# --------------------------------------------------------------------------- product


def test_product_examples_from_header():
    assert L.identity1D(4, "i", "o") * L.identity1D(2, "i", "o") == L.identity1D(8, "i", "o")
    mod4 = L.identity1D(4, "i", "o") * L.zeros1D(2, "i", "o")
    assert mod4.get_bases() == {"i": ((1,), (2,), (0,))} and mod4.get_out_dim_size("o") == 4
    assert [mod4.apply({"i": x})[0][1] for x in range(8)] == [x % 4 for x in range(8)]
    div2 = L.zeros1D(2, "i", "o") * L.identity1D(4, "i", "o")
    assert [div2.apply({"i": x})[0][1] for x in range(8)] == [x // 2 for x in range(8)]
    split = L.identity1D(4, "i", "o1") * L.identity1D(8, "i", "o2")
    assert split.out_dims == ["o1", "o2"]
    assert [split.apply({"i": x}) for x in (5, 31)] == [[("o1", 1), ("o2", 1)], [("o1", 3), ("o2", 7)]]
    two_d = L.identity1D(4, "i1", "o1") * L.identity1D(8, "i2", "o2")
    assert two_d.in_dims == ["i1", "i2"] and two_d.get_out_dims() == [("o1", 4), ("o2", 8)]
    assert L.empty() * two_d == two_d == two_d * L.empty()


def test_product_dim_order_is_supremum():
    ab = L({"a": [], "b": []}, [("x", 1), ("y", 1)])
    ac = L({"a": [], "c": []}, [("x", 1), ("z", 1)])
    bc = L({"b": [], "c": []}, [("y", 1), ("z", 1)])
    assert (ab * ac).in_dims == ["a", "b", "c"] and (ab * ac).out_dims == ["x", "y", "z"]
    assert (ab * bc).in_dims == ["a", "b", "c"]
    # Triton's supremum() never actually reports "Supremum does not exist": it follows x.
    ba = L({"b": [], "a": []}, [])
    assert (ab * ba).in_dims == ["a", "b"]


def test_product_is_associative_and_shifts_outer():
    rng = random.Random(7)
    for _ in range(30):
        a = random_layout(rng, [("r", 2), ("l", 1)], [("d0", 4), ("d1", 2)])
        b = random_layout(rng, [("l", 2), ("w", 1)], [("d1", 4), ("d2", 2)])
        c = random_layout(rng, [("r", 1), ("w", 2)], [("d0", 2), ("d2", 4)])
        assert (a * b) * c == a * (b * c)
        ab = a * b
        # b's bases of the shared in dim 'l' come after a's and are shifted past a's d1 bits.
        assert ab.get_in_dim_bases("l")[1:] == tuple((0, v[0] << 1, v[1]) for v in b.get_in_dim_bases("l"))


# Expected bases from Triton 3.9 (/opt/oracle/venv/bin/python):
#   b.to_linear_layout(b.get_blocked_layout(spt, tpw, wpc, order, []), shape)
ORACLE_BLOCKED = [
    (([2, 1], [4, 8], [1, 2], [0, 1], [16, 32]),
     {"register": [[1, 0], [8, 0], [0, 16]], "lane": [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]],
      "warp": [[0, 8]], "block": []}),
    (([1, 4], [8, 4], [2, 2], [1, 0], [64, 32]),
     {"register": [[0, 1], [0, 2], [16, 0], [32, 0]], "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]],
      "warp": [[0, 16], [8, 0]], "block": []}),
    (([1, 1, 2], [2, 4, 4], [2, 1, 1], [2, 0, 1], [8, 8, 16]),
     {"register": [[0, 0, 1], [0, 0, 8], [4, 0, 0], [0, 4, 0]],
      "lane": [[0, 0, 2], [0, 0, 4], [1, 0, 0], [0, 1, 0], [0, 2, 0]],
      "warp": [[2, 0, 0]], "block": []}),
]


@pytest.mark.parametrize("params, expected", ORACLE_BLOCKED)
def test_products_reproduce_triton_blocked_layouts(params, expected):
    spt, tpw, wpc, order, shape = params

    def identity_nd(in_dim, sizes):
        ll = L.empty()
        for d in order:
            ll = ll * L.identity1D(sizes[d], in_dim, f"dim{d}")
        return ll

    cta = identity_nd("register", spt) * identity_nd("lane", tpw) * identity_nd("warp", wpc)
    for name in cta.out_dims:
        d = int(name[3:])
        if cta.get_out_dim_size(name) < shape[d]:
            cta = cta * L.identity1D(shape[d] // cta.get_out_dim_size(name), "register", name)
    cga = L({"block": []}, [(name, 1) for name in cta.out_dims])
    got = (cta * cga).transpose_outs([f"dim{d}" for d in range(len(shape))])
    assert got == L(expected, [f"dim{d}" for d in range(len(shape))])


# --------------------------------------------------------------------------- apply


def test_apply_hand_checked():
    ll = blocked_4x8()
    # lane 5 = lane1 ^ lane4 -> (0,1)^(1,0); warp 3 -> (0,4)^(0,0); lane 16 is broadcast.
    assert ll.apply({"register": 0, "lane": 5, "warp": 3, "block": 0}) == [("dim0", 1), ("dim1", 5)]
    assert ll.apply([("block", 0), ("warp", 0), ("lane", 16), ("register", 0)]) == [("dim0", 0), ("dim1", 0)]
    with pytest.raises(LayoutError, match="Dimensions must match"):
        ll.apply({"lane": 1})


def _flat_input(layout, x):
    values, shift = {}, 0
    for name, size in layout.get_in_dims():
        values[name] = (x >> shift) & (size - 1)
        shift += size.bit_length() - 1
    return values


@pytest.mark.parametrize("seed", range(5))
def test_apply_all_agrees_with_apply(seed):
    rng = random.Random(seed)
    ll = random_layout(rng, [("register", rng.randrange(4)), ("lane", 3), ("warp", rng.randrange(3))],
                       [("dim0", 1 << rng.randrange(5)), ("dim1", 1 << rng.randrange(5))])
    table = ll.apply_all()
    assert table.shape == (2, ll.get_total_in_dim_size()) and table.dtype == np.int64
    for x in range(ll.get_total_in_dim_size()):
        assert [v for _, v in ll.apply(_flat_input(ll, x))] == table[:, x].tolist()
    shift = ll.get_out_dim_size_log2("dim0")
    flat = ll.apply_all_flat()
    assert np.array_equal(flat, table[0] | (table[1] << shift))
    assert np.array_equal(ll.flat_bases(), [v[0] | (v[1] << shift) for vs in ll.get_bases().values() for v in vs])
    xs = np.array([[3, 1], [0, ll.get_total_in_dim_size() - 1]])
    assert np.array_equal(ll.apply_flat(xs), table[:, xs])


def test_apply_all_edge_cases():
    assert L.empty().apply_all().shape == (0, 1)
    assert L({"in": []}, [("o", 1)]).apply_all().tolist() == [[0]]
    assert L.identity1D(1 << 16, "i", "o").apply_all()[0].tolist() == list(range(1 << 16))


# --------------------------------------------------------------------------- compose / invert


def test_compose_matches_sequential_apply():
    rng = random.Random(3)
    for _ in range(20):
        inner = random_layout(rng, [("r", 2), ("l", 3)], [("a", 4), ("b", 8)])
        outer = random_layout(rng, [("b", 3), ("a", 2)], [("x", 16), ("y", 2)])
        comp = inner.compose(outer)
        assert comp.in_dims == ["r", "l"] and comp.get_out_dims() == outer.get_out_dims()
        for r in range(4):
            for lane in range(8):
                mid = dict(inner.apply({"r": r, "l": lane}))
                assert comp.apply({"r": r, "l": lane}) == outer.apply(mid)
    with pytest.raises(LayoutError, match="Dimensions must match"):
        inner.compose(L.identity1D(4, "a", "a"))


def test_invert_and_compose_round_trip():
    rng = random.Random(11)
    for _ in range(40):
        # A: possibly non-injective, surjective onto (d0, d1); B = R.compose(A) so Im(B) ⊆ Im(A).
        A = random_layout(rng, [("offset", 5), ("block", 1)], [("d1", 4), ("d0", 4)], zero_prob=0.1)
        if not A.is_surjective():
            continue
        R = random_layout(rng, [("register", 3), ("lane", 2)], [("offset", 32), ("block", 2)])
        B = R.compose(A).transpose_outs(["d0", "d1"])
        C = B.invert_and_compose(A)
        assert C.in_dims == ["register", "lane"] and C.get_out_dims() == [("offset", 32), ("block", 2)]
        assert C.compose(A) == B.transpose_outs(A.out_dims)
        # Free variables of A are never used by the solution.
        masks = A.get_free_variable_masks()
        table = C.apply_all()
        assert not np.any(table[0] & masks["offset"]) and not np.any(table[1] & masks["block"])


def test_invert_and_compose_identity_dims_and_errors():
    # 'block' has identical bases in both layouts, so it maps to itself (not to 0).
    A = L({"offset": [[1, 0], [2, 0]], "block": [[0, 0]]}, [("d", 4), ("e", 1)])
    B = L({"lane": [[2, 0], [1, 0]], "block": [[0, 0]]}, [("d", 4), ("e", 1)])
    C = B.invert_and_compose(A)
    assert C == L({"lane": [[2, 0], [1, 0]], "block": [[0, 1]]},
                  [("offset", 4), ("block", 2)], require_surjective=False)
    # Image not contained: A only reaches even values.
    evens = L({"offset": [[2], [4]]}, [("d", 8)], require_surjective=False)
    with pytest.raises(LayoutError, match="not contained"):
        L.identity1D(8, "lane", "d").invert_and_compose(evens)
    with pytest.raises(LayoutError, match="incompatible output shapes"):
        L.identity1D(8, "lane", "d").invert_and_compose(L.identity1D(4, "offset", "d"))


def test_pseudoinvert_hand_checked():
    # Free bits of the 4x8 blocked layout are lane=16 and warp=2; the pseudoinverse never sets them.
    P = blocked_4x8().pseudoinvert()
    assert P == L({"dim0": [[0, 4, 0, 0], [0, 8, 0, 0]],
                   "dim1": [[0, 1, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0]]},
                  [("register", 1), ("lane", 32), ("warp", 4), ("block", 1)], require_surjective=False)
    assert P.compose(blocked_4x8()) == identity_on([("dim0", 4), ("dim1", 8)])


def test_pseudoinvert_picks_zero_free_bits():
    rng = random.Random(5)
    for _ in range(20):
        ll = random_layout(rng, [("register", 3), ("lane", 4)], [("dim0", 8), ("dim1", 4)], zero_prob=0.3)
        if not ll.is_surjective():
            with pytest.raises(LayoutError):
                ll.pseudoinvert()
            continue
        P = ll.pseudoinvert()
        assert P.compose(ll) == identity_on(ll.get_out_dims())
        masks = ll.get_free_variable_masks()
        table = P.apply_all()
        assert not np.any(table[0] & masks["register"]) and not np.any(table[1] & masks["lane"])


def test_invert():
    rng = random.Random(2)
    for _ in range(10):
        ll = random_invertible(rng, 6).reshape_ins([("lane", 8), ("warp", 8)]).reshape_outs([("x", 4), ("y", 16)])
        inv = ll.invert()
        assert inv.in_dims == ["x", "y"] and inv.get_out_dims() == [("lane", 8), ("warp", 8)]
        assert inv.compose(ll) == identity_on(ll.get_out_dims())
        assert ll.compose(inv) == identity_on(ll.get_in_dims())
    with pytest.raises(LayoutError, match="invertible"):
        blocked_4x8().invert()


# --------------------------------------------------------------------------- free variables, rank


def test_free_variable_masks():
    assert blocked_4x8().get_free_variable_masks() == {"register": 0, "lane": 16, "warp": 2, "block": 0}
    # 3 = 1 ^ 2 is dependent on earlier bits; the later 8 is not.
    ll = L({"a": [[1], [2], [3]], "b": [[8], [0], [4]]}, ["o"])
    assert ll.get_free_variable_masks() == {"a": 4, "b": 2}
    assert ll.get_matrix_rank() == 4 and ll.is_surjective() and not ll.is_injective()


@pytest.mark.parametrize("seed", range(5))
def test_free_variables_are_rref_non_pivots(seed):
    rng = random.Random(seed)
    ll = random_layout(rng, [("a", 4), ("b", 5)], [("x", 8), ("y", 16)], zero_prob=0.3)
    cols = [int(c) for c in ll.flat_bases()]
    rows = gf2.transpose(cols, ll.get_total_out_dim_size_log2())
    reduced, pivots = gf2.rref(rows, len(cols))
    non_pivot = sum(1 << c for c in range(len(cols)) if c not in pivots)
    masks = ll.get_free_variable_masks()
    assert masks["a"] | (masks["b"] << 4) == non_pivot
    assert ll.get_matrix_rank() == len(pivots) == sum(1 for r in reduced if r)


# --------------------------------------------------------------------------- reshape, transpose


def test_reshape_outs_and_ins():
    ll = L.identity1D(32, "i", "o").reshape_outs([("a", 4), ("b", 8)])
    assert ll.get_bases() == {"i": ((1, 0), (2, 0), (0, 1), (0, 2), (0, 4))}
    assert ll.get_out_dims() == [("a", 4), ("b", 8)]
    flat = blocked_4x8().flatten_outs()
    # (c0, c1) -> c0 | c1 << 2: dim0 is the low 2 bits.
    assert flat.get_out_dims() == [("dim0", 32)]
    assert flat.get_in_dim_bases("lane") == ((4,), (8,), (1,), (2,), (0,))
    assert flat.reshape_outs([("dim0", 4), ("dim1", 8)]) == blocked_4x8()
    ins = blocked_4x8().reshape_ins([("x", 8), ("y", 16)])
    assert ins.get_bases() == {"x": ((0, 1), (0, 2), (1, 0)), "y": ((2, 0), (0, 0), (0, 4), (0, 0))}
    assert blocked_4x8().flatten_ins().get_in_dims() == [("register", 128)]
    assert L.empty().flatten_ins() == L.empty() == L.empty().flatten_outs()
    with pytest.raises(LayoutError, match="multiply"):
        blocked_4x8().reshape_ins([("x", 8)])
    with pytest.raises(LayoutError, match="powers of 2"):
        blocked_4x8().reshape_outs([("x", 2), ("y", 3)])


def test_transposes():
    ll = blocked_4x8()
    t = ll.transpose_outs(["dim1", "dim0"])
    assert t.get_out_dims() == [("dim1", 8), ("dim0", 4)] and t.get_basis("lane", 0) == (1, 0)
    assert ll.transpose_ins(["block", "warp", "lane", "register"]).in_dims == ["block", "warp", "lane", "register"]
    with pytest.raises(LayoutError, match="Dimensions must match"):
        ll.transpose_outs(["dim0"])


# --------------------------------------------------------------------------- restriction, resizing


def test_sublayout_and_zero_checks():
    ll = blocked_4x8()
    sub = ll.sublayout(["warp", "lane"], ["dim1"])
    assert sub.in_dims == ["lane", "warp"]  # self's order, not the argument's
    assert sub.get_bases() == {"lane": ((1,), (2,), (0,), (0,), (0,)), "warp": ((4,), (0,))}
    assert sub.get_out_dims() == [("dim1", 8)]
    assert ll.sublayout_is_zero(["warp"], ["dim0"]) and not ll.sublayout_is_zero("warp", "dim1")
    with pytest.raises(LayoutError, match="subset"):
        ll.sublayout(["offset"], ["dim0"])


def test_resize_and_remove_zero_bases():
    ll = blocked_4x8()
    assert ll.resize_in_dim("lane", 4).get_in_dim_bases("lane") == ((0, 1), (0, 2))
    assert ll.resize_in_dim("warp", 8).get_in_dim_bases("warp") == ((0, 4), (0, 0), (0, 0))
    shrunk = L({"in": [[1], [2], [3], [4]]}, ["o"]).resize_out_dim("o", 2)
    # Components >= the new size become 0 (3 -> 0, not 3 & 1).
    assert shrunk.get_bases() == {"in": ((1,), (0,), (0,), (0,))} and shrunk.get_out_dim_size("o") == 2
    stripped = ll.remove_zero_bases_along_dim("lane")
    assert stripped.get_in_dim_bases("lane") == ((0, 1), (0, 2), (1, 0), (2, 0))
    assert stripped.get_in_dim_bases("warp") == ((0, 4), (0, 0))
    assert stripped.get_out_dims() == ll.get_out_dims()
    with pytest.raises(LayoutError):
        ll.resize_out_dim("dim0", 8)


def test_concat():
    a = L.identity1D(4, "x", "o")
    b = L({"y": [[0], [2]]}, [("o", 4)], require_surjective=False)
    assert a.concat_ins(b).get_bases() == {"x": ((1,), (2,)), "y": ((0,), (2,))}
    c = L.identity1D(4, "x", "p")
    assert a.concat_outs(c) == L({"x": [[1, 1], [2, 2]]}, [("o", 4), ("p", 4)], require_surjective=False)


# --------------------------------------------------------------------------- division, lstsq


def test_divide_left_recovers_outer_factor():
    rng = random.Random(13)
    for _ in range(20):
        B = random_layout(rng, [("register", 2), ("lane", 1)], [("dim0", 4), ("dim1", 2)])
        C = random_layout(rng, [("register", 1), ("lane", 2), ("warp", 1)], [("dim0", 2), ("dim1", 8)])
        A = B * C
        assert divide_left(A, B) == C
    A = L.identity1D(4, "i", "o") * L.identity1D(2, "i", "o")
    assert divide_left(A, L.identity1D(4, "i", "o")) == L.identity1D(2, "i", "o")
    assert divide_left(A, L.identity1D(2, "i", "o")) == L.identity1D(4, "i", "o")
    # A's first basis is not B's.
    assert divide_left(L({"i": [[2], [1]]}, ["o"]), L.identity1D(2, "i", "o")) is None
    # B has a dim A lacks; B larger than A.
    assert divide_left(A, L.identity1D(2, "j", "o")) is None
    assert divide_left(L.identity1D(2, "i", "o"), A) is None
    # Remaining bases must be zero in B's bits.
    assert divide_left(L({"i": [[1], [3]]}, ["o"]), L.identity1D(2, "i", "o")) is None


def test_lstsq():
    A = L({"offset": [[1], [1], [2]]}, ["d"])  # bit 1 duplicates bit 0: a free variable
    X = lstsq(A, L.identity1D(4, "lane", "d"))
    assert X == L({"lane": [[1], [4]]}, [("offset", 8)], require_surjective=False)
    assert lstsq(A, L.identity1D(4, "lane", "e")) is None
    assert lstsq(A, L.identity1D(8, "lane", "d")) is None
    assert lstsq(L.empty(), L.empty()) == L.empty()


# --------------------------------------------------------------------------- gf2 helpers


def test_gf2_helpers():
    cols = [0b011, 0b110, 0b101, 0b000, 0b100]
    assert gf2.rank(cols) == 3
    assert gf2.pivot_mask(cols) == 0b10011
    assert gf2.solve(cols, [0b101, 0b111, 0]) == [0b00011, 0b10001, 0]
    assert gf2.solve([0b01], [0b10]) == [None]
    kernel = gf2.null_space(cols)
    assert kernel == [0b00111, 0b01000]
    for x in kernel:
        acc = 0
        for k, c in enumerate(cols):
            if x >> k & 1:
                acc ^= c
        assert acc == 0
    rows, pivots = gf2.rref([0b110, 0b011, 0b101], 3)
    assert pivots == [0, 1] and rows == [0b101, 0b110, 0]


def test_gf2_span_apply_and_array():
    # element i = XOR of the vectors selected by the set bits of i: 5 = 0b101 -> v0 ^ v2 = 0b001 ^ 0b110
    vs = [0b001, 0b010, 0b110]
    assert gf2.span(vs) == [0, 1, 2, 3, 6, 7, 4, 5]
    assert gf2.span([]) == [0]
    assert gf2.span([4, 4]) == [0, 4, 4, 0]                      # dependent vectors repeat elements
    assert [gf2.apply(vs, i) for i in range(8)] == gf2.span(vs)
    assert gf2.apply([], 5) == 0
    assert gf2.span_array(vs).tolist() == [0, 1, 2, 3, 6, 7, 4, 5]
    assert gf2.span_array(np.array([], dtype=np.int64)).tolist() == [0]
    table = gf2.span_array(np.array([[1, 2], [3, 0]]))          # two rows spanned at once: (2, 4)
    assert table.dtype == np.int64 and table.tolist() == [[0, 1, 2, 3], [0, 3, 0, 3]]


# --------------------------------------------------------------------------- the flattened bit view


def test_bits():
    assert [x for x in range(-4, 70) if is_pow2(x)] == [1, 2, 4, 8, 16, 32, 64]
    assert not is_pow2(6) and is_pow2(1 << 63)
    assert [log2(x) for x in (1, 2, 8, 1024, 1 << 63)] == [0, 1, 3, 10, 63]
    assert [log2(x) for x in (0, 3, 12, 1023)] == [-1, 1, 3, 9]          # floor, and -1 for 0
    assert [next_pow2(x) for x in (0, 1, 2, 3, 7, 8, 1023)] == [1, 2, 4, 4, 8, 16, 1024]


def test_flatten_and_unflatten_hand_checked():
    # a 16x32x4 tensor: dim0 in bits 0-3, dim1 in bits 4-8, dim2 in bits 9-10
    assert bit_shifts([16, 32, 4]) == [0, 4, 9]
    assert bit_shifts([]) == [] and bit_shifts([1, 8, 1, 2]) == [0, 0, 3, 3]
    assert flatten([(3, 1, 0), (15, 31, 3), (0, 0, 1)], [0, 4, 9]) == [3 + 16, 15 + 31 * 16 + 3 * 512, 512]
    assert flatten([], [0, 4]) == []
    assert unflatten(19, [16, 32]) == [3, 1]
    assert unflatten(15 + 31 * 16 + 3 * 512, [16, 32, 4]) == [15, 31, 3]
    assert unflatten(1, [1, 2]) == [0, 1]                        # a size-1 dim takes no bits
    assert unflatten(5, []) == []


def test_flat_view_of_a_layout():
    # lane -> (dim0, dim1) of a 4x8 tensor (dim0 in bits 0-1, dim1 in bits 2-4)
    ll = blocked_4x8()
    assert ll.out_shifts() == [0, 2]
    assert ll.flat_in_dim("lane") == [0b00100, 0b01000, 0b00001, 0b00010, 0]
    assert ll.flat_in_dim("warp") == [0b10000, 0]
    assert ll.flat_in_dim("register") == [] and ll.flat_in_dim("block") == []
    assert ll.flat_in_dim("no such dim") == []
    assert ll.flat_columns() == [4, 8, 1, 2, 0, 16, 0]
    cols = ll.flat_columns()
    cols.append(99)                                              # a copy: the layout keeps its own
    assert ll.flat_columns() == [4, 8, 1, 2, 0, 16, 0]
    assert L.empty().flat_columns() == [] and L.empty().out_shifts() == []
    # the span of the columns is the image of every flattened input, as apply_all_flat computes it
    assert gf2.span(ll.flat_columns()) == ll.apply_all_flat().tolist()
    assert gf2.rank(ll.flat_columns()) == ll.get_matrix_rank() == 5
