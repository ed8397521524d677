"""The instruction model of a register <-> shared-memory access, as Triton 3.9 compiles it: the machine, the
access a conversion makes, the compiler's choice of instruction (`Lowering`), what the assembly issues and the
waves its addresses take. `shared_access` builds its directions and round trips on it (and re-exports it)."""
from __future__ import annotations

from ..conversions.padded_shared import Padding
from ..engine import LinearLayout, gf2
from ..engine.bits import log2
from ..errors import LayoutError, ShapeError, TTLayoutError, UnsupportedError
from ..records import frozen
from .bank import (
    span_cosets,
)
from .targets import READ, TARGETS, WRITE, Target

REG, LANE, WARP, BLOCK = "register", "lane", "warp", "block"
SHARED, MATRIX, MATRIX_TRANS, DS_READ_TR = "ld/st.shared", "matrix", "matrix.trans", "ds_read_tr"


class MisalignedAccess(TTLayoutError):
    """A padding that leaves the compiler's vector access misaligned (the kernel would fault at run time)."""

    def __init__(self, instruction: str, alignment: int, offset: int, byte: int, padding: str):
        super().__init__(f"{padding} leaves {instruction} misaligned: it needs {alignment}-byte alignment, but "
                         f"element offset {offset} starts at byte {byte}")
        self.instruction, self.alignment, self.offset, self.byte = instruction, alignment, offset, byte


# ----------------------------------------------------------------------------------------- targets


@frozen
class Machine:
    """The facts about a target that the compiler's lowering of shared-memory accesses reads."""
    name: str
    vendor: str                 # "nvidia" or "amd"
    warp_size: int
    stmatrix: bool = False      # sm90+
    ldmatrix: bool = False      # sm75+
    matrix_b8: bool = False     # sm100+: the 8-bit transposed forms (stmatrix .m16n8 / ldmatrix .m16n16 .trans .b8)
    ds_read_tr: bool = False    # gfx950: ds_read_b64_tr_b8 / _b16

    @property
    def banks(self) -> Target | None:
        """The bank model of targets.py (None where ttlayout has none: gfx1200)."""
        return TARGETS.get(self.name)


MACHINES = {
    "sm80": Machine("sm80", "nvidia", 32, ldmatrix=True),
    "sm90": Machine("sm90", "nvidia", 32, stmatrix=True, ldmatrix=True),
    "sm100": Machine("sm100", "nvidia", 32, stmatrix=True, ldmatrix=True, matrix_b8=True),
    "gfx942": Machine("gfx942", "amd", 64),
    "gfx950": Machine("gfx950", "amd", 64, ds_read_tr=True),
    "gfx1200": Machine("gfx1200", "amd", 32),
}


def get_machine(target: Target) -> Machine:
    """The lowering facts of a target (every target in `targets.KNOWN` has them, gfx1200 included)."""
    return MACHINES[target.name]


# ----------------------------------------------------------------------------------------- the conversion


@frozen
class Access:
    """The conversion (register, lane, warp) -> shared element offset, flattened: one int per basis, broadcast
    registers dropped.  `regs` keep the register layout's order."""
    regs: tuple[int, ...]
    lanes: tuple[int, ...]
    warps: tuple[int, ...]
    zero_lanes: tuple[int, ...] = ()    # lane bits holding copies (zero bases of the register layout)

    @property
    def n_regs(self) -> int:
        return 1 << len(self.regs)

    @property
    def n_warps(self) -> int:
        return 1 << len(self.warps)



def access_of(reg_ll: LinearLayout, shared_ll: LinearLayout) -> Access:
    """`reg.invert_and_compose(shared)` (Triton's `cvt`) as offsets; the block (CTA) part is left out: one CTA."""
    return _access_from_cvt(*_cvt_of(reg_ll, shared_ll))


def _cvt_of(reg_ll: LinearLayout, shared_ll: LinearLayout) -> tuple[LinearLayout, LinearLayout]:
    """(`cvt`, the register layout without its broadcast registers) of `access_of`, which the bank model's
    `prepare` computes the same way."""
    if not shared_ll.has_in_dim("offset"):
        raise UnsupportedError("the shared layout has no offset dimension")
    for d in (REG, LANE):
        if not reg_ll.has_in_dim(d):
            raise UnsupportedError(f"the register layout has no {d} dimension")
    if reg_ll.get_out_dims() != shared_ll.get_out_dims():
        raise ShapeError("the register and shared layouts cover different tensor shapes")
    reg = reg_ll.remove_zero_bases_along_dim(REG)
    try:
        cvt = reg.invert_and_compose(shared_ll)
    except LayoutError as e:
        raise LayoutError("the shared layout does not hold every element of the register layout") from e
    return cvt, reg


def _access_from_cvt(cvt: LinearLayout, reg: LinearLayout | None = None) -> Access:
    mask = cvt.get_out_dim_size("offset") - 1

    def offs(dim):
        return tuple(x & mask for x in cvt.flat_in_dim(dim))
    zero: tuple[int, ...] = ()
    if reg is not None and reg.has_in_dim(LANE):
        zero = tuple(i for i, b in enumerate(reg.get_in_dim_bases(LANE)) if not any(b))
    return Access(offs(REG), offs(LANE), offs(WARP), zero)


# ----------------------------------------------------------------------------------------- the compiler's choice


@frozen
class Lowering:
    """How the compiler moves one warp's data: `count` instructions, each moving `elems` elements per lane."""
    kind: str
    count: int
    elems: int
    instr_regs: tuple[int, ...]     # offsets of the register bases that select the instruction
    unit_bases: tuple[int, ...]     # matrix: offsets spanning the 8 rows of one matrix; else ()
    matrix_regs: tuple[int, ...] = ()   # matrix: offsets selecting the matrices of one instruction


def matrix_lowering(a: Access, bitwidth: int, transpose: bool, op: str = WRITE, b8: bool = False) -> Lowering | None:
    """Triton 3.9's `lowerLdStMatrix` conditions, or None when it fails.

    Plain: a 32-bit word in registers (offsets 1, 2, .. < 32 bits), lanes 0 and 1 on the next two words, no other
    basis below 16 bytes; the rows of a matrix are lanes 2-4.  ``.trans``: lanes 2-4 on offsets 1, 2, 4;
    16-bit: no other basis below 8 elements, the rows are register 0 and lanes 0, 1.  8-bit (`b8`: sm100's
    `supportLdStMatrixB8`): one register on offset 8 and no other basis below 16 elements, at least 4 registers
    for a store (`stmatrix.m16n8`: 8 rows of 16 bytes per matrix) and 8 for a load (`ldmatrix.m16n16`: 16 rows);
    the rows are the first one (store) or two (load) registers left after Triton's permutations
    (`_b8_transposed_regs`) and lanes 0, 1."""
    if len(a.lanes) < 5:
        return None
    regs = list(a.regs)
    elems = min(128 // bitwidth, a.n_regs)
    if not transpose:
        if bitwidth > 32:
            return None
        word = 32 // bitwidth
        tile = []
        for i in range(log2(word)):
            if (1 << i) not in regs:
                return None
            tile.append(regs.index(1 << i))
        rest = [r for p, r in enumerate(regs) if p not in tile]
        if a.lanes[0] != word or a.lanes[1] != 2 * word:
            return None
        low = 128 // bitwidth - 1
        if any(x & low for x in rest + list(a.lanes[2:]) + list(a.warps)):
            return None
        rows = tuple(a.lanes[2:5])
        words_left = rest
        n_mat_bits = log2(elems * bitwidth // 32)
    elif bitwidth == 16:
        if not regs or tuple(a.lanes[2:5]) != (1, 2, 4):
            return None
        if any(x & 7 for x in regs + list(a.lanes[:2]) + list(a.lanes[5:]) + list(a.warps)):
            return None
        rows = (regs[0], a.lanes[0], a.lanes[1])
        words_left = regs[1:]
        n_mat_bits = log2(elems * bitwidth // 32)
    elif bitwidth == 8 and b8:
        row_regs = 1 if op == WRITE else 2          # registers per row group: 4 (store) or 8 (load) per matrix
        if len(regs) < row_regs + 1 or 8 not in regs or tuple(a.lanes[2:5]) != (1, 2, 4):
            return None
        left = _b8_transposed_regs(regs, row_regs)
        if any(x & 15 for x in left + list(a.lanes[:2]) + list(a.lanes[5:]) + list(a.warps)):
            return None
        rows = tuple(left[:row_regs]) + (a.lanes[0], a.lanes[1])
        words_left = left[row_regs:]
        n_mat_bits = log2(elems // (4 * row_regs))
    else:
        return None
    return Lowering(MATRIX_TRANS if transpose else MATRIX, a.n_regs // elems, elems,
                    tuple(words_left[n_mat_bits:]), tuple(rows), tuple(words_left[:n_mat_bits]))


def _b8_transposed_regs(regs: list[int], row_regs: int) -> list[int]:
    """The register offsets of an 8-bit `.trans` matrix access other than the one on offset 8, in the order
    Triton 3.9's `lowerLdStMatrix` leaves them: it first moves register `row_regs` (the tile's offset-8 register)
    to the front, then the first register on offset 8 (`regPermForDivide`), and takes the rest in that order.

    >>> _b8_transposed_regs([8, 16, 128], 1), _b8_transposed_regs([8, 16, 128], 2), _b8_transposed_regs([16, 32, 64, 8], 2)
    ([16, 128], [128, 16], [64, 16, 32])
    """
    first = [regs[row_regs]] + regs[:row_regs] + regs[row_regs + 1:]
    first.pop(first.index(8))
    return first


def shared_lowering(a: Access, bitwidth: int, max_elems: int, padded: bool = False) -> Lowering:
    """Plain ld/st.shared of the widest vector the compiled code has (at most `max_elems` elements per lane).

    Linear layouts: the widest `v` whose offsets 1, 2, ..., v/2 lie in the span of the register offsets, with no
    lane or warp offset below `v`.  Triton's `largestVectorisation` only permutes register bases; LLVM's
    load/store vectorizer then merges the accesses whose addresses it proves consecutive (swizzled register
    bases such as offset 6 next to offset 2), which every linear case of golden/shared_access shows.
    Padded layouts: Triton's own choice, which permits no permutation there (the first register bases must be
    offsets 1, 2, ...) and no vector above the smallest interval (docs/shared_memory_model.md, section 1)."""
    regs, others = list(a.regs), list(a.lanes) + list(a.warps)
    v = max_elems
    while v > 1:
        k = log2(v)
        units = [1 << i for i in range(k)]
        if padded:
            ok = list(regs[:k]) == units and all(x & (v - 1) == 0 for x in regs[k:])
        else:
            ok = gf2.rank(regs + units) == gf2.rank(regs)
        if ok and all(x & (v - 1) == 0 for x in others):
            break
        v //= 2
    k = log2(v)
    if padded:
        rest = regs[k:]
    else:                               # a basis of the register span with the vector's bits cleared
        rest = [r for r in gf2.reduced_echelon([r & ~(v - 1) for r in regs]) if r]
    return Lowering(SHARED, a.n_regs // v, v, tuple(rest), ())


def ds_read_tr_lowering(reg_ll: LinearLayout, shared_ll: LinearLayout, bitwidth: int,
                        padding: Padding | None) -> Lowering | None:
    """gfx950's `ds_read_b64_tr_b16` / `_b8` (AMD `TransLocalLoadOpConversion`): rank 2; the registers run
    along one dim at least 32 bits deep, 16 consecutive lanes along the other, which is shared memory's
    contiguous dim for at least 32 bits.  One instruction per 64 bits of registers (16 lanes exchange them)."""
    if bitwidth not in (8, 16) or reg_ll.num_out_dims != 2:
        return None
    reg = reg_ll.remove_zero_bases_along_dim(REG)
    need_regs = 32 // bitwidth
    regs = reg.get_in_dim_bases(REG)
    lanes = reg.get_in_dim_bases(LANE)
    off = shared_ll.get_in_dim_bases("offset")
    if len(regs) < log2(need_regs) or len(lanes) < 4 or not off:
        return None
    fast_reg = next((d for d in range(2) if regs[0][d]), None)
    fast_smem = next((d for d in range(2) if off[0][d]), None)
    if fast_reg is None or fast_smem is None or fast_reg == fast_smem:
        return None

    def unit_run(bases, dim, n):
        return all(b[dim] == 1 << i and not b[1 - dim] for i, b in enumerate(bases[:n]))
    if not (unit_run(regs, fast_reg, log2(need_regs)) and unit_run(lanes, fast_smem, 4)
            and unit_run(off, fast_smem, log2(need_regs))):
        return None
    if padding is not None and min(padding.intervals) < need_regs:
        return None
    n = 1 << len(regs)
    elems = 64 // bitwidth
    if n < elems:
        return None
    return Lowering(DS_READ_TR, n // elems, elems, (), ())


def lowering(m: Machine, a: Access, bitwidth: int, op: str, padding: Padding | None,
             reg_ll: LinearLayout | None = None, shared_ll: LinearLayout | None = None) -> Lowering:
    """The local_alloc / local_store / local_load lowering Triton 3.9 picks for one direction."""
    if m.vendor == "nvidia" and padding is None and (m.stmatrix if op == WRITE else m.ldmatrix):
        for transpose in (False, True):
            low = matrix_lowering(a, bitwidth, transpose, op, m.matrix_b8)
            if low is not None:
                return low
    if m.ds_read_tr and op == READ and reg_ll is not None:
        assert shared_ll is not None            # the one caller, _local_access, passes both layouts
        low = ds_read_tr_lowering(reg_ll, shared_ll, bitwidth, padding)
        if low is not None:
            return low
    max_elems = 128 // bitwidth
    if padding is not None:
        max_elems = min(max_elems, min(padding.intervals))
    return shared_lowering(a, bitwidth, max_elems, padding is not None)


# ----------------------------------------------------------------------------------------- instruction names


@frozen
class Packing:
    """How the code next to a sub-32-bit access holds its registers, which decides how LLVM's NVPTX backend
    spells Triton's `<v x i16>` / `<2 x i8>` shared access (one access of the same bits either way).

    `held`: elements per register word (2 f16 in a 32-bit register, 2 or 4 i8 in a 16- or 32-bit one; 1 when
    each value has its own register); `along`: how many consecutive shared offsets (1, 2, ...) run along that
    word, in its order."""
    held: int = 1
    along: int = 1


UNPACKED = Packing()


def packing_of(reg_ll: LinearLayout, shared_ll: LinearLayout | None, bitwidth: int) -> Packing:
    """The packing of a register layout whose neighbour is a row-major global access in the same layout (a
    `tt.load` feeding a `local_alloc` or a convert, a `tt.store` after a `local_load`): the vectorised global
    access leaves the thread's first elements along the last dim packed in register words
    (`ld.global.v4.b32` of 8 f16: four words of 2).

    >>> from linlayout_cli import inputs
    >>> b = inputs.attribute("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>")
    >>> packing_of(inputs.linear_layout(b, [16, 16]), None, 16)
    Packing(held=2, along=1)
    """
    if bitwidth >= 32 or not reg_ll.has_in_dim(REG):
        return UNPACKED
    rank = reg_ll.num_out_dims
    units = [tuple((1 << i) if d == rank - 1 else 0 for d in range(rank)) for i in range(4)]
    run = 0
    for basis in reg_ll.remove_zero_bases_along_dim(REG).get_in_dim_bases(REG):
        if run >= len(units) or tuple(basis) != units[run]:
            break
        run += 1
    held = min(1 << run, 32 // bitwidth)
    along = 0
    if shared_ll is not None and shared_ll.has_in_dim("offset"):
        for basis in shared_ll.get_in_dim_bases("offset"):
            if along >= len(units) or tuple(basis) != units[along]:
                break
            along += 1
    return Packing(held, min(1 << along, held))


def subword_form(bitwidth: int, elems: int, op: str, packing: Packing) -> tuple[int, int]:
    """(vector count, bits per element) of the PTX spelling of a plain shared access of `elems` elements of
    8 or 16 bits, as Triton 3.9's LLVM prints it (checked against compiled PTX: tests/data/packed_shared.jsonl).

    * 16-bit: 8 elements are four 32-bit words (`.v4.b32`).  Two or four stay a vector of elements
      (`st.shared.v2.b16`, `.v4.b16`) unless the values are held packed, two to a 32-bit register: a store
      then packs them (`st.shared.b32`, `.v2.b32`); a load takes the packed spelling only when the shared
      offsets run along those words.
    * 8-bit: held two to a 16-bit register with the shared offsets along them, 2, 4 or 8 elements are that
      many 16-bit words (`.b16`, `.v2.b16`, `.v4.b16`); otherwise 2 elements are `.v2.b8`, 4 one 32-bit
      register (`.b32`), 8 and 16 are 32-bit words (`.v2.b32`, `.v4.b32`).

    >>> subword_form(16, 2, "write", UNPACKED), subword_form(16, 2, "write", Packing(2, 1))
    ((2, 16), (1, 32))
    >>> subword_form(16, 2, "read", Packing(2, 1)), subword_form(8, 2, "read", Packing(2, 2))
    ((2, 16), (1, 16))
    """
    bits = elems * bitwidth
    if elems == 1:
        return 1, bitwidth
    if bitwidth == 8:
        if packing.held == 2 and packing.along >= 2 and elems <= 8:
            return elems // 2, 16
        return (2, 8) if elems == 2 else (bits // 32, 32)
    if elems > 4:
        return bits // 32, 32
    if packing.held >= 2 and (op == WRITE or packing.along >= 2):
        return (1, bits) if bits <= 32 else (bits // 32, 32)
    return elems, bitwidth


def instruction_name(m: Machine, low: Lowering, bitwidth: int, op: str, packing: Packing = UNPACKED) -> str:
    """The exact mnemonic: st.shared.v4.b32, ld.shared.b16, st.shared.v2.b64, st.shared.v2.b16,
    stmatrix.sync.aligned.m8n8.x4.trans.shared.b16; ds_write_b128, ds_read_u16, ds_read_b64_tr_b16.
    `packing`: how the neighbouring code holds 8/16-bit registers (`subword_form`).

    >>> m = MACHINES["sm90"]
    >>> instruction_name(m, Lowering(SHARED, 4, 8, (), ()), 16, WRITE), instruction_name(m, Lowering(SHARED, 1, 2, (), ()), 64, READ)
    ('st.shared.v4.b32', 'ld.shared.v2.b64')
    >>> instruction_name(m, Lowering(SHARED, 4, 2, (), ()), 16, WRITE), instruction_name(m, Lowering(SHARED, 4, 2, (), ()), 16, WRITE, Packing(2, 1))
    ('st.shared.v2.b16', 'st.shared.b32')
    """
    bits = low.elems * bitwidth
    if low.kind in (MATRIX, MATRIX_TRANS):
        name = "stmatrix" if op == WRITE else "ldmatrix"
        if low.kind == MATRIX_TRANS and bitwidth == 8:     # sm100: 8 (store) or 16 (load) rows of 16 bytes
            shape, per = ("m16n8", 32) if op == WRITE else ("m16n16", 64)
            return f"{name}.sync.aligned.{shape}.x{bits // per}.trans.shared.b8"
        trans = ".trans" if low.kind == MATRIX_TRANS else ""
        return f"{name}.sync.aligned.m8n8.x{bits // 32}{trans}.shared.b16"
    if low.kind == DS_READ_TR:
        return f"ds_read_b64_tr_b{bitwidth}"
    if m.vendor == "amd":
        rdna = m.name == "gfx1200"                  # RDNA4 spells them ds_store / ds_load
        read, write = ("ds_load", "ds_store") if rdna else ("ds_read", "ds_write")
        if op == READ and bits < 32:
            return f"{read}_u{bits}"
        return f"{write if op == WRITE else read}_b{bits}"
    kind = "st.shared" if op == WRITE else "ld.shared"
    if bitwidth == 64:
        return f"{kind}.v{low.elems}.b64" if low.elems > 1 else f"{kind}.b64"
    if bitwidth < 32:
        n, width = subword_form(bitwidth, low.elems, op, packing)
        return f"{kind}.v{n}.b{width}" if n > 1 else f"{kind}.b{width}"
    if bits <= 32:
        return f"{kind}.b{bits}"
    return f"{kind}.v{bits // 32}.b32"


# ----------------------------------------------------------------------------------------- what the assembly issues

DS2_OFFSETS = 255                       # ds_read2 / ds_write2: two 8-bit offsets, in units of the access (x64: st64)


def _additive_offsets(regs, varying: int) -> list[int]:
    """The register offsets (combinations of `regs`) that leave the bits `varying` with lanes and warps alone:
    added to a lane's address they are constants (a base register plus an immediate)."""
    rows: list[tuple[int, int]] = []            # (projection, value), reduced on the projection's top bit
    out = []
    for r in regs:
        proj, val = r & varying, r
        for p, v in rows:
            if proj ^ p < proj:
                proj, val = proj ^ p, val ^ v
        if proj:
            rows.append((proj, val))
        elif val:
            out.append(val)
    return out


def issued_count(m: Machine, a: Access, low: Lowering, bitwidth: int, padding: Padding | None = None) -> int:
    """Instructions per warp as the assembly has them. NVIDIA: `low.count`. AMD: LLVM's load/store optimizer
    joins two 32- or 64-bit LDS accesses with one base address and constant offsets into one `ds_read2*` /
    `ds_write2*` (offsets up to 255 units of the access, or of 64 accesses for the `st64` forms): the register
    offsets that touch no bit the lanes and warps vary are such constants, so each base address then serves
    pairs (`ds_read2st64_b64` for a dot operand's two k halves).

    >>> m = MACHINES["gfx942"]
    >>> a = Access((1, 2, 8, 0x1000), (4, 8, 16, 32, 64, 128), (256, 512))
    >>> issued_count(m, a, Lowering(SHARED, 4, 4, (8, 0x1000), ()), 16)
    2
    """
    if m.vendor != "amd" or low.kind != SHARED or padding is not None or low.count < 2:
        return low.count
    size = low.elems * bitwidth // 8
    if size not in (4, 8):
        return low.count
    varying = 0
    for x in a.lanes + a.warps:
        varying |= x
    constants = _additive_offsets(low.instr_regs, varying)
    for d in sorted(c * bitwidth // 8 for c in constants):
        if d % size == 0 and (d // size <= DS2_OFFSETS or (d % (64 * size) == 0 and d // (64 * size) <= DS2_OFFSETS)):
            return low.count // 2
    return low.count


# ----------------------------------------------------------------------------------------- addresses


def padding_text(padding: Padding) -> str:
    return "padding [" + ", ".join(f"{i}:+{p}" for i, p in zip(padding.intervals, padding.paddings)) + "]"


def _padded(offset: int, padding: Padding | None) -> int:
    """Memory position of an element offset: the offset plus the padding of every interval it has passed."""
    return offset if padding is None else padding.padded_offset(offset)


def first_misaligned(padding: Padding, elems: int, count: int) -> int | None:
    """The first element offset that starts a vector of `elems` (a multiple of it) whose padded position is not a
    multiple of `elems`, among the first `count` offsets; None when there is none.

    The padded position modulo `elems` repeats every `max(intervals) * elems` offsets, so no more are tried.

    >>> first_misaligned(Padding((64,), (2,)), 8, 4096), first_misaligned(Padding((64,), (8,)), 8, 4096)
    (64, None)
    """
    if elems <= 1:
        return None
    for offset in range(0, min(count, max(padding.intervals) * elems), elems):
        if padding.padded_offset(offset) % elems:
            return offset
    return None


def check_alignment(a: Access, low: Lowering, bitwidth: int, padding: Padding | None, name: str) -> None:
    """Raise MisalignedAccess when a padded vector access does not start on its natural alignment.

    Every multiple of the vector is the start of some lane's access (the register layout covers the buffer)."""
    if padding is None or low.kind != SHARED or low.elems == 1:
        return
    count = 1 << max((x.bit_length() for x in list(low.instr_regs) + list(a.lanes) + list(a.warps)), default=0)
    bad = first_misaligned(padding, low.elems, max(count, low.elems))
    if bad is not None:
        raise MisalignedAccess(name, low.elems * bitwidth // 8, bad, padding.padded_offset(bad) * bitwidth // 8,
                               f"#ttg.padded_shared {padding_text(padding)}")


@frozen
class Waves:
    """Wavefronts of the CTA's instructions: their sum, the worst, how many instructions, and what a
    conflict-free layout would take."""
    total: int
    worst: int
    instructions: int
    ideal_total: int
    broadcast: bool                 # some wavefront served one word to several lanes


def instruction_waves(byte_addrs, nbytes: int, phase_of, num_banks: int) -> tuple[int, int, bool]:
    """(wavefronts, ideal wavefronts, any broadcast) of one instruction whose units (lanes, or matrix rows) start
    at `byte_addrs` and touch the 32-bit words of `nbytes` bytes each; units of one phase are served together, a
    wavefront serves each bank once and one word to every unit asking for it.

    >>> instruction_waves([0, 128, 4, 4], 4, [0, 0, 0, 0], 32)       # words 0 and 32 share bank 0; word 1 twice
    (2, 1, True)
    """
    n_words = max(1, nbytes // 4)
    words: dict[int, set[int]] = {}
    asked: dict[int, int] = {}
    for addr, phase in zip(byte_addrs, phase_of):
        first = addr >> 2
        words.setdefault(phase, set()).update(range(first, first + n_words))
        asked[phase] = asked.get(phase, 0) + n_words
    wave = ideal = 0
    broadcast = False
    for phase, ws in words.items():
        per_bank: dict[int, int] = {}
        for w in ws:
            b = w % num_banks
            per_bank[b] = per_bank.get(b, 0) + 1
        wave += max(per_bank.values())
        ideal += -(-len(ws) // num_banks)
        broadcast = broadcast or asked[phase] > len(ws)
    return wave, ideal, broadcast


def simulate(m: Machine, a: Access, low: Lowering, bitwidth: int, op: str, padding: Padding | None) -> Waves | None:
    """Replay the CTA's accesses unit by unit (a unit: a lane, or one 8x8 matrix row).

    Linear layouts: every instruction of every warp is an XOR translate of warp 0's first one (XOR commutes with
    the shift from element offsets to 32-bit words, so banks are permuted, not merged): that one is replayed.
    Padded layouts: the position of `c ^ u` (instruction base c, unit u) is `P(c & ~M) + P((c & M) ^ u)` with M
    the bits any unit touches, so instructions agreeing on `c & M` and on where the shift `P(c & ~M)` falls
    within a 32-bit word cost the same: one of each class is replayed."""
    banks = m.banks
    if banks is None or low.kind == DS_READ_TR:
        return None
    if low.kind == SHARED:
        units = gf2.span(a.lanes)
        nbytes = low.elems * bitwidth // 8
        phase_of = span_cosets(banks.phase_masks(low.elems * bitwidth, op, len(a.lanes)), len(units))
    else:                               # 16-byte rows, each 8 rows (a matrix; .b8: ldmatrix.m16n16 has 16) a phase
        rows = gf2.span(low.unit_bases)
        units = [mat ^ r for mat in gf2.span(low.matrix_regs) for r in rows]
        nbytes = 16
        phase_of = [i // 8 for i in range(len(units))]

    def replay(base: int) -> tuple[int, int, bool]:
        addrs = [_padded(base ^ u, padding) * bitwidth // 8 for u in units]
        return instruction_waves(addrs, nbytes, phase_of, banks.num_banks)

    n_instr = 1 << len(low.instr_regs)
    if padding is None:
        wave, ideal, broadcast = replay(0)
        n = n_instr * a.n_warps
        return Waves(wave * n, wave, n, ideal * n, broadcast)
    total = ideal_total = worst = 0
    broadcast = False
    bases = list(low.instr_regs) + list(a.warps)
    reps = class_representatives(bases, units, padding, bitwidth)
    weight = 1 << (len(bases) - len(reps))
    for c in gf2.span(reps):
        wave, ideal, bc = replay(c)
        total, ideal_total, worst = total + wave * weight, ideal_total + ideal * weight, max(worst, wave)
        broadcast = broadcast or bc
    return Waves(total, worst, n_instr * a.n_warps, ideal_total, broadcast)


def class_representatives(bases, units, padding: Padding, bitwidth: int) -> list[int]:
    """Bases whose span holds one instruction base of each cost class of a padded access, every class equally
    often (2^(len(bases) - len(result)) instructions each).

    An instruction at base c costs what `c & M` (M: the bits any unit touches) and the position of
    `P(c & ~M)` within a 32-bit word decide; that position depends only on the bits of c in the low
    `log2(32 / bitwidth)` bits of each interval's multiple (and of the offset itself).  So the cost is a
    function of the projection `c & keep`: bases with independent projections give every class once.

    >>> from linlayout_cli.conversions.padded_shared import Padding
    >>> class_representatives([32, 64, 128], [1, 2, 4, 8, 16], Padding((32,), (1,)), 32)   # lanes along a row
    []
    """
    mask = 0
    for u in units:
        mask |= u
    keep = mask
    per_word = 32 // bitwidth if bitwidth < 32 else 1
    if per_word > 1:
        keep |= per_word - 1
        for interval in padding.intervals:
            keep |= (per_word - 1) * interval
    found = gf2.XorBasis()
    return [b for b in bases if found.insert(b & keep)]
