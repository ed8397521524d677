"""Suite ``bank``: (register layout, shared layout, shape, bit width) pairs for Triton's
``GluonOpBuilder.get_shared_bank_conflicts``.

Hand-written: spec section 7's examples (sections ``spec7``, ``spec7-row``, ``spec7-64lane``); random pairs of
every register kind against every shared kind (section ``random``)."""
from __future__ import annotations

from .pieces import gen_blocked_params, gen_wmma_cta, log2, prod, split_bits, unit
from .text import amd_mfma, amd_wmma, blocked, dot_op, linear, nvidia_mma, nvmma_shared, shared_linear, slice_, swizzled

RANDOM_PAIRS = 193


def generate(s):
    col = blocked([8, 1], [8, 4], [1, 4], [0, 1])
    rowm = blocked([1, 1], [32, 1], [4, 1], [0, 1])
    row = blocked([1, 8], [4, 8], [4, 1], [1, 0])
    sw111 = swizzled(1, 1, 1, [1, 0])
    sw818 = swizzled(8, 1, 8, [1, 0])
    sw1132 = swizzled(1, 1, 32, [1, 0])
    nv = nvmma_shared(128, False, 16)
    spec = s.section("spec7")
    for reg in (col, rowm):
        for sh in (sw111, sw818, sw1132, nv):
            for bw in (8, 16, 32, 64):
                pair(spec, reg, sh, [64, 64], bw, "spec 7")
    spec_row = s.section("spec7-row")
    for sh in (sw111, sw818, nv):
        pair(spec_row, row, sh, [64, 64], 16, "spec 7 row access")
    spec64 = s.section("spec7-64lane")
    for reg in (blocked([8, 1], [8, 8], [1, 4], [0, 1]), blocked([1, 8], [8, 8], [4, 1], [1, 0])):
        for sh in (sw111, sw818, swizzled(4, 1, 16, [1, 0])):
            for bw in (16, 32):
                pair(spec64, reg, sh, [64, 64], bw, "spec 7 64-lane")
    random_pairs(s.section("random"), RANDOM_PAIRS)


def pair(sec, reg, shared, shape, bw, note):
    sec.record(reg=reg, shared=shared, shape=list(shape), bitwidth=bw, note=note)


def random_pairs(sec, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([2, 2, 2, 2, 3, 1])
        if rank == 1:
            shape = [1 << rng.choice([6, 7, 8, 9, 10])]
        else:
            shape = [1 << rng.choice([3, 4, 5, 6, 7]) for _ in range(rank)]
            while prod(shape) > 16384:
                shape[max(range(rank), key=lambda i: shape[i])] //= 2
        reg, rk = random_register(rng, shape)
        if rank == 1 and rng.random() < 0.5:
            sh, sk = swizzled(1, 1, 1, [0]), "swizzled"
        else:
            sh, sk = random_shared(rng, shape)
        pair(sec, reg, sh, shape, rng.choice([8, 16, 32, 64]), "%s vs %s" % (rk, sk))


def random_shared(rng, shape):
    """A shared layout for `shape`: swizzled, rotating, nvmma (sometimes a box too small: Triton aborts) or a
    shared_linear whose out sizes are the shape."""
    rank = len(shape)
    k = rng.choice(["swizzled", "swizzled", "rotating", "nvmma", "nvmma", "shared_linear"])
    if k == "nvmma" and rank < 2:
        k = "swizzled"
    if k in ("swizzled", "rotating"):
        order = list(range(rank))
        rng.shuffle(order)
        return swizzled(rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4]), rng.choice([1, 2, 4, 8, 16]), order,
                        kind="swizzled_shared" if k == "swizzled" else "amd_rotating_shared"), k
    if k == "nvmma":
        ebw = rng.choice([8, 16, 16, 32])
        tr = rng.random() < 0.3
        c = 0 if tr else rank - 1
        rows = prod(shape) // shape[c]
        ok = [0] + [w for w in (32, 64, 128) if 8 * w // ebw <= shape[c] and rows >= 8]
        swz = rng.choice(ok + ok[1:])
        if rng.random() < 0.03:
            swz = 128
        return nvmma_shared(swz, tr, ebw, rank=rank if rank != 2 else None), k
    units = [unit(rank, d, j) for d in range(rank) for j in range(log2(shape[d]))]
    rng.shuffle(units)
    for i in range(len(units)):
        if rng.random() < 0.3 and len(units) > 1:
            j = rng.choice([x for x in range(len(units)) if x != i])
            units[i] = [a ^ b for a, b in zip(units[i], units[j])]
    return shared_linear(units, [], 16), k


def random_register(rng, shape):
    """A distributed layout for `shape` (tensor-core kinds at rank 2 only, blocked otherwise)."""
    rank = len(shape)
    k = rng.choice(["blocked", "blocked", "blocked", "slice", "linear", "generic_linear", "nvidia_mma", "dot_op", "amd_mfma", "amd_wmma"])
    if k == "blocked" or (k in ("nvidia_mma", "dot_op", "amd_mfma", "amd_wmma") and rank != 2):
        spt, tpw, wpc, order, _ = gen_blocked_params(rng, rank)
        tpw = [1 << b for b in split_bits(rng, rng.choice([5, 5, 5, 6]), rank)]
        return blocked(spt, tpw, wpc, order), "blocked"
    if k == "slice":
        spt, tpw, wpc, order, _ = gen_blocked_params(rng, rank + 1)
        tpw = [1 << b for b in split_bits(rng, 5, rank + 1)]
        return slice_(rng.randrange(rank + 1), blocked(spt, tpw, wpc, order)), k
    if k in ("linear", "generic_linear"):
        units = [unit(rank, d, j) for d in range(rank) for j in range(log2(shape[d]))]
        rng.shuffle(units)
        nl = min(5, len(units))
        lane = units[:nl]
        while len(lane) < 5:
            lane.append([0] * rank)
        rest = units[nl:]
        nw = min(2, len(rest))
        warp = rest[:nw]
        reg = rest[nw:]
        if k == "generic_linear" and len(warp) >= 1 and lane and any(lane[0]):
            warp[0] = [a ^ b for a, b in zip(warp[0], lane[0])]
        return linear(reg, lane, warp, [], kind=k), k
    if k == "nvidia_mma":
        return nvidia_mma(2, 0, [rng.choice([1, 2, 4]), rng.choice([1, 2])], [16, 8]), k
    if k == "dot_op":
        return dot_op(rng.choice([0, 1]), nvidia_mma(2, 0, [2, 2], [16, 8]), rng.choice([1, 2, 4])), k
    if k == "amd_mfma":
        m, n = rng.choice([(32, 32), (16, 16)])
        return amd_mfma(rng.randint(2, 4), [2, 2], [m, n], rng.random() < 0.5), k
    reg, warp = gen_wmma_cta(rng, 2)
    v = rng.randint(1, 3)
    return amd_wmma(v, rng.random() < 0.5, reg, warp, instr=[16, 16, 32] if v == 3 else None), k
