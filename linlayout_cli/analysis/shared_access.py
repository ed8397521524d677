"""What the GPU does when a warp moves a tensor between registers and shared memory, as Triton 3.9 compiles it.

One model for both directions of every register <-> shared-memory access: ``local_alloc`` / ``local_store``
and the stores of a ``convert_layout`` (write), ``local_load`` and the convert's loads (read).  For each it
gives the exact instruction Triton 3.9 emits, how many, and the shared-memory wavefronts they take by the
hardware's rules; Triton's own bank-conflict count stays beside it, labelled as Triton's.

The compiler's choice (Triton 3.9: ``lowerLocalLdSt`` / ``lowerLdStShared`` / ``lowerLdSt`` in
``lib/Conversion/TritonGPUToLLVM/Utility.cpp``, ``lowerLdStMatrix`` in
``third_party/nvidia/lib/TritonNVIDIAGPUToLLVM``, AMD's ``TransLocalLoadOpConversion``):

1. registers that repeat another register (zero bases) are dropped: each distinct value moves once;
2. NVIDIA tries ``stmatrix`` (sm90+) / ``ldmatrix`` (sm75+), first plain, then ``.trans`` (16-bit; 8-bit on
   sm100: ``stmatrix.m16n8`` / ``ldmatrix.m16n16 .trans.b8``), when the conversion register/lane/warp -> shared
   offset has the matrix shape: plain needs a 32-bit word in registers, lanes 0 and 1 on the next two words and
   nothing else below 16 bytes; ``.trans`` needs lanes 2-4 on offsets 1, 2, 4 and nothing else below 8
   elements (8-bit: a register on offset 8, nothing else below 16).  Never for ``#ttg.padded_shared``;
3. gfx950 loads 8/16-bit operands whose registers run across shared memory's contiguous dim with
   ``ds_read_b64_tr_b*`` (16 lanes x 64 bits, transposed);
4. otherwise ``ld/st.shared`` (``ds_read/ds_write``) of the largest vector (``largestVectorisation``, at most
   128 bits, and at most the smallest padding interval of a padded layout).

The hardware's rules (docs/shared_memory_model.md):

* 32 banks of 4 bytes (64 on gfx950); a wavefront serves each bank once, and lanes asking for the same 32-bit
  word are served together (broadcast);
* accesses of 64 / 128 bits per lane are served 128 bytes at a time: half warps, quarter warps (AMD: the lane
  groups of ``targets.py``);
* ``ldmatrix`` / ``stmatrix``: each 8x8 matrix (eight 16-byte rows) is one wavefront when its rows fall on
  distinct banks, more when they share banks (sm100's ``.b8`` forms: each eight of their 16-byte rows).

Padded layouts are not linear: addresses are computed per lane, and a padding that moves a vector off its
natural alignment is refused (``MisalignedAccess``): the compiled kernel would fault.
"""
from __future__ import annotations

from ..conversions.padded_shared import Padding
from ..engine import LinearLayout
from ..errors import MAX_ELEMENTS, LayoutError, ShapeError, UnsupportedError, check_size
from ..records import frozen, replace
from . import convert_smem as cs
from .bank import (
    BankReport,
    PaddedBankReport,
    Prepared,
    analyze_bank,
    check_bitwidth,
    conflicts_of_layouts,
    model_of,
    prepare,
)
from .shared_instructions import (  # noqa: F401  (re-exported: importers keep this path)
    BLOCK,
    DS2_OFFSETS,
    DS_READ_TR,
    LANE,
    MACHINES,
    MATRIX,
    MATRIX_TRANS,
    REG,
    SHARED,
    WARP,
    Access,
    Lowering,
    Machine,
    MisalignedAccess,
    Packing,
    Waves,
    _access_from_cvt,
    _cvt_of,
    access_of,
    check_alignment,
    class_representatives,
    ds_read_tr_lowering,
    first_misaligned,
    get_machine,
    instruction_name,
    instruction_waves,
    issued_count,
    lowering,
    matrix_lowering,
    packing_of,
    padding_text,
    shared_lowering,
    simulate,
)
from .targets import DEFAULT, READ, WRITE, Target

# ----------------------------------------------------------------------------------------- results


@frozen
class Direction:
    """One direction (write or read) of a register <-> shared-memory access, per CTA.

    ``wavefronts_*`` are None where the hardware's rule is not known (ds_read_b64_tr, gfx1200)."""
    op: str                             # "write" or "read"
    instruction: str                    # exact form: st.shared.v4.b32, ldmatrix.sync.aligned.m8n8.x4.shared.b16
    kind: str                           # ld/st.shared, matrix, matrix.trans or ds_read_tr
    vector_bits: int                    # bits one lane moves per instruction
    instructions_per_warp: int          # = per thread: the lowering has no loop
    instructions_per_cta: int
    wavefronts_max: int | None          # of one instruction
    wavefronts_mean: float | None       # per instruction, over the CTA
    wavefronts_total: int | None        # of the CTA
    ideal_wavefronts_total: int | None  # the same data with no two words of a wavefront on one bank
    conflicts: int | None               # Triton's model: 2^k - 1 (None where it has no number)
    why: str | None = None              # where the hardware figure differs from Triton's model
    issued: int | None = None           # instructions per warp in the assembly (AMD: LLVM pairs some, see issued_count)

    @property
    def wavefronts(self) -> int | None:
        """Wavefronts of the worst instruction (the issue's `wavefronts`)."""
        return self.wavefronts_max


@frozen
class RoundTrip:
    """Both directions of one shared buffer (local_alloc + local_load), or of a convert's scratch round trip."""
    target: str
    bitwidth: int
    warps: int
    write: Direction
    read: Direction
    rounds: int = 1                     # convert: the scratch buffer holds 1/rounds of the tensor
    barriers: int = 0                   # convert: as the compiled code has them
    barrier_instruction: str | None = None


# ----------------------------------------------------------------------------------------- Triton's model and why


@frozen
class TritonFigures:
    """Triton's own model (`bankConflictsMemDesc`, analysis/bank.py) for one direction."""
    instruction: str
    instructions_per_warp: int
    wavefronts_per_instruction: int
    conflicts: int


def triton_figures(m: Machine, reg_ll, shared_ll, bitwidth: int, op: str, p: Prepared | None = None
                   ) -> TritonFigures | None:
    """Triton's model of plain ld/st.shared on this pair (`p`: the pair already prepared); None where it has no
    number (tensor smaller than a wavefront, no bank model for the target)."""
    banks = m.banks
    if banks is None:
        return None
    try:
        p = p or prepare(reg_ll, shared_ll, bitwidth)
        k = model_of(p, bitwidth, banks, op).conflicts
    except (ShapeError, UnsupportedError, LayoutError):
        return None
    phases = 1 << (len(p.reg.flat_in_dim(LANE)) - len(banks.phase_masks(p.v * bitwidth, op,
                                                                           len(p.reg.flat_in_dim(LANE)))))
    n_regs = p.reg.get_in_dim_size(REG)
    name = instruction_name(m, Lowering(SHARED, 0, p.v, (), ()), bitwidth, op, packing_of(reg_ll, shared_ll, bitwidth))
    return TritonFigures(name, max(1, n_regs // p.v), phases * (k + 1), k)


def repeated_lanes(zero_lanes, lane_bits: int) -> str | None:
    """'lanes 8-31 repeat lanes 0-7' when the top lane bits hold copies, else which lane-id bits do.

    >>> repeated_lanes((3, 4), 5), repeated_lanes((0,), 5)
    ('lanes 8-31 repeat lanes 0-7', 'lanes that differ only in lane-id bit 0 hold the same elements')
    """
    if not zero_lanes:
        return None
    zs = sorted(zero_lanes)
    if zs == list(range(lane_bits - len(zs), lane_bits)):
        k = 1 << (lane_bits - len(zs))
        return f"lanes {k}-{(1 << lane_bits) - 1} repeat lanes 0-{k - 1}"
    bits = ", ".join(map(str, zs))
    return f"lanes that differ only in lane-id bit{'s' if len(zs) > 1 else ''} {bits} hold the same elements"


def explain(d: Direction, tri: TritonFigures | None, a: Access, warps: int, padding: Padding | None,
            broadcast: bool, bitwidth: int) -> str | None:
    """One sentence where the GPU's figure differs from Triton's model; None where they agree."""
    unpriced = "no measured bank rule for ds_read_b64_tr" if d.kind == DS_READ_TR else None
    if padding is not None:
        if d.wavefronts_total is None:
            return "Triton's model does not price #ttg.padded_shared" + (f"; {unpriced}" if unpriced else "") + "."
        return (f"Triton's model does not price #ttg.padded_shared; with {padding_text(padding)} the CTA's "
                f"{d.instructions_per_cta} {d.instruction} take {d.wavefronts_total} wavefronts "
                f"({d.ideal_wavefronts_total} ideal).")
    if tri is None:
        return None
    parts = []
    if tri.instruction != d.instruction or tri.instructions_per_warp != d.instructions_per_warp:
        text = (f"Triton's model counts {tri.instructions_per_warp} {tri.instruction} per warp; the compiler "
                f"emits {d.instructions_per_warp} {d.instruction}")
        if d.kind in (MATRIX, MATRIX_TRANS):
            b8 = bitwidth == 8 and d.kind == MATRIX_TRANS      # sm100's .b8 forms: rows of 16 bytes, 8 a wave
            text += f", one wavefront per conflict-free {'8 rows of 16 bytes' if b8 else '8x8 matrix'}"
            if d.wavefronts_total != d.ideal_wavefronts_total:
                group = ("groups of 8 rows", "group") if b8 else ("matrices", "matrix")
                text += (f" (here {d.wavefronts_max} per instruction for {d.vector_bits // 32} {group[0]}: rows "
                         f"of a {group[1]} share banks)")
        elif d.kind == DS_READ_TR:
            text += f" (16 lanes x 64 bits, transposed; {unpriced})"
        elif d.instructions_per_warp < tri.instructions_per_warp:
            text += " (LLVM merges accesses to consecutive addresses)"
        parts.append(text)
    if d.wavefronts_total is not None and not parts:
        model_total = tri.instructions_per_warp * warps * tri.wavefronts_per_instruction
        if model_total != d.wavefronts_total:
            text = f"Triton's model counts {model_total} wavefronts; the GPU takes {d.wavefronts_total}"
            rep = repeated_lanes(a.zero_lanes, len(a.lanes))
            if d.wavefronts_total < model_total and broadcast:
                text += (f" because {rep} and" if rep else " because") + \
                    " lanes asking for the same 32-bit word are served together"
            elif d.vector_bits < 32:
                text += (f" because {bitwidth}-bit lanes meet in banks at different bytes of different words, "
                         "which Triton's linear model does not see")
            parts.append(text)
    return "; ".join(parts) + "." if parts else None


# ----------------------------------------------------------------------------------------- the directions


def _direction(m: Machine, a: Access, low: Lowering, bitwidth: int, op: str, warps: int,
               padding: Padding | None, tri: TritonFigures | None, packing: Packing) -> Direction:
    name = instruction_name(m, low, bitwidth, op, packing)
    check_alignment(a, low, bitwidth, padding, name)
    waves = simulate(m, a, low, bitwidth, op, padding)
    per_cta = low.count * warps
    if waves is None:
        wmax = wmean = total = ideal = None
        broadcast = False
    else:
        total, ideal, wmax = waves.total, waves.ideal_total, waves.worst
        wmean = total / waves.instructions
        broadcast = waves.broadcast
    bits = low.elems * bitwidth
    d = Direction(op, name, low.kind, bits, low.count, per_cta, wmax, wmean, total, ideal,
                  tri.conflicts if tri is not None and padding is None else None,
                  issued=issued_count(m, a, low, bitwidth, padding))
    why = explain(d, tri, a, warps, padding, broadcast, bitwidth)
    if d.wavefronts_total is None and why is None:
        why = ("no measured bank rule for ds_read_b64_tr." if low.kind == DS_READ_TR
               else f"no bank model for {m.name}.")
    return replace(d, why=why)


def _warps_of(reg_ll: LinearLayout) -> int:
    return reg_ll.get_in_dim_size(WARP) if reg_ll.has_in_dim(WARP) else 1


def local_access(reg_ll: LinearLayout, shared_ll: LinearLayout, bitwidth: int, op: str,
                 target: Target = DEFAULT, padding: Padding | None = None,
                 cache: dict | None = None) -> Direction:
    """One direction of a local_alloc / local_store (op="write") or local_load (op="read") of `reg_ll`
    through `shared_ll` (for #ttg.padded_shared: its linear component, with `padding`).  `cache`: a dict kept
    between calls on the same two layouts (other paddings, the other direction) saves their conversion.

    Raises MisalignedAccess for a padding that leaves the compiler's vector access misaligned."""
    return _local_access(get_machine(target), reg_ll, shared_ll, bitwidth, op, padding, {} if cache is None else cache)


def _local_access(m: Machine, reg_ll: LinearLayout, shared_ll: LinearLayout, bitwidth: int, op: str,
                  padding: Padding | None, cache: dict) -> Direction:
    """`local_access`; `cache` keeps the conversion and Triton's prepared pair for the other direction."""
    check_bitwidth(bitwidth)
    if op not in (READ, WRITE):
        raise UnsupportedError(f"unknown direction '{op}' (read or write)")
    if reg_ll.get_in_dim_size(LANE) != m.warp_size:
        raise UnsupportedError(f"the register layout has {reg_ll.get_in_dim_size(LANE)} lanes per warp but "
                               f"{m.name} runs {m.warp_size}")
    if "access" not in cache:
        cache["cvt"], reg = _cvt_of(reg_ll, shared_ll)
        cache["access"] = _access_from_cvt(cache["cvt"], reg)
    a = cache["access"]
    low = lowering(m, a, bitwidth, op, padding, reg_ll, shared_ll)
    tri = None
    if padding is None and m.banks is not None:
        if "prepared" not in cache:
            try:
                cache["prepared"] = prepare(reg_ll, shared_ll, bitwidth, cache.get("cvt"))
            except (ShapeError, UnsupportedError, LayoutError):
                cache["prepared"] = None
        if cache["prepared"] is not None:
            tri = triton_figures(m, reg_ll, shared_ll, bitwidth, op, cache["prepared"])
    return _direction(m, a, low, bitwidth, op, _warps_of(reg_ll), padding, tri,
                      packing_of(reg_ll, shared_ll, bitwidth))


def local_round_trip(write_ll: LinearLayout, shared_ll: LinearLayout, bitwidth: int,
                     target: Target = DEFAULT, read_ll: LinearLayout | None = None,
                     padding: Padding | None = None) -> RoundTrip:
    """local_alloc with `write_ll`, then local_load into `read_ll` (default: the same layout)."""
    m = get_machine(target)
    cache: dict = {}
    w = _local_access(m, write_ll, shared_ll, bitwidth, WRITE, padding, cache)
    if read_ll is not None and read_ll is not write_ll:
        cache = {}
    r = _local_access(m, write_ll if read_ll is None else read_ll, shared_ll, bitwidth, READ, padding, cache)
    return RoundTrip(m.name, bitwidth, _warps_of(write_ll), w, r)


# ----------------------------------------------------------------------------------------- convert_layout


def convert_access(src_ll: LinearLayout, dst_ll: LinearLayout, bitwidth: int, target: Target,
                   warp_sync: bool, scratch: tuple | None = None) -> RoundTrip:
    """The shared-memory round trip of a convert_layout that Triton lowers through shared memory: the scratch
    layout and store/load instructions it picks (analysis/convert_smem.py), priced per CTA.

    `warp_sync`: no data crosses warps (Triton's `isCvtDimSync`); NVIDIA then separates the rounds with
    `bar.warp.sync`, AMD with nothing (a wavefront runs in lockstep; the compiled code has no s_barrier).
    `scratch`: Triton's choice when the caller has it already, `scratch_choice`'s (layout, store tile, load
    tile, lane tiles)."""
    check_bitwidth(bitwidth)
    m = get_machine(target)
    src, dst = cs.Threads.of(src_ll), cs.Threads.of(dst_ll)
    dim = src_ll.get_total_out_dim_size_log2()
    smem, st_tile, ld_tile, tri_lanes = scratch or scratch_choice(target, src, dst, bitwidth, dim)
    warps = _warps_of(src_ll)
    out = {}
    shape = [size for _, size in src_ll.get_out_dims()]
    smem_ll = cs.shared_layout_ll(smem, shape)
    for op, side, tile, ll in ((WRITE, src, st_tile, src_ll), (READ, dst, ld_tile, dst_ll)):
        a = _access_from_cvt(cs.access_layout(side, smem))
        kind = cs.INSTRUCTIONS[tile]
        low: Lowering | None                    # matrix_lowering may find none; narrowed to Lowering below
        if kind == "shared":
            low = shared_lowering(a, bitwidth, 128 // bitwidth)
        else:
            low = matrix_lowering(a, bitwidth, kind == "matrix.trans")
            if low is None:                     # cannot happen for a tile Triton picked; keep the plain form
                low = shared_lowering(a, bitwidth, 128 // bitwidth)
        if tri_lanes is not None:
            read, write = cs.tile_conflicts(tri_lanes[0], tri_lanes[1], smem, dim)
            tri_conf: int | None = write if op == WRITE else read
        else:
            try:
                tri_conf = conflicts_of_layouts(ll, smem_ll, bitwidth, m.banks, op) if m.banks else None
            except (ShapeError, UnsupportedError):
                tri_conf = None
        issued = issued_count(m, a, low, bitwidth) * smem.n_reps     # pairs form within one round
        low = Lowering(low.kind, low.count * smem.n_reps, low.elems, low.instr_regs, low.unit_bases,
                       low.matrix_regs)
        d = _scale_rounds(_direction(m, a, low, bitwidth, op, warps, None, None,
                                     packing_of(ll, smem_ll, bitwidth)), smem.n_reps)
        out[op] = replace(d, conflicts=tri_conf, why=_convert_why(d, tri_conf), issued=issued)
    rounds = smem.n_reps
    n_bar = 2 * rounds - 1
    if m.vendor == "nvidia":
        bar = "bar.warp.sync" if warp_sync else "bar.sync"
    elif warp_sync:
        bar, n_bar = None, 0
    else:                                   # RDNA4 splits each into s_barrier_signal + s_barrier_wait
        bar = "s_barrier_signal" if m.name == "gfx1200" else "s_barrier"
    return RoundTrip(m.name, bitwidth, warps, out[WRITE], out[READ], rounds, n_bar, bar)


def scratch_choice(target: Target, src: cs.Threads, dst: cs.Threads, bitwidth: int,
                   dim: int) -> tuple:
    """Triton 3.9's scratch buffer for a convert: (layout, store tile, load tile, lane tiles of its conflict
    count, None on AMD).  NVIDIA tries the ld/st.shared and ldmatrix/stmatrix pairs, AMD swizzles for
    ds_read/ds_write."""
    m = get_machine(target)
    if m.vendor == "nvidia":
        tiles = cs.src_dst_tiles(bitwidth, m.ldmatrix, m.stmatrix)
        return cs.tile_swizzle(src, dst, *tiles, bitwidth, dim)
    num_banks = m.banks.num_banks if m.banks is not None else 32
    return cs.amd_swizzle(src, dst, bitwidth, dim, num_banks, target), cs.LDST_SHARED, cs.LDST_SHARED, None


def _scale_rounds(d: Direction, rounds: int) -> Direction:
    """The replay saw one round (the counts already hold every round): the totals of all rounds."""
    if rounds == 1 or d.wavefronts_total is None:
        return d
    assert d.ideal_wavefronts_total is not None     # _direction sets both totals from one replay, or neither
    return replace(d, wavefronts_total=d.wavefronts_total * rounds,
                   ideal_wavefronts_total=d.ideal_wavefronts_total * rounds)


def _convert_why(d: Direction, tri_conf: int | None) -> str | None:
    """Where the GPU's wavefronts differ from Triton's count on its own scratch layout."""
    if d.wavefronts_total is None or tri_conf is None:
        return d.why
    ideal_per = d.ideal_wavefronts_total
    assert ideal_per is not None                    # _direction sets both totals from one replay, or neither
    model = ideal_per * (tri_conf + 1)
    if model == d.wavefronts_total:
        return None
    return (f"Triton's model counts {tri_conf} conflict(s), {model} wavefronts; the GPU takes "
            f"{d.wavefronts_total}")


# ----------------------------------------------------------------------------------------- the bank command


def analyze_shared_access(reg_ll: LinearLayout, smem_ll: LinearLayout, bitwidth: int,
                          target: Target = DEFAULT, padding: Padding | None = None
                          ) -> BankReport | PaddedBankReport:
    """Everything `bank` reports for storing `reg_ll` to `smem_ll` and loading it back: Triton's model and its
    replay (`bank.analyze_bank`) with what the GPU does in `.gpu` (None, with `.gpu_note`, where the model cannot
    say: a register layout with another lane count than the target's warps).  A padded layout (`padding`; `smem_ll`
    its linear component) has no Triton count: a PaddedBankReport.  Raises MisalignedAccess for a padding that
    leaves the compiler's vector access misaligned."""
    if padding is not None:
        check_bitwidth(bitwidth)
        if reg_ll.get_out_dims() != smem_ll.get_out_dims():
            raise ShapeError("the register and shared layouts cover different tensor shapes")
        trip = local_round_trip(reg_ll, smem_ll, bitwidth, target, padding=padding)
        lanes = reg_ll.get_in_dim_size(LANE) if reg_ll.has_in_dim(LANE) else 1
        return PaddedBankReport(target, bitwidth, tuple(smem_ll.get_out_dim_sizes().values()), lanes, trip.warps,
                                padding, trip)
    report = analyze_bank(reg_ll, smem_ll, bitwidth, target)
    if target.vendor == "nvidia" and bitwidth < 32:     # PTX's spelling of 8/16-bit vectors (subword_form)
        m, packing = get_machine(target), packing_of(reg_ll, smem_ll, bitwidth)
        report = replace(report, accesses={op: replace(a, instruction=instruction_name(
            m, Lowering(SHARED, 0, report.vector_width, (), ()), bitwidth, op, packing))
            for op, a in report.accesses.items()})
    try:
        return replace(report, gpu=local_round_trip(reg_ll, smem_ll, bitwidth, target))
    except UnsupportedError as e:
        return replace(report, gpu_note=str(e))


# ----------------------------------------------------------------------------------------- from attributes


def shared_layout_of(attr, shape, max_elements: int = MAX_ELEMENTS) -> tuple[LinearLayout, Padding | None]:
    """A shared layout attribute over `shape` as the model takes it: (its linear layout, None), or for
    `#ttg.padded_shared` (its linear component, its padding)."""
    from ..attributes.encodings import PaddedSharedEncoding
    from ..conversions import analysable_layout, to_linear_layout
    from ..conversions.padded_shared import padding_of
    if isinstance(attr, PaddedSharedEncoding):
        ll = to_linear_layout(attr, list(shape))
        check_size(ll.get_total_in_dim_size(), "the layout's hardware index space", max_elements)
        return ll, padding_of(attr)
    return analysable_layout(attr, shape, max_elements), None


def local_access_of(reg_ll: LinearLayout, shared_attr, bitwidth: int, op: str,
                    target: Target = DEFAULT) -> Direction:
    """One row of a kernel: a local_alloc / local_store (op="write") or local_load (op="read") of `reg_ll`
    through the buffer's shared layout attribute (any shared kind, `#ttg.padded_shared` included), over the
    tensor shape of `reg_ll`.  Raises MisalignedAccess for a padding the compiled kernel would fault on."""
    shape = [size for _, size in reg_ll.get_out_dims()]
    smem, padding = shared_layout_of(shared_attr, shape)
    return local_access(reg_ll, smem, bitwidth, op, target, padding)


__all__ = ["Direction", "RoundTrip", "MisalignedAccess", "MACHINES", "local_access", "local_round_trip",
           "convert_access", "instruction_name", "shared_layout_of", "local_access_of", "analyze_shared_access"]
