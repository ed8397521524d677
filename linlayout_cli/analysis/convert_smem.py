"""Conversions through shared memory: the scratch layout Triton 3.9 picks and the accesses it emits.

A ``convert_layout`` that moves data between warps (or between lanes in a pattern shuffles do not cover) is
lowered to a round trip: every thread stores its registers to a scratch buffer, a barrier, every thread loads
the registers of the destination layout.  Triton chooses the buffer's layout with its generic swizzling
(``lib/Tools/GenericSwizzling.cpp``), written here afresh over flattened GF(2) vectors (dim0 least significant):

* ``vector`` bases: elements one lane moves with one instruction (both sides' registers, up to 128 bits), topped
  up to a 32-bit word with registers of one side that are warps of the other (``getVecBasisLdSt``);
* ``bank`` bases: the rest of one wavefront's worth of banks; ``segment`` bases: everything above, chosen so
  the lanes served together on each side fall into distinct banks (``computeSegment``);
* ``reps``: segment bases held in registers by both sides.  The buffer only holds ``total / reps`` elements and
  the round trip is repeated ``reps`` times (``buildReps``), with a barrier between rounds.

NVIDIA targets first try the pairs of instructions (``st.shared`` / ``stmatrix`` / ``stmatrix.trans`` for the
store, ``ld.shared`` / ``ldmatrix`` / ``ldmatrix.trans`` for the load) whose 128-bit tiles both layouts can
fill, and keep the pair whose layout has the fewest bank conflicts (``optimalSwizzling`` with
``getSrcDstTiles``); when none fits they fall back to the plain swizzling above.

The primitives (``intersection_basis``, ``complement_basis``, ``compute_segment``) are in
``analysis/subspaces.py``; the vector-basis choice, the tiles and ``reps`` are Triton 3.9's, which differ from
the paper's ``getVbasis`` that ``swizzle.optimal_swizzle`` follows (see docs/convert_model.md).
"""
from __future__ import annotations

from ..engine import LinearLayout, unflatten
from ..engine.bits import log2
from ..engine.gf2 import XorBasis
from ..records import frozen
from .access import Threads, vectorisation
from .subspaces import complement_basis, compute_segment, intersection_basis

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: the convert path loads targets through its callers
    from .targets import Target

REG, LANE, WARP, BLOCK = "register", "lane", "warp", "block"


@frozen
class Tile:
    """Triton's ``LocalMemOpTile``: lanes holding the contiguous part of one access and lanes addressing the
    rows served in one wavefront (by position in the layout's lane bases)."""
    lane_contig: tuple[int, ...] = ()
    lane_addr: tuple[int, ...] = ()


NO_TILE = Tile()


LDST_SHARED = Tile((), (0, 1, 2))
LDST_MATRIX = Tile((0, 1), (2, 3, 4))
LDST_MATRIX_TRANS = Tile((2, 3, 4), (0, 1))
INSTRUCTIONS = {LDST_SHARED: "shared", LDST_MATRIX: "matrix", LDST_MATRIX_TRANS: "matrix.trans"}


@frozen
class ScratchLayout:
    """The scratch buffer as flattened tensor vectors per input dim of Triton's smem layout."""
    vector: tuple[int, ...]
    bank: tuple[int, ...]
    segment: tuple[int, ...]
    block: tuple[int, ...]
    reps: tuple[int, ...]

    @property
    def offsets(self) -> tuple[int, ...]:
        """Offset bits of one round (vector, bank, segment), lowest first."""
        return self.vector + self.bank + self.segment

    @property
    def n_reps(self) -> int:
        return 1 << len(self.reps)


def _remove_zeros(v):
    return [x for x in v if x]


# ----------------------------------------------------------------------------------------- Triton's pieces


def vector_basis(src: Threads, dst: Threads, bitwidth: int, dim: int) -> tuple[list[int], bool | None]:
    """Triton 3.9's ``getVecBasisLdSt``: (vector bases, which side filled the first bank word: True = src,
    False = dst, None = neither had to)."""
    vbasis = intersection_basis(list(src.regs), list(dst.regs), dim)[:log2(128 // bitwidth)]
    src_fills = None
    if (1 << len(vbasis)) * bitwidth < 32:
        per_bank = log2(32 // bitwidth)
        warp_src, warp_dst = _remove_zeros(src.warps), _remove_zeros(dst.warps)

        def without_vec(v):
            return [r for r in v if r not in vbasis]

        src_warp = intersection_basis(without_vec(src.regs), warp_dst, dim)
        dst_warp = intersection_basis(without_vec(dst.regs), warp_src, dim)
        if len(src_warp) == len(dst_warp) and src_warp:
            if min(src_warp) < min(dst_warp):
                largest, src_fills = src_warp, True
            else:
                largest, src_fills = dst_warp, False
        else:
            src_fills = len(src_warp) > len(dst_warp)
            largest = src_warp if src_fills else dst_warp
        vbasis = vbasis + largest
        if len(vbasis) < per_bank:
            vbasis += intersection_basis(warp_src, warp_dst, dim)
        i = 0
        while len(vbasis) < per_bank and (i < len(warp_src) or i < len(warp_dst)):
            if i < len(warp_src) and warp_src[i] not in vbasis:
                vbasis.append(warp_src[i])
            if (len(vbasis) < per_bank and i < len(warp_dst) and warp_dst[i] not in vbasis
                    and warp_dst[i] not in src.blocks):
                vbasis.append(warp_dst[i])
            i += 1
        vbasis = vbasis[:per_bank]
    return vbasis, src_fills


def lane_tile(tile: Tile, lanes, vec_size: int, bitwidth: int, num_banks: int) -> list[int]:
    """Triton's ``getLaneTile``: the lane directions served in one wavefront (explicit ``lane_addr``, or the
    first lanes: all banks hold ``num_banks`` words, each lane ``vec_size * bitwidth`` bits)."""
    log2_vec = log2(max(1, vec_size * bitwidth // 32))
    log2_phase = max(0, log2_vec + len(lanes) - log2(num_banks))
    if tile.lane_addr:
        return [lanes[i] for i in tile.lane_addr]
    return list(lanes[:len(lanes) - log2_phase])


def _core(src: Threads, dst: Threads, bitwidth: int, vbasis, tile_src, tile_dst, dim: int, leave_reps: int = 0,
          num_banks: int = 32) -> ScratchLayout:
    """Triton's inner ``optimalSwizzling`` + ``buildReps`` for a given vector part and lane tiles."""
    blocks = _remove_zeros(src.blocks)
    len_b = min(log2((num_banks * 32) // ((1 << len(vbasis)) * bitwidth)), dim - len(vbasis) - len(blocks))
    len_s = dim - len_b - len(vbasis) - len(blocks)
    bank_src = [x for x in list(vbasis) + list(tile_src) + blocks]
    bank_dst = [x for x in list(vbasis) + list(tile_dst) + blocks]
    sbasis = compute_segment(bank_src, bank_dst, dim, len_s)
    bbasis = complement_basis(list(vbasis) + sbasis + blocks, dim)
    src_regs, dst_regs = set(src.regs), set(dst.regs)
    segment, reps = [], []
    for s in dict.fromkeys(sbasis):
        if s in src_regs and s in dst_regs:
            if leave_reps > 0:
                leave_reps -= 1
                segment.append(s)
            else:
                reps.append(s)
        else:
            segment.append(s)
    return ScratchLayout(tuple(vbasis), tuple(bbasis), tuple(segment), tuple(src.blocks), tuple(reps))


def ldst_swizzle(src: Threads, dst: Threads, bitwidth: int, dim: int, num_banks: int = 32,
                 src_tile: Tile = NO_TILE, dst_tile: Tile = NO_TILE) -> ScratchLayout:
    """Triton's ``optimalSwizzlingLdSt``: the layout for plain vectorised ld/st of shared memory."""
    vbasis, src_fills = vector_basis(src, dst, bitwidth, dim)
    vec_size = 1 << len(vbasis)
    tile_src = lane_tile(src_tile, src.lanes, vec_size, bitwidth, num_banks)
    tile_dst = lane_tile(dst_tile, dst.lanes, vec_size, bitwidth, num_banks)
    smem = _core(src, dst, bitwidth, vbasis, tile_src, tile_dst, dim, 0, num_banks)
    if num_banks == 32 and log2(max(1, vec_size * bitwidth // 32)) < 2:
        # bank lines held in registers by the side that filled the first word (else the side with more) go
        # first, so that side can vectorise a little more.  Measured: Triton 3.9 does this with 32 banks only
        # (gfx950's 64-bank layouts keep the complement's order; docs/convert_model.md, section 6)
        in_src = [i for i, b in enumerate(smem.bank) if b in src.regs]
        in_dst = [i for i, b in enumerate(smem.bank) if b in dst.regs]
        if src_fills is True:
            order = in_src
        elif src_fills is False:
            order = in_dst
        else:
            order = in_src if len(in_src) > len(in_dst) else in_dst
        order = order + [i for i in range(len(smem.bank)) if i not in order]
        smem = ScratchLayout(smem.vector, tuple(smem.bank[i] for i in order), smem.segment, smem.block,
                             smem.reps)
    return smem


# AMD getSharedLdStTiles: the lanes one ds_read_b128 wavefront serves, per target
LOAD_TILES_128 = {"gfx942": (0, 1, 4), "gfx950": (0, 1, 3, 4)}


def amd_swizzle(src: Threads, dst: Threads, bitwidth: int, dim: int, num_banks: int, target: Target) -> ScratchLayout:
    """Triton's AMD scratch layout (``transferSwizzlingLocalMemImpl``): ``optimalSwizzlingLdSt`` whose load tile
    is the lanes of one ds_read_b128 wavefront when the vector is 128 bits."""
    vec_bits = (1 << len(vector_basis(src, dst, bitwidth, dim)[0])) * bitwidth
    load_tile = Tile((), LOAD_TILES_128.get(target.name, ())) if vec_bits == 128 else Tile()
    return ldst_swizzle(src, dst, bitwidth, dim, num_banks, Tile(), load_tile)


def _lane_component(cvt: LinearLayout, lane: int, out: str) -> int:
    return cvt.get_in_dim_bases(LANE)[lane][cvt.out_dims.index(out)]


def matrix_vector_basis(a: Threads, b: Threads, n_reg_a: int, n_reg_b: int, contig_a, contig_b, dim: int,
                        cvts: dict | None = None):
    """Triton's ``optimalSwizzlingTile``: the 128-bit contiguous tile two instructions can share, or None.
    `cvts`: a dict kept across the calls of one `tile_swizzle`, so that each direction's conversion of the same
    two layouts is computed once."""
    if n_reg_a < n_reg_b:
        return matrix_vector_basis(b, a, n_reg_b, n_reg_a, contig_b, contig_a, dim, cvts)
    vbasis = intersection_basis(list(a.regs), list(b.regs), dim)
    if len(vbasis) < n_reg_b:
        return None
    vbasis = vbasis[:n_reg_b]
    if max(list(contig_a) + list(contig_b) + [-1]) >= min(len(a.lanes), len(b.lanes)):
        return None
    tile_a = [a.lanes[i] for i in contig_a]
    tile_b = [b.lanes[i] for i in contig_b]
    if any(x == 0 for x in tile_a + tile_b):
        return None
    if a.ll is None or b.ll is None:
        return None
    if cvts is None:
        cvts = {}
    key = (id(b.ll), id(a.ll))                   # both layouts outlive the dict: their ids stay theirs
    cvt = cvts.get(key)
    if cvt is None:
        cvt = cvts[key] = b.ll.invert_and_compose(a.ll)      # b's hardware -> a's hardware
    for i in range(n_reg_a - n_reg_b):
        if _lane_component(cvt, contig_b[i], REG) == 0:
            return None
    tail_b = list(contig_b)[len(contig_b) - len(contig_a):] if contig_a else []
    for ia, ib in zip(contig_a, tail_b):
        if _lane_component(cvt, ib, LANE) != (1 << ia):
            return None
    return vbasis + tile_b


def tile_conflicts(tile_src, tile_dst, smem: ScratchLayout, dim: int) -> tuple[int, int]:
    """Triton's ``bankConflicts`` of two lane tiles on a scratch layout: (read, write) conflicts, ``2^k - 1`` with
    k = dim(segment ∩ lane tile). (The bank model of a whole access is `bank.py`.)"""
    seg = list(smem.segment)
    write = (1 << len(intersection_basis(seg, list(tile_src), dim))) - 1
    read = (1 << len(intersection_basis(seg, list(tile_dst), dim))) - 1
    return read, write


def src_dst_tiles(bitwidth: int, ldmatrix: bool, stmatrix: bool) -> tuple[list[Tile], list[Tile]]:
    """Triton's ``getSrcDstTiles`` for one CTA: the store / load instructions a target offers."""
    src, dst = [LDST_SHARED], [LDST_SHARED]
    if ldmatrix or stmatrix:
        if bitwidth <= 32:
            if stmatrix:
                src.append(LDST_MATRIX)
            if ldmatrix:
                dst.append(LDST_MATRIX)
        if bitwidth == 16:
            if stmatrix:
                src.append(LDST_MATRIX_TRANS)
            if ldmatrix:
                dst.append(LDST_MATRIX_TRANS)
    return src, dst


def tile_swizzle(src: Threads, dst: Threads, src_tiles, dst_tiles, bitwidth: int, dim: int):
    """Triton's ``optimalSwizzling`` over instruction tiles: (layout, store tile, load tile, lane tiles)."""
    total = log2(128 // bitwidth)
    candidates = []
    cvts: dict = {}
    for ts in src_tiles:
        for td in dst_tiles:
            vb = matrix_vector_basis(src, dst, total - len(ts.lane_contig), total - len(td.lane_contig),
                                     ts.lane_contig, td.lane_contig, dim, cvts)
            if vb is not None:
                candidates.append((ts, td, vb))

    def get_tile(tile: Tile, side: Threads, vbasis):
        need = 3 - len(tile.lane_addr)
        out = []
        for r in side.regs:
            if need == 0:
                break
            if r not in vbasis:
                out.append(r)
                need -= 1
        if need > 0 or max(list(tile.lane_addr) + [-1]) >= len(side.lanes):
            return None
        return out + [side.lanes[i] for i in tile.lane_addr]

    tiles = []
    for ts, td, vb in candidates:
        a, b = get_tile(ts, src, vb), get_tile(td, dst, vb)
        if a is None or b is None:
            continue
        missing = min(len(ts.lane_contig) + len(ts.lane_addr) - 3, len(td.lane_contig) + len(td.lane_addr) - 3)
        tiles.append((ts, td, vb, a, b, missing))
    if not tiles:
        smem = ldst_swizzle(src, dst, bitwidth, dim)
        vec = 1 << len(smem.vector)
        return smem, LDST_SHARED, LDST_SHARED, (lane_tile(Tile(), src.lanes, vec, bitwidth, 32),
                                                lane_tile(Tile(), dst.lanes, vec, bitwidth, 32))
    best = None
    for ts, td, vb, a, b, leave in tiles:
        smem = _core(src, dst, bitwidth, vb, a, b, dim, leave)
        read, write = tile_conflicts(a, b, smem, dim)
        key = (read + write, -smem.n_reps)
        if best is None or key < best[0]:
            best = (key, smem, ts, td, (a, b))
    if best is None:
        raise ValueError("no scratch tile candidate")
    _, smem, ts, td, lanes = best
    return smem, ts, td, lanes


# ----------------------------------------------------------------------------------------- the accesses


def _coords(smem: ScratchLayout):
    """x (flattened tensor index) -> (offset within one round, rep index)."""
    basis = XorBasis()
    n_off = len(smem.offsets)
    for i, b in enumerate(smem.offsets + smem.reps):
        basis.insert(b, 1 << i)

    def coords(x: int) -> tuple[int, int]:
        residue, tag = basis.reduce(x)
        if residue:
            raise ValueError("the scratch layout does not hold every element")
        return tag & ((1 << n_off) - 1), tag >> n_off
    return coords


def access_layout(side: Threads, smem: ScratchLayout) -> LinearLayout:
    """One round's access: (register, lane, warp, block) -> offset, the rep registers divided out."""
    coords = _coords(smem)
    regs = []
    for r in side.regs:
        off, rep = coords(r)
        if not (rep and off == 0):
            regs.append([off])
    n_off = 1 << len(smem.offsets)
    return LinearLayout({REG: regs, LANE: [[coords(x)[0]] for x in side.lanes],
                         WARP: [[coords(x)[0]] for x in side.warps], BLOCK: [[coords(x)[0]] for x in side.blocks]},
                        [("offset", n_off)], require_surjective=False)


@frozen
class SharedAccess:
    instruction: str          # "st.shared" / "stmatrix" / "stmatrix.trans" / "ld.shared" / ... (generic names)
    count: int                # instructions per thread per round
    vector_elems: int         # elements per lane per instruction
    bits: int                 # bits per lane per instruction


def shared_access(side: Threads, smem: ScratchLayout, bitwidth: int, tile: Tile, store: bool) -> SharedAccess:
    """What ``lowerLdStShared`` / ``lowerLdStMatrix`` emit per thread for one round."""
    cvt = access_layout(side, smem)
    n_regs = cvt.get_in_dim_size(REG)
    kind = INSTRUCTIONS[tile]
    if kind == "shared":
        v, _ = vectorisation(cvt, bitwidth)
        name = "st.shared" if store else "ld.shared"
        return SharedAccess(name, max(1, n_regs // v), v, v * bitwidth)
    name = ("stmatrix" if store else "ldmatrix") + (".trans" if kind == "matrix.trans" else "")
    elems = min(128 // bitwidth, n_regs)
    return SharedAccess(name, max(1, n_regs // elems), elems, elems * bitwidth)


def shared_layout_ll(smem: ScratchLayout, shape: list[int]) -> LinearLayout:
    """The whole tensor as one shared layout: offsets of one round, then the rounds (reps) above them."""
    bases = [unflatten(x, shape) for x in smem.offsets + smem.reps]
    return LinearLayout({"offset": bases, BLOCK: []}, [(f"dim{i}", n) for i, n in enumerate(shape)])
