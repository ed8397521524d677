"""Dialect attribute bodies -> encoding dataclasses, following Triton 3.9's own parsers.

`build_dialect_attr` receives the generic body items of `#<dialect>.<mnemonic><...>` from the parser
and reads them with Triton's rules: dictionaries are iterated in sorted key order (so with several bad
keys the alphabetically first is reported), integers go through `parseIntAttrValue` semantics
(negative signless/signed -> error, truncated to 32-bit unsigned), unknown keys are rejected or
ignored per kind, the CGA layout is read after the keys, and the kind's `verify` runs last. Each kind
with a plain dictionary or struct body declares its keys once, in a field table (key -> reader,
description, default), which both the generic reader and the "did you mean" hint use.
Error messages are Triton's words (see `verify.py` for the verification ones).

Legacy spellings (Triton < 3.9) are accepted and converted to the Triton 3.9 canonical object:

* `#triton_gpu.*` is `#ttg.*`, `#triton_nvidia_gpu.*` is `#ttng.*`.
* `CTAsPerCGA` / `CTASplitNum` / `CTAOrder` (any kind that has a CGA layout) become `CGALayout`
  block bases exactly as Triton's `CGAEncodingAttr::fromSplitParams` builds them: for each dim d taken
  in `CTAOrder` order, log2(CTASplitNum[d]) bases stepping 1, 2, 4, ... whole CTA tiles along d, then
  log2(CTAsPerCGA[d] / CTASplitNum[d]) zero bases (broadcast CTAs). All ones -> no bases. Missing
  fields default to CTAsPerCGA = ones, CTASplitNum = CTAsPerCGA, CTAOrder = [r-1, ..., 0].
  (Triton 3.9 itself rejects these keys for blocked/swizzled/nvmma with `unexpected key: CTAOrder`
  and silently ignores them for nvidia_mma/amd_mfma/amd_wmma, printing a one-CTA layout; we convert
  instead, to the layout the old dump meant.) When `CGALayout` is given too, it wins.
* `#ttg.shared<{vec, perPhase, maxPhase, order, hasLeadingOffset}>` (the pre-3.3 shared layout):
  `hasLeadingOffset = false` (default) -> `#ttg.swizzled_shared` with the same fields.
  `hasLeadingOffset = true` (the old Hopper/TMA layout) -> `#ttg.nvmma_shared`, inverting the old
  `SharedEncodingAttr::get(..., hasLeadingOffset=true)` construction, which set
  vec = 128 / elementBitWidth, and (perPhase, maxPhase) = (1, 8) / (2, 4) / (4, 2) for a
  128 / 64 / 32-byte swizzle. Hence:
      elementBitWidth    = 128 // vec                      (vec must be 1, 2, 4, 8 or 16)
      swizzlingByteWidth = 16 * maxPhase (= 128 / perPhase); 0 when maxPhase == 1 (no swizzle)
      transposed         = order[0] != rank - 1             (NVMMA's order is [r-1, .., 0] unless transposed)
      rank               = len(order); fp4Padded = false; CGA from the CTA fields.
* `#ttg.amd_mfma` with the old `versionMajor`/`versionMinor` keys: ignored, as Triton 3.9 does (`version = 0`).
  Triton's own lit test (test/Tools/tensor_layout_print.mlir) prints `version = 0` for `versionMajor = 2`, and
  the MFMA layout does not depend on the version, so following Triton keeps that output byte-identical.
  The old `nonKDim = n` key (no `instrShape`) becomes `instrShape = [n, n]`; mnemonic `mfma` = `amd_mfma`.
* `#ttg.mma` (Triton 2.x name) = `#ttg.nvidia_mma`; without `instrShape`, version 2 gets [16, 8]
  ([1, 16, 8] for rank 3), as Ampere always used.
* `#ttg.amd_wmma` without `ctaLayout` but with the old `warpsPerCTA`: the warp bases become
  identityStandardND(warp, warpsPerCTA, [r-1, ..., 0]) (the old wmma warp order).
"""
from __future__ import annotations

from collections.abc import Callable

from ..engine.bits import is_pow2, log2
from ..errors import VerifyError
from . import verify as V
from .encodings import (
    AMDMfmaEncoding,
    AMDRotatingSharedEncoding,
    AMDWmmaEncoding,
    BlockedEncoding,
    DotOperandEncoding,
    GenericLinearEncoding,
    LinearEncoding,
    NvidiaMmaEncoding,
    NVMMASharedEncoding,
    OtherAttribute,
    PaddedSharedEncoding,
    PartitionedSharedEncoding,
    SharedLinearEncoding,
    SliceEncoding,
    SwizzledSharedEncoding,
    TensorMemoryEncoding,
    TensorMemoryScalesEncoding,
)
from .values import ArrayV, AttrError, BoolV, DictV, IdentV, IntervalV, IntV, StrV, UnitV, print_value

U32 = 0xFFFFFFFF
LEGACY_CTA_KEYS = ("CTAsPerCGA", "CTASplitNum", "CTAOrder")

DIALECT_ALIASES = {"triton_gpu": "ttg", "ttg": "ttg", "triton_nvidia_gpu": "ttng", "ttng": "ttng"}

DISTRIBUTED = (BlockedEncoding, SliceEncoding, DotOperandEncoding, NvidiaMmaEncoding, AMDMfmaEncoding,
               AMDWmmaEncoding, LinearEncoding)          # GenericLinearEncoding is a LinearEncoding
SHARED = (SwizzledSharedEncoding, NVMMASharedEncoding, SharedLinearEncoding, PaddedSharedEncoding,
          PartitionedSharedEncoding)                     # AMDRotatingSharedEncoding is a Swizzled one


class Ctx:
    """Where we are: the canonical attribute name (`ttg.blocked`) and the mnemonic's offset, which
    is where Triton reports most errors ("name loc")."""
    __slots__ = ("name", "loc", "legacy")

    def __init__(self, name: str, loc: int, legacy: bool):
        self.name, self.loc, self.legacy = name, loc, legacy

    def err(self, message: str, pos: int | None = None) -> AttrError:
        return AttrError(message, self.loc if pos is None else pos)

    def missing(self, key: str, example: str = "", pos: int | None = None) -> AttrError:
        """The error for a key the layout cannot do without (Triton would default it to an empty or zero value
        and then report a rank or range problem): `missing key 'order' in #ttg.blocked`."""
        return self.err(f"missing key '{key}' in #{self.name}" + (f" (e.g. {example})" if example else ""), pos)


def _verify(ctx: Ctx, fn, *args):
    try:
        fn(*args)
    except VerifyError as e:
        raise AttrError(str(e), ctx.loc, "verify") from None


# ---------------------------------------------------------------------------------------------
# value readers (Triton's parseIntAttrValue / parseBoolAttrValue / parseIntArrayAttr)
# ---------------------------------------------------------------------------------------------

def read_uint(v, desc: str, ctx: Ctx) -> int:
    if isinstance(v, BoolV):                 # i1: true is -1 as a signless value
        val = -1 if v.value else 0
    elif isinstance(v, IntV):
        val = v.value
    else:
        raise ctx.err(f"expected an integer type in {desc}")
    if val < 0 and not (isinstance(v, IntV) and v.unsigned_type):
        raise ctx.err(f"expected an unsigned integer value in {desc}")
    return val & U32


def read_bool(v, desc: str, ctx: Ctx) -> bool:
    if not isinstance(v, BoolV):
        raise ctx.err(f"expected a bool type in {desc}")
    return v.value


def read_uint_array(v, desc: str, ctx: Ctx) -> tuple[int, ...]:
    if not isinstance(v, ArrayV):
        raise ctx.err(f"expected an array for {desc}")
    return tuple(read_uint(x, desc, ctx) for x in v.items)


def read_struct_uint(v, key: str, ctx: Ctx) -> int:
    """MLIR struct parameter of type `unsigned` (FieldParser<unsigned> = parseInteger): a plain integer
    literal (negative values wrap), `true`/`false` read as -1/0."""
    if isinstance(v, BoolV):
        return U32 if v.value else 0
    if not isinstance(v, IntV):
        raise ctx.err("expected integer value", getattr(v, "pos", None))
    if v.typed:
        raise ctx.err(f"expected ',' or '>' after struct parameter '{key}': a typed integer "
                      f"('{print_value(v, top=True)}') is not accepted here", v.pos)
    if not -U32 <= v.value <= U32:
        raise ctx.err("integer value too large", v.pos)
    return v.value & U32


def read_struct_bool(v, key: str, ctx: Ctx) -> bool:
    if isinstance(v, BoolV):
        return v.value
    if isinstance(v, IntV) and not v.typed:
        return v.value != 0
    raise ctx.err("expected integer value", getattr(v, "pos", None))


def _wrap_i32(x: int) -> int:
    x &= U32
    return x - (1 << 32) if x >= 1 << 31 else x


def parse_cga(v, rank: int, ctx: Ctx) -> tuple[tuple[int, ...], ...]:
    """parseCGAAttr: `CGALayout = [[..], ..]` -> block bases, then CGAEncodingAttr::verify."""
    if v is None:
        return ()
    if not isinstance(v, ArrayV):
        raise ctx.err("expected array value for 'CGALayout'")
    rows = []
    for entry in v.items:
        values = read_uint_array(entry, "CGALayout entry", ctx)
        if len(values) != rank:
            raise ctx.err(f"'CGALayout' entry length does not match rank {rank}")
        rows.append(tuple(_wrap_i32(x) for x in values))
    bases = tuple(rows)
    _verify(ctx, V.verify_cga, bases, rank)
    return bases


def legacy_cga(fields: dict, rank: int, ctx: Ctx) -> tuple[tuple[int, ...], ...]:
    """CTAsPerCGA / CTASplitNum / CTAOrder -> CGALayout bases (CGAEncodingAttr::fromSplitParams)."""
    ctas = read_uint_array(fields["CTAsPerCGA"], "CTAsPerCGA", ctx) if "CTAsPerCGA" in fields else (1,) * rank
    split = read_uint_array(fields["CTASplitNum"], "CTASplitNum", ctx) if "CTASplitNum" in fields else ctas
    order = (read_uint_array(fields["CTAOrder"], "CTAOrder", ctx) if "CTAOrder" in fields
             else tuple(range(rank - 1, -1, -1)))
    if not (len(ctas) == len(split) == len(order) == rank):
        raise ctx.err(f"CTAsPerCGA, CTASplitNum and CTAOrder must each have {rank} entries (the layout "
                      f"rank), got [{_j(ctas)}], [{_j(split)}] and [{_j(order)}]")
    if sorted(order) != list(range(rank)):
        raise ctx.err(f"CTAOrder must be a permutation of 0..(rank-1), but was [{_j(order)}]")
    for d in range(rank):
        if not (is_pow2(ctas[d]) and is_pow2(split[d]) and ctas[d] % split[d] == 0):
            raise ctx.err(f"CTAsPerCGA and CTASplitNum must be powers of two with CTASplitNum dividing "
                          f"CTAsPerCGA, got [{_j(ctas)}] and [{_j(split)}]")
    rows: list[tuple[int, ...]] = []
    for d in order:
        for k in range(log2(split[d])):
            rows.append(tuple((1 << k) if i == d else 0 for i in range(rank)))
        for _ in range(log2(ctas[d] // split[d])):
            rows.append((0,) * rank)
    bases = tuple(rows)
    _verify(ctx, V.verify_cga, bases, rank)
    return bases


def _cga(cga_v, legacy: dict, rank: int, ctx: Ctx):
    """CGALayout, else the legacy CTA keys converted; with both, CGALayout wins (as in Triton, which ignores the
    legacy keys of the MMA layouts)."""
    if legacy and cga_v is None:
        return legacy_cga(legacy, rank, ctx)
    return parse_cga(cga_v, rank, ctx)


def parse_linear_layout(d: DictV, names, serialized_rank: int, ctx: Ctx, empty_rank: int = 0):
    """Triton's parseLinearLayout: bases for each in-dim name (all required), rank = length of the
    first basis found. Returns (dict name -> bases, rank)."""
    result = {}
    for name in names:
        v = d.get(name)
        if v is None:
            raise ctx.missing(name, f"{name} = []")
        if not isinstance(v, ArrayV):
            raise ctx.err(f"Expected array of arrays for basis of '{name}'")
        bases = []
        for b in v.items:
            if not isinstance(b, ArrayV):
                raise ctx.err(f"Expected array of integers in basis for '{name}'")
            basis = []
            for x in b.items:
                if isinstance(x, BoolV):
                    basis.append(-1 if x.value else 0)
                elif isinstance(x, IntV):
                    basis.append(_wrap_i32(x.value))
                else:
                    raise ctx.err(f"Expected integer in basis for '{name}'")
            bases.append(tuple(basis))
        result[name] = tuple(bases)
    rank = 0
    for name in names:
        if result[name]:
            rank = len(result[name][0])
            break
    if rank == 0 and serialized_rank == 0:
        if empty_rank:
            return result, empty_rank
        raise ctx.err("Empty Layout not supported")
    if rank == 0:
        rank = serialized_rank
    elif serialized_rank != 0 and serialized_rank != rank:
        raise ctx.err("Serialized rank and rank deduced from LL need to match")
    return result, rank


def _j(xs) -> str:
    return ", ".join(str(x) for x in xs)


# ---------------------------------------------------------------------------------------------
# body shapes and field tables
# ---------------------------------------------------------------------------------------------

def _raw(v, desc: str, ctx: Ctx):
    """A field kept as its value, interpreted after the keys (CGA layouts, nested layouts)."""
    return v


class Field:
    """One key of a layout body: `read(value, desc, ctx)` converts its value, `desc` is how Triton's
    messages name it (the key itself when None), `default` stands in when the key is absent.
    `legacy`: an old key, accepted but never suggested. `required`: a key without which the layout is never valid
    (a struct parameter MLIR insists on, or a key whose default Triton always rejects); leaving it out is
    `missing key '...'`. (A plain class, like `Ctx`: a dataclass costs ~0.5 ms of start-up each.)"""
    __slots__ = ("read", "desc", "default", "legacy", "required")

    def __init__(self, read: Callable, desc: str | None = None, default=None, legacy: bool = False,
                 required: bool = False):
        self.read, self.desc, self.default, self.legacy, self.required = read, desc, default, legacy, required


class FieldTable:
    """The keys of a dictionary body, in the order the "expected one of" hint lists them.

    A kind with a `CGALayout` key also accepts the legacy CTA keys (converted after the keys are read);
    `ignore_unknown`: Triton skips unknown keys of this kind instead of rejecting them."""
    __slots__ = ("fields", "ignore_unknown")

    def __init__(self, fields: dict, ignore_unknown: bool = False):
        self.fields, self.ignore_unknown = fields, ignore_unknown

    def suggestions(self) -> tuple[str, ...]:
        return tuple(key for key, field in self.fields.items() if not field.legacy)


_CGA_FIELD = Field(_raw)


def read_fields(body: DictV, table: FieldTable, ctx: Ctx) -> tuple[dict, dict]:
    """Read a dictionary body with Triton's rules: keys in sorted order (so with several bad keys the
    alphabetically first is reported), unknown keys rejected (with a hint) or skipped per kind.
    Returns (value or default of every field, legacy CTA keys given)."""
    values = {key: field.default for key, field in table.fields.items()}
    legacy = {}
    for key, v in body.sorted_items():
        field = table.fields.get(key)
        if field is not None:
            values[key] = field.read(v, field.desc or key, ctx)
        elif key in LEGACY_CTA_KEYS and "CGALayout" in table.fields:
            legacy[key] = v
        elif not table.ignore_unknown:
            raise _unexpected_key(body, key, table.suggestions(), ctx)
    for key, field in table.fields.items():
        if field.required and body.get(key) is None:
            raise ctx.missing(key)
    return values, legacy


def _dict_body(items, ctx: Ctx, optional: bool = False) -> DictV:
    """The `<{...}>` body of most layouts (`parser.parseAttribute(DictionaryAttr&)`)."""
    if optional and not items:
        return DictV([], ctx.loc)
    if len(items) != 1 or items[0][0] != "value" or not isinstance(items[0][1], DictV):
        pos = items[0][-1] if items else None
        raise ctx.err(f"expected a dictionary '{{...}}' as the body of #{ctx.name}", pos)
    d = items[0][1]
    d.check_dup()
    return d


def _unexpected_key(body: DictV, key: str, known, ctx: Ctx) -> AttrError:
    """Triton's 'unexpected key' error, at the key itself, with the closest known key for a typo."""
    import difflib
    close = difflib.get_close_matches(key, known, 1)
    hint = f"did you mean '{close[0]}'?" if close else "expected one of " + ", ".join(known)
    return ctx.err(f"unexpected key: {key} ({hint})", body.key_pos(key))


def _struct_params(items, allowed, ctx: Ctx, body_pos: int) -> dict:
    """MLIR struct syntax `name = value, ...` (no braces): each parameter once, known names only."""
    if not items:
        raise ctx.err("expected a parameter name in struct", body_pos)
    params = {}
    for item in items:
        if item[0] != "param":
            raise ctx.err("expected a parameter name in struct", item[-1])
        _, key, value, kpos = item
        if key not in allowed or key in params:
            raise ctx.err(f"duplicate or unknown struct parameter name: {key}", kpos)
        params[key] = value
    return params


def _struct_values(params: dict, fields: dict, ctx: Ctx, missing_pos: int | None) -> dict:
    """Struct parameters read like MLIR's generated parser: every required one present, then each read
    in declaration order (the table's order)."""
    for key, field in fields.items():
        if field.required and key not in params:
            raise ctx.missing(key, pos=missing_pos)
    return {key: field.read(params[key], field.desc or key, ctx) if key in params else field.default
            for key, field in fields.items()}


# ---------------------------------------------------------------------------------------------
# builders, one per kind (a field table for each plain dictionary or struct body; slice, linear,
# shared_linear and padded_shared bodies are read by hand, see each builder)
# ---------------------------------------------------------------------------------------------

_BLOCKED = FieldTable({
    "sizePerThread": Field(read_uint_array, "number of elements per thread", (), required=True),
    "threadsPerWarp": Field(read_uint_array, "number of threads per warp", (), required=True),
    "warpsPerCTA": Field(read_uint_array, "number of warps per CTA", (), required=True),
    "order": Field(read_uint_array, "order", (), required=True),
    "CGALayout": _CGA_FIELD,
})


def _build_blocked(items, ctx: Ctx):
    f, legacy = read_fields(_dict_body(items, ctx), _BLOCKED, ctx)
    spt, tpw, wpc, order = f["sizePerThread"], f["threadsPerWarp"], f["warpsPerCTA"], f["order"]
    cga = _cga(f["CGALayout"], legacy, len(spt), ctx)
    release = active_release()
    if release is not None and release.blocked_zero_as_one:
        # --triton 3.3, 3.4 check no power of two and lay a 0 out as 1 (releases.modelled_attr)
        _verify(ctx, V.verify_blocked, *[tuple(x or 1 for x in xs) for xs in (spt, tpw, wpc)], order, len(spt))
    else:
        _verify(ctx, V.verify_blocked, spt, tpw, wpc, order, len(spt))
    return BlockedEncoding(spt, tpw, wpc, order, cga)


def _build_slice(items, ctx: Ctx):
    """`dim` and `parent` are looked up by name (not read in key order); other keys are ignored."""
    d = _dict_body(items, ctx, optional=True)
    dim_v = d.get("dim")
    if isinstance(dim_v, BoolV):
        dim = U32 if dim_v.value else 0
    elif isinstance(dim_v, IntV):
        dim = dim_v.value & U32
    elif dim_v is None:  # Triton: assertion failure (cast<IntegerAttr> of a missing/non-integer value)
        raise ctx.missing("dim", "dim = 0")
    else:
        raise ctx.err("#ttg.slice requires an integer 'dim' (e.g. dim = 0)")
    parent = d.get("parent")
    if parent is None:
        raise ctx.missing("parent")
    if not isinstance(parent, DISTRIBUTED):
        raise ctx.err("expected a distributed encoding trait")
    _verify(ctx, V.verify_slice, dim, parent.rank)
    return SliceEncoding(dim, parent)


_DOT_OP = {
    "opIdx": Field(read_struct_uint, required=True),
    "parent": Field(_raw, required=True),
    "kWidth": Field(read_struct_uint, default=0),
}


def _build_dot_op(items, ctx: Ctx):
    """`{opIdx = .., parent = .., kWidth = ..}`: braces, but MLIR struct parameters (not a dictionary)."""
    if len(items) != 1 or items[0][0] != "value" or not isinstance(items[0][1], DictV):
        raise ctx.err("expected '{'", items[0][-1] if items else None)
    d = items[0][1]
    if not d.entries:
        raise ctx.err("expected a parameter name in struct", d.pos + 1)
    params = {}
    for key, kpos, value, is_string in d.entries:
        if is_string:
            raise ctx.err("expected a parameter name in struct", kpos)
        if ctx.legacy and key == "isMMAv1Row":   # Triton 2.x/3.0 Volta-only key
            continue
        if key not in _DOT_OP or key in params:
            raise ctx.err(f"duplicate or unknown struct parameter name: {key}", kpos)
        if value is None:
            raise ctx.err("expected '='", kpos + len(key))
        params[key] = value
    f = _struct_values(params, _DOT_OP, ctx, d.end)
    _verify(ctx, V.verify_dot_operand, f["opIdx"], f["parent"], f["kWidth"])
    return DotOperandEncoding(f["opIdx"], f["parent"], f["kWidth"])


_NVIDIA_MMA = FieldTable({
    "versionMajor": Field(read_uint, default=0, required=True),
    "versionMinor": Field(read_uint, default=0),
    "warpsPerCTA": Field(read_uint_array, default=(), required=True),
    "CGALayout": _CGA_FIELD,
    "instrShape": Field(read_uint_array),
}, ignore_unknown=True)


def _build_nvidia_mma(items, ctx: Ctx, old_name: bool = False):
    f, legacy = read_fields(_dict_body(items, ctx), _NVIDIA_MMA, ctx)
    vmaj, wpc, instr = f["versionMajor"], f["warpsPerCTA"], f["instrShape"]
    cga = _cga(f["CGALayout"], legacy, len(wpc), ctx)
    if instr is None:
        if not (old_name and vmaj == 2):
            raise ctx.missing("instrShape", "instrShape = [16, 8]" if vmaj == 2 else "instrShape = [16, 128, 16]")
        instr = (1, 16, 8) if len(wpc) == 3 else (16, 8)
    _verify(ctx, V.verify_nvidia_mma, vmaj)
    return NvidiaMmaEncoding(vmaj, f["versionMinor"], wpc, instr, cga)


_AMD_MFMA = FieldTable({
    "version": Field(read_uint, default=0),
    "warpsPerCTA": Field(read_uint_array, default=(), required=True),
    "instrShape": Field(read_uint_array),
    "isTransposed": Field(read_bool),   # Triton 3.9 leaves it unset when omitted; it prints false
    "CGALayout": _CGA_FIELD,
    "tilesPerWarp": Field(read_uint_array, default=()),
    "elementBitWidth": Field(read_uint, default=32),
    "nonKDim": Field(read_uint, legacy=True),          # Triton 2.x: instrShape = [nonKDim, nonKDim]
    "versionMajor": Field(read_uint),                  # Triton <= 3.4's version (3.9 ignores it)
}, ignore_unknown=True)


def active_release():
    """The release of --triton (None: 3.9), for the spellings whose meaning changed between releases."""
    from . import active_release as release
    return release


def _build_amd_mfma(items, ctx: Ctx):
    f, legacy = read_fields(_dict_body(items, ctx), _AMD_MFMA, ctx)
    version, wpc, instr, tpw, ebw = (f["version"], f["warpsPerCTA"], f["instrShape"], f["tilesPerWarp"],
                                     f["elementBitWidth"])
    if instr is None:
        if f["nonKDim"] is None:
            raise ctx.missing("instrShape", "instrShape = [32, 32]")
        instr = (f["nonKDim"], f["nonKDim"])
    release = active_release()
    if release is not None and release.mfma_version_pair and f["versionMajor"] is not None:
        version = f["versionMajor"]             # --triton 3.2 ... 3.4 read versionMajor as the version
    if release is not None and release.mfma_instr_two:
        ebw = 32                                # --triton 3.2 ... 3.5 know no elementBitWidth: the key is ignored
    cga = _cga(f["CGALayout"], legacy, len(wpc), ctx)
    if all(x == 1 for x in tpw) and len(tpw) == len(instr):
        tpw = ()          # Triton's default; other all-ones lists still count (rank 3 needs 3 entries)
    _verify(ctx, V.verify_amd_mfma, version, instr, ebw)
    if f["isTransposed"] is None and release is not None and release.mfma_unset_transposed:
        # --triton 3.5 reads the omitted flag from uninitialized memory
        from .releases import MfmaUnsetTransposed
        return MfmaUnsetTransposed(version, wpc, instr, False, cga, tpw, ebw)
    return AMDMfmaEncoding(version, wpc, instr, bool(f["isTransposed"]), cga, tpw, ebw)


_AMD_WMMA = FieldTable({
    "version": Field(read_uint, default=0, required=True),
    "rank": Field(read_uint),
    "ctaLayout": Field(_raw),
    "isTranspose": Field(read_bool, default=False),
    "CGALayout": _CGA_FIELD,
    "instrShape": Field(read_uint_array, default=(16, 16, 16)),
    "warpsPerCTA": Field(read_uint_array, legacy=True),  # old form: warps given as counts, no ctaLayout
}, ignore_unknown=True)


def _build_amd_wmma(items, ctx: Ctx):
    f, legacy = read_fields(_dict_body(items, ctx), _AMD_WMMA, ctx)
    rank, cta_v, legacy_wpc = f["rank"], f["ctaLayout"], f["warpsPerCTA"]
    if cta_v is None:
        if legacy_wpc is None:
            # Triton fails here without printing any diagnostic.
            raise ctx.missing("ctaLayout", "ctaLayout = {warp = [[1, 0], [2, 0]]}")
        if not all(is_pow2(x) for x in legacy_wpc):
            raise ctx.err(f"warpsPerCTA entries must be powers of two, got [{_j(legacy_wpc)}]")
        rank = len(legacy_wpc)
        rows: list[tuple[int, ...]] = []
        for dim in range(rank - 1, -1, -1):
            for k in range(log2(legacy_wpc[dim])):
                rows.append(tuple((1 << k) if i == dim else 0 for i in range(rank)))
        register, warp = (), tuple(rows)
    else:
        if not isinstance(cta_v, DictV):
            raise ctx.err("expected dictionary value for 'ctaLayout'")
        cta_v.check_dup()
        # Triton prints only the non-empty bases (`ctaLayout = {}`, `{register = [[0, 1]]}`) and never
        # `rank`, but cannot parse its own print back (missing 'warp' aborts; a rank-3 layout without
        # `rank = 3` is a rank mismatch). We accept those prints: a missing in-dim has no bases and
        # without an explicit `rank` the rank is the bases' length (2 when there are none).
        names = [n for n in ("register", "warp") if cta_v.get(n) is not None]
        if names:
            bases, rank = parse_linear_layout(cta_v, names, rank or 0, ctx, empty_rank=2)
        else:
            bases, rank = {}, rank or 2
        register, warp = bases.get("register", ()), bases.get("warp", ())
    if rank is None:
        rank = 2
    _verify(ctx, V.verify_wmma_cta_layout, register, warp, rank)
    cga = _cga(f["CGALayout"], legacy, rank, ctx)
    instr = f["instrShape"]
    release = active_release()
    if release is not None and release.wmma_warps and not release.wmma_instr:
        instr = (16, 16, 16)                     # releases with warpsPerCTA (but 3.6) know no instrShape: ignored
    _verify(ctx, V.verify_amd_wmma, f["version"], instr)
    return AMDWmmaEncoding(f["version"], f["isTranspose"], register, warp, cga, instr, rank)


def _build_linear(items, ctx: Ctx, generic: bool):
    """The four in-dims are all required and read in this order (not sorted); the rank comes from the
    first basis found; other keys are ignored (Triton's parseLinearLayout)."""
    d = _dict_body(items, ctx)
    bases, rank = parse_linear_layout(d, ("register", "lane", "warp", "block"), 0, ctx)
    reg, lane, warp, block = bases["register"], bases["lane"], bases["warp"], bases["block"]
    _verify(ctx, V.verify_linear, reg, lane, warp, block, rank, generic)
    cls = GenericLinearEncoding if generic else LinearEncoding
    return cls(reg, lane, warp, block)


_SWIZZLED = FieldTable({
    "vec": Field(read_uint, default=0),
    "perPhase": Field(read_uint, default=0),
    "maxPhase": Field(read_uint, default=0),
    "order": Field(read_uint_array, default=(), required=True),
    "CGALayout": _CGA_FIELD,
})
# `hasLeadingOffset` is read after the other keys (with the CGA layout), so it is kept as a value here
_LEGACY_SHARED = FieldTable({**_SWIZZLED.fields, "hasLeadingOffset": Field(_raw)})


def _build_swizzled(items, ctx: Ctx, rotating: bool):
    f, legacy = read_fields(_dict_body(items, ctx), _SWIZZLED, ctx)
    vec, per_phase, max_phase, order = f["vec"], f["perPhase"], f["maxPhase"], f["order"]
    cga = _cga(f["CGALayout"], legacy, len(order), ctx)
    if rotating:
        return AMDRotatingSharedEncoding(vec, per_phase, max_phase, order, cga)
    _verify(ctx, V.verify_swizzled, order, len(order))
    return SwizzledSharedEncoding(vec, per_phase, max_phase, order, cga)


def _build_legacy_shared(items, ctx: Ctx):
    f, legacy = read_fields(_dict_body(items, ctx), _LEGACY_SHARED, ctx)
    vec, per_phase, max_phase, order = f["vec"], f["perPhase"], f["maxPhase"], f["order"]
    leading_v = f["hasLeadingOffset"]
    leading = read_bool(leading_v, "hasLeadingOffset", ctx) if leading_v is not None else False
    rank = len(order)
    cga = _cga(f["CGALayout"], legacy, rank, ctx)
    if not leading:
        _verify(ctx, V.verify_swizzled, order, rank)
        return SwizzledSharedEncoding(vec, per_phase, max_phase, order, cga)
    # hasLeadingOffset = true: the old Hopper (TMA/wgmma) layout -> nvmma_shared (see module docstring)
    if vec not in (1, 2, 4, 8, 16):
        raise ctx.err(f"cannot convert the legacy shared layout (hasLeadingOffset = true) to nvmma_shared: "
                      f"vec must be 1, 2, 4, 8 or 16 (= 128 / element bits), got {vec}")
    if max_phase == 1:
        swizzle = 0
    elif max_phase in (2, 4, 8) and per_phase * max_phase == 8:
        swizzle = 16 * max_phase
    else:
        raise ctx.err(f"cannot convert the legacy shared layout (hasLeadingOffset = true) to nvmma_shared: "
                      f"(perPhase, maxPhase) must be (1, 8), (2, 4), (4, 2) or maxPhase 1, "
                      f"got ({per_phase}, {max_phase})")
    _verify(ctx, V.verify_order, order)
    transposed = bool(order) and order[0] != rank - 1
    ebw = 128 // vec
    _verify(ctx, V.verify_nvmma_shared, swizzle, ebw)
    return NVMMASharedEncoding(swizzle, transposed, ebw, False, cga, rank)


_NVMMA_SHARED = FieldTable({
    "swizzlingByteWidth": Field(read_uint, required=True),
    "transposed": Field(read_bool, default=False),
    "elementBitWidth": Field(read_uint, required=True),
    "fp4Padded": Field(read_bool, default=False),
    "rank": Field(read_uint),
    "CGALayout": _CGA_FIELD,
})


def _build_nvmma_shared(items, ctx: Ctx):
    f, legacy = read_fields(_dict_body(items, ctx), _NVMMA_SHARED, ctx)
    swizzle, ebw, rank, cga_v = f["swizzlingByteWidth"], f["elementBitWidth"], f["rank"], f["CGALayout"]
    if rank is None:
        if isinstance(cga_v, ArrayV) and cga_v.items and isinstance(cga_v.items[0], ArrayV):
            rank = len(cga_v.items[0].items)
        elif "CTAOrder" in legacy and isinstance(legacy["CTAOrder"], ArrayV):
            rank = len(legacy["CTAOrder"].items)
        else:
            rank = 2
    cga = _cga(cga_v, legacy, rank, ctx)
    _verify(ctx, V.verify_nvmma_shared, swizzle, ebw)
    return NVMMASharedEncoding(swizzle, f["transposed"], ebw, f["fp4Padded"], cga, rank)


def _build_shared_linear(items, ctx: Ctx):
    """`{offset = .., block = ..}, alignment = N`: a dictionary of bases followed by a struct parameter."""
    if not items or items[0][0] != "value" or not isinstance(items[0][1], DictV):
        raise ctx.err(f"expected a dictionary '{{...}}' as the body of #{ctx.name}", items[0][-1] if items else None)
    d = items[0][1]
    d.check_dup()
    if d.get("alignment") is not None:
        raise ctx.err("alignment must be specified outside of the linear layout braces", d.pos)
    if len(items) < 2:
        raise ctx.missing("alignment", "alignment = 16, after the braces", d.pos)
    item = items[1]
    if item[0] != "param" or item[1] != "alignment":
        raise ctx.err("expected 'alignment'", item[-1])
    if len(items) > 2:
        raise ctx.err("expected '>'", items[2][-1])
    alignment = read_struct_uint(item[2], "alignment", ctx)
    keys = d.keys()
    if "block" not in keys:
        keys = keys + ["block"]
        d = DictV(d.entries + [("block", d.pos, ArrayV([], d.pos), False)], d.pos)
    bases, rank = parse_linear_layout(d, ("offset", "block"), 0, ctx)
    if len(keys) != 2:
        raise ctx.err("SharedLinearEncodingAttr must have exactly two attributes: offset and block", d.pos)
    _verify(ctx, V.verify_shared_linear, bases["offset"], bases["block"], alignment, rank)
    return SharedLinearEncoding(bases["offset"], bases["block"], alignment)


def _build_padded_shared(items, ctx: Ctx):
    """`[interval:+padding, ...] {...}`: the intervals, then either linear bases or `order` and `shape`."""
    if not items or not isinstance(items[0][1], ArrayV):
        raise ctx.err("expected '['", items[0][-1] if items else None)
    if items[0][0] != "value_dict" or len(items) != 1:
        raise ctx.err("expected a dictionary '{...}' after the interval list of #ttg.padded_shared",
                      items[0][-1] if len(items) == 1 else items[1][-1])
    arr, d = items[0][1], items[0][2]
    if not arr.items:
        raise ctx.err("expected integer value", arr.pos + 1)
    intervals, paddings = [], []
    for x in arr.items:
        if not isinstance(x, IntervalV):
            raise ctx.err("expected an interval-padding pair '<interval>:+<padding>'", getattr(x, "pos", None))
        if x.interval > U32 or x.padding > U32:
            raise ctx.err("integer value too large", x.pos)
        intervals.append(x.interval)
        paddings.append(x.padding)
    d.check_dup()
    keys = d.keys()
    if "offset" in keys or "block" in keys:
        # Triton reports other keys ('Unexpected attribute "<k>" found') but still builds the
        # attribute, so they are ignored here.
        bases, rank = parse_linear_layout(d, ("offset", "block"), 0, ctx)
        offset, block = bases["offset"], bases["block"]
    else:
        order: tuple[int, ...] = ()
        shape: tuple[int, ...] = ()
        for key, v in d.sorted_items():
            if key == "order":
                order = read_uint_array(v, "order", ctx)
            elif key == "shape":
                shape = read_uint_array(v, "shape", ctx)
            else:
                raise ctx.err(f'Unexpected attribute "{key}" found', d.pos)
        for key in ("order", "shape"):
            if d.get(key) is None:
                raise ctx.missing(key, "order = [1, 0], shape = [64, 64]", d.pos)
        if len(order) != len(shape):
            raise ctx.err("Mismatch of shape and order ranks in padded layout", d.pos)
        if sorted(order) != list(range(len(order))):       # Triton: assertion failure
            raise ctx.err(f"order must be a permutation of 0..(rank-1), but was [{_j(order)}]")
        if not all(is_pow2(s) for s in shape):                # Triton: assertion failure
            raise ctx.err(f"padded_shared shape entries must be powers of two, got [{_j(shape)}]")
        rank = len(shape)
        offset = []
        for dim in order:
            for k in range(log2(shape[dim])):
                offset.append(tuple((1 << k) if i == dim else 0 for i in range(rank)))
        offset, block = tuple(offset), ()
    _verify(ctx, V.verify_padded_shared, tuple(intervals), tuple(paddings), offset, block, rank)
    # out_rank only matters (and is only set) when no basis shows the rank: `shape = [1, 1]`
    return PaddedSharedEncoding(tuple(intervals), tuple(paddings), offset, block,
                                0 if (offset or block) else rank)


_PARTITIONED = FieldTable({
    "numPartitions": Field(read_uint, default=0, required=True),
    "numGroups": Field(read_uint, default=0, required=True),
    "partitionDim": Field(read_uint, default=0),
    "partitionLayout": Field(_raw),
})


def _build_partitioned(items, ctx: Ctx):
    f, _legacy = read_fields(_dict_body(items, ctx), _PARTITIONED, ctx)
    layout = f["partitionLayout"]
    if layout is None:
        raise ctx.missing("partitionLayout")
    if not isinstance(layout, SHARED):
        raise ctx.err("partitionLayout must be a SharedEncodingTrait")
    _verify(ctx, V.verify_partitioned, f["numPartitions"], f["numGroups"], f["partitionDim"], layout.rank)
    return PartitionedSharedEncoding(f["numPartitions"], f["numGroups"], f["partitionDim"], layout)


def _read_cga_2d(v, desc: str, ctx: Ctx):
    return parse_cga(v, 2, ctx)


def _read_block_rep_order(v, desc: str, ctx: Ctx) -> str:
    """`blockRepOrder = kThenMn`: an MLIR enum keyword (a string works too)."""
    name = v.name if isinstance(v, IdentV) else v.value if isinstance(v, StrV) else None
    if name is None:
        raise ctx.err("expected keyword for allowed 32-bit signless integer cases: 0, 1", getattr(v, "pos", None))
    if name not in ("mnThenK", "kThenMn"):
        raise ctx.err("expected one of [mnThenK, kThenMn] for allowed 32-bit signless integer "
                      f"cases: 0, 1, got: {name}", v.pos)
    return name


_TENSOR_MEMORY = {
    "blockM": Field(read_struct_uint, required=True),
    "blockN": Field(read_struct_uint, required=True),
    "colStride": Field(read_struct_uint, required=True),
    "CGALayout": Field(_read_cga_2d, default=()),
    "twoCTAs": Field(read_struct_bool, default=False),
    "fp4Padded": Field(read_struct_bool, default=False),
}
_TENSOR_MEMORY_SCALES = {
    "CGALayout": Field(_read_cga_2d, default=()),
    "blockRepOrder": Field(_read_block_rep_order, default="mnThenK"),
}


def _build_tensor_memory(items, ctx: Ctx, body_pos: int, body_end: int | None):
    params = _struct_params(items, _TENSOR_MEMORY, ctx, body_pos + 1)
    f = _struct_values(params, _TENSOR_MEMORY, ctx, body_end)
    bm, bn, cs, cga, two, fp4 = (f["blockM"], f["blockN"], f["colStride"], f["CGALayout"], f["twoCTAs"],
                                 f["fp4Padded"])
    _verify(ctx, V.verify_tensor_memory, bm, bn, cs, cga, two, fp4)
    return TensorMemoryEncoding(bm, bn, cs, cga, two, fp4)


def _build_tensor_memory_scales(items, ctx: Ctx, body_pos: int):
    params = _struct_params(items, _TENSOR_MEMORY_SCALES, ctx, body_pos + 1) if items else {}
    f = _struct_values(params, _TENSOR_MEMORY_SCALES, ctx, None)
    return TensorMemoryScalesEncoding(f["CGALayout"], f["blockRepOrder"])


# ---------------------------------------------------------------------------------------------
# entry point
# ---------------------------------------------------------------------------------------------

_TTG: dict[str, Callable] = {
    "blocked": _build_blocked,
    "slice": _build_slice,
    "dot_op": _build_dot_op,
    "nvidia_mma": _build_nvidia_mma,
    "amd_mfma": _build_amd_mfma,
    "amd_wmma": _build_amd_wmma,
    "linear": lambda items, ctx: _build_linear(items, ctx, False),
    "generic_linear": lambda items, ctx: _build_linear(items, ctx, True),
    "swizzled_shared": lambda items, ctx: _build_swizzled(items, ctx, False),
    "amd_rotating_shared": lambda items, ctx: _build_swizzled(items, ctx, True),
    "nvmma_shared": _build_nvmma_shared,
    "shared_linear": _build_shared_linear,
    "padded_shared": _build_padded_shared,
    "partitioned_shared": _build_partitioned,
    # legacy mnemonics
    "shared": _build_legacy_shared,
    "mma": lambda items, ctx: _build_nvidia_mma(items, ctx, old_name=True),
    "mfma": _build_amd_mfma,
}
_LEGACY_NAMES = {"shared": "shared", "mma": "nvidia_mma", "mfma": "amd_mfma"}
_NO_BODY = {("ttg", "shared_memory"), ("ttng", "tensor_memory")}


def is_layout_dialect(dialect: str) -> bool:
    return dialect in DIALECT_ALIASES


def build_dialect_attr(dialect: str, mnemonic: str, items, has_body: bool, mnemonic_pos: int,
                       body_pos: int, body_end: int | None = None):
    """Build the object for `#<dialect>.<mnemonic>` (dialect: ttg/ttng or their old names).

    items: body items ("value", v, pos) / ("value_dict", v, dict, pos) / ("param", key, v, key_pos);
    the last element of every item is its offset."""
    canon = DIALECT_ALIASES[dialect]
    legacy = dialect != canon or mnemonic in _LEGACY_NAMES
    ctx = Ctx(f"{canon}.{_LEGACY_NAMES.get(mnemonic, mnemonic)}", mnemonic_pos, legacy)
    if (canon, mnemonic) in _NO_BODY:
        if has_body:
            raise ctx.err(f"#{canon}.{mnemonic} takes no parameters; expected no '<...>' after it", body_pos)
        return OtherAttribute(f"#{canon}.{mnemonic}")
    if canon == "ttg":
        builder = _TTG.get(mnemonic)
    elif mnemonic == "tensor_memory_encoding":
        builder = lambda it, c: _build_tensor_memory(it, c, body_pos, body_end)  # noqa: E731
    elif mnemonic == "tensor_memory_scales_encoding":
        builder = lambda it, c: _build_tensor_memory_scales(it, c, body_pos)  # noqa: E731
    else:
        builder = None
    if builder is None:
        raise ctx.err(f"unknown attribute '{mnemonic}' in dialect '{canon}'")
    if not has_body:
        raise ctx.err("expected '<'", body_pos)
    return builder(items, ctx)


def check_generic(v):
    """A value used as a plain MLIR attribute (array element, dictionary value): reject duplicate
    dictionary keys and bare identifiers MLIR would not accept as an attribute."""
    if isinstance(v, DictV):
        v.check_dup()
    elif isinstance(v, IdentV):
        from .values import found_text, is_type_like
        if not is_type_like(v.name):
            raise AttrError(f"expected an attribute value but found {found_text(v.name)}", v.pos)
    return v


__all__ = ["build_dialect_attr", "check_generic", "is_layout_dialect", "read_uint", "read_bool",
           "read_uint_array", "parse_cga", "legacy_cga", "UnitV"]
