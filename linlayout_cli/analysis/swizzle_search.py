"""The swizzle search's parts: Triton 3.9's generic swizzling and the optimal one, the fast scoring of a candidate's
offsets on a target, and the #ttg.swizzled_shared family and its dimension orders. `swizzle` ranks and prices
them (and re-exports these names)."""
from __future__ import annotations

import itertools

from ..engine import LinearLayout, bit_shifts, unflatten
from ..engine.bits import log2
from ..engine.gf2 import XorBasis
from ..errors import ShapeError, UnsupportedError
from ..records import frozen
from .access import Threads, largest_vectorisation, wavefronts
from .bank import check_bitwidth
from .subspaces import complement_basis, compute_segment, intersection_basis
from .targets import DEFAULT, READ, WRITE, Target


def _unique(xs):
    return list(dict.fromkeys(xs))


# ----------------------------------------------------------------------------------------- Triton's algorithm


def _vbasis(src: Threads, dst: Threads, bitwidth: int, dim: int) -> list[int]:
    """Triton's ``getVbasis``."""
    reg_src, reg_dst = list(src.regs), list(dst.regs)
    vbasis = intersection_basis(reg_src, reg_dst, dim)
    max_vec_bases = log2(128 // bitwidth)
    vbasis = vbasis[:max_vec_bases]
    bases_per_bank = 0 if bitwidth > 32 else log2(32 // bitwidth)
    lane_src, lane_dst = set(src.lanes), set(dst.lanes)
    max_extra = log2(128 // max(bitwidth, 32))

    def after_bank0(regs, vb, other_lanes):
        vec = []
        for r in regs:
            if len(vec) >= max_extra:
                break
            if r in vb:
                continue
            if r in other_lanes:
                vec.append(r)
        return vec

    def is_prefix(prefix, regs):
        return regs[:len(prefix)] == prefix

    def fill(regs, vb):
        return list(vb) + [regs[i] for i in range(len(vb), min(bases_per_bank, len(regs)))]

    vec_src = True
    if (1 << len(vbasis)) * bitwidth < 32:
        src_prefix, dst_prefix = is_prefix(vbasis, reg_src), is_prefix(vbasis, reg_dst)
        if vbasis and not src_prefix and not dst_prefix:
            reg_src = vbasis + [r for r in reg_src if r not in vbasis]
            reg_dst = vbasis + [r for r in reg_dst if r not in vbasis]
            src_prefix = dst_prefix = True
        if src_prefix and dst_prefix:
            vs = after_bank0(reg_src, fill(reg_src, vbasis), lane_dst)
            vd = after_bank0(reg_dst, fill(reg_dst, vbasis), lane_src)
            src_prefix, dst_prefix = vs >= vd, vd > vs       # lexicographic, as llvm::SmallVector compares
        vec_src = src_prefix
        vbasis = fill(reg_src if vec_src else reg_dst, vbasis)
    if vec_src:
        vbasis = vbasis + after_bank0(reg_src, vbasis, lane_dst)
    else:
        vbasis = vbasis + after_bank0(reg_dst, vbasis, lane_src)
    return vbasis


def _independent(fixed: list[int], vectors: list[int]) -> list[int]:
    """``vectors`` without those in the span of ``fixed`` and of the ones kept before them.  Triton asserts
    instead; it can only happen with broadcast (zero) or repeated lanes, where pairing directions repeats one."""
    basis = XorBasis()
    for f in fixed:
        basis.insert(f)
    return [v for v in vectors if basis.insert(v)]


def _prefix_len(regs: tuple[int, ...], vbasis: list[int]) -> int:
    n = 0
    while n < len(vbasis) and n < len(regs) and regs[n] == vbasis[n]:
        n += 1
    return n


@frozen
class SwizzleResult:
    layout: LinearLayout            # offset (+ empty block) -> dim0..
    vector: tuple[int, ...]
    bank: tuple[int, ...]
    segment: tuple[int, ...]
    reps: tuple[int, ...]
    tile_write: tuple[int, ...]
    tile_read: tuple[int, ...]


def _sides(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int) -> tuple[Threads, Threads, int]:
    """The writing and the reading threads, and log2 of the elements, of a pair `swizzle` can handle."""
    check_bitwidth(bitwidth)
    if write_ll.get_out_dims() != read_ll.get_out_dims():
        raise ShapeError("the write and read layouts cover different tensor shapes")
    for ll in (write_ll, read_ll):
        if ll.has_in_dim("block") and ll.get_in_dim_size("block") > 1:
            raise UnsupportedError("swizzle handles single-CTA layouts only (the register layout has a CGALayout)")
    dim = write_ll.get_total_out_dim_size_log2()
    if dim == 0:
        raise ShapeError("a one-element tensor has nothing to swizzle")
    return Threads.of(write_ll), Threads.of(read_ll), dim


def _result(write_ll: LinearLayout, vector, bank, segment, reps, tile_write, tile_read) -> SwizzleResult:
    """The layout whose offset bases are vector, bank, segment and reps, in that order."""
    offsets = [*vector, *bank, *segment, *reps]
    outs = write_ll.get_out_dims()
    sizes = [size for _, size in outs]
    layout = LinearLayout({"offset": [tuple(unflatten(x, sizes)) for x in offsets], "block": []}, outs)
    if not layout.is_surjective() or not layout.is_injective():
        raise UnsupportedError("internal error: the swizzled layout is not a bijection")
    return SwizzleResult(layout, *(tuple(x) for x in (vector, bank, segment, reps, tile_write, tile_read)))


def triton_swizzle(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int,
                   target: Target = DEFAULT) -> SwizzleResult:
    """Triton 3.9's own choice for this pair: ``optimalSwizzlingLdSt`` with 3.9's vector basis
    (``getVecBasisLdSt``), as its ``convert_layout`` lowering calls it for plain ld/st.shared, with AMD's
    ds_read_b128 load tile (analysis/convert_smem.py, checked against compiled kernels by golden/convert)."""
    from .convert_smem import NO_TILE, amd_swizzle, lane_tile, ldst_swizzle
    src, dst, dim = _sides(write_ll, read_ll, bitwidth)
    if target.vendor == "amd":
        smem = amd_swizzle(src, dst, bitwidth, dim, target.num_banks, target)
    else:
        smem = ldst_swizzle(src, dst, bitwidth, dim, target.num_banks)
    vec_size = 1 << len(smem.vector)
    tiles = [[x for x in lane_tile(NO_TILE, side.lanes, vec_size, bitwidth, target.num_banks) if x not in smem.vector]
             for side in (src, dst)]
    return _result(write_ll, smem.vector, smem.bank, smem.segment, smem.reps, *tiles)


def optimal_swizzle(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int,
                    target: Target = DEFAULT, max_vector_bases: int | None = None,
                    permuted_vectors: bool = False) -> SwizzleResult:
    """The Linear Layouts paper's generic swizzling (``optimalSwizzlingLdSt`` with the older ``getVbasis``),
    generalised to the target's banks and phases.

    ``max_vector_bases`` truncates the vector part.  ``permuted_vectors``: size each side's phase for the vector
    the bank analysis will find (leading vector bases that are that side's registers, in any order) instead of
    Triton's in-order register prefix (``getVectorSize``).  ``analyze_swizzle`` tries all of these variants."""
    src, dst, dim = _sides(write_ll, read_ll, bitwidth)
    vbasis = _vbasis(src, dst, bitwidth, dim)
    if max_vector_bases is not None:
        vbasis = vbasis[:max_vector_bases]

    def tile(side: Threads, op: str) -> list[int]:
        if permuted_vectors:
            regs, n = set(side.regs), 0
            while n < len(vbasis) and vbasis[n] in regs and (2 << n) * bitwidth <= 128:
                n += 1
        else:
            n = _prefix_len(side.regs, vbasis)
        t = side.tile(target, (1 << n) * bitwidth, op)
        return [x for x in t if x not in vbasis]

    tile_src, tile_dst = tile(src, WRITE), tile(dst, READ)
    bank_src, bank_dst = vbasis + tile_src, vbasis + tile_dst
    len_b = min(log2((target.bank_bits // ((1 << len(vbasis)) * bitwidth)) or 1), dim - len(vbasis))
    len_s = dim - len_b - len(vbasis)
    if len_s < 0:
        raise ShapeError("the tensor is smaller than the vector the layouts share")
    sbasis = _independent(vbasis, compute_segment(bank_src, bank_dst, dim, len_s))
    bbasis = complement_basis(vbasis + sbasis, dim)
    if len(bbasis) != len_b + (len_s - len(sbasis)):
        raise UnsupportedError("internal error: swizzle bases do not span the tensor")
    # buildReps: segment bases held in registers by both sides go last
    regs_src, regs_dst = set(src.regs), set(dst.regs)
    segment: list[int] = []
    reps: list[int] = []
    for s in _unique(sbasis):
        (reps if s in regs_src and s in regs_dst else segment).append(s)
    return _result(write_ll, vbasis, bbasis, segment, reps, tile_src, tile_dst)


# ----------------------------------------------------------------------------------------- fast evaluation


def _solver(offsets: list[int]):
    """x (flattened tensor index) -> bitmask of the offset bits holding it; offsets must be independent."""
    basis = XorBasis()
    for i, b in enumerate(offsets):
        basis.insert(b, 1 << i)

    def coords(x: int) -> int | None:
        residue, tag = basis.reduce(x)
        return None if residue else tag
    return coords


def evaluate_side(offsets: list[int], side: Threads, bitwidth: int, target: Target, op: str) -> tuple[int, int, int]:
    """(vector width, conflicts in Triton's unit, ideal wavefronts per instruction) of one register layout on a
    single-CTA shared layout given by its flattened offset bases: the `bank` model, without building layouts."""
    coords = _solver(offsets)
    reg_c = [coords(r) for r in side.regs]
    other_c = [coords(x) for x in side.lanes + side.warps + side.blocks]
    if any(c is None for c in reg_c + other_c):
        raise UnsupportedError("the shared layout does not hold every element of the register layout")
    v, _ = largest_vectorisation(reg_c, other_c, 128 // bitwidth)
    w = wavefronts(offsets, v, bitwidth, list(side.lanes), target, op)
    return v, w.conflicts, w.phases


@frozen
class Score:
    """How a shared layout serves the write side and the read side (per warp, Triton's units)."""
    write_vec: int
    read_vec: int
    write_conflicts: int
    read_conflicts: int
    write_instructions: int
    read_instructions: int
    write_wavefronts: int           # instructions x phases x (1 + conflicts)
    read_wavefronts: int

    @property
    def conflicts(self) -> int:
        return self.write_conflicts + self.read_conflicts

    @property
    def key(self):
        """Smaller is better: fewest bank conflicts (write + read, Triton's unit); then fewest shared-memory
        wavefronts, which rewards vectors up to 32 bits per lane; then fewest instructions, which rewards wider
        vectors.  A wider vector is never bought with a conflict - Triton's generic swizzling only widens its
        vector with bases that cost no conflict either."""
        return (self.conflicts, self.write_wavefronts + self.read_wavefronts,
                self.write_instructions + self.read_instructions)


def score(offsets: list[int], src: Threads, dst: Threads | None, bitwidth: int, target: Target) -> Score:
    """How the layout serves both sides; `dst` None: no thread reads it back (a TMA copy or wgmma's operand
    fetch reads the tile in the layout's own order), so the read side counts nothing."""
    wv, wc, wp = evaluate_side(offsets, src, bitwidth, target, WRITE)
    wi = max(1, src.n_regs // wv)
    if dst is None:
        return Score(wv, 0, wc, 0, wi, 0, wi * wp * (1 + wc), 0)
    rv, rc, rp = evaluate_side(offsets, dst, bitwidth, target, READ)
    ri = max(1, dst.n_regs // rv)
    return Score(wv, rv, wc, rc, wi, ri, wi * wp * (1 + wc), ri * rp * (1 + rc))


# ----------------------------------------------------------------------------------------- swizzled_shared family


def swizzled_offsets(shape: list[int], vec: int, per_phase: int, max_phase: int, order: list[int]) -> list[int]:
    """Flattened offset bases of ``#ttg.swizzled_shared<{vec, perPhase, maxPhase, order}>`` on a single CTA
    (row r of the two fastest dims has its columns XORed with vec * ((r / perPhase) % maxPhase)); equal to
    conversions.shared.swizzled_to_ll (checked in tests)."""
    rank = len(shape)
    shifts = bit_shifts(shape)
    if rank == 1:
        return [1 << i for i in range(log2(shape[0]))]
    col, row = order[0], order[1]
    n_cols, n_rows = shape[col], shape[row]
    out = [(1 << i) << shifts[col] for i in range(log2(n_cols))]
    for i in range(log2(n_rows)):
        r = 1 << i
        c = (vec * ((r // per_phase) % max_phase)) % n_cols
        out.append((r << shifts[row]) | (c << shifts[col]))
    for d in order[2:]:
        out += [(1 << i) << shifts[d] for i in range(log2(shape[d]))]
    return out


def _pow2_upto(n: int) -> list[int]:
    return [1 << i for i in range(max(1, n).bit_length())]


EXHAUSTIVE_RANK = 5            # up to this rank the swizzle search tries every dimension order (5! = 120)


def search_orders(rank: int) -> list[list[int]]:
    """The dimension orders the swizzle search tries: every one up to `EXHAUSTIVE_RANK`; above it, each pair of
    fastest dims (the two a swizzle mixes) with the other dims slowest in descending order, rank * (rank - 1)
    orders instead of rank! (rank 9: 72, not 362,880).

    >>> len(search_orders(3)), len(search_orders(8)), search_orders(6)[1]
    (6, 56, [0, 2, 5, 4, 3, 1])
    """
    if rank <= 1:
        return [[0]]
    if rank <= EXHAUSTIVE_RANK:
        return [list(p) for p in itertools.permutations(range(rank))]
    return [[a, b] + [d for d in range(rank - 1, -1, -1) if d not in (a, b)]
            for a in range(rank) for b in range(rank) if a != b]


def swizzled_candidates(shape: list[int]):
    """Every distinct single-CTA ``swizzled_shared`` layout of this shape: (vec, perPhase, maxPhase, order), for
    the orders `search_orders` gives (every order up to rank 5). Larger parameters than these only repeat layouts
    already listed."""
    rank = len(shape)
    orders = search_orders(rank)
    seen = set()
    for order in orders:
        if rank == 1:
            params = [(1, 1, 1)]
        else:
            n_cols, n_rows = shape[order[0]], shape[order[1]]
            params = [(v, p, m) for v in _pow2_upto(n_cols) for p in _pow2_upto(n_rows) for m in _pow2_upto(n_rows)]
        for v, p, m in params:
            offs = tuple(swizzled_offsets(shape, v, p, m, order))
            if offs in seen:
                continue
            seen.add(offs)
            yield (v, p, m, tuple(order)), list(offs)


def hardware_order(ll: LinearLayout) -> list[int]:
    """Tensor dims from fastest to slowest as the hardware walks them: first appearance in register, lane,
    then warp bases; remaining dims slowest-last (r-1 .. 0)."""
    outs = ll.out_dims
    order: list[int] = []
    for d in ("register", "lane", "warp", "block"):
        if not ll.has_in_dim(d):
            continue
        for b in ll.get_in_dim_bases(d):
            for j, c in enumerate(b):
                if c:
                    if j not in order:
                        order.append(j)
                    break
    for j in range(len(outs) - 1, -1, -1):
        if j not in order:
            order.append(j)
    return order
