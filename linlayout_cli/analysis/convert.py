"""What a ``ttg.convert_layout(SRC -> DST)`` costs, as Triton 3.9 lowers it.

``analyze_convert(src_ll, dst_ll, bitwidth, target)`` follows Triton's decision chain
(docs/convert_model.md has the long form, the sources and the measured agreement):

1. The minimal conversion (``minimalCvtLayout``): ``dst⁻¹ ∘ src`` maps each destination hardware index
   (register, lane, warp, block) to the source index holding the same element; hardware dims on which it is
   the identity are quotiented away, slowest first (block, warp, lane, register), stopping at the first that
   moves.  The warp dim also goes when the source is replicated over the warps the destination uses.
2. The path, from what is left:
   * nothing: ``noop`` (the two layouts agree, the values are reused as they are);
   * register only: ``registers`` (each thread reorders its own values, no instruction moves data);
   * lane (and register): ``warp_shuffle`` when the warp decomposition needs at most one register-lane
     transposition (``cvtNeedsWarpShuffle``), else ``shared_memory``;
   * warp: ``shared_memory``; block: ``cross_cta`` (distributed shared memory, never with one CTA).
3. The cost of that path: shuffles per thread (``convert_shuffle.py``), or the scratch buffer and its accesses
   (``convert_smem.py``).

Example: the 64x64 f32 transpose blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA =
[4, 1], order = [1, 0]}> -> blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4],
order = [0, 1]}> on sm90 moves elements between warps: shared memory, 16384 bytes of scratch, eight 128-bit
stores and eight 128-bit loads per thread and one barrier (as Triton 3.9 emits it).
"""
from __future__ import annotations

from ..engine import LinearLayout
from ..engine.bits import is_pow2, log2
from ..errors import ShapeError, UnsupportedError
from ..records import frozen, replace
from . import convert_shuffle as shuf
from . import convert_smem as smem_mod
from .bank import check_bitwidth
from .kinds import Path
from .swizzle import shared_linear_text
from .targets import DEFAULT, TARGETS, Target

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: shared_access loads when a convert goes through shared memory
    from .shared_access import RoundTrip

REG, LANE, WARP, BLOCK = "register", "lane", "warp", "block"
HW_DIMS = (REG, LANE, WARP, BLOCK)
PATHS = tuple(Path)                  # cheapest first


@frozen
class Lowering:
    """The facts about a target that Triton's convert lowering reads (its ``TargetInfo``)."""
    name: str
    vendor: str                       # "nvidia" or "amd"
    warp_size: int
    num_banks: int                    # getSharedMemoryBanks
    ldmatrix: bool = False            # supportLdMatrix (sm75+)
    stmatrix: bool = False            # supportStMatrix (sm90+)
    permlane_swap: bool = False       # supportsPermlaneSwap (CDNA4)


LOWERINGS = {
    "sm80": Lowering("sm80", "nvidia", 32, 32, ldmatrix=True),
    "sm90": Lowering("sm90", "nvidia", 32, 32, ldmatrix=True, stmatrix=True),
    "sm100": Lowering("sm100", "nvidia", 32, 32, ldmatrix=True, stmatrix=True),
    "gfx942": Lowering("gfx942", "amd", 64, 32),
    "gfx950": Lowering("gfx950", "amd", 64, 64, permlane_swap=True),
    "gfx1200": Lowering("gfx1200", "amd", 32, 32),
}


def get_lowering(target: Target) -> Lowering:
    """The convert lowering's facts of a target (every target in `targets.KNOWN` has them)."""
    return LOWERINGS[target.name]


# ----------------------------------------------------------------------------------------- minimal conversion


def _is_trivial_over(ll: LinearLayout, dims) -> bool:
    """Triton's ``isTrivialOver``: on ``dims`` the layout is the identity and does not mix with other dims."""
    outs = ll.out_dims
    for d in dims:
        if not ll.has_in_dim(d) or d not in outs or ll.get_in_dim_size(d) != ll.get_out_dim_size(d):
            return False
    for d in ll.in_dims:
        for i, v in enumerate(ll.get_in_dim_bases(d)):
            for o, c in zip(outs, v):
                if d in dims and o == d:
                    if c != 1 << i:
                        return False
                elif (d in dims) != (o in dims) and c:
                    return False
                elif d in dims and o in dims and o != d and c:
                    return False
    return True


def _quotient(ll: LinearLayout, dim: str) -> LinearLayout | None:
    if not _is_trivial_over(ll, [dim]):
        return None
    ins = [d for d in ll.in_dims if d != dim]
    outs = [d for d in ll.out_dims if d != dim]
    return ll.sublayout(ins, outs)


def _warp_read_lanes(comp: LinearLayout, src: LinearLayout) -> int | None:
    """When ``src`` is replicated over the warp bits where the destination keeps other data, each warp already
    holds what it needs: the destination's warp bits then read source *lanes*, chosen by the warp id (Triton
    3.9 quotients the warp dim anyway and shuffles with a warp-dependent lane index).  Returns the mask of those
    source lane bits (0 if none), or None when some element must cross warps."""
    outs = comp.out_dims
    wi, li, ri = outs.index(WARP), outs.index(LANE), outs.index(REG)
    free = src.get_free_variable_masks()[WARP]
    nonfree = ((1 << src.get_in_dim_size_log2(WARP)) - 1) & ~free
    lanes = 0
    for d in comp.in_dims:
        for i, v in enumerate(comp.get_in_dim_bases(d)):
            ideal = 1 << i if d == WARP else 0
            if (v[wi] ^ ideal) & nonfree:
                return None
            if d == WARP:
                if v[ri] or (BLOCK in outs and v[outs.index(BLOCK)]):
                    return None
                lanes |= v[li]
    return lanes


def _relaxed_warp_quotient(comp: LinearLayout, src: LinearLayout) -> LinearLayout | None:
    if _warp_read_lanes(comp, src) is None or comp.get_in_dim_size(WARP) != comp.get_out_dim_size(WARP):
        return None
    ins = [d for d in comp.in_dims if d != WARP]
    outs = [d for d in comp.out_dims if d != WARP]
    return comp.sublayout(ins, outs)


def minimal_conversion(src: LinearLayout, dst: LinearLayout, comp: LinearLayout | None = None) -> LinearLayout:
    """Triton's ``minimalCvtLayout``: ``dst.invertAndCompose(src)`` (destination hardware index -> source
    hardware index) with the unchanged hardware dims quotiented away, slowest first.  The warp dim also goes
    when the source is replicated over the warp bits the destination uses (``_warp_read_lanes``).  `comp`:
    ``dst.invert_and_compose(src)`` where the caller has it already (one convert's analysis needs it often)."""
    s_dims, d_dims = src.in_dims, dst.in_dims
    common = []
    for a, b in zip(reversed(s_dims), reversed(d_dims)):
        if a != b:
            break
        common.append(a)
    comp = dst.invert_and_compose(src) if comp is None else comp
    for d in common:
        q = _quotient(comp, d)
        if q is None and d == WARP:
            q = _relaxed_warp_quotient(comp, src)
        if q is None:
            break
        comp = q
    return comp


def warp_read_lanes(src: LinearLayout, dst: LinearLayout, comp: LinearLayout | None = None) -> int:
    """Source lane bits the destination's warp bits read (``_warp_read_lanes``); 0 when none. `comp`: as in
    `minimal_conversion`."""
    comp = dst.invert_and_compose(src) if comp is None else comp
    return _warp_read_lanes(comp, src) or 0


def _without_lanes(ll: LinearLayout, mask: int) -> LinearLayout:
    """``ll`` with the lane bases of ``mask`` made broadcast (zero)."""
    if not mask:
        return ll
    bases = {d: [list(v) for v in ll.get_in_dim_bases(d)] for d in ll.in_dims}
    bases[LANE] = [[0] * len(v) if mask >> j & 1 else v for j, v in enumerate(bases[LANE])]
    return LinearLayout(bases, ll.get_out_dims(), require_surjective=False)


def path_of(conversion: LinearLayout, needs_shuffle) -> Path:
    dims = conversion.in_dims
    if BLOCK in dims:
        return Path.CROSS_CTA
    if WARP in dims:
        return Path.SHARED_MEMORY
    if LANE in dims:
        return Path.WARP_SHUFFLE if needs_shuffle() else Path.SHARED_MEMORY
    if REG in dims:
        return Path.REGISTERS
    return Path.NOOP


def needs_warp_shuffle(src: LinearLayout, dst: LinearLayout, comp: LinearLayout | None = None,
                       conversion: LinearLayout | None = None) -> bool:
    """Triton's ``cvtNeedsWarpShuffle``: data moves only inside warps and the decomposition needs at most one
    register-lane transposition (it is computed for 32-bit elements whatever the element type).  Source lanes
    that the destination reads by warp id count as broadcast there.  `comp` and `conversion`:
    ``dst.invert_and_compose(src)`` and ``minimal_conversion(src, dst)`` where the caller has them already."""
    comp = dst.invert_and_compose(src) if comp is None else comp
    if (minimal_conversion(src, dst, comp) if conversion is None else conversion).out_dims != [REG, LANE]:
        return False
    src = _without_lanes(src, warp_read_lanes(src, dst, comp))
    return len(shuf.decompose(src, dst, 32).transpositions) < 2


# ----------------------------------------------------------------------------------------- explanations


def _unit(vec, outs) -> tuple[str, int] | None:
    hit = [(o, c) for o, c in zip(outs, vec) if c]
    if len(hit) != 1 or not is_pow2(hit[0][1]):
        return None
    return hit[0][0], log2(hit[0][1])


def _scope(a: str, b: str) -> str:
    if BLOCK in (a, b):
        return "elements move between CTAs (distributed shared memory)"
    if WARP in (a, b):
        return "elements move between warps, so shared memory"
    if LANE in (a, b):
        return "elements move between threads of a warp"
    return "elements stay in their thread (register renaming)"


def explain_moves(conversion: LinearLayout, src_free: dict | None = None) -> tuple[str, ...]:
    """One line per hardware bit of the destination that reads from another hardware bit of the source,
    e.g. ``dst lane bit 2 <- src register bit 0: elements move between threads of a warp``.  ``src_free``
    (the source's free-variable masks, i.e. the bits it is replicated over) marks reads that need no movement:
    when the source holds copies along that destination bit, every thread or warp already has its element."""
    outs = conversion.out_dims
    src_free = src_free or {}
    lines = []
    for d in conversion.in_dims:
        for i, vec in enumerate(conversion.get_in_dim_bases(d)):
            u = _unit(vec, outs)
            if u == (d, i):
                continue
            if not any(vec):
                lines.append(f"dst {d} bit {i} <- nothing new: copies of the same element (broadcast)")
                continue
            if u is None:
                src = " ^ ".join(f"src {o} bits {c:#b}" for o, c in zip(outs, vec) if c)
                worst = max((o for o, c in zip(outs, vec) if c), key=HW_DIMS.index)
                lines.append(f"dst {d} bit {i} <- {src}: {_scope(d, worst)}")
                continue
            scope = _scope(d, u[0])
            if u[0] != d and src_free.get(d, 0) >> i & 1:
                scope = (f"no movement across {d}s: the source already holds copies along {d} bit {i}, "
                         f"so each {'thread' if d == LANE else d} reads its own {u[0]}")
            lines.append(f"dst {d} bit {i} <- src {u[0]} bit {u[1]}: {scope}")
    return tuple(lines)


# ----------------------------------------------------------------------------------------- the report


# what a conversion's notes say (`ConvertNote.code`; reports/convert.py words each)
SHUFFLES, COPIES_MOVED, ROUNDS, WAVE_WAIT = "shuffles", "copies moved anyway", "rounds", "wave wait"


@frozen
class ConvertNote:
    """One fact beside a conversion's cost, as a code and its numbers: SHUFFLES (the warp shuffle's `count`
    register-lane transpositions, its lane `permutation`, None for the identity, `elements` per 32-bit register);
    COPIES_MOVED (the source holds copies along lane bits the destination reads from registers, and Triton 3.9
    moves the data anyway); ROUNDS (the scratch holds 1/`count` of the tensor); WAVE_WAIT (AMD: no data crosses
    warps, a wave-level wait and no s_barrier)."""
    code: str
    count: int = 0
    permutation: tuple[int, ...] | None = None
    elements: int = 0


@frozen
class ConvertReport:
    """The cost of one convert_layout, per thread, as Triton 3.9 emits it for ``target``."""
    target: str
    bitwidth: int
    path: Path                                  # how the data moves
    scratch_bytes: int                          # Triton's shared-memory allocation for this op
    per_thread: dict                            # shuffles, shared_stores, shared_loads, barriers
    minimal_conversion: LinearLayout            # dst hardware -> src hardware, unchanged dims removed
    moves: tuple[str, ...]                      # which hardware bits move, in words
    store_instruction: str | None = None        # st.shared / stmatrix / stmatrix.trans (generic names)
    load_instruction: str | None = None
    store_vector_bits: int | None = None        # bits one lane moves per store instruction
    load_vector_bits: int | None = None
    bank_conflicts: dict | None = None          # {"store": n, "load": n}, Triton's unit (extra wavefronts)
    uses_stmatrix: bool = False
    uses_ldmatrix: bool = False
    reps: int = 0                               # rounds of the shared-memory round trip
    barrier: str | None = None                  # "block" (bar.sync / s_barrier) or "warp" (bar.warp.sync)
    shuffle_method: str | None = None           # ship / swap (shfl), permlane (CDNA4 v_permlane*_swap)
    shared_layout: str | None = None            # the scratch layout, paste-ready #ttg.shared_linear
    notes: tuple[ConvertNote, ...] = ()
    shared_access: RoundTrip | None = None      # the instructions and wavefronts per CTA


def _check(src: LinearLayout, dst: LinearLayout, low: Lowering) -> None:
    if src.get_out_dims() != dst.get_out_dims():
        raise ShapeError("the two layouts cover different tensor shapes")
    for name, ll in (("source", src), ("destination", dst)):
        for d in HW_DIMS:
            if not ll.has_in_dim(d):
                raise UnsupportedError(f"the {name} layout is not a distributed layout (no '{d}' dimension)")
        if ll.get_in_dim_size(LANE) != low.warp_size:
            raise UnsupportedError(f"the {name} layout has {ll.get_in_dim_size(LANE)} lanes per warp but "
                                   f"{low.name} runs {low.warp_size}")
    if src.get_in_dim_size(WARP) != dst.get_in_dim_size(WARP):
        raise UnsupportedError("the two layouts use different numbers of warps")
    if src.get_in_dim_size(BLOCK) != dst.get_in_dim_size(BLOCK):
        raise UnsupportedError("the two layouts use different numbers of CTAs")


def shuffle_instructions(kind: str, mask: int, low: Lowering) -> int:
    """Machine instructions for one 32-bit shuffle, as measured on Triton 3.9's output.  NVIDIA: one
    ``shfl.sync``.  AMD: indexed, xor 16 and xor 32 -> one ``ds_bpermute_b32`` (RDNA4 xor 16:
    ``v_permlanex16_b32``); xor 1, 2, 8 -> one DPP move (``quad_perm``, ``row_ror:8``); xor 4 -> two DPP moves
    on CDNA3/4 (``row_half_mirror`` + ``quad_perm``), one on RDNA4 (``row_xmask``)."""
    if low.vendor == "amd" and kind == "xor" and mask == 4 and low.name != "gfx1200":
        return 2
    return 1


def _shuffle_costs(src, dst, bitwidth, low: Lowering):
    read = warp_read_lanes(src, dst)
    src = _without_lanes(src, read)
    dec, cost = shuf.shuffle_count(src, dst, bitwidth)
    if read:
        # the source lane depends on the warp id: one indexed shuffle per (packed) register
        return dec, "swap", cost.registers
    shuffles = sum(n * shuffle_instructions(kind, mask, low) for kind, mask, n in cost.shuffles)
    method = cost.method
    if low.permlane_swap and len(dec.transpositions) == 1:
        # CDNA4: one transposition with lane bit 4 or 5 (optionally with l4 <-> l5) is a v_permlane16/32_swap
        # per pair of registers (ConvertLayoutOpPermlaneSwap)
        t = dec.transpositions[0]
        others_fixed = all(p == i for i, p in enumerate(dec.lane_perm) if i not in (4, 5))
        three_cycle = len(dec.lane_perm) > 5 and dec.lane_perm[4] == 5 and dec.lane_perm[5] == 4
        if (t.reg_bit >= dec.n_pack and t.top_pre == 0x3210 and t.top_post == 0x3210 and t.lane_bit in (4, 5)
                and others_fixed and (dec.lane_perm_is_identity or three_cycle)):
            regs = 1 << dec.n_reg_bits
            words = regs >> dec.n_pack if dec.n_pack else regs * (2 if bitwidth == 64 else 1)
            method, shuffles = "permlane", (words // 2) * (2 if three_cycle else 1)
    return dec, method, shuffles


def analyze_convert(src_ll: LinearLayout, dst_ll: LinearLayout, bitwidth: int, target: Target = DEFAULT,
                    num_warps: int | None = None) -> ConvertReport:
    """The cost of converting a tensor of ``bitwidth``-bit elements from ``src_ll`` to ``dst_ll`` (both
    distributed linear layouts of the same shape) on ``target``.  ``bitwidth`` as Triton stores it: i1 is 8,
    pointers are 64."""
    low = get_lowering(target)
    check_bitwidth(bitwidth)
    _check(src_ll, dst_ll, low)
    if num_warps is not None and src_ll.get_in_dim_size(WARP) != num_warps:
        raise UnsupportedError(f"the layouts use {src_ll.get_in_dim_size(WARP)} warps, not {num_warps}")
    comp = dst_ll.invert_and_compose(src_ll)        # once: every step below starts from it
    conversion = minimal_conversion(src_ll, dst_ll, comp)
    path = path_of(conversion, lambda: needs_warp_shuffle(src_ll, dst_ll, comp, conversion))
    moves = explain_moves(comp if path != Path.NOOP else conversion,
                          src_ll.get_free_variable_masks())
    zero = {"shuffles": 0, "shared_stores": 0, "shared_loads": 0, "barriers": 0}
    if path in (Path.NOOP, Path.REGISTERS):
        return ConvertReport(low.name, bitwidth, path, 0, zero, conversion, moves)
    if path in (Path.WARP_SHUFFLE, Path.SHARED_MEMORY) and any("no movement across lanes" in m for m in moves):
        extra: tuple[ConvertNote, ...] = (ConvertNote(COPIES_MOVED),)
    else:
        extra = ()
    if path == Path.WARP_SHUFFLE:
        dec, method, shuffles = _shuffle_costs(src_ll, dst_ll, bitwidth, low)
        notes = (ConvertNote(SHUFFLES, len(dec.transpositions),
                             None if dec.lane_perm_is_identity else tuple(dec.lane_perm), 1 << dec.n_pack),)
        return ConvertReport(low.name, bitwidth, path, 0, dict(zero, shuffles=shuffles), conversion, moves,
                             shuffle_method=method, notes=notes + extra)
    report = _shared_memory_report(src_ll, dst_ll, bitwidth, target, low, path, conversion, moves, comp)
    return replace(report, notes=report.notes + extra) if extra else report


def _shared_memory_report(src_ll, dst_ll, bitwidth, target: Target, low: Lowering, path, conversion, moves,
                          comp) -> ConvertReport:
    from . import shared_access
    src, dst = smem_mod.Threads.of(src_ll), smem_mod.Threads.of(dst_ll)
    dim = src_ll.get_total_out_dim_size_log2()
    choice = shared_access.scratch_choice(target, src, dst, bitwidth, dim)
    smem, st_tile, ld_tile, _ = choice
    store = smem_mod.shared_access(src, smem, bitwidth, st_tile, True)
    load = smem_mod.shared_access(dst, smem, bitwidth, ld_tile, False)
    n_reps = smem.n_reps
    scratch = (1 << (dim - len(smem.reps))) * bitwidth // 8
    warp_sync = _is_dim_sync(src_ll, dst_ll, WARP, comp)
    trip = shared_access.convert_access(src_ll, dst_ll, bitwidth, target, warp_sync, choice)
    per_thread = {"shuffles": 0, "shared_stores": store.count * n_reps, "shared_loads": load.count * n_reps,
                  "barriers": trip.barriers}
    shape = [size for _, size in src_ll.get_out_dims()]
    # Triton's own count (the bankConflicts it chose the instruction pair by; its bank model on AMD)
    conflicts = None if low.name not in TARGETS else {"store": trip.write.conflicts, "load": trip.read.conflicts}
    notes = []
    if n_reps > 1:
        notes.append(ConvertNote(ROUNDS, n_reps))
    if low.vendor == "amd" and warp_sync:
        notes.append(ConvertNote(WAVE_WAIT))
    names = (_amd_generic(low, store.instruction), _amd_generic(low, load.instruction))
    return ConvertReport(low.name, bitwidth, path, scratch, per_thread, conversion, moves,
                         *names, store.bits, load.bits, conflicts,
                         store.instruction.startswith("stmatrix"), load.instruction.startswith("ldmatrix"),
                         n_reps, "warp" if warp_sync else "block", None,
                         shared_linear_text(list(smem.offsets + smem.reps), shape), tuple(notes), trip)


def assembly_counts(report: ConvertReport) -> dict:
    """The convert's `per_thread` counts as the assembly has them: AMD's paired LDS accesses (`ds_read2*`,
    `ds_write2*`, shared_access.issued_count) count once."""
    p = dict(report.per_thread)
    trip = report.shared_access
    if trip is not None and trip.write.issued is not None and trip.read.issued is not None:
        p["shared_stores"], p["shared_loads"] = trip.write.issued, trip.read.issued
    return p


def _amd_generic(low: Lowering, name: str) -> str:
    """The generic instruction name on the target: AMD's `ds_write` / `ds_read` (RDNA4: `ds_store` / `ds_load`)
    for the plain `st.shared` / `ld.shared`."""
    if low.vendor != "amd":
        return name
    store = name.startswith("st")
    if low.name == "gfx1200":
        return "ds_store" if store else "ds_load"
    return "ds_write" if store else "ds_read"


def _is_dim_sync(src: LinearLayout, dst: LinearLayout, dim: str, comp: LinearLayout) -> bool:
    """Triton's ``isCvtDimSync``: a warp-level barrier suffices when no data crosses warps (or CTAs) and
    neither layout broadcasts over warps. `comp`: ``dst.invert_and_compose(src)``."""
    if dim == WARP and not _is_dim_sync(src, dst, BLOCK, comp):
        return False
    return (_is_trivial_over(comp, [dim]) and src.get_free_variable_masks()[dim] == 0
            and dst.get_free_variable_masks()[dim] == 0)


__all__ = ["ConvertReport", "Lowering", "LOWERINGS", "PATHS", "analyze_convert", "minimal_conversion",
           "needs_warp_shuffle", "explain_moves"]
