"""Random parameters shared by the suites: bit splits, CGA layouts, shapes around a tile, linear bases.

Every function draws only from the ``rng`` it is given (a section's own stream, see ``suite.py``)."""
from __future__ import annotations


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def log2(x):
    return x.bit_length() - 1


def next_pow2(x):
    """Smallest power of two strictly greater than x: ``next_pow2(4) == 8``."""
    return 1 << x.bit_length()


def unit(rank, d, j):
    """The basis vector 2**j along dim d: ``unit(2, 1, 3) == [0, 8]``."""
    b = [0] * rank
    b[d] = 1 << j
    return b


def split_bits(rng, nbits, rank, caps=None):
    """Distribute nbits among rank dims at random; per-dim bit counts (each at most caps[d])."""
    out = [0] * rank
    for _ in range(nbits):
        choices = [d for d in range(rank) if caps is None or out[d] < caps[d]]
        if not choices:
            break
        out[rng.choice(choices)] += 1
    return out


def gen_cga(rng, rank, max_bases=2, p_zero=0.3, allow_dims=None):
    """Random CGALayout: a permutation matrix plus optional zero (broadcast) bases."""
    k = rng.randint(1, max_bases)
    dims = allow_dims if allow_dims is not None else list(range(rank))
    slots = []
    for _ in range(k):
        if rng.random() < p_zero or not dims:
            slots.append(None)
        else:
            slots.append(rng.choice(dims))
    per_dim = {}
    for s in slots:
        if s is not None:
            per_dim[s] = per_dim.get(s, 0) + 1
    vals = {d: [1 << j for j in range(n)] for d, n in per_dim.items()}
    for d in vals:
        rng.shuffle(vals[d])
    bases = []
    for s in slots:
        b = [0] * rank
        if s is not None:
            b[s] = vals[s].pop()
        bases.append(b)
    return bases


def cga_split(cga, rank):
    """CTAs per dim of a CGALayout (its non-zero bases): ``cga_split([[1, 0], [0, 0]], 2) == [2, 1]``."""
    split = [1] * rank
    for b in cga or []:
        for d, v in enumerate(b):
            if v:
                split[d] *= 2
                break
    return split


def shape_around(rng, tile, cap=4096, mode=None):
    """A power-of-two shape near `tile`: smaller / equal / larger / mixed; (shape, mode)."""
    r = len(tile)
    if mode is None:
        mode = rng.choice(["smaller", "equal", "larger", "mixed", "mixed", "larger"])
    if mode == "equal":
        e = [0] * r
    elif mode == "smaller":
        e = [rng.choice([-2, -1, -1, 0]) for _ in range(r)]
        if all(x == 0 for x in e) and any(t > 1 for t in tile):
            d = rng.choice([d for d in range(r) if tile[d] > 1])
            e[d] = -1
    elif mode == "larger":
        e = [rng.choice([0, 1, 1, 2]) for _ in range(r)]
        if all(x == 0 for x in e):
            e[rng.randrange(r)] = 1
    else:
        e = [rng.choice([-2, -1, 0, 1, 2]) for _ in range(r)]
    shape = []
    for t, x in zip(tile, e):
        v = t << x if x >= 0 else t >> (-x)
        shape.append(max(1, v))
    while prod(shape) > cap:
        d = max(range(r), key=lambda i: shape[i])
        shape[d] //= 2
    return shape, mode


def pick_cap(rng):
    """Element cap of a tensor: mostly 4096, sometimes 16384 or 65536."""
    x = rng.random()
    if x < 0.03:
        return 65536
    if x < 0.12:
        return 16384
    return 4096


def gf2_rank(vectors):
    pivots = []
    for v in vectors:
        for p in pivots:
            v = min(v, v ^ p)
        if v:
            pivots.append(v)
    return len(pivots)


def flatten_basis(b, sizes):
    """Basis components packed into one int, dim 0 lowest: ``flatten_basis([1, 2], [4, 4]) == 0b1001``."""
    v, sh = 0, 0
    for c, s in zip(b, sizes):
        v |= c << sh
        sh += log2(s)
    return v


def inferred_sizes(all_bases, rank):
    """Per-dim sizes a linear layout's bases span (the smallest power of two above every component)."""
    sizes = [1] * rank
    for b in all_bases:
        for d in range(rank):
            sizes[d] = max(sizes[d], next_pow2(b[d]) if b[d] else 1)
    return sizes


def surjective(all_bases, rank):
    sizes = inferred_sizes(all_bases, rank)
    return gf2_rank([flatten_basis(b, sizes) for b in all_bases]) == sum(log2(s) for s in sizes)


# ---------------------------------------------------------------------- blocked
def gen_blocked_params(rng, rank, order=None):
    """Random blocked parameters (spt, tpw, wpc, order, cga); lanes 1..128, warps 1..8, CGA 30%."""
    spt_bits = split_bits(rng, rng.choice([0, 0, 1, 1, 2, 3, 4]), rank, caps=[2] * rank)
    lanes_log = rng.choice([5, 5, 5, 6, 6, 0, 1, 2, 3, 4, 7])
    tpw_bits = split_bits(rng, lanes_log, rank)
    warps_log = rng.choice([0, 1, 2, 2, 3])
    wpc_bits = split_bits(rng, warps_log, rank)
    if order is None:
        order = list(range(rank))
        rng.shuffle(order)
    cga = gen_cga(rng, rank) if rng.random() < 0.3 else None
    spt = [1 << b for b in spt_bits]
    tpw = [1 << b for b in tpw_bits]
    wpc = [1 << b for b in wpc_bits]
    return spt, tpw, wpc, order, cga


def blocked_tile(spt, tpw, wpc, cga):
    split = cga_split(cga, len(spt))
    return [a * b * c * s for a, b, c, s in zip(spt, tpw, wpc, split)]


# ---------------------------------------------------------------------- linear kinds
def gen_linear_bases(rng, rank, max_bits=12):
    """Random permutation-matrix bases (with some zero bases) split into register/lane/warp/block."""
    nbits = split_bits(rng, rng.randint(max(1, rank - 1), max_bits - rng.choice([0, 2, 4, 5])), rank, caps=[6] * rank)
    units = [unit(rank, d, j) for d in range(rank) for j in range(nbits[d])]
    total = len(units)
    # ordering: mostly "register low bits first" style, sometimes fully random
    if rng.random() < 0.5:
        rng.shuffle(units)
    else:
        units.sort(key=lambda b: (rng.random() < 0.3, [rng.random() for _ in b]))
    nblock = rng.choice([0, 0, 0, 1, 2]) if total > 2 else 0
    nwarp = rng.choice([0, 1, 2, 2, 3]) if total > 3 else rng.choice([0, 1])
    nlane = min(rng.choice([2, 3, 4, 5, 5, 6]), max(0, total - nblock - nwarp))
    nreg = max(0, total - nblock - nwarp - nlane)
    reg, lane, warp, block = units[:nreg], units[nreg:nreg + nlane], units[nreg + nlane:nreg + nlane + nwarp], \
        units[nreg + nlane + nwarp:]

    def add_zeros(lst, maxz):
        for _ in range(rng.choice([0, 0, 0, 1, maxz])):
            lst.insert(rng.randint(0, len(lst)), [0] * rank)

    add_zeros(reg, 1)
    add_zeros(lane, 2)
    add_zeros(warp, 1)
    add_zeros(block, 1)
    if not (reg or lane or warp or block):
        lane.append([0] * rank)
    sizes = [1 << n for n in nbits]
    return reg, lane, warp, block, sizes


def gen_generic_linear_bases(rng, rank):
    """Surjective generic_linear bases: swizzled warp bases, duplicated bases, non-power-of-two lane components."""
    for _ in range(200):
        reg, lane, warp, block, sizes = gen_linear_bases(rng, rank)
        allb = reg + lane + warp + block
        nz = [b for b in allb if any(b)]
        warp = [list(b) for b in warp]
        for i, b in enumerate(warp):
            if nz and rng.random() < 0.6:
                o = rng.choice(nz)
                warp[i] = [x ^ y for x, y in zip(b, o)]
        if nz and rng.random() < 0.5:
            lst = rng.choice([reg, lane])
            lst.insert(rng.randint(0, len(lst)), list(rng.choice([b for b in nz if sum(1 for x in b if x) == 1] or [[0] * rank])))
        if nz and rng.random() < 0.3:  # single-component non-power-of-two value, in lanes only (in register
            lst = lane                   # bases Triton 3.9 aborts, see the errors suite)
            if lst:
                i = rng.randrange(len(lst))
                b = lst[i]
                ds = [d for d in range(rank) if b[d] > 1]
                if ds:
                    d = ds[0]
                    b = list(b)
                    b[d] = b[d] | (b[d] >> 1)
                    lst[i] = b
        allb = reg + lane + warp + block
        if allb and surjective(allb, rank):
            return reg, lane, warp, block, inferred_sizes(allb, rank)
    raise RuntimeError("no surjective generic layout")


def gen_shared_linear_bases(rng, rank):
    """Invertible offset bases (XOR-mixed units, sometimes a zero basis) plus a few block bases."""
    nbits = split_bits(rng, rng.randint(max(1, rank), 11), rank, caps=[6] * rank)
    units = [unit(rank, d, j) for d in range(rank) for j in range(nbits[d])]
    if rng.random() < 0.5:
        rng.shuffle(units)
    nblock = rng.choice([0, 0, 0, 1, 2]) if len(units) > 3 else 0
    for i in range(len(units)):
        if rng.random() < 0.35 and len(units) > 1:
            j = rng.choice([k for k in range(len(units)) if k != i])
            units[i] = [a ^ b for a, b in zip(units[i], units[j])]
    offset = units[:len(units) - nblock]
    block = units[len(units) - nblock:]
    if rng.random() < 0.15:
        offset.insert(rng.randint(0, len(offset)), [0] * rank)
    if rng.random() < 0.2:
        block.append([0] * rank)
    if not offset:
        offset.append([0] * rank)
    sizes = inferred_sizes(offset + block, rank)
    return offset, block, sizes


# ---------------------------------------------------------------------- tensor-core kinds
def gen_nvidia_params(rng, rank, version):
    """(warpsPerCTA, instrShape, cga) of an nvidia_mma; Hopper warps come in warpgroups of 4 along dim rank-2."""
    wlog = rng.choice([0, 1, 2, 2, 3])
    if version == 3:
        wpc = [1] * rank
        wpc[rank - 2] = 4
        extra = rng.choice([1, 1, 2])
        wpc[rng.choice([rank - 2, rank - 1])] *= extra
        n = rng.choice([8, 16, 32, 64, 128, 256])
        k = rng.choice([8, 16, 32])
        instr = [16, n, k]
    else:
        wpc = [1 << b for b in split_bits(rng, wlog, rank)]
        instr = [16, 8] if rank == 2 else [1, 16, 8]
    cga = gen_cga(rng, rank) if rng.random() < 0.25 else None
    return wpc, instr, cga


def nvidia_tile(version, wpc, instr, cga):
    """Tensor tile one nvidia_mma covers: 16 x n per warp in the last two dims, wpc[0] in a leading batch dim."""
    rank = len(wpc)
    tile = [1] * (rank - 2) + [16 * wpc[-2], (8 if version == 2 else instr[1]) * wpc[-1]]
    if rank == 3:
        tile[0] = wpc[0]
    return [t * sp for t, sp in zip(tile, cga_split(cga, rank))]


def wmma_rank(rng, rank):
    """amd_wmma's `rank` key defaults to 2: rank-3 layouts must say so (one in 12 omits it: abort)."""
    if rank == 3:
        return None if rng.random() < 1 / 12 else 3
    return 2 if rng.random() < 0.2 else None


def gen_wmma_cta(rng, rank):
    """Random ctaLayout for amd_wmma: warp bases (maybe swizzled / zero) and optional register bases."""
    wbits = split_bits(rng, rng.choice([0, 1, 2, 2, 3]), rank)
    warp = [unit(rank, d, j) for d in range(rank) for j in range(wbits[d])]
    rng.shuffle(warp)
    if rng.random() < 0.15:
        warp.append([0] * rank)
    reg = None
    if rng.random() < 0.35:
        rbits = split_bits(rng, rng.choice([1, 1, 2]), rank)
        # register bases live above the warp bases in each dim
        reg = [unit(rank, d, wbits[d] + j) for d in range(rank) for j in range(rbits[d])]
        rng.shuffle(reg)
    if len(warp) >= 2 and rng.random() < 0.15:
        warp[1] = [a ^ b for a, b in zip(warp[0], warp[1])]
    return reg, warp
