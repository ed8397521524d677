"""Conversions that stay inside a warp: Triton 3.9's warp-shuffle decomposition and what it emits.

``decompose`` is Triton's ``getWarpLayoutConvertDecomposition`` (lib/Analysis/Utility.cpp), written afresh:
after removing broadcast registers, the conversion restricted to (register, lane) is completed to a
permutation ``P`` of the hardware index bits, and ``P`` is factored as ``P_mixed ∘ P_lane ∘ P_reg``:

* ``P_reg`` permutes register bits (free: the thread just renames its values);
* ``P_lane`` permutes lane bits (one indexed shuffle per register, ``shfl.sync.idx``);
* ``P_mixed`` is a product of disjoint transpositions ``(r_i l_j)`` of a register bit with a lane bit, each a
  2x2 block transpose realised as select, xor-shuffle, select.

Example: for 32-bit elements, src = {register: [[0,1]], lane: [[1,0], ...]} and dst with those two bases
swapped is the single transposition (r0 l0): every thread keeps one of its two values and trades the other with
its neighbour lane, one ``shfl.sync.bfly`` per pair of registers (the "ship" method).

Elements narrower than 32 bits are packed ``2^nPack`` to a 32-bit register first; the low register bits then
travel inside the register (byte permutes) and ``getTranspositionSelectors`` fuses them into the transpositions.
``shuffle_count`` turns the factors into the number of shuffles ``transferWithinWarp``
(lib/Conversion/TritonGPUToLLVM/ConvertLayoutOpToLLVM.cpp) emits per thread.
"""
from __future__ import annotations

from ..engine import LinearLayout
from ..engine.bits import log2
from ..records import frozen

REG, LANE = "register", "lane"

_IDENTITY_SEL = 0x3210


@frozen
class Transposition:
    """One mixed transposition (register bit, lane bit) with its byte-permute selectors (Triton's
    ``TranspositionInfo``; 0x3210 / 0x7654 mean plain selects)."""
    reg_bit: int
    lane_bit: int
    top_pre: int = _IDENTITY_SEL
    bot_pre: int = 0x7654
    top_post: int = _IDENTITY_SEL
    bot_post: int = 0x7654


@frozen
class WarpDecomposition:
    reg_perm: tuple[int, ...]        # P_reg: register bit i -> bit reg_perm[i]
    lane_perm: tuple[int, ...]       # P_lane: lane bit i -> bit lane_perm[i]
    transpositions: tuple[Transposition, ...]
    n_pack: int                      # log2 of elements packed per 32-bit register
    n_reg_bits: int                  # register bits after padding the two layouts to the same size

    @property
    def lane_perm_is_identity(self) -> bool:
        return all(p == i for i, p in enumerate(self.lane_perm))


def _pad_zero(bases, n: int, width: int):
    return list(bases) + [(0,) * width] * (n - len(bases))


def decompose(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> WarpDecomposition:
    """Triton's ``getWarpLayoutConvertDecomposition(src, dst, bitwidth)`` for two layouts whose conversion moves
    data only within warps."""
    src = src.remove_zero_bases_along_dim(REG)
    dst = dst.remove_zero_bases_along_dim(REG)
    n_reg = max(src.get_in_dim_size_log2(REG), dst.get_in_dim_size_log2(REG))
    n_lane = max(src.get_in_dim_size_log2(LANE), dst.get_in_dim_size_log2(LANE))
    outs = src.get_out_dims()
    width = len(outs)

    def padded(ll: LinearLayout) -> LinearLayout:
        return LinearLayout({REG: _pad_zero(ll.get_in_dim_bases(REG), n_reg, width),
                             LANE: _pad_zero(ll.get_in_dim_bases(LANE), n_lane, width)},
                            outs, require_surjective=False)

    S, T = padded(src), padded(dst)
    # src hardware (register, lane) -> dst hardware; zero columns get filled below
    p = S.invert_and_compose(T)
    p_bases = {d: [list(v) for v in p.get_in_dim_bases(d)] for d in (REG, LANE)}
    p_outs = p.out_dims                                   # (register, lane) of dst
    s_flat = {d: S.flat_in_dim(d) for d in (REG, LANE)}
    t_flat = {d: T.flat_in_dim(d) for d in (REG, LANE)}
    dims = (REG, LANE)
    src_free, dst_free = [], []
    for di, d in enumerate(dims):
        for i in range(len(s_flat[d])):
            s, t = s_flat[d][i], t_flat[d][i]
            if s == 0 and t == 0:
                p_bases[d][i][p_outs.index(d)] = 1 << i
            elif s == 0:
                src_free.append((di, i))
            elif t == 0:
                dst_free.append((di, i))
    for (sdi, si), (ddi, dj) in zip(src_free, dst_free):
        p_bases[dims[sdi]][si][p_outs.index(dims[ddi])] = 1 << dj

    def target(d: str, i: int) -> tuple[str, int]:
        vec = p_bases[d][i]
        hits = [(od, log2(c)) for od, c in zip(p_outs, vec) if c]
        if not hits:                       # p is a permutation: every basis has an image
            raise ValueError(f"{d} bit {i} has no image in the shuffle permutation")
        return hits[-1]

    reg_bases = [0] * n_reg
    lane_bases = [0] * n_lane
    mixed: list[tuple[int, int]] = []
    visited = set()
    for d in dims:
        for i in range(len(s_flat[d])):
            if (d, i) in visited:
                continue
            entry = cur = (d, i)
            reg_start = lane_start = lane_end = reg_end = -1
            while True:
                visited.add(cur)
                nxt = target(*cur)
                cd, ci = cur
                nd, ni = nxt
                if cd == REG and nd == REG:
                    reg_bases[ci] = ni
                elif cd == LANE and nd == LANE:
                    lane_bases[ci] = ni
                elif cd == REG and nd == LANE:
                    reg_start, lane_start = ci, ni
                else:
                    reg_end, lane_end = ni, ci
                if reg_end >= 0:
                    reg_bases[reg_start] = reg_end
                    lane_bases[lane_end] = lane_start
                    mixed.append((reg_end, lane_start))
                    reg_start = lane_start = lane_end = reg_end = -1
                cur = nxt
                if cur == entry:
                    break
    m = len(mixed)
    n_pack_pre = log2(min(max(32 // bitwidth, 1), 4)) if bitwidth <= 32 else 0
    n_pack = min(n_pack_pre, n_reg - m)
    transpositions = _selectors(mixed, reg_bases, n_pack)
    return WarpDecomposition(tuple(reg_bases), tuple(lane_bases), tuple(transpositions), n_pack, n_reg)


def _permute_selector(sel: int, bit: int, n_pack: int) -> int:
    lo = bit + (2 - n_pack)
    mask_hi = 0x4444
    mask_lo = 0x1111 << lo
    fixed = sel & ~mask_hi & ~mask_lo & 0xFFFF
    shift = 2 - lo
    return fixed | ((mask_hi & sel) >> shift) | (((mask_lo & sel) << shift) & 0xFFFF)


def _selectors(mixed: list[tuple[int, int]], reg_bases: list[int], n_pack: int) -> list[Transposition]:
    """Triton's ``getTranspositionSelectors``: fuse permutations of the low (packed) register bits into the
    mixed transpositions as byte-permute selectors.  ``reg_bases`` (P_reg as bit -> bit) is updated in place."""
    if n_pack == 0:
        return [Transposition(r, l) for r, l in mixed]
    mixed = list(mixed)
    paired = {r for r, _ in mixed}

    def nxt(b):
        return reg_bases[b]

    def next_high_free(t):
        cur = t[0]
        while True:
            if cur >= n_pack:
                return cur == t[0] or cur not in paired
            cur = nxt(cur)
            if cur == t[0]:
                return False

    mixed = [t for t in mixed if next_high_free(t)] + [t for t in mixed if not next_high_free(t)]

    def prev(b):
        tail, cur = b, nxt(b)
        while cur != b:
            tail, cur = cur, nxt(cur)
        return tail

    def find_partner(low, pre_bits):
        if n_pack == 2:
            other = 1 - low
            b = nxt(other)
            if nxt(low) == low and b >= n_pack and b not in paired and other not in paired:
                pre_bits.append(other)
                reg_bases[prev(other)] = b
                paired.add(b)
                return b
        cand = n_pack
        while cand in paired:
            cand += 1
        paired.add(cand)
        return cand

    def gen(head, tail, low_bits):
        top, bot = 0x3210, 0x7654
        for low in low_bits:
            top = _permute_selector(top, low, n_pack)
            bot = _permute_selector(bot, low, n_pack)
            if low != head and low != tail:
                reg_bases[low] = low
        return top, bot

    out: list[Transposition] = []
    for r_bit, l_bit in mixed:
        cycle = [r_bit]
        cur = nxt(r_bit)
        while cur != r_bit:
            cycle.append(cur)
            cur = nxt(cur)

        def boundary(bit, r_bit=r_bit):
            return bit >= n_pack or (bit in paired and bit != r_bit)

        fwd = next((k for k, b in enumerate(cycle) if boundary(b)), len(cycle))
        rev = list(reversed(cycle))
        bwd = next((k for k, b in enumerate(rev) if boundary(b)), len(rev))
        post = cycle[:fwd]
        pre = rev[:bwd]
        partner = -1
        if fwd != len(cycle):
            end = cycle[fwd]
            if end == r_bit or end not in paired:
                head = partner = end
            else:
                head = post[0]
                pre.append(head)
                post = post[:1]
                paired.discard(head)
            tail = rev[bwd]
            if tail < n_pack and tail in paired:
                pre.insert(0, tail)
        else:
            if nxt(r_bit) != r_bit and nxt(r_bit) in paired:
                pre = pre[1:]
                post = post[:-1]
                paired.discard(post[0])
                head, tail = r_bit, nxt(r_bit)
            else:
                if len(post) == 2:
                    post = post[:-1]
                head = tail = pre[0]
        if partner < 0:
            partner = find_partner(head, pre)
        top_post, bot_post = gen(head, tail, list(reversed(post)))
        top_pre, bot_pre = gen(head, tail, pre)
        reg_bases[tail] = head
        info = Transposition(partner, l_bit, top_pre, bot_pre, top_post, bot_post)
        if pre:
            sel = 0x6240 if n_pack - pre[-1] == 2 else 0x5410
            at = next((k for k, t in enumerate(out) if t.top_post == sel), len(out))
            out.insert(at, info)
        else:
            out.append(info)
    if n_pack == 2 and len(reg_bases) > 1 and reg_bases[0] == 1 and reg_bases[1] == 0 and out:
        last = out[-1]
        out[-1] = Transposition(last.reg_bit, last.lane_bit, last.top_pre, last.bot_pre, 0x3120, 0x7564)
    return out


def is_shippable(t: Transposition) -> bool:
    """Triton's ``isShippable``: the cheaper one-transposition method cannot mix high and low register bits."""
    return (t.top_pre == t.top_post or (t.top_pre, t.top_post) in ((0x5140, 0x6240), (0x6420, 0x5410),
                                                                     (0x3210, 0x3120)))


@frozen
class ShuffleCost:
    method: str                       # "ship" (one transposition, auxiliary registers) or "swap" (in place)
    registers: int                    # 32-bit (packed) registers per thread; 64-bit values count twice
    shuffles: tuple[tuple[str, int, int], ...]   # (kind "xor" / "idx", lane mask for xor, count) per thread

    @property
    def total(self) -> int:
        return sum(n for _, _, n in self.shuffles)


def shuffle_count(src: LinearLayout, dst: LinearLayout, bitwidth: int) -> tuple[WarpDecomposition, ShuffleCost]:
    """How ``transferWithinWarp`` lowers the conversion: method and shuffles per thread (a 64-bit value is
    shuffled as two 32-bit halves)."""
    dec = decompose(src, dst, bitwidth)
    src_regs = src.remove_zero_bases_along_dim(REG).get_in_dim_size(REG)
    reg_dim = max(src_regs, 1 << dec.n_reg_bits)
    num_regs = reg_dim >> dec.n_pack
    words = 2 if bitwidth == 64 else 1
    ts = dec.transpositions
    if len(ts) == 1 and dec.lane_perm_is_identity and is_shippable(ts[0]):
        n = (num_regs // 2) * words
        return dec, ShuffleCost("ship", num_regs * words, (("xor", 1 << ts[0].lane_bit, n),))
    if dec.lane_perm_is_identity:
        by_mask: dict[int, int] = {}
        for r in range(num_regs):
            mask = 0
            for t in ts:
                if r >> (t.reg_bit - dec.n_pack) & 1:
                    mask |= 1 << t.lane_bit
            if mask:
                by_mask[mask] = by_mask.get(mask, 0) + words
        return dec, ShuffleCost("swap", num_regs * words, tuple(("xor", m, n) for m, n in sorted(by_mask.items())))
    return dec, ShuffleCost("swap", num_regs * words, (("idx", 0, num_regs * words),))
