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

import math

from ..attributes.encodings import SharedLinearEncoding, SwizzledSharedEncoding
from ..engine import LinearLayout, unflatten
from ..errors import ShapeError, UnsupportedError
from ..records import frozen, replace
from .access import Threads
from .swizzle_search import (  # noqa: F401  (re-exported: importers keep their path)
    EXHAUSTIVE_RANK,
    Score,
    SwizzleResult,
    _unique,
    evaluate_side,
    hardware_order,
    optimal_swizzle,
    score,
    search_orders,
    swizzled_candidates,
    swizzled_offsets,
    triton_swizzle,
)
from .targets import DEFAULT, READ, WRITE, Target

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: shared_access and padded_shared load when a layout is priced on the GPU
    from ..conversions.padded_shared import Padding
    from .shared_access import Direction


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
                    target: Target = DEFAULT, search: bool = True, use: str | None = None) -> Suggestion:
    """The shared layout to use for writing with `write_ll` and reading with `read_ll`.

    Candidates: Triton 3.9's own generic swizzling (`triton_swizzle`), the paper's variant of it
    (`optimal_swizzle`) with every shorter shared vector, and (`search`) every `#ttg.swizzled_shared` of the
    shape.  The best by `Score.key` wins; ties go to Triton 3.9's result, and a swizzled_shared that is
    bit-identical to the winner (or, failing that, just as good) is what gets printed; a swizzled_shared strictly
    better than every generic result is printed instead.  Without `search`, Triton 3.9's result as it is.
    With `use` ('tma' or 'wgmma'): the best `#ttg.nvmma_shared`, the only layouts those can use; then
    `read_ll` None means the TMA engine (a TMA store) or wgmma's operand fetch reads the tile, not threads."""
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


def best_swizzled(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int, target: Target
                  ) -> tuple[tuple, Score] | None:
    """The best `#ttg.swizzled_shared` of the shape for this writer and reader by `Score.key` (the first of
    equals, in `swizzled_candidates` order): ((vec, perPhase, maxPhase, order), score), or None when none can be
    scored. `analyze_swizzle` prints a generic `shared_linear` where that wins; `advise` also needs the best
    layout every target's lowering takes (on gfx942 the compiled code of a shared_linear buffer does not follow
    the model, docs/advise_model.md)."""
    shape = [size for _, size in write_ll.get_out_dims()]
    src, dst = Threads.of(write_ll), Threads.of(read_ll)
    best = None
    for params, offs in swizzled_candidates(shape):
        try:
            sc = score(offs, src, dst, bitwidth, target)
        except (ShapeError, UnsupportedError):
            continue
        if best is None or sc.key < best[1].key:
            best = (params, sc)
    return best


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
               target: Target = DEFAULT):
    """(attribute, Score, offsets) of the best `#ttg.nvmma_shared` (the layouts TMA and wgmma can use) for this
    pair (`read_ll` None: no thread reads it back), or None when no nvmma_shared fits the shape. Ties go to the
    wider swizzle, then to the untransposed layout."""
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


def compare_on_gpu(write_ll: LinearLayout, read_ll: LinearLayout, bitwidth: int, target: Target,
                   s: Suggestion, padding: bool = True) -> GpuComparison | None:
    """The unswizzled layout and the suggestion on the GPU, and (`padding`) the best padding beside them; None
    where the shared-access model cannot price the pair (a register layout with another lane count)."""
    from ..errors import UnsupportedError
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
