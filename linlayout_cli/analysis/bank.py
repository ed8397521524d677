"""Shared-memory bank conflicts of a register layout accessing a shared layout.

``bank_conflicts(reg, shared, shape, bitwidth)`` is Triton 3.9's ``get_shared_bank_conflicts``
(``bankConflictsMemDesc``): the number of *extra* wavefronts per wavefront that a warp's shared-memory access
needs, ``2^k - 1``.  ``analyze`` computes the same number for any target of ``targets.py`` together with the
data that explains it, and checks it by simulating the access lane by lane.

The model (docs/bank_model.md has the long form)
------------------------------------------------
1. ``reg`` = the register layout with broadcast (all-zero) register bases removed, ``smem`` = the shared layout,
   both as linear layouts over the same tensor; ``cvt = reg.invert_and_compose(smem)`` maps every
   (register, lane, warp, block) to the shared-memory (offset, block) holding that element.
2. Vector width ``v``: the largest power of two <= 128 / bitwidth such that offsets 1, 2, ..., v/2 are register
   bases of ``cvt`` and no other basis of any input touches an offset bit below ``v``: each lane then moves
   ``v`` consecutive elements with one instruction (``ld/st.shared.v4``, ``ds_read_b128`` ...).
3. The shared memory's input bits (offset bits, then block bits) are split into ``vector`` (v elements),
   ``bank`` (the rest of one wavefront's worth of banks: ``banks * 32 / (v * bitwidth)`` vectors) and
   ``segment`` (everything above).  Two addresses that differ only in segment bits sit in the same bank at
   different 32-bit words: the bank serves them one after the other.
4. The lanes served together (one *phase*, see ``targets.py``) form a subspace spanned by lane-id masks; its
   image in the tensor is the span ``T`` of the corresponding XORs of the register layout's lane bases.
   With ``k = dim(span(segment) ∩ T)`` every bank touched by a phase sees exactly ``2^k`` distinct words, so the
   phase takes ``2^k`` wavefronts instead of 1: ``2^k - 1`` conflicts.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..engine import LinearLayout
from ..engine import gf2
from ..errors import LayoutError, ShapeError, TTLayoutError, UnsupportedError
from .targets import READ, WRITE, Target, get_target

# ----------------------------------------------------------------------------------------- inputs


def element_bitwidth(element: str) -> int:
    """Bits of one element of an MLIR element type as stored in shared memory.

    f16/bf16 -> 16; f32/tf32/i32 -> 32; f64/i64 -> 64; f8* -> 8; f6*/f4* -> 6/4 (rejected later unless a power
    of two); iN -> N except i1 -> 8 (Triton keeps booleans in shared memory as one byte each);
    index and pointers (!tt.ptr<...>) -> 64."""
    e = element.strip()
    if e.startswith("!tt.ptr") or e == "index":
        return 64
    if e in ("tf32",):
        return 32
    if e == "bf16":
        return 16
    m = re.fullmatch(r"[su]?i(\d+)", e)
    if m:
        bits = int(m.group(1))
        return 8 if bits == 1 else bits
    m = re.fullmatch(r"f(\d+)(?:E\d+M\d+\w*)?", e)
    if m:
        return int(m.group(1))
    m = re.fullmatch(r"vector<(?:\d+x)+(.+)>", e)
    if m:
        raise UnsupportedError(f"vector element type {e} is not supported; give the scalar element type")
    raise UnsupportedError(f"cannot tell the bit width of element type '{e}'; use --bitwidth N")


def check_bitwidth(bitwidth: int) -> int:
    if bitwidth <= 0 or bitwidth & (bitwidth - 1):
        raise UnsupportedError(f"element bit width {bitwidth} is not a power of two; shared-memory analysis "
                               "needs power-of-two element sizes (give --bitwidth N to override)")
    if bitwidth > 128:
        raise UnsupportedError(f"element bit width {bitwidth} is wider than the widest (128-bit) shared-memory "
                               "access; Triton aborts here")
    return bitwidth


def to_attr(attr, what: str, kind: str):
    if isinstance(attr, str):
        from ..parsing import parse_attribute
        attr = parse_attribute(attr)
    if getattr(attr, "kind", None) != kind:
        raise UnsupportedError(f"the {what} layout must be a {kind} layout attribute, got {_short(str(attr))}")
    return attr


def layouts(reg_attr, shared_attr, shape) -> tuple[LinearLayout, LinearLayout]:
    """(register LL, shared LL) of the two attributes (text or parsed) over ``shape``."""
    from ..conversions import to_linear_layout
    reg = to_attr(reg_attr, "register", "distributed")
    shared = to_attr(shared_attr, "shared", "shared")
    shape = [int(s) for s in shape]
    if not shape:
        raise ShapeError("a rank-0 tensor has no elements to lay out")
    return to_linear_layout(reg, shape), to_linear_layout(shared, shape)


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ----------------------------------------------------------------------------------------- GF(2) helpers


def _flat(vecs, shifts) -> list[int]:
    return [sum(c << s for c, s in zip(v, shifts)) for v in vecs]


def _shifts(ll: LinearLayout) -> list[int]:
    out, s = [], 0
    for _, size in ll.get_out_dims():
        out.append(s)
        s += size.bit_length() - 1
    return out


def flat_in_dim(ll: LinearLayout, dim: str) -> list[int]:
    """Bases of one input dim as integers (first out dim least significant); [] if the dim is absent."""
    if not ll.has_in_dim(dim):
        return []
    return _flat(ll.get_in_dim_bases(dim), _shifts(ll))


def _is_pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def intersection_dim(b1: list[int], b2: list[int]) -> int:
    """dim(span(b1) ∩ span(b2)), computed the way Triton 3.9's ``intersectionBasis`` does: when every vector is
    a power of two it counts the non-zero vectors of b1 present in b2, otherwise the true dimension."""
    if all(_is_pow2(b) for b in b1) and all(_is_pow2(b) for b in b2):
        s2 = set(b2)
        return sum(1 for b in b1 if b in s2)
    return gf2.rank(b1) + gf2.rank(b2) - gf2.rank(list(b1) + list(b2))


def span_cosets(masks: tuple[int, ...], n_lanes: int) -> np.ndarray:
    """For every lane id, the index of its coset of span(masks) (phase number, lane 0's phase = 0)."""
    rows: dict[int, int] = {}                 # leading bit -> row (echelon form)
    for m in masks:
        for lead in sorted(rows, reverse=True):
            if m >> lead & 1:
                m ^= rows[lead]
        if m:
            rows[m.bit_length() - 1] = m
    order = sorted(rows, reverse=True)
    reps: dict[int, int] = {}
    out = np.empty(n_lanes, dtype=np.int64)
    for lane in range(n_lanes):
        r = lane
        for lead in order:                    # full reduction: a canonical coset representative
            if r >> lead & 1:
                r ^= rows[lead]
        out[lane] = reps.setdefault(r, len(reps))
    return out


def _xor_span(vectors: list[int]) -> np.ndarray:
    """All 2^n XOR combinations; entry x = XOR of vectors[i] for the set bits i of x."""
    out = np.zeros(1 << len(vectors), dtype=np.int64)
    for i, v in enumerate(vectors):
        w = 1 << i
        out[w:2 * w] = out[:w] ^ v
    return out


# ----------------------------------------------------------------------------------------- the analysis


@dataclass
class Access:
    """What one layout pair costs for one kind of access (read or write)."""
    op: str
    instruction: str            # e.g. ld.shared.v4.b32 / ds_read_b128
    access_bits: int            # bits one lane moves per instruction
    lanes_per_phase: int
    phases: int                 # ideal wavefronts per instruction
    phase_masks: tuple[int, ...]
    k: int                      # dim(span(segment) ∩ span(lane tile))
    conflicts: int              # 2^k - 1, Triton's unit
    wavefronts: int             # simulated wavefronts of the worst instruction
    sim_conflicts: int          # simulated: worst phase's wavefronts - 1
    simulated_instructions: int
    worst: dict | None = None   # worst wavefront: instruction, phase, lanes, bank, words


@dataclass
class BankReport:
    target: Target
    bitwidth: int
    shape: list[int]
    vector_width: int           # elements per lane per instruction
    lanes: int                  # lanes per warp of the register layout
    warps: int
    instructions_per_warp: int
    bank_elems: int             # elements in the "bank" part of one wavefront (vectors * v)
    segment_bits: int
    accesses: dict[str, Access] = field(default_factory=dict)
    prep: "_Prepared | None" = field(default=None, repr=False)

    @property
    def conflicts(self) -> int:
        return max(a.conflicts for a in self.accesses.values())

    @property
    def ops_differ(self) -> bool:
        a = list(self.accesses.values())
        return len(a) > 1 and (a[0].phase_masks != a[1].phase_masks)


@dataclass
class _Prepared:
    reg: LinearLayout           # broadcast registers removed
    smem: LinearLayout
    cvt: LinearLayout
    v: int
    perm: list[int]             # register positions: vector ones first
    offset_size: int
    total: int
    smem_flat: list[int]        # smem input bits (offset then block) -> flattened tensor index
    dims: int                   # tensor bits


def vectorisation(cvt: LinearLayout, bitwidth: int, max_elems: int | None = None) -> tuple[int, list[int]]:
    """Triton's ``largestVectorisation``: (v, register permutation putting the vector bases first)."""
    regs = list(cvt.get_in_dim_bases("register")) if cvt.has_in_dim("register") else []
    outs = cvt.out_dims
    oi = outs.index("offset")
    others_in = [d for d in cvt.in_dims if d != "register"]
    other_offsets = [v[oi] for d in others_in for v in cvt.get_in_dim_bases(d)]
    v = max_elems if max_elems is not None else 128 // bitwidth
    while v >= 1:
        log = v.bit_length() - 1
        chosen = []
        for i in range(log):
            want = tuple((1 << i) if j == oi else 0 for j in range(len(outs)))
            pos = next((p for p, b in enumerate(regs) if b == want and p not in chosen), None)
            if pos is None:
                break
            chosen.append(pos)
        if len(chosen) == log:
            rest = [p for p in range(len(regs)) if p not in chosen]
            mask = v - 1
            if all(regs[p][oi] & mask == 0 for p in rest) and all(o & mask == 0 for o in other_offsets):
                return v, chosen + rest
        v //= 2
    raise UnsupportedError(f"no vectorisation possible for {bitwidth}-bit elements (Triton aborts here)")


def _prepare(reg_ll: LinearLayout, smem_ll: LinearLayout, bitwidth: int) -> _Prepared:
    check_bitwidth(bitwidth)
    if not smem_ll.has_in_dim("offset"):
        raise UnsupportedError("the shared layout has no offset dimension")
    if not reg_ll.has_in_dim("register"):
        raise UnsupportedError("the register layout has no register dimension")
    if reg_ll.out_dims != smem_ll.out_dims or reg_ll.get_out_dims() != smem_ll.get_out_dims():
        raise ShapeError("the register and shared layouts cover different tensor shapes")
    reg = reg_ll.remove_zero_bases_along_dim("register")
    try:
        cvt = reg.invert_and_compose(smem_ll)
    except LayoutError as e:
        raise LayoutError("the shared layout does not hold every element of the register layout") from e
    v, perm = vectorisation(cvt, bitwidth)
    offset_size = smem_ll.get_in_dim_size("offset")
    total = smem_ll.get_total_in_dim_size()
    ins = ["offset"] + [d for d in smem_ll.in_dims if d != "offset"]
    shifts = _shifts(smem_ll)
    smem_flat = [x for d in ins for x in _flat(smem_ll.get_in_dim_bases(d), shifts)]
    return _Prepared(reg, smem_ll, cvt, v, perm, offset_size, total, smem_flat,
                     smem_ll.get_total_out_dim_size_log2())


def _split(p: _Prepared, bitwidth: int, target: Target) -> tuple[int, int]:
    """(bank size in vectors, segment size) exactly as Triton reshapes the shared layout's inputs."""
    bank = min(target.bank_bits // (p.v * bitwidth), p.total)
    segment = p.total // (bank * p.v) if bank * p.v else 0
    if segment < 1 or not _is_pow2(segment) or not _is_pow2(bank):
        raise ShapeError(f"the tensor is too small for a bank analysis: {p.total} shared elements of "
                         f"{bitwidth} bits with {p.v}-element vectors do not fill one {target.num_banks}-bank "
                         "wavefront (Triton aborts here)")
    return bank, segment


def lane_tile(lanes: list[int], masks) -> list[int]:
    """The tensor directions a phase spans: for each lane-id mask, the XOR of the lane bases it selects."""
    tile = []
    for m in masks:
        acc = 0
        for j, lane in enumerate(lanes):
            if m >> j & 1:
                acc ^= lane
        tile.append(acc)
    return tile


def _access_k(p: _Prepared, bitwidth: int, target: Target, op: str) -> tuple[int, tuple[int, ...]]:
    bank, _ = _split(p, bitwidth, target)
    log_v, log_bank = p.v.bit_length() - 1, bank.bit_length() - 1
    segment = p.smem_flat[log_v + log_bank:]
    lanes = flat_in_dim(p.reg, "lane")
    masks = target.phase_masks(p.v * bitwidth, op, len(lanes))
    return intersection_dim(segment, lane_tile(lanes, masks)), masks


def conflicts_of_layouts(reg_ll: LinearLayout, smem_ll: LinearLayout, bitwidth: int,
                         target: Target | str | None = None, op: str = READ) -> int:
    """Triton's count (2^k - 1) for already converted layouts."""
    target = target if isinstance(target, Target) else get_target(target)
    p = _prepare(reg_ll, smem_ll, bitwidth)
    k, _ = _access_k(p, bitwidth, target, op)
    return (1 << k) - 1


def bank_conflicts(reg_attr_text: str, shared_attr_text: str, shape: list[int], bitwidth: int) -> int:
    """Triton 3.9's ``GluonOpBuilder.get_shared_bank_conflicts(reg, shared, shape, bitwidth)`` (NVIDIA model).

    Raises a ``TTLayoutError`` where Triton aborts (tensor smaller than one wavefront, bit width > 128,
    layouts Triton cannot convert)."""
    reg_ll, smem_ll = layouts(reg_attr_text, shared_attr_text, shape)
    return conflicts_of_layouts(reg_ll, smem_ll, int(bitwidth), "sm90")


# ----------------------------------------------------------------------------------------- simulation

MAX_SIMULATED_INSTRUCTIONS = 64


def _simulate(p: _Prepared, bitwidth: int, target: Target, masks: tuple[int, ...],
              max_instr: int = MAX_SIMULATED_INSTRUCTIONS) -> tuple[np.ndarray, dict]:
    """Lane-by-lane replay of warp 0 / block 0.  Returns (wavefronts[instruction, phase], worst details)."""
    cvt = p.cvt
    oi = cvt.out_dims.index("offset")
    bi = cvt.out_dims.index("block") if "block" in cvt.out_dims else None

    def addr(b):
        return b[oi] + (b[bi] * p.offset_size if bi is not None else 0)

    regs = list(cvt.get_in_dim_bases("register"))
    regs = [regs[i] for i in p.perm]
    log_v = p.v.bit_length() - 1
    instr_bases = [addr(b) for b in regs[log_v:]]
    lane_bases = [addr(b) for b in cvt.get_in_dim_bases("lane")] if cvt.has_in_dim("lane") else []
    n_instr_bits = len(instr_bases)
    sim_bits = min(n_instr_bits, max(0, max_instr.bit_length() - 1))
    instr_addr = _xor_span(instr_bases[:sim_bits])
    lane_addr = _xor_span(lane_bases)
    n_lanes = len(lane_addr)
    addrs = instr_addr[:, None] ^ lane_addr[None, :]                       # [I, L] first element of each lane
    access_bits = p.v * bitwidth
    words_per_lane = max(1, access_bits // 32)
    first_word = (addrs * bitwidth) >> 5
    words = first_word[:, :, None] + np.arange(words_per_lane, dtype=np.int64)[None, None, :]   # [I, L, W]
    banks = words % target.num_banks
    phase_of_lane = span_cosets(masks, n_lanes)
    n_phases = int(phase_of_lane.max()) + 1 if n_lanes else 1
    n_i = len(instr_addr)
    group = (np.arange(n_i)[:, None, None] * n_phases + phase_of_lane[None, :, None]) * target.num_banks + banks
    wbits = max(1, int(words.max()).bit_length()) if words.size else 1
    keys = np.unique((group.astype(np.int64) << wbits) | words)
    distinct = np.bincount((keys >> wbits).astype(np.int64), minlength=n_i * n_phases * target.num_banks)
    per_bank = distinct.reshape(n_i, n_phases, target.num_banks)
    wave = per_bank.max(axis=2)
    # worst wavefront: the first (instruction, phase) with the most wavefronts, its most loaded bank
    flat_idx = int(np.argmax(wave))
    wi, wp = divmod(flat_idx, n_phases)
    wb = int(np.argmax(per_bank[wi, wp]))
    lanes_in_phase = np.nonzero(phase_of_lane == wp)[0]
    by_word: dict[int, list[int]] = {}
    for lane in lanes_in_phase:
        for w in words[wi, lane]:
            if int(w) % target.num_banks == wb:
                by_word.setdefault(int(w), []).append(int(lane))
    worst = {
        "instruction": wi,
        "phase": wp,
        "phase_lanes": [int(x) for x in lanes_in_phase],
        "bank": wb,
        "distinct_words": len(by_word),
        "words": [{"word": w, "byte_address": w * 4, "lanes": ls,
                   "elements": [_element_of(p, int(addrs[wi, lane])) for lane in ls]}
                  for w, ls in sorted(by_word.items())],
        "banks_at_max": int((per_bank[wi, wp] == per_bank[wi, wp].max()).sum()),
        "lane_addresses": [int(a) for a in addrs[wi, lanes_in_phase]],
    }
    return wave, worst


def _element_of(p: _Prepared, address: int) -> list[int]:
    """Tensor coordinates of the element stored at a (flattened offset, block) address."""
    flat = 0
    bit = 0
    while address >> bit:
        if address >> bit & 1:
            flat ^= p.smem_flat[bit]
        bit += 1
    coords = []
    for name, size in p.smem.get_out_dims():
        coords.append(flat & (size - 1))
        flat >>= size.bit_length() - 1
    return coords


def analyze(reg_ll: LinearLayout, smem_ll: LinearLayout, bitwidth: int, target: Target | str | None = None,
            simulate: bool = True) -> BankReport:
    """Everything the ``bank`` command reports, for both reads and writes."""
    target = target if isinstance(target, Target) else get_target(target)
    p = _prepare(reg_ll, smem_ll, bitwidth)
    bank, segment = _split(p, bitwidth, target)
    lanes = p.reg.get_in_dim_size("lane") if p.reg.has_in_dim("lane") else 1
    warps = p.reg.get_in_dim_size("warp") if p.reg.has_in_dim("warp") else 1
    n_regs = p.reg.get_in_dim_size("register")
    report = BankReport(target, bitwidth, list(smem_ll.get_out_dim_sizes().values()), p.v, lanes, warps,
                        max(1, n_regs // p.v), bank * p.v, segment.bit_length() - 1, prep=p)
    lane_bits = lanes.bit_length() - 1
    for op in (WRITE, READ):
        k, masks = _access_k(p, bitwidth, target, op)
        phases = 1 << (lane_bits - len(masks))
        access = Access(op, target.phase_name(p.v * bitwidth, op), p.v * bitwidth, 1 << len(masks), phases,
                        masks, k, (1 << k) - 1, phases << k, (1 << k) - 1, 0)
        if simulate:
            wave, worst = _simulate(p, bitwidth, target, masks)
            per_instr = wave.sum(axis=1)
            access.wavefronts = int(per_instr.max())
            access.sim_conflicts = int(wave.max()) - 1
            access.simulated_instructions = wave.shape[0]
            access.worst = worst
        report.accesses[op] = access
    return report


def analyze_attrs(reg_attr, shared_attr, shape, bitwidth: int, target=None, simulate: bool = True) -> BankReport:
    reg_ll, smem_ll = layouts(reg_attr, shared_attr, shape)
    return analyze(reg_ll, smem_ll, bitwidth, target, simulate)


__all__ = ["bank_conflicts", "conflicts_of_layouts", "analyze", "analyze_attrs", "layouts", "element_bitwidth",
           "BankReport", "Access", "vectorisation", "intersection_dim", "TTLayoutError"]
