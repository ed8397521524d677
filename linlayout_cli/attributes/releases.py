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

from ..records import frozen
from . import encodings as enc

DEFAULT = "3.9"


@frozen
class Release:
    name: str
    dialect: str                       # "triton_gpu" (3.2) or "ttg"
    kinds: frozenset                   # layout mnemonics (3.9 names) the release knows
    cta_fields: bool                   # CTAsPerCGA / CTASplitNum / CTAOrder instead of CGALayout
    mfma_version_pair: bool            # amd_mfma: versionMajor / versionMinor, a two-entry instrShape
    wmma_warps: bool                   # amd_wmma: warpsPerCTA instead of ctaLayout warp bases
    old_shared: bool                   # swizzled_shared spelled #triton_gpu.shared<{..., hasLeadingOffset = false}>
    keeps_broadcast_registers: bool    # blocked layouts keep broadcast register bases
    notes: tuple = ()                  # what differs from 3.9, for `ttlayout help releases`


_ALL = frozenset({"blocked", "slice", "dot_op", "nvidia_mma", "amd_mfma", "amd_wmma", "linear", "generic_linear",
                  "swizzled_shared", "amd_rotating_shared", "nvmma_shared", "shared_linear", "padded_shared",
                  "partitioned_shared"})
_32 = frozenset({"blocked", "slice", "dot_op", "nvidia_mma", "amd_mfma", "amd_wmma", "swizzled_shared"})
_33 = _32 | {"linear", "nvmma_shared"}
_34 = _33 | {"amd_rotating_shared"}
_35 = _34 | {"shared_linear"}
_36 = _35 | {"padded_shared"}
_37 = _36 | {"partitioned_shared"}

RELEASES = {r.name: r for r in (
    Release("3.2", "triton_gpu", _32, True, True, True, True, True, (
        "dialect #triton_gpu.; swizzled_shared spelled #triton_gpu.shared<{..., hasLeadingOffset = false}>",
        "no linear, generic_linear, nvmma_shared, amd_rotating_shared, shared_linear, padded or partitioned shared",
        "CTAsPerCGA / CTASplitNum / CTAOrder instead of CGALayout; amd_mfma versionMajor / versionMinor; amd_wmma "
        "warpsPerCTA",
        "a thread holding an element in several registers lists every register")),
    Release("3.3", "ttg", _33, True, True, True, False, True, (
        "no generic_linear, amd_rotating_shared, shared_linear, padded or partitioned shared",
        "CTAsPerCGA / CTASplitNum / CTAOrder instead of CGALayout; amd_mfma versionMajor / versionMinor; amd_wmma "
        "warpsPerCTA",
        "a thread holding an element in several registers lists every register")),
    Release("3.4", "ttg", _34, True, True, True, False, True, (
        "no generic_linear, shared_linear, padded or partitioned shared",
        "CTAsPerCGA / CTASplitNum / CTAOrder instead of CGALayout; amd_mfma versionMajor / versionMinor; amd_wmma "
        "warpsPerCTA",
        "a thread holding an element in several registers lists every register")),
    Release("3.5", "ttg", _35, True, False, True, False, True, (
        "no generic_linear, padded or partitioned shared",
        "CTAsPerCGA / CTASplitNum / CTAOrder instead of CGALayout; amd_wmma warpsPerCTA",
        "a thread holding an element in several registers lists every register")),
    Release("3.6", "ttg", _36, False, False, True, False, True, (
        "no generic_linear or partitioned shared; amd_wmma warpsPerCTA",
        "a thread holding an element in several registers lists every register")),
    Release("3.7", "ttg", _37, False, False, False, False, True, (
        "no generic_linear",
        "a thread holding an element in several registers lists every register")),
    Release("3.8", "ttg", _ALL, False, False, False, False, True, (
        "a thread holding an element in several registers lists every register",)),
    Release("3.9", "ttg", _ALL, False, False, False, False, False, ()),
)}


def known() -> str:
    return ", ".join(RELEASES)


def mnemonic_of(attr) -> str:
    return str(attr)[5:].split("<", 1)[0]


# ---------------------------------------------------------------------------------------------- spelling
def _arr(xs) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def cta_fields(cga, rank: int, default_order) -> str:
    """CGALayout bases -> `CTAsPerCGA = [..], CTASplitNum = [..], CTAOrder = [..]` (the inverse of
    CGAEncodingAttr::fromSplitParams: per dimension in CTA order, split bases 1, 2, 4 .. then broadcast zeros);
    None where the bases have no such form. Dimensions without bases follow in `default_order`."""
    ctas, split, order = [1] * rank, [1] * rank, []
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
    return f"CTAsPerCGA = {_arr(ctas)}, CTASplitNum = {_arr(split)}, CTAOrder = {_arr(order)}"


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
        return f", CGALayout = {_arr2(attr.cga)}"
    fields = cta_fields(attr.cga, rank, list(range(rank - 1, -1, -1)))
    if fields is None:
        raise Unspellable(f"Triton {release.name} has no CTAsPerCGA / CTASplitNum / CTAOrder for CGALayout "
                          f"{_arr2(attr.cga)}")
    return ", " + fields


def _arr2(bases) -> str:
    return "[" + ", ".join(_arr(b) for b in bases) + "]"


def _body(attr, release: Release) -> str:
    if isinstance(attr, enc.BlockedEncoding):
        return (f"#ttg.blocked<{{sizePerThread = {_arr(attr.size_per_thread)}, threadsPerWarp = "
                f"{_arr(attr.threads_per_warp)}, warpsPerCTA = {_arr(attr.warps_per_cta)}, order = {_arr(attr.order)}"
                f"{_cga_text(attr, attr.rank, release)}}}>")
    if isinstance(attr, enc.SliceEncoding):
        return f"#ttg.slice<{{dim = {attr.dim}, parent = {_body(attr.parent, release)}}}>"
    if isinstance(attr, enc.DotOperandEncoding):
        kw = f", kWidth = {attr.k_width}" if attr.k_width else ""
        return f"#ttg.dot_op<{{opIdx = {attr.op_idx}, parent = {_body(attr.parent, release)}{kw}}}>"
    if isinstance(attr, enc.NvidiaMmaEncoding):
        return (f"#ttg.nvidia_mma<{{versionMajor = {attr.version_major}, versionMinor = {attr.version_minor}, "
                f"warpsPerCTA = {_arr(attr.warps_per_cta)}{_cga_text(attr, attr.rank, release)}, instrShape = "
                f"{_arr(attr.instr_shape)}}}>")
    if type(attr) is enc.SwizzledSharedEncoding and release.old_shared:
        return (f"#ttg.shared<{{vec = {attr.vec}, perPhase = {attr.per_phase}, maxPhase = {attr.max_phase}, "
                f"order = {_arr(attr.order)}{_cga_text(attr, len(attr.order), release)}, hasLeadingOffset = "
                "false}>")
    text = str(attr)
    if attr.cga if hasattr(attr, "cga") else False:
        rank = getattr(attr, "rank", None) or len(attr.cga[0])
        old = f", CGALayout = {_arr2(attr.cga)}"
        text = text.replace(old, _cga_text(attr, rank, release))
    return text


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
        if release.name in rule.releases and rule.applies(attr, tuple(shape)):
            raise TTLayoutError(f"Triton {release.name}'s triton-tensor-layout {rule.what} on this layout "
                                f"({rule.why}); Triton 3.9 prints it")


@frozen
class Refusal:
    """Where some releases' tool aborts or crashes: `applies(attr, shape)`, in words `what` and `why`."""
    releases: tuple
    what: str
    why: str
    applies: object


REFUSALS: tuple = ()
