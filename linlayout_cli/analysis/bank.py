"""Shared-memory bank conflicts of a register layout accessing a shared layout.

``conflicts_of_layouts(reg_ll, smem_ll, bitwidth, "sm90")`` is Triton 3.9's ``get_shared_bank_conflicts``
(``bankConflictsMemDesc``; ``notebook.bank_conflicts`` takes the attributes' texts): the number of *extra*
wavefronts per wavefront that a warp's shared-memory access needs, ``2^k - 1``.  ``analyze_bank`` computes the
same number for any target of ``targets.py`` together with the data that explains it, and checks it by
simulating the access lane by lane.

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

from ..engine import LinearLayout, gf2, unflatten
from ..engine.bits import is_pow2, log2
from ..errors import LayoutError, ShapeError, UnsupportedError
from ..records import frozen
from .access import Wavefronts, vectorisation, wavefront_split, wavefronts
from .targets import DEFAULT, READ, WRITE, Target

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: shared_access loads when the GPU's figures are asked for
    from ..conversions.padded_shared import Padding

# ----------------------------------------------------------------------------------------- inputs


def check_bitwidth(bitwidth: int) -> int:
    if not is_pow2(bitwidth):
        raise UnsupportedError(f"element bit width {bitwidth} is not a power of two; shared-memory analysis "
                               "needs power-of-two element sizes (give --bitwidth N to override)")
    if bitwidth > 128:
        raise UnsupportedError(f"element bit width {bitwidth} is wider than the widest (128-bit) shared-memory "
                               "access; Triton aborts here")
    return bitwidth


# ----------------------------------------------------------------------------------------- results


@frozen
class Word:
    """One 32-bit word of the worst bank: who reads or writes it."""
    word: int
    byte_address: int
    lanes: tuple[int, ...]
    elements: tuple[tuple[int, ...], ...]


@frozen
class Worst:
    """The worst wavefront of the lane-by-lane replay: its instruction and lanes, and its most loaded bank."""
    instruction: int
    phase: int
    lanes: tuple[int, ...]
    bank: int
    words: tuple[Word, ...]
    banks_at_max: int               # how many banks serve that many words

    @property
    def distinct_words(self) -> int:
        return len(self.words)


@frozen
class Access:
    """What one layout pair costs for one kind of access (read or write)."""
    op: str
    instruction: str            # e.g. ld.shared.v4.b32 / ds_read_b128
    access_bits: int            # bits one lane moves per instruction
    model: Wavefronts           # Triton's linear model
    wavefronts: int             # simulated wavefronts of the worst instruction (model's when not simulated)
    sim_conflicts: int          # simulated: worst phase's wavefronts - 1
    simulated_instructions: int
    worst: Worst | None = None

    @property
    def conflicts(self) -> int:
        return self.model.conflicts

    @property
    def k(self) -> int:
        return self.model.k

    @property
    def phases(self) -> int:
        return self.model.phases

    @property
    def phase_masks(self) -> tuple[int, ...]:
        return self.model.masks

    @property
    def lanes_per_phase(self) -> int:
        return 1 << len(self.model.masks)


@frozen
class Prepared:
    """The conversion between the two layouts, ready for the model: register -> shared address."""
    reg: LinearLayout           # broadcast registers removed
    smem: LinearLayout
    cvt: LinearLayout           # (register, lane, warp, block) -> (offset, block)
    v: int
    perm: tuple[int, ...]       # register positions: vector ones first
    offset_size: int
    total: int
    smem_flat: tuple[int, ...]  # smem input bits (offset then block) -> flattened tensor index

    def element_at(self, address: int) -> tuple[int, ...]:
        """Tensor coordinates of the element stored at a flattened (offset, block) address."""
        flat = gf2.apply(self.smem_flat, address)
        return tuple(unflatten(flat, self.smem.get_out_dim_sizes().values()))


@frozen
class BankReport:
    target: Target
    bitwidth: int
    shape: tuple[int, ...]
    vector_width: int           # elements per lane per instruction
    lanes: int                  # lanes per warp of the register layout
    warps: int
    instructions_per_warp: int
    bank_elems: int             # elements in the "bank" part of one wavefront (vectors * v)
    segment_bits: int
    accesses: dict              # op (WRITE / READ) -> Access
    prep: Prepared
    gpu: object = None          # shared_access.RoundTrip (bank sits below shared_access): what the compiled code does on the GPU (None: see gpu_note)
    gpu_note: str | None = None # why the GPU's figures are missing

    @property
    def conflicts(self) -> int:
        return max(a.conflicts for a in self.accesses.values())

    @property
    def ops_differ(self) -> bool:
        a = list(self.accesses.values())
        return len(a) > 1 and (a[0].phase_masks != a[1].phase_masks)


# ----------------------------------------------------------------------------------------- the analysis


def prepare(reg_ll: LinearLayout, smem_ll: LinearLayout, bitwidth: int,
            cvt: LinearLayout | None = None) -> Prepared:
    """`cvt = reg.invert_and_compose(smem)` (Triton's own route) and the vector width it allows. `cvt`: that
    conversion where the caller has it already (the shared-access model computes it first)."""
    check_bitwidth(bitwidth)
    if not smem_ll.has_in_dim("offset"):
        raise UnsupportedError("the shared layout has no offset dimension")
    if not reg_ll.has_in_dim("register"):
        raise UnsupportedError("the register layout has no register dimension")
    if reg_ll.out_dims != smem_ll.out_dims or reg_ll.get_out_dims() != smem_ll.get_out_dims():
        raise ShapeError("the register and shared layouts cover different tensor shapes")
    reg = reg_ll.remove_zero_bases_along_dim("register")
    if cvt is None:
        try:
            cvt = reg.invert_and_compose(smem_ll)
        except LayoutError as e:
            raise LayoutError("the shared layout does not hold every element of the register layout") from e
    v, perm = vectorisation(cvt, bitwidth)
    ins = ["offset"] + [d for d in smem_ll.in_dims if d != "offset"]
    smem_flat = tuple(x for d in ins for x in smem_ll.flat_in_dim(d))
    return Prepared(reg, smem_ll, cvt, v, tuple(perm), smem_ll.get_in_dim_size("offset"),
                    smem_ll.get_total_in_dim_size(), smem_flat)


def model_of(p: Prepared, bitwidth: int, target: Target, op: str) -> Wavefronts:
    """Triton's linear model of one access of a prepared pair (its count is `.conflicts`)."""
    return wavefronts(list(p.smem_flat), p.v, bitwidth, p.reg.flat_in_dim("lane"), target, op)


def conflicts_of_layouts(reg_ll: LinearLayout, smem_ll: LinearLayout, bitwidth: int,
                         target: Target = DEFAULT, op: str = READ) -> int:
    """The count alone (2^k - 1): on "sm90", Triton 3.9's `GluonOpBuilder.get_shared_bank_conflicts`, which
    raises a `TTLayoutError` where Triton aborts (tensor smaller than one wavefront, bit width > 128)."""
    return model_of(prepare(reg_ll, smem_ll, bitwidth), bitwidth, target, op).conflicts


def vector_limit(report: BankReport) -> str:
    """What keeps a shared-memory access from a wider vector, in one word: "128-bit cap" (it is as wide as an
    access gets), "shared layout" (the next offset is outside the buffer, or it holds an element that a register
    of the same thread holds, yet the swizzle's `vec` or phase split them), "register layout" (no register of the
    same thread holds the element at the next offset: the layouts' common contiguous registers end there).
    `vector_reason` says which basis stands in the way."""
    return vector_limit_of(report.prep, report.vector_width, report.bitwidth)


# why the vector is not wider, as `VectorReason.code` (reports/bank.py words each)
WIDEST, FEW_OFFSETS, HELD_ELSEWHERE, NO_REGISTER_STEP, SPLITS, NOT_CONTIGUOUS = (
    "widest", "few offsets", "held elsewhere", "no register step", "splits", "not contiguous")


@frozen
class VectorReason:
    """Why a shared-memory access is no wider, found by walking the conversion's bases: `code` (one of the six
    above) and what it names: the next `offset` a wider vector would need and the `element` there; the hardware
    basis (`dim`, its index value `index`) that holds it or splits the vector; `elements`, the wider vector's
    length; `offsets`, the shared layout's size."""
    code: str
    offset: int = 0
    element: tuple[int, ...] = ()
    dim: str = ""
    index: int = 0
    elements: int = 0
    offsets: int = 0


def vector_reason(report: BankReport) -> VectorReason:
    """Why the vector is not wider: the first of (the widest access; the shared layout too small; the next offset
    held by another lane, warp or block; no register reaching it; a basis that would split a wider vector)."""
    bw, v, prep = report.bitwidth, report.vector_width, report.prep
    if v * bw >= 128:
        return VectorReason(WIDEST)
    cvt = prep.cvt
    oi = cvt.out_dims.index("offset")
    bi = cvt.out_dims.index("block") if "block" in cvt.out_dims else None
    want = v                                   # the element offset the next vector bit would need
    if want >= prep.offset_size:
        return VectorReason(FEW_OFFSETS, offsets=prep.offset_size)
    for dim in cvt.in_dims:
        for j, b in enumerate(cvt.get_in_dim_bases(dim)):
            if b[oi] == want and (bi is None or b[bi] == 0):
                if dim == "register":
                    continue
                return VectorReason(HELD_ELSEWHERE, want, tuple(prep.element_at(want)), dim, 1 << j)
    regs = cvt.get_in_dim_bases("register")
    if not any(b[oi] == want and (bi is None or b[bi] == 0) for b in regs):
        return VectorReason(NO_REGISTER_STEP, want, tuple(prep.element_at(want)))
    mask = 2 * v - 1
    for dim in cvt.in_dims:
        for j, b in enumerate(cvt.get_in_dim_bases(dim)):
            if dim == "register" and b[oi] == want:
                continue
            if b[oi] & mask and b[oi] & (v - 1) == 0:
                return VectorReason(SPLITS, b[oi], dim=dim, index=1 << j, elements=2 * v)
    return VectorReason(NOT_CONTIGUOUS, elements=2 * v)


def vector_limit_of(prep: Prepared, v: int, bitwidth: int) -> str:
    """`vector_limit` from the prepared pair alone (`prepare`: no wavefront model), for `v` elements of
    `bitwidth` bits per lane."""
    if v * bitwidth >= 128:
        return "128-bit cap"
    if v >= prep.offset_size:
        return "shared layout"
    nxt = gf2.apply(prep.smem_flat, v)         # the element the next offset holds (offset 0 holds element 0)
    held = nxt in set(gf2.span(prep.reg.flat_in_dim("register")))
    return "shared layout" if held else "register layout"


# ----------------------------------------------------------------------------------------- simulation

MAX_SIMULATED_INSTRUCTIONS = 64


def span_cosets(masks: tuple[int, ...], n_lanes: int) -> list[int]:
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
    out = []
    for lane in range(n_lanes):
        r = lane
        for lead in order:                    # full reduction: a canonical coset representative
            if r >> lead & 1:
                r ^= rows[lead]
        out.append(reps.setdefault(r, len(reps)))
    return out


def lane_addresses(p: Prepared, max_instr: int = MAX_SIMULATED_INSTRUCTIONS) -> list[list[int]]:
    """[instruction][lane] -> the flattened shared address of the first element that lane moves (warp 0, block 0;
    the first `max_instr` instructions)."""
    cvt = p.cvt
    regs = cvt.flat_in_dim("register")
    regs = [regs[i] for i in p.perm]
    instr_bases = regs[log2(p.v):]
    sim_bits = min(len(instr_bases), max(0, log2(max_instr)))
    lanes = gf2.span(cvt.flat_in_dim("lane"))
    return [[i ^ lane for lane in lanes] for i in gf2.span(instr_bases[:sim_bits])]


def lane_words(addr: int, v: int, bitwidth: int) -> range:
    """The 32-bit words an access of `v` elements starting at `addr` touches."""
    first = (addr * bitwidth) >> 5
    return range(first, first + max(1, v * bitwidth // 32))


@frozen
class LaneAccess:
    """What one lane of a wavefront touches: its 32-bit words and the first element it moves."""
    lane: int
    words: tuple[int, ...]
    element: tuple[int, ...]


def worst_wavefront_lanes(report: BankReport, op: str) -> tuple[LaneAccess, ...]:
    """Every lane of the worst wavefront of `op` (``report.accesses[op].worst``) with the words it touches."""
    worst = report.accesses[op].worst
    if worst is None:
        return ()
    p = report.prep
    addrs = lane_addresses(p)[worst.instruction]
    return tuple(LaneAccess(lane, tuple(lane_words(addrs[lane], p.v, report.bitwidth)), p.element_at(addrs[lane]))
                 for lane in worst.lanes)


def simulate(p: Prepared, bitwidth: int, target: Target, masks: tuple[int, ...],
             max_instr: int = MAX_SIMULATED_INSTRUCTIONS) -> tuple[list[list[int]], Worst]:
    """Lane-by-lane replay of warp 0 / block 0: (wavefronts[instruction][phase], the worst wavefront). A
    wavefront count is the most distinct words any one bank serves in that instruction's phase."""
    addrs = lane_addresses(p, max_instr)
    n_lanes = len(addrs[0]) if addrs else 0
    phase_of_lane = span_cosets(masks, n_lanes)
    n_phases = max(phase_of_lane) + 1 if n_lanes else 1
    banks = target.num_banks
    wave: list[list[int]] = []
    per_bank_of: list[list[list[int]]] = []
    for row in addrs:
        words_in: list[list[set]] = [[set() for _ in range(banks)] for _ in range(n_phases)]
        for lane, addr in enumerate(row):
            phase = words_in[phase_of_lane[lane]]
            for w in lane_words(addr, p.v, bitwidth):
                phase[w % banks].add(w)
        counts = [[len(ws) for ws in phase] for phase in words_in]
        per_bank_of.append(counts)
        wave.append([max(c) for c in counts])
    # worst wavefront: the first (instruction, phase) with the most wavefronts, its most loaded bank
    flat = [w for row in wave for w in row]
    wi, wp = divmod(flat.index(max(flat)), n_phases)
    loads = per_bank_of[wi][wp]
    wb = loads.index(max(loads))
    lanes_in_phase = [lane for lane in range(n_lanes) if phase_of_lane[lane] == wp]
    by_word: dict[int, list[int]] = {}
    for lane in lanes_in_phase:
        for w in lane_words(addrs[wi][lane], p.v, bitwidth):
            if w % banks == wb:
                by_word.setdefault(w, []).append(lane)
    worst = Worst(wi, wp, tuple(lanes_in_phase), wb,
                  tuple(Word(w, w * 4, tuple(ls), tuple(p.element_at(addrs[wi][lane]) for lane in ls))
                        for w, ls in sorted(by_word.items())),
                  loads.count(max(loads)))
    return wave, worst


def analyze_bank(reg_ll: LinearLayout, smem_ll: LinearLayout, bitwidth: int, target: Target = DEFAULT,
                 simulate_lanes: bool = True) -> BankReport:
    """Triton's model of both writes and reads, and its lane-by-lane replay (`gpu` left empty:
    `shared_access.analyze_shared_access` adds what the GPU does with the instructions Triton 3.9 emits)."""
    p = prepare(reg_ll, smem_ll, bitwidth)
    bank, segment = wavefront_split(p.total, p.v, bitwidth, target)
    lanes = p.reg.get_in_dim_size("lane") if p.reg.has_in_dim("lane") else 1
    warps = p.reg.get_in_dim_size("warp") if p.reg.has_in_dim("warp") else 1
    n_regs = p.reg.get_in_dim_size("register")
    accesses = {}
    for op in (WRITE, READ):
        model = model_of(p, bitwidth, target, op)
        access = Access(op, target.phase_name(p.v * bitwidth, op), p.v * bitwidth, model,
                        model.phases << model.k, model.conflicts, 0)
        if simulate_lanes:
            wave, worst = simulate(p, bitwidth, target, model.masks)
            access = Access(op, access.instruction, access.access_bits, model, max(sum(row) for row in wave),
                            max(max(row) for row in wave) - 1, len(wave), worst)
        accesses[op] = access
    return BankReport(target, bitwidth, tuple(smem_ll.get_out_dim_sizes().values()), p.v, lanes, warps,
                      max(1, n_regs // p.v), bank * p.v, log2(segment), accesses, p)


# ----------------------------------------------------------------------------------------- padded layouts


@frozen
class PaddedBankReport:
    """`bank` on a `#ttg.padded_shared` layout: Triton's model has no count for padding, so only the GPU's
    figures (`shared_access.analyze_shared_access`): `gpu` is a shared_access.RoundTrip."""
    target: Target
    bitwidth: int
    shape: tuple[int, ...]
    lanes: int
    warps: int
    padding: Padding
    gpu: object                 # shared_access.RoundTrip (bank sits below shared_access)

