"""Optimal shared-memory swizzling for writing with one register layout and reading with another.

``triton_swizzle`` is Triton 3.9's own choice (its convert_layout scratch layout, analysis/convert_smem.py).
``optimal_swizzle`` is the Linear Layouts paper's variant of the same algorithm (section 5.4; Triton's
``optimalSwizzlingLdSt`` with the older ``getVbasis``), written afresh over flattened GF(2) vectors:

1. Work on flattened tensors: every basis becomes one integer (dim0 least significant).
2. ``vbasis`` (the vector part of the shared layout, contiguous elements): the register bases common to both
   layouts (at most 128 bits worth); below 32 bits it is topped up to a full 32-bit bank word with registers of
   one side, and then extended with registers of one side that are lanes of the other (those vectorise one side
   without costing the other side a conflict).
3. The lanes that one wavefront serves on each side (the target's phase groups, minus bases already in the
   vector) must be spread over distinct banks.  ``computeSegment`` picks the ``segment`` bases (the address bits
   above one wavefront's worth of banks) among directions neither side's lanes move along; when there are not
   enough of those it pairs a write-lane direction with a read-lane direction (``a ^ b``: conflict-free for both)
   and, only when the tensor is too small, accepts conflicts.
4. ``bank`` = a complement of vector + segment made of unit vectors; segment bases that are registers on both
   sides go last (``reps``).

The result is an ``offset`` -> tensor layout.  ``analyze_swizzle`` turns it into the attribute to paste: a
``#ttg.swizzled_shared`` when one describes exactly this layout, otherwise a ``#ttg.swizzled_shared`` that is just
as good (same vector widths, same conflicts) when the search over all of them finds one, otherwise a
``#ttg.shared_linear``.
"""
from __future__ import annotations

import itertools
import math

from ..attributes.encodings import SharedLinearEncoding, SwizzledSharedEncoding
from ..engine import LinearLayout, bit_shifts, unflatten
from ..engine.bits import log2
from ..engine.gf2 import XorBasis
from ..errors import ShapeError, UnsupportedError
from ..records import frozen, replace
from .access import Threads, largest_vectorisation, wavefronts
from .bank import check_bitwidth
from .subspaces import complement_basis, compute_segment, intersection_basis
from .targets import READ, WRITE, Target, get_target

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: shared_access and padded_shared load when a layout is priced on the GPU
    from ..conversions.padded_shared import Padding
    from .shared_access import Direction


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
                   target: Target | str | None = None) -> SwizzleResult:
    """Triton 3.9's own choice for this pair: ``optimalSwizzlingLdSt`` with 3.9's vector basis
    (``getVecBasisLdSt``), as its ``convert_layout`` lowering calls it for plain ld/st.shared, with AMD's
    ds_read_b128 load tile (analysis/convert_smem.py, checked against compiled kernels by golden/convert)."""
    from .convert_smem import NO_TILE, amd_swizzle, lane_tile, ldst_swizzle
    target = target if isinstance(target, Target) else get_target(target)
    src, dst, dim = _sides(write_ll, read_ll, bitwidth)
    if target.vendor == "amd":
        smem = amd_swizzle(src, dst, bitwidth, dim, target.num_banks, target.name)
    else:
        smem = ldst_swizzle(src, dst, bitwidth, dim, target.num_banks)
    vec_size = 1 << len(smem.vector)
    tiles = [[x for x in lane_tile(NO_TILE, side.lanes, vec_size, bitwidth, target.num_banks) if x not in smem.vector]
             for side in (src, dst)]
    return _result(write_ll, smem.vector, smem.bank, smem.segment, smem.reps, *tiles)


def optimal_swizzle(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int,
                    target: Target | str | None = None, max_vector_bases: int | None = None,
                    permuted_vectors: bool = False) -> SwizzleResult:
    """The Linear Layouts paper's generic swizzling (``optimalSwizzlingLdSt`` with the older ``getVbasis``),
    generalised to the target's banks and phases.

    ``max_vector_bases`` truncates the vector part.  ``permuted_vectors``: size each side's phase for the vector
    the bank analysis will find (leading vector bases that are that side's registers, in any order) instead of
    Triton's in-order register prefix (``getVectorSize``).  ``analyze_swizzle`` tries all of these variants."""
    target = target if isinstance(target, Target) else get_target(target)
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


@frozen
class Suggestion:
    target: Target
    bitwidth: int
    shape: tuple[int, ...]
    result: SwizzleResult
    offsets: tuple[int, ...]                 # flattened offset bases of the printed layout (attr_text)
    attr_text: str                           # what to paste
    kind: str                                # "swizzled_shared" or "shared_linear"
    exact: bool                              # attr describes Triton's layout exactly
    source: str                              # "generic swizzling" or "swizzled_shared search"
    shared_linear_text: str                  # the generic swizzling result (or the winner) as shared_linear
    score: Score                             # of the printed layout
    baseline_text: str
    baseline: Score
    notes: tuple[str, ...] = ()
    gpu: GpuComparison | None = None          # the same layouts and the best padding on the GPU (`on_the_gpu`)
    reader: str = "threads"                  # what reads the tile back: "threads" (the read layout), "tma", "wgmma"


def shared_linear_text(offsets: list[int], shape: list[int], alignment: int = 16) -> str:
    """The paste-ready `#ttg.shared_linear` of a single-CTA layout given by flattened offset bases."""
    bases = tuple(tuple(unflatten(x, shape)) for x in offsets)
    return str(SharedLinearEncoding(bases, (), alignment))


def swizzled_text(vec, per_phase, max_phase, order) -> str:
    return str(SwizzledSharedEncoding(vec, per_phase, max_phase, tuple(order)))


def _work_of(s: Score) -> str:
    """'1 conflict(s), 48 wavefronts and 12 instructions per warp' as the notes compare them."""
    return (f"{s.conflicts} conflict(s), {s.write_wavefronts + s.read_wavefronts} wavefronts and "
            f"{s.write_instructions + s.read_instructions} instructions per warp")


TRITON_SOURCE = "Triton 3.9's generic swizzling"


def _variants(write_ll, read_ll, src: Threads, dst: Threads, bitwidth: int, target: Target) -> list:
    """The paper's generic swizzling (`optimal_swizzle`) with every shared vector from its full one down to none,
    phases sized by the register prefix or for permuted-register vectors: (result, offsets, score, source)."""
    full = optimal_swizzle(write_ll, read_ll, bitwidth, target)
    out = []
    for permuted in (False, True):
        for n in range(len(full.vector), -1, -1):
            try:
                res = full if n == len(full.vector) and not permuted else \
                    optimal_swizzle(write_ll, read_ll, bitwidth, target, n, permuted)
                offs = res.layout.flat_in_dim("offset")
                sc = score(offs, src, dst, bitwidth, target)
            except (ShapeError, UnsupportedError):
                continue
            source = "generic swizzling with the paper's vector basis"
            if n != len(full.vector):
                source += f", a {1 << n}-element shared vector"
            if permuted:
                source += ", phases sized for permuted-register vectors"
            out.append((res, offs, sc, source))
    return out


def analyze_swizzle(write_ll: LinearLayout, read_ll: LinearLayout | None, bitwidth: int,
                    target: Target | str | None = None, search: bool = True, use: str | None = None) -> Suggestion:
    """The shared layout to use for writing with `write_ll` and reading with `read_ll`.

    Candidates: Triton 3.9's own generic swizzling (`triton_swizzle`), the paper's variant of it
    (`optimal_swizzle`) with every shorter shared vector, and (`search`) every `#ttg.swizzled_shared` of the
    shape.  The best by `Score.key` wins; ties go to Triton 3.9's result, and a swizzled_shared that is
    bit-identical to the winner (or, failing that, just as good) is what gets printed; a swizzled_shared strictly
    better than every generic result is printed instead.  Without `search`, Triton 3.9's result as it is.
    With `use` ('tma' or 'wgmma'): the best `#ttg.nvmma_shared`, the only layouts those can use; then
    `read_ll` None means the TMA engine (a TMA store) or wgmma's operand fetch reads the tile, not threads."""
    target = target if isinstance(target, Target) else get_target(target)
    if use is not None:
        return _nvmma_suggestion(write_ll, read_ll, bitwidth, target, use)
    assert read_ll is not None          # None (the TMA engine or wgmma reads) only with `use`; every caller keeps to it
    shape = [size for _, size in write_ll.get_out_dims()]
    src, dst = Threads.of(write_ll), Threads.of(read_ll)
    generic = []
    try:
        triton = triton_swizzle(write_ll, read_ll, bitwidth, target)
        triton_offsets = triton.layout.flat_in_dim("offset")
        generic.append((triton, triton_offsets, score(triton_offsets, src, dst, bitwidth, target), TRITON_SOURCE))
    except UnsupportedError:            # Triton asserts here (repeated or broadcast lanes): only the variants remain
        triton = None
    if search or triton is None:
        generic += _variants(write_ll, read_ll, src, dst, bitwidth, target)
    if not generic:
        optimal_swizzle(write_ll, read_ll, bitwidth, target)      # raises what stands in the way
    # min() keeps the first of equals: Triton's own result wins ties
    result, offsets, best, source = min(generic, key=lambda g: g[2].key)
    order = hardware_order(write_ll)
    baseline = score(swizzled_offsets(shape, 1, 1, 1, order), src, dst, bitwidth, target)
    linear_text = shared_linear_text(offsets, shape)
    notes = []
    if triton is not None and result is not triton:
        notes.append(f"Triton 3.9's own generic swizzling (its convert_layout scratch layout) would see "
                     f"{_work_of(generic[0][2])}; this one {best.conflicts}, "
                     f"{best.write_wavefronts + best.read_wavefronts} and {best.write_instructions + best.read_instructions}")
    sugg = Suggestion(target, bitwidth, tuple(shape), result, tuple(offsets), linear_text, "shared_linear", True,
                      source, linear_text, best, swizzled_text(1, 1, 1, order), baseline, tuple(notes))
    if not search:
        return sugg
    if len(shape) > EXHAUSTIVE_RANK:
        sugg = replace(sugg, notes=sugg.notes + (
            f"rank {len(shape)}: the swizzled_shared search tried each pair of fastest dims with the others slowest "
            f"in descending order ({len(search_orders(len(shape)))} orders), not all {math.factorial(len(shape))}",))
    # every candidate is scored: one strictly better than the generic result wins even when another candidate is
    # bit-identical to that result; otherwise the bit-identical one, then an equally good one, is printed
    exact, equal, better = None, None, None
    for params, offs in swizzled_candidates(shape):
        if offs == offsets:
            exact = exact or params
            continue
        try:
            sc = score(offs, src, dst, bitwidth, target)
        except (ShapeError, UnsupportedError):
            continue
        if sc.key == best.key and equal is None:
            equal = (params, offs, sc)
        elif sc.key < best.key and (better is None or sc.key < better[2].key):
            better = (params, offs, sc)
    if better is not None:
        params, offs, sc = better
        return replace(sugg, attr_text=swizzled_text(*params), kind="swizzled_shared", exact=True,
                       source="swizzled_shared search", offsets=tuple(offs), score=sc,
                       shared_linear_text=shared_linear_text(offs, shape),
                       notes=sugg.notes + (f"this swizzled_shared layout beats the generic swizzling result "
                                           f"({_work_of(best)}, against {sc.conflicts}, "
                                           f"{sc.write_wavefronts + sc.read_wavefronts} and "
                                           f"{sc.write_instructions + sc.read_instructions})",))
    if exact is not None:
        return replace(sugg, attr_text=swizzled_text(*exact), kind="swizzled_shared")
    if equal is not None:
        params, offs, sc = equal
        return replace(sugg, attr_text=swizzled_text(*params), kind="swizzled_shared", exact=False,
                       offsets=tuple(offs), score=sc,
                       notes=sugg.notes + ("this swizzled_shared layout ranks equal to the generic swizzling result "
                                           "(same conflicts, wavefronts and instructions per warp) but is not "
                                           "bit-identical to it; that one is printed as shared_linear",))
    return sugg


# ----------------------------------------------------------------------------------------- TMA and wgmma

NVMMA_SWIZZLES = (128, 64, 32, 0)


def nvmma_candidates(shape: list[int], bitwidth: int):
    """Every `#ttg.nvmma_shared` a tensor of this shape and element width can take, with its flattened offset
    bases: swizzle 128/64/32/0 bytes, transposed or not (a swizzle wider than the tile is refused, as Triton does)."""
    from ..attributes.encodings import NVMMASharedEncoding
    from ..conversions import to_linear_layout
    from ..errors import TTLayoutError
    if len(shape) < 2 or bitwidth not in (8, 16, 32, 64):
        return
    for swizzle in NVMMA_SWIZZLES:
        for transposed in (False, True):
            attr = NVMMASharedEncoding(swizzle, transposed, bitwidth, rank=len(shape))
            try:
                ll = to_linear_layout(attr, list(shape))
            except TTLayoutError:
                continue
            yield attr, ll.flat_in_dim("offset")


def best_nvmma(write_ll: LinearLayout, read_ll: LinearLayout | None, bitwidth: int,
               target: Target | str | None = None):
    """(attribute, Score, offsets) of the best `#ttg.nvmma_shared` (the layouts TMA and wgmma can use) for this
    pair (`read_ll` None: no thread reads it back), or None when no nvmma_shared fits the shape. Ties go to the
    wider swizzle, then to the untransposed layout."""
    target = target if isinstance(target, Target) else get_target(target)
    src, dst = Threads.of(write_ll), (Threads.of(read_ll) if read_ll is not None else None)
    shape = [size for _, size in write_ll.get_out_dims()]
    scored = []
    for attr, offsets in nvmma_candidates(shape, bitwidth):
        try:
            scored.append((score(offsets, src, dst, bitwidth, target), attr, offsets))
        except (ShapeError, UnsupportedError):
            continue
    if not scored:
        return None
    best = min(scored, key=lambda s: s[0].key)
    return best[1], best[0], best[2]


def _nvmma_suggestion(write_ll: LinearLayout, read_ll: LinearLayout | None, bitwidth: int, target: Target,
                      use: str) -> Suggestion:
    """The best `#ttg.nvmma_shared` for the pair, as a Suggestion (for `swizzle --for tma|wgmma`). `read_ll`
    None: `use` reads the tile (a TMA store or wgmma's operand fetch, no thread layout), so only the write
    side is priced."""
    found = best_nvmma(write_ll, read_ll, bitwidth, target)
    if found is None:
        raise UnsupportedError(f"no #ttg.nvmma_shared layout fits this tensor with {bitwidth}-bit elements (TMA and "
                               "wgmma need a rank >= 2 tile of at least 8 rows of 16 bytes)")
    attr, sc, offsets = found
    shape = [size for _, size in write_ll.get_out_dims()]
    src, dst = Threads.of(write_ll), (Threads.of(read_ll) if read_ll is not None else None)
    order = hardware_order(write_ll)
    baseline = score(swizzled_offsets(shape, 1, 1, 1, order), src, dst, bitwidth, target)
    full = optimal_swizzle(write_ll, read_ll if read_ll is not None else write_ll, bitwidth, target)
    note = (f"restricted to #ttg.nvmma_shared, the layouts {use.upper()} can use; the unrestricted search "
            "may find fewer conflicts (ttlayout swizzle without --for)")
    return Suggestion(target, bitwidth, tuple(shape), full, tuple(offsets), str(attr), "nvmma_shared", True,
                      f"nvmma_shared search for {use}", shared_linear_text(offsets, shape), sc,
                      swizzled_text(1, 1, 1, order), baseline, (note,),
                      reader="threads" if read_ll is not None else use)




# ----------------------------------------------------------------------------------------- on the GPU, padding


@frozen
class GpuCost:
    """What a shared layout costs on the GPU (analysis/shared_access.py) for `write` then `read`, per CTA."""
    label: str
    layout: str                     # the attribute text
    write: Direction
    read: Direction
    padding: Padding | None = None  # for a #ttg.padded_shared

    @property
    def priced(self) -> bool:
        """Both directions have a wavefront figure (not gfx950's ds_read_b64_tr, which has no measured rule)."""
        return self.write.wavefronts_total is not None and self.read.wavefronts_total is not None

    @property
    def wavefronts_total(self) -> int | None:
        if not self.priced:
            return None
        assert self.write.wavefronts_total is not None and self.read.wavefronts_total is not None   # as priced says
        return self.write.wavefronts_total + self.read.wavefronts_total

    @property
    def ideal_wavefronts_total(self) -> int | None:
        if not self.priced:
            return None
        # priced: both totals are there, and shared_access._direction sets the ideal totals with them
        assert self.write.ideal_wavefronts_total is not None and self.read.ideal_wavefronts_total is not None
        return self.write.ideal_wavefronts_total + self.read.ideal_wavefronts_total

    @property
    def instructions_per_cta(self) -> int:
        return self.write.instructions_per_cta + self.read.instructions_per_cta

    @property
    def key(self):
        """Smaller is better, `Score.key` in the GPU's units: fewest wavefronts beyond the ideal (bank
        conflicts), then fewest wavefronts, then fewest instructions (None when not `priced`)."""
        if not self.priced:
            return None
        return (self.wavefronts_total - self.ideal_wavefronts_total, self.wavefronts_total,
                self.instructions_per_cta)


@frozen
class GpuComparison:
    """The unswizzled layout, the suggestion and the best `#ttg.padded_shared` priced on the GPU; `padded`:
    how many paddings were priced (faulting ones are never candidates)."""
    unswizzled: GpuCost
    suggested: GpuCost
    padding: GpuCost | None
    padded: int
    note: str | None = None


def gpu_cost(label: str, layout: str, write_ll: LinearLayout, read_ll: LinearLayout, smem_ll: LinearLayout,
             bitwidth: int, target: Target, padding=None, caches: tuple[dict, dict] | None = None) -> GpuCost:
    """`label`'s layout (`smem_ll`, with `padding` for a padded one) written with `write_ll`, read with `read_ll`
    (`caches`: shared_access.local_access's, one per side, kept between paddings of one `smem_ll`).
    Raises shared_access.MisalignedAccess for a padding the compiled kernel would fault on."""
    from .shared_access import local_access
    caches = caches or ({}, {})
    write = local_access(write_ll, smem_ll, bitwidth, WRITE, target, padding, caches[0])
    read = local_access(read_ll, smem_ll, bitwidth, READ, target, padding, caches[1])
    return GpuCost(label, layout, write, read, padding)


def contiguous_run(ll: LinearLayout, dim: int) -> int:
    """Elements one thread holds next to each other along tensor dim `dim`: its first register bases are 1, 2,
    4, ... along `dim`.

    >>> from linlayout_cli.engine import LinearLayout
    >>> contiguous_run(LinearLayout({"register": [[0, 1], [0, 2], [1, 0]]}, [("dim0", 2), ("dim1", 4)]), 1)
    4
    """
    run = 1
    for b in ll.get_in_dim_bases("register") if ll.has_in_dim("register") else ():
        if b[dim] != run or any(c for d, c in enumerate(b) if d != dim):
            break
        run *= 2
    return run


def padding_candidates(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int, target: Target):
    """(Padding, linear component, attribute) of every `#ttg.padded_shared` the search prices: row-major in the
    write's and the read's hardware order, one interval (the row length, or a side's contiguous run along the
    row), a padding of 1, 2, 4, ... elements up to one row of banks (more only repeats a smaller one)."""
    from ..attributes.encodings import PaddedSharedEncoding
    from ..conversions.padded_shared import Padding
    shape = [size for _, size in write_ll.get_out_dims()]
    total = 1
    for n in shape:
        total *= n
    max_pad = max(1, target.num_banks * target.bank_bytes * 8 // bitwidth // 2)
    seen = set()
    for order in _unique([tuple(hardware_order(write_ll)), tuple(hardware_order(read_ll))]):
        offsets = swizzled_offsets(shape, 1, 1, 1, list(order))
        smem = LinearLayout({"offset": [tuple(unflatten(x, shape)) for x in offsets], "block": []},
                            write_ll.get_out_dims())
        runs = [shape[order[0]], contiguous_run(write_ll, order[0]), contiguous_run(read_ll, order[0])]
        for interval in sorted({r for r in runs if 2 <= r < total}, reverse=True):
            pad = 1
            while pad <= max_pad:
                attr = PaddedSharedEncoding((interval,), (pad,), tuple(tuple(unflatten(x, shape)) for x in offsets),
                                            ())
                if str(attr) not in seen:
                    seen.add(str(attr))
                    yield Padding((interval,), (pad,)), smem, attr
                pad *= 2


def best_padding(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int, target: Target
                 ) -> tuple[GpuCost | None, int]:
    """(the cheapest `padding_candidates` on the GPU by `GpuCost.key`, ties to the smaller padding; how many were
    priced).  A padding that leaves the compiler's vector access misaligned is never a candidate: the kernel
    would fault."""
    from ..errors import TTLayoutError
    best, priced = None, 0
    caches: dict = {}
    for padding, smem, attr in padding_candidates(write_ll, read_ll, bitwidth, target):
        try:
            cost = gpu_cost(f"padding [{padding.intervals[0]}:+{padding.paddings[0]}]", str(attr), write_ll, read_ll,
                            smem, bitwidth, target, padding, caches.setdefault(id(smem), ({}, {})))
        except TTLayoutError:           # MisalignedAccess among them
            continue
        if not cost.priced:
            continue
        priced += 1
        if best is None:
            best = cost
        else:
            assert best.padding is not None         # best is an earlier candidate's cost, priced with its padding
            if (cost.key, padding.paddings[0]) < (best.key, best.padding.paddings[0]):
                best = cost
    return best, priced


def compare_on_gpu(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int, target: Target | str | None,
                   s: Suggestion, padding: bool = True) -> GpuComparison | None:
    """The unswizzled layout and the suggestion on the GPU, and (`padding`) the best padding beside them; None
    where the shared-access model cannot price the pair (a register layout with another lane count)."""
    from ..errors import UnsupportedError
    target = target if isinstance(target, Target) else get_target(target)
    outs = write_ll.get_out_dims()
    shape = [size for _, size in outs]

    def layout(offsets):
        return LinearLayout({"offset": [tuple(unflatten(x, shape)) for x in offsets], "block": []}, outs)
    order = hardware_order(write_ll)
    try:
        plain = gpu_cost("unswizzled", s.baseline_text, write_ll, read_ll,
                         layout(swizzled_offsets(shape, 1, 1, 1, order)), bitwidth, target)
        sugg = gpu_cost("suggested", s.attr_text, write_ll, read_ll, layout(s.offsets), bitwidth, target)
    except UnsupportedError:
        return None
    if not padding:
        return GpuComparison(plain, sugg, None, 0)
    pad, priced = best_padding(write_ll, read_ll, bitwidth, target)
    note = None
    if pad is not None and sugg.priced and pad.key < sugg.key:
        note = (f"on the GPU the best padding beats the suggested swizzle ({pad.wavefronts_total} against "
                f"{sugg.wavefronts_total} wavefronts per CTA, {pad.instructions_per_cta} against "
                f"{sugg.instructions_per_cta} instructions); use it for a buffer you allocate (ttg.local_alloc, "
                "Gluon's PaddedSharedLayout, AMD's backend): a convert_layout's scratch is always Triton's own "
                "swizzled layout")
    elif pad is not None and sugg.priced:
        note = ("padding is usable only for a buffer you allocate (ttg.local_alloc, Gluon's PaddedSharedLayout, "
                "AMD's backend); the suggested swizzle costs no more on the GPU")
    return GpuComparison(plain, sugg, pad, priced, note)
