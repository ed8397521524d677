"""What one layout is at one shape, on one screen: who holds what, how each tensor dimension is spread over
registers, lanes, warps and blocks, what is replicated, how wide a thread's vector is, how shared memory is
swizzled, and the layout in CuTe notation (`analysis/cute.py`). (The same layout as a paste-ready `#ttg.linear` /
`#ttg.shared_linear` and as Gluon code is written by `reports/info.py`.)

Every number comes from the linear layout (Triton's `toLinearLayout(shape, attr)`), following the Triton 3.9
function named in each docstring.
"""
from __future__ import annotations

from ..attributes import encodings as enc
from ..engine import LinearLayout
from ..engine.bits import is_pow2
from ..engine.gf2 import XorBasis
from ..records import frozen

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: the CuTe form loads with `analyze_info`, not with the audit's helpers
    from .cute import CuteForm

HARDWARE = ("register", "lane", "warp", "block")
MAX_ROW_STARTS = 64


def mnemonic(attr) -> str:
    """'#ttg.blocked<{…}>' -> 'blocked'."""
    return str(attr).split("<", 1)[0].split(".", 1)[-1]


def bases_of(ll: LinearLayout) -> dict[str, list[list[int]]]:
    """Triton's bases, in-dim name -> list of bases (one coordinate per tensor dim)."""
    return {d: [list(b) for b in ll.get_in_dim_bases(d)] for d in ll.in_dims}


# ----------------------------------------------------------------------------------------- distributed


@frozen
class Factor:
    """A run of bases of one hardware dim stepping one tensor dim by consecutive powers of two."""
    hardware: str                   # register, lane, warp, block
    size: int                       # 2^(bases in the run)


@frozen
class Spread:
    """How one tensor dim is covered, from its smallest stride up: 128 = register 4 · lane 8 · warp 4."""
    dim: int
    size: int
    factors: tuple[Factor, ...]
    mixed: tuple[str, ...]          # bases that move this dim together with another ('lane 4')


@frozen
class Distributed:
    threads_per_warp: int
    warps: int
    ctas: int
    elements_per_thread: int
    spread: tuple[Spread, ...]
    free: dict                      # hardware dim -> Triton's free-variable mask (bits that hold copies)
    distinct: int                   # tensor elements held
    slots: int                      # (register, lane, warp, block) combinations
    order: tuple[int, ...]          # Triton's getOrder: dims by first appearance in the register bases
    contig_per_thread: tuple[int, ...]
    vector_elems: int
    vector_bits: int
    injective: bool
    surjective: bool


def layout_order(ll: LinearLayout, in_dim: str = "register") -> tuple[int, ...]:
    """Triton's `LinearEncodingAttr::getOrder` / `orderPerDim`: dims in the order the bases of `in_dim` first move
    them (zero bases skipped), then the missing dims from the last to the first."""
    rank = ll.num_out_dims
    order: list[int] = []
    for b in ll.get_in_dim_bases(in_dim) if ll.has_in_dim(in_dim) else ():
        first = next((j for j, c in enumerate(b) if c), None)
        if first is not None and first not in order:
            order.append(first)
    return tuple(order + [d for d in range(rank - 1, -1, -1) if d not in order])


def contig_per_thread(ll: LinearLayout) -> tuple[int, ...]:
    """Triton's `getContigPerThread`: walking the register bases in order, each dim of `layout_order` gets 2^n
    when the next n bases step it by 1, 2, 4, ... (spt [1, 4] on order [1, 0]: bases (0,1), (0,2) -> [1, 4])."""
    rank = ll.num_out_dims
    regs = list(ll.get_in_dim_bases("register")) if ll.has_in_dim("register") else []
    contig = [1] * rank
    i = 0
    for dim in layout_order(ll):
        while i < len(regs) and regs[i] == tuple(contig[dim] if j == dim else 0 for j in range(rank)):
            contig[dim] *= 2
            i += 1
    return tuple(contig)


def vector_width(ll: LinearLayout, element_bits: int) -> int:
    """Elements one thread moves per global load or store with perfectly aligned pointers: Triton's
    `getVectorSize` = min(128 bits / element bits, getContigPerThread()[order[0]])."""
    return max(1, min(128 // element_bits, contig_per_thread(ll)[layout_order(ll)[0]]))


def spread(ll: LinearLayout, dims: tuple[str, ...] = HARDWARE) -> tuple[Spread, ...]:
    """For every tensor dim, the runs of bases of the input dims `dims` (hardware: register, lane, warp, block;
    a shared layout's: offset, block) that step it, by increasing stride."""
    out = []
    for j, (_name, size) in enumerate(ll.get_out_dims()):
        steps, mixed = [], []
        for hw in (d for d in dims if ll.has_in_dim(d)):
            for i, b in enumerate(ll.get_in_dim_bases(hw)):
                if not b[j]:
                    continue
                if any(c for k, c in enumerate(b) if k != j):
                    mixed.append(f"{hw} {1 << i}")
                elif is_pow2(b[j]):
                    steps.append((b[j], hw))
        factors: list[Factor] = []
        for _, hw in sorted(steps):
            if factors and factors[-1].hardware == hw:
                factors[-1] = Factor(hw, factors[-1].size * 2)
            else:
                factors.append(Factor(hw, 2))
        out.append(Spread(j, size, tuple(factors), tuple(mixed)))
    return tuple(out)


def describe_distributed(ll: LinearLayout, element_bits: int) -> Distributed:
    size = {d: (ll.get_in_dim_size(d) if ll.has_in_dim(d) else 1) for d in HARDWARE}
    masks = ll.get_free_variable_masks()
    v = vector_width(ll, element_bits)
    return Distributed(size["lane"], size["warp"], size["block"], size["register"], spread(ll),
                       {d: masks.get(d, 0) for d in HARDWARE}, 1 << ll.get_matrix_rank(),
                       ll.get_total_in_dim_size(), layout_order(ll), contig_per_thread(ll), v, v * element_bits,
                       ll.is_injective(), ll.is_surjective())


# ----------------------------------------------------------------------------------------- shared


@frozen
class Shared:
    offsets: int                    # offsets per block
    blocks: int
    swizzle: str                    # the swizzle in words
    vec: int | None                 # the swizzle parameters where the kind has them
    per_phase: int | None
    max_phase: int | None
    offset_bases: tuple[tuple[int, ...], ...]
    mixed: tuple[int, ...]          # offset bits whose basis moves more than one tensor bit
    row_dim: int | None             # the dim whose index is the "row" (second fastest), None for rank 1
    row_banks: dict                 # number of banks -> bank of each row's first element
    alignment: int | None           # None: padded / partitioned (ttlayout does not model their alignment)
    injective: bool
    surjective: bool
    partitions: int = 1             # partitioned_shared: separate buffers, each `offsets` x `blocks`
    padding: tuple[tuple[int, int], ...] = ()   # padded: (interval, padding) pairs
    padded_size: int | None = None  # padded: memory positions one buffer of `offsets` takes (no trailing padding)


def alignment_of(attr) -> int:
    """Triton's `getAlignment()` in bytes: 16 for swizzled shared layouts, 128 x maxPhase for nvmma_shared,
    the attribute's own for shared_linear."""
    if isinstance(attr, enc.NVMMASharedEncoding):
        return 128 * max(1, attr.swizzling_byte_width // 16)
    if isinstance(attr, enc.SharedLinearEncoding):
        return attr.alignment
    return 16


def swizzle_params(attr) -> tuple[int, int, int] | None:
    """(vec, perPhase, maxPhase) of swizzled and nvmma shared layouts (Triton's NVMMASharedEncodingAttr::getVec,
    getPerPhase, getMaxPhase: 16-byte vectors, 128 / swizzle bytes rows per phase, swizzle bytes / 16 phases)."""
    if isinstance(attr, enc.SwizzledSharedEncoding):
        return attr.vec, attr.per_phase, attr.max_phase
    if isinstance(attr, enc.NVMMASharedEncoding):
        if attr.swizzling_byte_width == 0:
            return 1, 1, 1
        return 128 // attr.element_bit_width, 128 // attr.swizzling_byte_width, attr.swizzling_byte_width // 16
    return None


def swizzle_words(attr, params, mixed: tuple[int, ...]) -> str:
    if isinstance(attr, enc.NVMMASharedEncoding) and attr.swizzling_byte_width:
        vec, per_phase, max_phase = params
        return (f"{attr.swizzling_byte_width}-byte swizzle: 16-byte chunks ({vec} elements) of each row are XORed "
                f"with (row / {per_phase}) % {max_phase}")
    if params is not None and params[2] > 1:
        vec, per_phase, max_phase = params
        return (f"vectors of {vec} element(s) in row r are XORed with (r / {per_phase}) % {max_phase}"
                + (" and rotated every block of rows" if isinstance(attr, enc.AMDRotatingSharedEncoding) else ""))
    if not mixed:
        return "none: offsets walk the tensor in order"
    return f"XOR: {len(mixed)} offset bit(s) move more than one tensor bit (see the offset bases)"


def _row_dim(offset_bases) -> int | None:
    """The second dim the offsets move (the first is the fastest): rows are indices along it."""
    dims = []
    for b in offset_bases:
        first = next((j for j, c in enumerate(b) if c), None)
        if first is not None and first not in dims:
            dims.append(first)
    return dims[1] if len(dims) > 1 else None


def row_banks(ll: LinearLayout, row_dim: int | None, element_bits: int, banks: int,
              padding=None) -> tuple[int, ...]:
    """Bank of the first element of each row (memory position x element bits / 32 bits, modulo the banks; the
    position is the offset plus the padding before it, `conversions.padded_shared.Padding`)."""
    if row_dim is None:
        return ()
    offsets = ll.flat_in_dim("offset")
    basis = XorBasis()
    for i, b in enumerate(offsets):
        basis.insert(b, 1 << i)
    shift = ll.out_shifts()[row_dim]
    rows = min(ll.get_out_dim_size(ll.out_dims[row_dim]), MAX_ROW_STARTS)
    out = []
    for r in range(rows):
        residue, offset = basis.reduce(r << shift)
        position = padding.padded_offset(offset) if padding is not None else offset
        out.append(-1 if residue else (position * element_bits // 32) % banks)
    return tuple(out)


def describe_shared(attr, ll: LinearLayout, element_bits: int, padding=None) -> Shared:
    offsets = ll.get_in_dim_size("offset")
    blocks = ll.get_in_dim_size("block") if ll.has_in_dim("block") else 1
    bases = tuple(tuple(b) for b in ll.get_in_dim_bases("offset"))
    flat = ll.flat_in_dim("offset")
    mixed = tuple(i for i, x in enumerate(flat) if x & (x - 1))
    params = swizzle_params(attr)
    row_dim = _row_dim(bases)
    vec, per_phase, max_phase = params or (None, None, None)
    return Shared(offsets, blocks, swizzle_words(attr, params, mixed), vec, per_phase, max_phase, bases, mixed,
                  row_dim, {n: row_banks(ll, row_dim, element_bits, n, padding) for n in (32, 64)},
                  None if padding is not None or ll.has_in_dim("partition") else alignment_of(attr),
                  ll.is_injective(), ll.is_surjective(),
                  ll.get_in_dim_size("partition") if ll.has_in_dim("partition") else 1,
                  tuple(zip(padding.intervals, padding.paddings)) if padding is not None else (),
                  padding.padded_size(offsets) if padding is not None else None)


# ----------------------------------------------------------------------------------------- tensor memory

TMEM_DIMS = ("row", "col", "block")
TMEM_COPY_ROW_BITS = (5, 6)     # a zero basis at row 32 or 64 is a copy for another warp of the warpgroup


@frozen
class TensorMemory:
    """A Blackwell tensor memory layout (row, col, block -> tensor). `rows` x `columns`: what Triton 3.9 allocates
    per CTA (`getTmemAllocSizes`: 32-bit columns); `col` counts element slots, `per_column` of them per 32-bit
    column; zero row bases at rows 32 and 64 are copies for another warp (`warp_copies` rows each), any other zero
    basis (`unused`: how many slots it leaves empty) an unused slot."""
    rows: int
    columns: int
    row_span: int                   # the layout's rows (its `row` input size)
    slots: int                      # its element slots along a row (its `col` input size)
    blocks: int
    per_column: int
    warp_copies: int
    unused: int
    spread: tuple[Spread, ...]
    injective: bool
    surjective: bool


def tmem_alloc(ll: LinearLayout, element_bits: int) -> tuple[int, int]:
    """Triton's `getTmemAllocSizes` (rows, 32-bit columns) per CTA: the layout's rows, halved when the row-16
    basis is zero (one 16-row block per warp: 64 rows are enough), and its element slots / (32 / bits).

    >>> tmem_alloc(LinearLayout({"row": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
    ...                          "col": [[0, 1], [0, 2]]}, ["dim0", "dim1"]), 16)
    (128, 2)
    """
    rows = ll.get_in_dim_size("row")
    row_bases = ll.get_in_dim_bases("row")
    if len(row_bases) > 4 and not any(row_bases[4]):
        rows //= 2
    return rows, ll.get_in_dim_size("col") // max(1, 32 // element_bits)


def tmem_unused(ll: LinearLayout) -> tuple[int, int]:
    """(row mask, col mask): the input bits of a tensor memory layout whose zero basis is an unused slot (the
    zero row bases at rows 32 and 64 are copies for other warps, not unused)."""
    def mask(dim, keep=()):
        return sum(1 << k for k, v in enumerate(ll.get_in_dim_bases(dim)) if not any(v) and k not in keep)
    return mask("row", TMEM_COPY_ROW_BITS), mask("col")


def describe_tmem(ll: LinearLayout, element_bits: int) -> TensorMemory:
    rows, columns = tmem_alloc(ll, element_bits)
    row_bases = ll.get_in_dim_bases("row")
    copy_bits = [k for k in TMEM_COPY_ROW_BITS if k < len(row_bases) and not any(row_bases[k])]
    row_unused, col_unused = tmem_unused(ll)
    zero_row, zero_col = bin(row_unused).count("1"), bin(col_unused).count("1")
    used = (ll.get_in_dim_size("row") >> zero_row) * (ll.get_in_dim_size("col") >> zero_col)
    total = ll.get_in_dim_size("row") * ll.get_in_dim_size("col")
    return TensorMemory(rows, columns, ll.get_in_dim_size("row"), ll.get_in_dim_size("col"),
                        ll.get_in_dim_size("block") if ll.has_in_dim("block") else 1, max(1, 32 // element_bits),
                        (1 << len(copy_bits)) - 1, total - used, spread(ll, TMEM_DIMS), ll.is_injective(),
                        ll.is_surjective())


# ----------------------------------------------------------------------------------------- the whole summary


@frozen
class LayoutInfo:
    kind: str                       # mnemonic: blocked, nvidia_mma, nvmma_shared, tensor_memory_encoding, ...
    category: str                   # distributed, shared or tensor memory
    attr: str                       # canonical attribute text
    encoding: object                # the attribute itself
    shape: tuple[int, ...]
    element: str
    element_bits: int
    linear: LinearLayout
    distributed: Distributed | None
    shared: Shared | None
    cute: CuteForm                  # the layout in CuTe notation, or why it has none
    tensor_memory: TensorMemory | None = None

    @property
    def bases(self) -> dict:
        return bases_of(self.linear)

    @property
    def out_dims(self) -> dict:
        return dict(self.linear.get_out_dims())


def _cute_form(ll, *args):
    """`cute.cute_form`, loaded here: the audit reads this module's alignment and order helpers, and the CuTe
    modules would add ~1 ms to its start-up."""
    from .cute import cute_form
    return cute_form(ll, *args)


def analyze_info(attr, ll: LinearLayout, shape, element: str, element_bits: int, padding=None) -> LayoutInfo:
    """Everything `ttlayout info` shows for `attr` at `shape` (its linear layout `ll` already converted; a padded
    layout's linear component with its `padding`)."""
    if ll.has_in_dim("row"):
        return LayoutInfo(mnemonic(attr), "tensor memory", str(attr), attr, tuple(shape), element, element_bits, ll,
                          None, None, _cute_form(ll), describe_tmem(ll, element_bits))
    shared = ll.has_in_dim("offset")
    category = "shared" if shared else "distributed"
    return LayoutInfo(mnemonic(attr), category, str(attr), attr, tuple(shape), element, element_bits, ll,
                      None if shared else describe_distributed(ll, element_bits),
                      describe_shared(attr, ll, element_bits, padding) if shared else None,
                      _cute_form(ll, mnemonic(attr), padding is not None))


__all__ = ["LayoutInfo", "TensorMemory", "analyze_info", "tmem_alloc", "tmem_unused", "contig_per_thread", "vector_width", "layout_order", "alignment_of"]
