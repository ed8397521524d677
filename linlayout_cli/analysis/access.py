"""The one model of a warp's shared-memory access: how wide each lane's vector is, and how many wavefronts one
instruction needs. `bank`, `swizzle` and `convert` all ask it.

Everything works on *flattened* GF(2) vectors: a tensor coordinate becomes one integer, dim0 in the lowest
bits (a 16x32 tensor: bits 0-3 are dim0, bits 4-8 dim1), and a shared-memory address (offset, then block)
likewise. A layout's bases are then lists of ints and XOR is vector addition.

Triton's model, in three steps (Triton 3.9, lib/Analysis/Utility.cpp and GenericSwizzling.cpp):
1. vector width `v` (`largestVectorisation`): the largest power of two <= 128 bits / element bits such that
   addresses 1, 2, ..., v/2 are reached by register bases of one thread and no other basis touches an address
   bit below `v`;
2. the shared memory's address bits are split into vector (v elements), bank (the rest of one wavefront:
   banks * 32 bits / (v * element bits) vectors) and segment (everything above: same bank, another word);
3. the lanes served together in one wavefront span the tensor directions `T` (the XORs of their lane bases);
   with `k = dim(span(segment) ∩ T)` every bank touched sees `2^k` words: `2^k - 1` conflicts.
"""
from __future__ import annotations

from ..engine import LinearLayout, gf2
from ..engine.bits import is_pow2, log2
from ..errors import ShapeError, UnsupportedError
from ..records import frozen
from .targets import Target

# ----------------------------------------------------------------------------------------- flattened vectors
# (the flattening itself is the engine's: LinearLayout.flat_in_dim, engine.flatten / unflatten)


def intersection_dim(b1: list[int], b2: list[int]) -> int:
    """dim(span(b1) ∩ span(b2)), computed the way Triton 3.9's `intersectionBasis` does: when every vector is
    a power of two it counts the non-zero vectors of b1 present in b2, otherwise the true dimension."""
    if all(is_pow2(b) for b in b1) and all(is_pow2(b) for b in b2):
        s2 = set(b2)
        return sum(1 for b in b1 if b in s2)
    return gf2.rank(b1) + gf2.rank(b2) - gf2.rank(list(b1) + list(b2))


def lane_tile(lanes: list[int], masks) -> list[int]:
    """The tensor directions a phase spans: for each lane-id mask, the XOR of the lane bases it selects.
    Lanes [1, 2, 4] (flattened) and mask 0b101 give 1 ^ 4 = 5."""
    return [gf2.apply(lanes, m) for m in masks]


@frozen
class Threads:
    """A register layout flattened: register bases (broadcast ones removed), lanes, warps and blocks; `ll` is that
    layout with the broadcast registers removed."""
    regs: tuple[int, ...]
    lanes: tuple[int, ...]
    warps: tuple[int, ...]
    blocks: tuple[int, ...]
    ll: LinearLayout | None = None

    @staticmethod
    def of(ll: LinearLayout) -> "Threads":
        reg = ll.remove_zero_bases_along_dim("register")
        regs, lanes, warps, blocks = (tuple(reg.flat_in_dim(d)) for d in ("register", "lane", "warp", "block"))
        return Threads(regs, lanes, warps, blocks, reg)

    @property
    def n_regs(self) -> int:
        return 1 << len(self.regs)

    @property
    def lane_bits(self) -> int:
        return len(self.lanes)

    def tile(self, target: Target, access_bits: int, op: str) -> list[int]:
        """Tensor directions spanned by the lanes one wavefront serves for this access."""
        return lane_tile(list(self.lanes), target.phase_masks(access_bits, op, self.lane_bits))


# ----------------------------------------------------------------------------------------- the model


def largest_vectorisation(reg_addrs: list[int], other_addrs: list[int], max_elems: int) -> tuple[int, list[int]]:
    """Triton's `largestVectorisation`: (v, register order putting the vector's bases first).

    `reg_addrs[i]` is the shared address register basis i reaches, `other_addrs` those of lane, warp and block
    bases. Registers reaching addresses 1 and 2, with every other basis a multiple of 4, give v = 4."""
    v = max_elems
    while v >= 1:
        chosen: list[int] = []
        for i in range(log2(v)):
            pos = next((p for p, a in enumerate(reg_addrs) if a == 1 << i and p not in chosen), None)
            if pos is None:
                break
            chosen.append(pos)
        if len(chosen) == log2(v):
            rest = [p for p in range(len(reg_addrs)) if p not in chosen]
            mask = v - 1
            if all(reg_addrs[p] & mask == 0 for p in rest) and all(a & mask == 0 for a in other_addrs):
                return v, chosen + rest
        v //= 2
    raise UnsupportedError("no vectorisation possible (Triton aborts here)")


def vectorisation(cvt: LinearLayout, bitwidth: int) -> tuple[int, list[int]]:
    """`largest_vectorisation` of a conversion layout (register, lane, warp, block) -> shared address (offset,
    then block)."""
    reg_addrs = cvt.flat_in_dim("register")
    other_addrs = [a for d in cvt.in_dims if d != "register" for a in cvt.flat_in_dim(d)]
    return largest_vectorisation(reg_addrs, other_addrs, 128 // bitwidth)


def wavefront_split(total: int, v: int, bitwidth: int, target: Target) -> tuple[int, int]:
    """(vectors in one wavefront's worth of banks, segment count) for `total` shared elements, exactly as Triton
    reshapes the shared layout's inputs into vector x bank x segment."""
    bank = min(target.bank_bits // (v * bitwidth), total)
    segment = total // (bank * v) if bank * v else 0
    if segment < 1 or not is_pow2(segment) or not is_pow2(bank):
        raise ShapeError(f"the tensor is too small for a bank analysis: {total} shared elements of "
                         f"{bitwidth} bits with {v}-element vectors do not fill one {target.num_banks}-bank "
                         "wavefront (Triton aborts here)")
    return bank, segment


@frozen
class Wavefronts:
    """One access kind (read or write) of one warp: Triton's conflict count and what it rests on."""
    k: int                          # dim(span(segment) ∩ lane tile)
    masks: tuple[int, ...]          # lane-id masks spanning the lanes of one phase
    phases: int                     # ideal wavefronts per instruction

    @property
    def conflicts(self) -> int:
        """Extra wavefronts per wavefront, Triton's unit: 2^k - 1."""
        return (1 << self.k) - 1


def wavefronts(smem_bases: list[int], v: int, bitwidth: int, lanes: list[int], target: Target,
               op: str) -> Wavefronts:
    """Wavefronts of one instruction: `smem_bases` are the tensor coordinates (flattened) of each shared address
    bit (offset bits, then block bits), `lanes` the flattened lane bases of the accessing register layout."""
    bank, _ = wavefront_split(1 << len(smem_bases), v, bitwidth, target)
    segment = smem_bases[log2(v) + log2(bank):]
    masks = target.phase_masks(v * bitwidth, op, len(lanes))
    k = intersection_dim(segment, lane_tile(lanes, masks))
    return Wavefronts(k, masks, 1 << (len(lanes) - len(masks)))
