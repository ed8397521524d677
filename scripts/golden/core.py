"""Suite ``core``: blocked, slice, linear, generic_linear, swizzled_shared, amd_rotating_shared, shared_linear.

Ranks 1-4, every ``order`` permutation, tensors smaller / equal / larger than the layout tile, multi-CTA
``CGALayout`` (with broadcast bases), 1..128 lanes, both views; hand-written: spec section 6.7's examples,
CHECK-BLOCKED of ``test/Tools/tensor_layout_print.mlir``, parser syntax variations, LLVM option spellings."""
from __future__ import annotations

import itertools

from .pieces import (
    blocked_tile,
    cga_split,
    gen_blocked_params,
    gen_cga,
    gen_generic_linear_bases,
    gen_linear_bases,
    gen_shared_linear_bases,
    pick_cap,
    prod,
    shape_around,
    split_bits,
)
from .text import T, blocked, kind_of, linear, nvmma_shared, shared_linear, slice_, swizzled

SPEC_EXAMPLES = [
    (blocked([2], [4], [2], [0]), [8], "spec 6.7 rank-1"),
    (blocked([1, 2], [2, 2], [1, 1], [1, 0], [[1, 0]]), [4, 4], "spec 6.7 two CTAs"),
    (blocked([1, 1, 1], [2, 2, 2], [1, 1, 1], [2, 1, 0]), [2, 2, 2], "spec 6.7 rank 3"),
    (blocked([1, 1], [8, 4], [2, 2], [1, 0]), [4, 8], "spec 6.7 128-thread padding"),
    (swizzled(1, 1, 4, [1, 0]), [4, 4], "spec 6.7 swizzled"),
    (nvmma_shared(0, False, 16), [8, 16], "spec 6.7 nvmma padding"),
    (swizzled(1, 1, 2, [1, 0], [[0, 0]]), [2, 4], "spec 6.7 broadcast CTA"),
    (blocked([1, 1], [8, 4], [32, 1], [1, 0]), [1, 1], "spec 8: 1x1 with many threads"),
]

# parser syntax the tool accepts (its canonical print differs from the input)
SYNTAX = [
    ("#ttg.blocked<{order = [1, 0], warpsPerCTA = [2, 2], threadsPerWarp = [8, 4], sizePerThread = [2, 2]}>", [32, 16], "blocked", "keys out of order"),
    ("#ttg.blocked<{ sizePerThread=[1,1] , threadsPerWarp=[4,8], warpsPerCTA=[1,1], order=[0,1] }>", [8, 8], "blocked", "no spaces / extra spaces"),
    ("#ttg.blocked<{sizePerThread = [0x2, 1], threadsPerWarp = [0x10, 2], warpsPerCTA = [1, 1], order = [1, 0]}>", [32, 4], "blocked", "hex integers"),
    ("#ttg.blocked<{sizePerThread = [1 : i32, 2 : i32], threadsPerWarp = [8 : i64, 4], warpsPerCTA = [1, 1 : i16], order = [1, 0]}>", [8, 8], "blocked", "typed integers"),
    ("#ttg.blocked<{\"sizePerThread\" = [1, 2], \"threadsPerWarp\" = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>", [8, 8], "blocked", "quoted keys"),
    ("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>  // trailing comment", [8, 8], "blocked", "trailing comment"),
    ("#ttg.blocked<{sizePerThread = [4294967297, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>", [8, 8], "blocked", "integer truncated to 32 bits"),
    ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0], CGALayout = []}>", [8, 8], "blocked", "empty CGALayout not printed"),
    ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0], CGALayout = [[0, 0]]}>", [8, 8], "blocked", "broadcast-only CGALayout printed"),
    ("#ttg.linear<{block = [], warp = [[0, 4]], lane = [[0, 1], [0, 2], [1, 0], [2, 0]], register = [[4, 0]]}>", [8, 8], "linear", "linear keys out of order"),
    ("#ttg.linear<{register = [[1]], lane = [[2], [4]], warp = [], block = [], extra = 1}>", [8], "linear", "linear extra key ignored"),
    ("#ttg.swizzled_shared<{order = [0, 1], maxPhase = 2, perPhase = 1, vec = 2}>", [8, 8], "swizzled_shared", "swizzled keys out of order"),
    ("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 2, order = [1, 0], CGALayout = [[0, 1], [1, 0]]}>", [16, 16], "swizzled_shared", "swizzled 4 CTAs"),
    ("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 1], [2, 2]]}, alignment = 16>", [4, 4], "shared_linear", "shared_linear without block key"),
    ("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = []}, alignment = 16>", [2, 4], "shared_linear", "shared_linear empty block printed without block"),
    ("#ttg.slice<{parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [0, 1]}>, dim = 1}>", [16], "slice", "slice keys out of order"),
    ("#ttg.amd_rotating_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0], CGALayout = [[0, 1]]}>", [8, 4], "amd_rotating_shared", "spec 4.9 rotating split CGA"),
]


def generate(s):
    spec_examples(s.section("spec"))
    tlp = s.section("tlp")  # CHECK-BLOCKED of test/Tools/tensor_layout_print.mlir, as a -l case
    tb = blocked([1, 4], [4, 8], [4, 1], [1, 0])
    tlp.layout(tb, [16, 16], "blocked", "tensor_layout_print.mlir CHECK-BLOCKED")
    tlp.layout(tb, [16, 16], "blocked", "tensor_layout_print.mlir CHECK-BLOCKED", hw=True)
    blocked_every_order(s.section("blocked-order"))
    blocked_random(s.section("blocked-random"), 60)
    blocked_lane_counts(s.section("blocked-lanes"), [6, 6, 0, 1, 3, 4, 7])
    slices_of_blocked(s.section("slice-blocked"), 14)
    slices_of_linear(s.section("slice-linear"), 9)
    slices_of_slices(s.section("slice-slice"), 9)
    slices_of_slices_of_linear(s.section("slice-slice-linear"), 3)
    linear_layouts(s.section("linear"), 36)
    generic_linear_layouts(s.section("generic_linear"), 26)
    swizzled_layouts(s.section("swizzled"), "swizzled_shared", 34)
    swizzled_layouts(s.section("rotating"), "amd_rotating_shared", 22)
    shared_linear_layouts(s.section("shared_linear"), 26)
    syn = s.section("syntax")
    for attr, shape, kind, note in SYNTAX:
        syn.layout(attr, shape, kind, note)
    option_spellings(s.section("options"))


def spec_examples(sec):
    for attr, shape, note in SPEC_EXAMPLES:
        sec.layout(attr, shape, kind_of(attr), note)
        sec.layout(attr, shape, kind_of(attr), note, hw=True)


def blocked_every_order(sec):
    """One random blocked layout for every order permutation of ranks 1-4."""
    rng = sec.rng
    for rank in range(1, 5):
        for order in itertools.permutations(range(rank)):
            spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank, list(order))
            shape, mode = shape_around(rng, blocked_tile(spt, tpw, wpc, cga), cap=pick_cap(rng) if rank < 4 else 4096)
            sec.layout(blocked(spt, tpw, wpc, order, cga), shape, "blocked",
                       "rank %d order %s, tensor %s tile" % (rank, order, mode), hw=rng.random() < 0.4)


def blocked_random(sec, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        if rng.random() < 0.15:  # force multi-CTA with broadcast
            cga = gen_cga(rng, rank, max_bases=3, p_zero=0.5)
        shape, mode = shape_around(rng, blocked_tile(spt, tpw, wpc, cga), cap=pick_cap(rng))
        lanes = prod(tpw)
        sec.layout(blocked(spt, tpw, wpc, order, cga), shape, "blocked",
                   "rank %d, %d lanes, %s, tensor %s tile" % (rank, lanes, "CGA" if cga else "1 CTA", mode),
                   hw=rng.random() < 0.45)


def blocked_lane_counts(sec, lane_logs):
    """Blocked layouts with 64 lanes and with odd lane counts (1, 2, 8, 16, 128)."""
    rng = sec.rng
    for lanes_log in lane_logs:
        rank = rng.choice([1, 2, 3])
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        tpw = [1 << b for b in split_bits(rng, lanes_log, rank)]
        shape, mode = shape_around(rng, blocked_tile(spt, tpw, wpc, cga))
        sec.layout(blocked(spt, tpw, wpc, order, cga), shape, "blocked",
                   "%d lanes, tensor %s tile" % (1 << lanes_log, mode), hw=rng.random() < 0.5)


def drop(xs, d):
    return xs[:d] + xs[d + 1:]


def slices_of_blocked(sec, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([2, 2, 3, 3, 4])
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        dim = rng.randrange(rank)
        shape, mode = shape_around(rng, drop(blocked_tile(spt, tpw, wpc, cga), dim))
        sec.layout(slice_(dim, blocked(spt, tpw, wpc, order, cga)), shape, "slice",
                   "slice dim %d of rank-%d blocked, tensor %s tile" % (dim, rank, mode), hw=rng.random() < 0.4)


def slices_of_linear(sec, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([2, 2, 3])
        reg, lane, warp, block, sizes = gen_linear_bases(rng, rank)
        dim = rng.randrange(rank)
        shape, mode = shape_around(rng, drop(sizes, dim))
        sec.layout(slice_(dim, linear(reg, lane, warp, block)), shape, "slice",
                   "slice dim %d of rank-%d linear, tensor %s tile" % (dim, rank, mode), hw=rng.random() < 0.4)


def slices_of_slices(sec, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([3, 3, 4])
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        d1 = rng.randrange(rank)
        d2 = rng.randrange(rank - 1)
        shape, mode = shape_around(rng, drop(drop(blocked_tile(spt, tpw, wpc, cga), d1), d2))
        sec.layout(slice_(d2, slice_(d1, blocked(spt, tpw, wpc, order, cga))), shape, "slice",
                   "slice dim %d of slice dim %d of rank-%d blocked, tensor %s tile" % (d2, d1, rank, mode),
                   hw=rng.random() < 0.4)


def slices_of_slices_of_linear(sec, n):
    rng = sec.rng
    for _ in range(n):
        reg, lane, warp, block, sizes = gen_linear_bases(rng, 3)
        d1, d2 = rng.randrange(3), rng.randrange(2)
        shape, mode = shape_around(rng, drop(drop(sizes, d1), d2))
        sec.layout(slice_(d2, slice_(d1, linear(reg, lane, warp, block))), shape, "slice",
                   "slice of slice of linear, tensor %s tile" % mode, hw=rng.random() < 0.4)


def linear_layouts(sec, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        reg, lane, warp, block, sizes = gen_linear_bases(rng, rank)
        shape, mode = shape_around(rng, sizes, cap=pick_cap(rng))
        sec.layout(linear(reg, lane, warp, block), shape, "linear",
                   "rank %d, tensor %s layout" % (rank, mode), hw=rng.random() < 0.45)


def generic_linear_layouts(sec, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        reg, lane, warp, block, sizes = gen_generic_linear_bases(rng, rank)
        shape, mode = shape_around(rng, sizes)
        sec.layout(linear(reg, lane, warp, block, kind="generic_linear"), shape, "generic_linear",
                   "rank %d, tensor %s layout" % (rank, mode), hw=rng.random() < 0.45)


def swizzled_layouts(sec, kind, n):
    """swizzled_shared / amd_rotating_shared; the first case has the non-power-of-two vec 3 (it parses)."""
    rng = sec.rng
    for i in range(n):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        vec = rng.choice([1, 1, 2, 4, 8])
        pp = rng.choice([1, 1, 2, 4])
        mp = rng.choice([1, 2, 4, 8, 8, 16])
        if i == 0:
            vec = 3
        order = list(range(rank))
        rng.shuffle(order)
        cga = gen_cga(rng, rank) if rng.random() < 0.3 else None
        shape = [1 << rng.choice([0, 1, 2, 3, 3, 4, 5]) for _ in range(rank)]
        if rank >= 2:
            shape[order[0]] = max(shape[order[0]], 1 << rng.choice([2, 3, 4, 5]))
            shape[order[1]] = max(shape[order[1]], 1 << rng.choice([1, 2, 3, 4]))
        split = cga_split(cga, rank)
        shape = [max(a, b) for a, b in zip(shape, split)] if rng.random() < 0.8 else shape
        while prod(shape) > 4096:
            d = max(range(rank), key=lambda j: shape[j])
            shape[d] //= 2
        sec.layout(swizzled(vec, pp, mp, order, cga, kind=kind), shape, kind,
                   "rank %d vec %d perPhase %d maxPhase %d%s" % (rank, vec, pp, mp, " CGA" if cga else ""),
                   hw=rng.random() < 0.4)


def shared_linear_layouts(sec, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        offset, block, sizes = gen_shared_linear_bases(rng, rank)
        alignment = rng.choice([1, 4, 16, 128, 1024])
        blk = None if not block and rng.random() < 0.5 else block
        sec.layout(shared_linear(offset, blk, alignment), sizes, "shared_linear",
                   "rank %d, %d offset bases, %d block bases" % (rank, len(offset), len(block)), hw=rng.random() < 0.45)


def option_spellings(sec):
    """LLVM cl spellings of the options (same output as -l/-t)."""
    a = blocked([1, 2], [4, 8], [2, 1], [1, 0])
    sec.add(["-l=" + a, "-t=" + T([16, 16])], "blocked", "-l=X -t=X")
    sec.add(["--l", a, "--t", T([16, 16]), "--use-hw-view"], "blocked", "--l --t --use-hw-view")
    sec.add(["-t", T([16, 16]), "-use-hw-view=false", "-l", a], "blocked", "-use-hw-view=false, -t first")
    sec.add(["-t", T([16, 16], "i8"), "-l", a, "-use-hw-view=true"], "blocked", "-use-hw-view=true, i8 element type")
    sec.add(["-t", "tensor<16x16xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>>", "-l", a], "blocked", "encoding inside -t ignored",
            ttlayout={"error": "-l and the encoding written in -t are different layouts; ttlayout refuses the conflict"})
    sec.add(["-t", T([16, 16])], "none", "no -l and no -i: empty output")
    sec.add(["-t", "tensor<16x16xf32, %s>" % a, "-l", a], "blocked", "the same layout in -l and inside -t")
