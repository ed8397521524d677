"""Triton releases 3.2 ... 3.9 as data: what each one's triton-tensor-layout spells, knows, prints and refuses.

One layout engine serves every release; a release is a row of ``RELEASES`` (a frozen ``Release``), read by
  * ``spelled(attr, release)``: the attribute as the release's own printer writes it (the header line);
  * the conversions (``conversions.common.active_release``): ``keeps_broadcast_registers`` (3.2 - 3.8 keep a blocked
    layout's broadcast registers, so a thread holding an element several times lists every register:
    ``T0:0|  T0:4``; 3.9 drops them and lists the first);
  * ``refusal(attr, shape, release)``: where the release aborts or dies although 3.9 prints, the one error line.

Loaded only when ``--triton`` names a release other than 3.9 (start-up of the default print is unchanged).
Ground truth: ``golden/releases/`` (each release's own tool, ``scripts/golden/releases.py``)."""
from __future__ import annotations

from ..records import frozen, replace
from . import TRITON as DEFAULT
from . import encodings as enc


@frozen
class Release:
    name: str
    dialect: str = "ttg"                       # "triton_gpu" in 3.2
    kinds: frozenset = frozenset()             # layout mnemonics (3.9 names) the release knows
    cta_fields: bool = False                   # CTAsPerCGA / CTASplitNum / CTAOrder instead of CGALayout
    mfma_version_pair: bool = False            # amd_mfma: versionMajor / versionMinor instead of version
    mfma_instr_two: bool = False               # amd_mfma: a two-entry instrShape [M, N]
    wmma_warps: bool = False                   # amd_wmma: warpsPerCTA instead of ctaLayout, no instrShape
    wmma_dot_parent_cga: bool = False          # an amd_wmma dot operand keeps its parent's CTAs along K
    wmma_dot_k_first: bool = False             # an amd_wmma dot operand's K repeats before its ctaLayout's registers
    wmma_instr: bool = False                   # ... but with instrShape (printed where not [16, 16, 16])
    wmma_transpose: bool = True                # amd_wmma has isTranspose (not in 3.2)
    old_shared: bool = False                   # swizzled_shared spelled #triton_gpu.shared<{..., hasLeadingOffset}>
    keeps_broadcast_registers: bool = False    # blocked layouts keep broadcast register bases
    nvmma_plain_layout: bool = False           # an unswizzled transposed nvmma_shared laid out as if not transposed
    blocked_zero_as_one: bool = False          # a blocked layout's 0 entry is laid out as 1 (no power-of-two check)
    mfma_dot_tiles_at_k: bool = False          # an amd_mfma dot operand repeats along M / N by tilesPerWarp's K entry
    mfma_unset_transposed: bool = False        # amd_mfma without isTransposed reads as transposed (3.5: garbage)
    swizzle_whole_tensor: bool = False         # swizzled_shared laid out over the whole tensor, then cut to a CTA
    ampere_dot_legacy: bool = False            # nvidia_mma v2 dot operands: 3.2's layout and register count
    shrink: str = "mask"                       # fitting a layout to a smaller tensor: "mask" zeroes components past
                                               # the size; "largest" / "largest_sized" zero the largest first
    notes: tuple = ()                          # what else differs from 3.9, for `ttlayout help releases`


_ALL = frozenset({"blocked", "slice", "dot_op", "nvidia_mma", "amd_mfma", "amd_wmma", "linear", "generic_linear",
                  "swizzled_shared", "amd_rotating_shared", "nvmma_shared", "shared_linear", "padded_shared",
                  "partitioned_shared"})
_KINDS = {"3.2": frozenset({"blocked", "slice", "dot_op", "nvidia_mma", "amd_mfma", "amd_wmma", "swizzled_shared"})}
_KINDS["3.3"] = _KINDS["3.2"] | {"linear", "nvmma_shared"}
_KINDS["3.4"] = _KINDS["3.3"] | {"amd_rotating_shared"}
_KINDS["3.5"] = _KINDS["3.4"] | {"shared_linear"}
_KINDS["3.6"] = _KINDS["3.5"] | {"padded_shared"}
_KINDS["3.7"] = _KINDS["3.6"] | {"partitioned_shared"}
_KINDS["3.8"] = _KINDS["3.9"] = _ALL

_OLD = True                                   # keeps_broadcast_registers: every release before 3.9
RELEASES = {r.name: r for r in (
    Release("3.2", dialect="triton_gpu", kinds=_KINDS["3.2"], cta_fields=True, mfma_version_pair=True,
            mfma_instr_two=True, wmma_warps=True, wmma_transpose=False, old_shared=True, keeps_broadcast_registers=_OLD,
            swizzle_whole_tensor=True, ampere_dot_legacy=True, shrink="largest"),
    Release("3.3", kinds=_KINDS["3.3"], cta_fields=True, blocked_zero_as_one=True, mfma_version_pair=True, mfma_instr_two=True,
            wmma_warps=True, keeps_broadcast_registers=_OLD, swizzle_whole_tensor=True, shrink="largest"),
    Release("3.4", kinds=_KINDS["3.4"], cta_fields=True, blocked_zero_as_one=True, mfma_version_pair=True, mfma_instr_two=True,
            wmma_warps=True, nvmma_plain_layout=True, keeps_broadcast_registers=_OLD, shrink="largest"),
    Release("3.5", kinds=_KINDS["3.5"], cta_fields=True, mfma_instr_two=True, wmma_warps=True,
            nvmma_plain_layout=True, mfma_unset_transposed=True, mfma_dot_tiles_at_k=True, keeps_broadcast_registers=_OLD,
            shrink="largest_sized"),
    Release("3.6", kinds=_KINDS["3.6"], wmma_warps=True, wmma_instr=True, wmma_dot_parent_cga=True, nvmma_plain_layout=True, keeps_broadcast_registers=_OLD,
            shrink="largest_sized"),
    Release("3.7", kinds=_KINDS["3.7"], nvmma_plain_layout=True, wmma_dot_parent_cga=True, wmma_dot_k_first=True,
            keeps_broadcast_registers=_OLD,
            shrink="largest_sized"),
    Release("3.8", kinds=_KINDS["3.8"], keeps_broadcast_registers=_OLD),
    Release("3.9", kinds=_KINDS["3.9"]),
)}

# The words of `ttlayout help releases`, one line per table column that is set.
_WORDS = (
    ("dialect", lambda r: r.dialect != "ttg", "the dialect is #triton_gpu."),
    ("kinds", lambda r: r.kinds != _ALL, None),
    ("cta_fields", lambda r: r.cta_fields, "CTAsPerCGA / CTASplitNum / CTAOrder instead of CGALayout"),
    ("mfma_version_pair", lambda r: r.mfma_version_pair, "amd_mfma has versionMajor / versionMinor, not version"),
    ("mfma_instr_two", lambda r: r.mfma_instr_two, "amd_mfma's instrShape has two entries [M, N]"),
    ("wmma_warps", lambda r: r.wmma_warps and not r.wmma_instr, "amd_wmma has warpsPerCTA instead of ctaLayout, "
     "and no instrShape (a 16x16x16 instruction)"),
    ("wmma_dot_parent_cga", lambda r: r.wmma_dot_parent_cga, "an amd_wmma dot operand keeps its parent's CTAs "
     "along K (3.9 replicates them)"),
    ("wmma_dot_k_first", lambda r: r.wmma_dot_k_first, "an amd_wmma dot operand repeats along K over the tensor "
     "before its ctaLayout's register bases (3.9 after them)"),
    ("wmma_instr", lambda r: r.wmma_instr, "amd_wmma has warpsPerCTA instead of ctaLayout (instrShape printed only "
     "where it is not [16, 16, 16])"),
    ("wmma_transpose", lambda r: not r.wmma_transpose, "amd_wmma has no isTranspose"),
    ("old_shared", lambda r: r.old_shared, "swizzled_shared is #triton_gpu.shared<{..., hasLeadingOffset = false}>"),
    ("keeps_broadcast_registers", lambda r: r.keeps_broadcast_registers, "a thread holding an element in several "
     "registers lists every register (T0:0|  T0:4); 3.9 lists the first"),
    ("nvmma_plain_layout", lambda r: r.nvmma_plain_layout, "an unswizzled transposed nvmma_shared is laid out as if "
     "it were not transposed (both views)"),
    ("blocked_zero_as_one", lambda r: r.blocked_zero_as_one, "a blocked layout's 0 in sizePerThread, threadsPerWarp "
     "or warpsPerCTA is laid out as 1 (other non-powers of two abort)"),
    ("mfma_dot_tiles_at_k", lambda r: r.mfma_dot_tiles_at_k, "an amd_mfma's dot operands repeat along M (A) or N "
     "(B) by tilesPerWarp's entry of the K dimension, not of that dimension"),
    ("mfma_unset_transposed", lambda r: r.mfma_unset_transposed, "an amd_mfma without isTransposed reads it from "
     "uninitialized memory: laid out transposed on every run recorded (the header says false, or garbage)"),
    ("swizzle_whole_tensor", lambda r: r.swizzle_whole_tensor, "a swizzled_shared or nvmma_shared spanning several "
     "CTAs is laid out over the whole tensor and then cut to one CTA's part (offsets past it repeat)"),
    ("ampere_dot_legacy", lambda r: r.ampere_dot_legacy, "an nvidia_mma v2 dot operand repeats along dim 1 before "
     "dim 0, its warps along K are left out of the layout, and the grid lists as many registers as the release's "
     "getTotalElemsPerThread counts (fewer than the layout has, or repeats)"),
    ("shrink", lambda r: r.shrink == "largest", "a layout larger than the tensor is cut by zeroing its largest "
     "components first; where that leaves it larger than the tensor, the release aborts ('expected to be "
     "surjective')"),
    ("shrink", lambda r: r.shrink == "largest_sized", "a layout larger than the tensor is cut by zeroing its largest "
     "components first; where that leaves a component past the tensor, the release aborts ('Invalid basis')"),
)


def help_text() -> str:
    """`ttlayout help releases`: what each release's printer does differently from 3.9's."""
    lines = ["--triton X.Y (or TTLAYOUT_TRITON=X.Y) prints as that Triton release's triton-tensor-layout prints: its",
             "header line, its grid, its errors. --triton auto reads the installed Triton's version (package",
             "metadata; Triton is never imported). print, info, lookup and diff follow it; convert, bank, swizzle,",
             "audit and advise model Triton 3.9's compiler and refuse another release.", ""]
    for r in RELEASES.values():
        if r.name == DEFAULT:
            lines.append(f"{r.name}: the default")
            continue
        lines.append(f"{r.name}:")
        for _, applies, words in _WORDS:
            if applies(r):
                lines.append("  - " + (words or "no " + ", ".join(sorted(_ALL - r.kinds))))
        lines += [f"  - {n}" for n in r.notes]
        lines += [f"  - {x.what} on {x.why}" for x in REFUSALS if r.name in x.releases]
    return "\n".join(lines)


def known() -> str:
    return ", ".join(RELEASES)


def mnemonic_of(attr) -> str:
    return str(attr)[5:].split("<", 1)[0]


# ---------------------------------------------------------------------------------------------- spelling
def cta_fields(cga, rank: int, default_order) -> str | None:
    """CGALayout bases -> `CTAsPerCGA = [..], CTASplitNum = [..], CTAOrder = [..]` (the inverse of
    CGAEncodingAttr::fromSplitParams: per dimension in CTA order, split bases 1, 2, 4 .. then broadcast zeros);
    None where the bases have no such form. Dimensions without bases follow in `default_order`."""
    ctas, split = [1] * rank, [1] * rank
    order: list[int] = []
    leading = 0
    for b in cga:
        nz = [d for d in range(rank) if b[d]]
        if not nz:
            if order:
                ctas[order[-1]] *= 2
            else:
                leading += 1
            continue
        d = nz[0]
        if len(nz) != 1 or b[d] != split[d] or (d in order and (order[-1] != d or ctas[d] != split[d])):
            return None
        if d not in order:
            order.append(d)
        split[d] *= 2
        ctas[d] *= 2
    rest = [d for d in default_order if d not in order]
    if leading:
        if not rest:
            return None
        order.insert(0, rest.pop(0))
        ctas[order[0]] <<= leading
    order += rest
    return f"CTAsPerCGA = {enc.int_list(ctas)}, CTASplitNum = {enc.int_list(split)}, CTAOrder = {enc.int_list(order)}"


class Unspellable(Exception):
    """A 3.9 layout the release has no spelling for."""


def spelled(attr, release: Release) -> str:
    """`attr` as `release`'s printer writes it (3.9: `str(attr)`)."""
    if release.name == DEFAULT:
        return str(attr)
    text = _body(attr, release)
    if release.dialect != "ttg":
        text = text.replace("#ttg.", f"#{release.dialect}.")
    return text


def _cga_text(attr, rank: int, release: Release) -> str:
    if not attr.cga:
        return ""
    if not release.cta_fields:
        return f", CGALayout = {enc.int_lists(attr.cga)}"
    fields = cta_fields(attr.cga, rank, list(range(rank - 1, -1, -1)))
    if fields is None:
        raise Unspellable(f"Triton {release.name} has no CTAsPerCGA / CTASplitNum / CTAOrder for CGALayout "
                          f"{enc.int_lists(attr.cga)}")
    return ", " + fields


def _body(attr, release: Release) -> str:
    if isinstance(attr, enc.BlockedEncoding):
        return (f"#ttg.blocked<{{sizePerThread = {enc.int_list(attr.size_per_thread)}, threadsPerWarp = "
                f"{enc.int_list(attr.threads_per_warp)}, warpsPerCTA = {enc.int_list(attr.warps_per_cta)}, order = {enc.int_list(attr.order)}"
                f"{_cga_text(attr, attr.rank, release)}}}>")
    if isinstance(attr, enc.SliceEncoding):
        return f"#ttg.slice<{{dim = {attr.dim}, parent = {_body(attr.parent, release)}}}>"
    if isinstance(attr, enc.DotOperandEncoding):
        kw = f", kWidth = {attr.k_width}" if attr.k_width else ""
        return f"#ttg.dot_op<{{opIdx = {attr.op_idx}, parent = {_body(attr.parent, release)}{kw}}}>"
    if isinstance(attr, enc.NvidiaMmaEncoding):
        return (f"#ttg.nvidia_mma<{{versionMajor = {attr.version_major}, versionMinor = {attr.version_minor}, "
                f"warpsPerCTA = {enc.int_list(attr.warps_per_cta)}{_cga_text(attr, attr.rank, release)}, instrShape = "
                f"{enc.int_list(attr.instr_shape)}}}>")
    if isinstance(attr, enc.AMDMfmaEncoding) and (release.mfma_version_pair or release.mfma_instr_two):
        if release.mfma_version_pair:
            if any(t != 1 for t in attr.tiles_per_warp) or attr.element_bit_width != 32:
                raise Unspellable(f"Triton {release.name}'s amd_mfma has no tilesPerWarp or elementBitWidth")
            head = f"versionMajor = {attr.version}, versionMinor = 0, warpsPerCTA = {enc.int_list(attr.warps_per_cta)}"
        else:                                   # 3.5: tilesPerWarp after warpsPerCTA, no elementBitWidth
            tpw = f", tilesPerWarp = {enc.int_list(attr.tiles_per_warp)}" if any(t != 1 for t in attr.tiles_per_warp) else ""
            head = f"version = {attr.version}, warpsPerCTA = {enc.int_list(attr.warps_per_cta)}{tpw}"
        return (f"#ttg.amd_mfma<{{{head}, instrShape = {enc.int_list(attr.instr_shape[:2])}, "
                f"isTransposed = {'true' if attr.is_transposed else 'false'}"
                f"{_cga_text(attr, len(attr.warps_per_cta), release)}}}>")
    if isinstance(attr, enc.AMDWmmaEncoding) and release.wmma_warps:
        warps = wmma_warps_per_cta(attr)
        if warps is None:
            raise Unspellable(f"Triton {release.name}'s amd_wmma takes warpsPerCTA: no register bases, warp bases "
                              "1, 2, 4 .. per dimension from the last one down")
        transpose = f", isTranspose = {'true' if attr.is_transpose else 'false'}" if release.wmma_transpose else ""
        instr = (f", instrShape = {enc.int_list(attr.instr_shape)}" if release.wmma_instr and tuple(attr.instr_shape) !=
                 (16, 16, 16) else "")
        return (f"#ttg.amd_wmma<{{version = {attr.version}{transpose}, warpsPerCTA = {enc.int_list(warps)}"
                f"{_cga_text(attr, attr.rank, release)}{instr}}}>")
    if type(attr) is enc.SwizzledSharedEncoding and release.old_shared:
        return (f"#ttg.shared<{{vec = {attr.vec}, perPhase = {attr.per_phase}, maxPhase = {attr.max_phase}, "
                f"order = {enc.int_list(attr.order)}{_cga_text(attr, len(attr.order), release)}, hasLeadingOffset = "
                "false}>")
    text = str(attr)
    if attr.cga if hasattr(attr, "cga") else False:
        rank = getattr(attr, "rank", None) or len(attr.cga[0])
        old = f", CGALayout = {enc.int_lists(attr.cga)}"
        text = text.replace(old, _cga_text(attr, rank, release))
    return text


@frozen
class MfmaUnsetTransposed(enc.AMDMfmaEncoding):
    """An amd_mfma written without isTransposed under a release that reads the flag from uninitialized memory
    (3.5): its header says false, and every run recorded laid it out transposed (`modelled_attr`)."""


@frozen
class AmpereDot32(enc.DotOperandEncoding):
    """A dot operand of an nvidia_mma v2 as Triton 3.2 lays it out and prints it (`conversions.nvidia_mma`):
    the register count of its grid depends on the tensor's element width, `legacy_element_bits`."""
    legacy_element_bits: int = 16


def _tiles_at_k(tiles, op_idx: int, rank: int) -> tuple:
    """tilesPerWarp as Triton 3.5's mfma dot operand reads it: the entry of the operand's M / N dimension taken
    from its K dimension (A: rank-1, B: rank-2). A of tilesPerWarp [1, 2] repeats twice along M."""
    tiles = list(tiles)
    if len(tiles) < rank:                       # too short: the conversion's own error
        return tuple(tiles)
    non_k, k = (rank - 2, rank - 1) if op_idx == 0 else (rank - 1, rank - 2)
    tiles[non_k] = tiles[k]
    return tuple(tiles)


def modelled_attr(attr, release: Release, element_bits=None):
    """The layout `release` builds from `attr`'s text: releases with a warpsPerCTA amd_wmma know no instrShape
    (a 16x16x16 instruction) and 3.2 no isTranspose; 3.2 - 3.5 no amd_mfma elementBitWidth; 3.4 - 3.7 lay an
    unswizzled transposed nvmma_shared out as if it were not transposed; parents likewise. `element_bits`: a
    callable giving the tensor's element width (3.2's nvidia_mma v2 dot operands count registers by it)."""
    if (release.ampere_dot_legacy and type(attr) is enc.DotOperandEncoding
            and isinstance(attr.parent, enc.NvidiaMmaEncoding) and attr.parent.version_major == 2):
        return AmpereDot32(attr.op_idx, attr.parent, attr.k_width, element_bits() if element_bits else 16)
    if (release.mfma_dot_tiles_at_k and isinstance(attr, enc.DotOperandEncoding)
            and isinstance(attr.parent, enc.AMDMfmaEncoding) and any(t != 1 for t in attr.parent.tiles_per_warp)):
        attr = replace(attr, parent=replace(attr.parent, tiles_per_warp=_tiles_at_k(attr.parent.tiles_per_warp,
                                                                                     attr.op_idx, attr.parent.rank)))
    if release.blocked_zero_as_one and isinstance(attr, enc.BlockedEncoding):
        ones = [tuple(x or 1 for x in xs) for xs in (attr.size_per_thread, attr.threads_per_warp, attr.warps_per_cta)]
        if ones != [attr.size_per_thread, attr.threads_per_warp, attr.warps_per_cta]:
            return replace(attr, size_per_thread=ones[0], threads_per_warp=ones[1], warps_per_cta=ones[2])
    if isinstance(attr, (enc.SliceEncoding, enc.DotOperandEncoding)):
        parent = modelled_attr(attr.parent, release)
        return attr if parent is attr.parent else replace(attr, parent=parent)
    if isinstance(attr, enc.AMDWmmaEncoding) and release.wmma_warps:
        return replace(attr, instr_shape=attr.instr_shape if release.wmma_instr else (16, 16, 16),
                       is_transpose=attr.is_transpose if release.wmma_transpose else False)
    if isinstance(attr, MfmaUnsetTransposed):
        attr = enc.AMDMfmaEncoding(attr.version, attr.warps_per_cta, attr.instr_shape, True, attr.cga,
                                   attr.tiles_per_warp, attr.element_bit_width)
    if isinstance(attr, enc.AMDMfmaEncoding) and release.mfma_instr_two:
        if attr.element_bit_width != 32:            # no elementBitWidth before 3.6: the release ignores it
            attr = replace(attr, element_bit_width=32)
        if not attr.tiles_per_warp and attr.rank > len(attr.instr_shape):
            attr = replace(attr, tiles_per_warp=(1,) * attr.rank)   # no tilesPerWarp before 3.6: one tile per dim
        return attr
    if (release.nvmma_plain_layout and isinstance(attr, enc.NVMMASharedEncoding) and attr.transposed
            and attr.swizzling_byte_width == 0):
        return replace(attr, transposed=False)
    return attr


# ---------------------------------------------------------------------------------------------- refusals
def _nested(attr):
    """The attribute and the parents inside it (a slice's, a dot_op's)."""
    while attr is not None:
        yield attr
        attr = getattr(attr, "parent", None)


def _first_release(mnemonic: str) -> str:
    return next((r.name for r in RELEASES.values() if mnemonic in r.kinds), DEFAULT)


def check(attr, shape, release: Release) -> None:
    """Raise the one error line where `release`'s tool refuses, aborts or dies on `attr` at `shape` (3.9 prints)."""
    from ..errors import TTLayoutError
    for a in _nested(attr):
        m = mnemonic_of(a)
        if m not in release.kinds:
            raise TTLayoutError(f"Triton {release.name} has no #ttg.{m} layout (it came in Triton {_first_release(m)})")
    try:
        spelled(attr, release)
    except Unspellable as e:
        raise TTLayoutError(str(e)) from None
    for rule in REFUSALS:
        hit = rule.applies(attr, tuple(shape)) if release.name in rule.releases else None
        if hit:
            why = hit if isinstance(hit, str) else rule.why
            raise TTLayoutError(f"Triton {release.name}'s triton-tensor-layout {rule.what} on this layout "
                                f"({why}); Triton {DEFAULT} prints it")


def aborts(release: Release, why: str):
    """The one error line where `release`'s tool aborts on a layout that Triton 3.9 prints."""
    from ..errors import TTLayoutError
    return TTLayoutError(f"Triton {release.name}'s triton-tensor-layout aborts on this layout ({why}); Triton "
                         f"{DEFAULT} prints it")


@frozen
class Refusal:
    """Where some releases' tool aborts or crashes: `applies(attr, shape)`, in words `what` and `why`."""
    releases: tuple
    what: str
    why: str
    applies: object


def wmma_warps_per_cta(attr):
    """The warpsPerCTA an amd_wmma's ctaLayout amounts to (no register bases, warp bases 1, 2, 4 .. per dimension
    from the last dimension down, as the releases with warpsPerCTA built them); None where it has no such form."""
    if attr.cta_register:
        return None
    counts = [1] * attr.rank
    i, warp = 0, attr.cta_warp
    for d in range(attr.rank - 1, -1, -1):
        while i < len(warp) and sum(1 for x in warp[i] if x) == 1 and warp[i][d] == counts[d]:
            counts[d] *= 2
            i += 1
    return counts if i == len(warp) else None


def _dot_op_32(attr, shape) -> bool:
    """Triton 3.2 converts a dot_op to a linear layout only for an nvidia_mma v2 parent of rank 2 with kWidth 8
    (16-bit elements: 128 bits); every other dot_op, and any slice of one, aborts."""
    dots = [a for a in _nested(attr) if isinstance(a, enc.DotOperandEncoding)]
    if not dots:
        return False
    if not isinstance(attr, enc.DotOperandEncoding):
        return True
    p = attr.parent
    return not (isinstance(p, enc.NvidiaMmaEncoding) and p.version_major == 2 and p.rank == 2 and attr.k_width == 8)


def _dot_op_rank_1(attr, shape) -> bool:
    return any(isinstance(a, enc.DotOperandEncoding) and a.parent.rank not in (2, 3) for a in _nested(attr))


def _slice_of_cga(attr, shape) -> bool:
    return isinstance(attr, enc.SliceEncoding) and bool(getattr(attr.parent, "cga", ()))


def _unswizzled_nvmma(attr, shape) -> bool:
    return isinstance(attr, enc.NVMMASharedEncoding) and attr.swizzling_byte_width == 0


def _small_wmma(attr, shape) -> bool:
    """An amd_wmma at a tensor whose last two dimensions are neither 1 nor at least the 16x16 instruction: the
    assertion 'Unsupported tensor shape for given wmma layout' of the releases before 3.8."""
    while isinstance(attr, enc.SliceEncoding):       # a slice's parent is built at the shape with a 1 inserted
        shape = shape[:attr.dim] + (1,) + shape[attr.dim:]
        attr = attr.parent
    return isinstance(attr, enc.AMDWmmaEncoding) and any(s != 1 and s < 16 for s in shape[-2:])


def _sliced_linear(attr, depth: int):
    """(the linear layout under `depth` or more nested slices, the linear's dims they remove) or None."""
    removed: list[int] = []
    while isinstance(attr, enc.SliceEncoding):
        removed.append(attr.dim)
        attr = attr.parent
    if len(removed) < depth or type(attr) is not enc.LinearEncoding:
        return None
    dims: list[int] = []
    for d in reversed(removed):                 # innermost first: each index counts the dims still there
        kept = [k for k in range(attr.rank) if k not in dims]
        dims.append(kept[d])
    return attr, sorted(dims)


def _slice_block_first(depth: int):
    """Triton 3.6 (any slice) and 3.7 (a slice of a slice) cut a linear layout's sliced dimension by dropping its
    block bases first, one halving each: a register, lane or warp basis left at or past the size then aborts
    ('Invalid basis'). Found on each release's own tool; the words name the first basis, as the release does."""
    def applies(attr, shape):
        found = _sliced_linear(attr, depth)
        if found is None:
            return None
        linear, dims = found
        for d in dims:
            size = max([1] + [_pow2_above(b[d]) for bs in (linear.register, linear.lane, linear.warp, linear.block)
                              for b in bs])
            size >>= sum(1 for b in linear.block if b[d])
            for name in ("register", "lane", "warp"):
                for b in getattr(linear, name):
                    if b[d] >= size:
                        return f"LLVM ERROR: Invalid basis {b[d]} for in-dim '{name}' and out-dim 'dim{d}'"
        return None
    return applies


def _pow2_above(c: int) -> int:
    p = 1
    while p <= c:
        p *= 2
    return p


# Where a release aborts or dies although 3.9 prints (from golden/releases: each release's own tool).
REFUSALS: tuple = (
    Refusal(("3.2",), "aborts", "a dot_op other than kWidth 8 on a rank-2 nvidia_mma v2 parent, or a slice of a "
            "dot_op: 'Failed to convert layout to linear layout', 'getThreadsPerWarp not implemented'", _dot_op_32),
    Refusal(("3.2",), "aborts", "a slice of a layout spanning several CTAs: 'getCTAsPerCGA for SliceEncodingAttr "
            "is not well-defined'", _slice_of_cga),
    Refusal(("3.2", "3.3", "3.4", "3.5", "3.6", "3.7"), "aborts", "an amd_wmma (or a slice of one) at a tensor whose "
            "last two dimensions are neither 1 nor at least 16: 'Unsupported tensor shape for given wmma layout'", _small_wmma),
    Refusal(("3.3", "3.4", "3.5"), "aborts", "a dot_op of rank other than 2 or 3: Assertion 'rank == 2 || rank == 3 "
            "&& \"Invalid dotLayout\"' failed", _dot_op_rank_1),
    Refusal(("3.6",), "aborts", "a slice of a linear layout with block bases along the sliced dimension",
            _slice_block_first(1)),
    Refusal(("3.7",), "aborts", "a slice of a slice of a linear layout with block bases along a sliced dimension",
            _slice_block_first(2)),
    Refusal(("3.3",), "runs out of memory or aborts", "an unswizzled nvmma_shared (swizzlingByteWidth = 0)",
            _unswizzled_nvmma),
)
