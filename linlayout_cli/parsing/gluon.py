"""Gluon constructor text -> the layout attribute Triton 3.9's Gluon builds from it, e.g.
`ttgl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])`.

`parse_gluon` reads the text with `ast` (never evaluated), checks it like Gluon's `__post_init__`/`verify`, maps it
to the TTGIR attribute text Gluon's builder makes, and parses and verifies that like any attribute. Field names,
defaults and rules follow `triton/experimental/gluon/language/_layouts.py`, `amd/_layouts.py`,
`amd/cdna5/_layouts.py` and `nvidia/blackwell/__init__.py`; every class is checked against Triton's Gluon by
`scripts/golden/gluon.py`. Writing a layout as Gluon code is `reports/gluon.py`.
"""
from __future__ import annotations

import ast
import re

from ..attributes.encodings import int_list, int_lists
from ..attributes.verify import infer_out_sizes, is_permutation_matrix, is_surjective
from ..engine.bits import is_pow2
from ..errors import TTLayoutError, abbreviate

ROOTS = ("triton.experimental.gluon.language", "ttgl", "gl")


class GluonError(TTLayoutError):
    """A Gluon constructor text that Gluon itself would reject (or that is no plain constructor call)."""


REQUIRED = object()
_I, _B, _L, _BB, _LAYOUT = "an integer", "True or False", "a list of integers", "a list of integer lists", "a layout"
# class -> (module below the Gluon language module, kind, [(field, type, default)])
CLASSES: dict[str, tuple[str, str, list[tuple[str, str, object]]]] = {
    "BlockedLayout": ("", "distributed", [("size_per_thread", _L, REQUIRED), ("threads_per_warp", _L, REQUIRED),
                                          ("warps_per_cta", _L, REQUIRED), ("order", _L, REQUIRED),
                                          ("cga_layout", _BB, [])]),
    "SliceLayout": ("", "distributed", [("dim", _I, REQUIRED), ("parent", _LAYOUT, REQUIRED)]),
    "DistributedLinearLayout": ("", "distributed", [("reg_bases", _BB, REQUIRED), ("lane_bases", _BB, REQUIRED),
                                                    ("warp_bases", _BB, REQUIRED), ("block_bases", _BB, REQUIRED),
                                                    ("shape", _L, REQUIRED)]),
    "DotOperandLayout": ("", "distributed", [("operand_index", _I, REQUIRED), ("parent", _LAYOUT, REQUIRED),
                                             ("k_width", _I, REQUIRED)]),
    "NVMMADistributedLayout": ("", "distributed", [("version", _L, REQUIRED), ("warps_per_cta", _L, REQUIRED),
                                                   ("instr_shape", _L, REQUIRED), ("cga_layout", _BB, [])]),
    "AMDMFMALayout": ("amd", "distributed", [("version", _I, REQUIRED), ("instr_shape", _L, REQUIRED),
                                             ("transposed", _B, REQUIRED), ("warps_per_cta", _L, REQUIRED),
                                             ("element_bitwidth", _I, None), ("tiles_per_warp", _L, None),
                                             ("cga_layout", _BB, [])]),
    "AMDWMMALayout": ("amd", "distributed", [("version", _I, REQUIRED), ("transposed", _B, REQUIRED),
                                             ("warp_bases", _BB, REQUIRED), ("reg_bases", _BB, None),
                                             ("instr_shape", _L, None), ("cga_layout", _BB, []), ("rank", _I, None)]),
    "SwizzledSharedLayout": ("", "shared", [("vec", _I, REQUIRED), ("per_phase", _I, REQUIRED),
                                            ("max_phase", _I, REQUIRED), ("order", _L, REQUIRED),
                                            ("cga_layout", _BB, [])]),
    "NVMMASharedLayout": ("", "shared", [("swizzle_byte_width", _I, REQUIRED), ("element_bitwidth", _I, REQUIRED),
                                         ("rank", _I, 2), ("transposed", _B, False), ("fp4_padded", _B, False),
                                         ("cga_layout", _BB, [])]),
    "SharedLinearLayout": ("", "shared", [("offset_bases", _BB, REQUIRED), ("block_bases", _BB, []),
                                          ("alignment", _I, 16)]),
    "PaddedSharedLayout": ("", "shared", [("interval_padding_pairs", _BB, REQUIRED), ("offset_bases", _BB, REQUIRED),
                                          ("cga_layout", _BB, REQUIRED), ("shape", _L, REQUIRED)]),
    "PartitionedSharedLayout": ("amd.cdna5", "shared", [("num_partitions", _I, REQUIRED),
                                                        ("num_groups", _I, REQUIRED), ("partition_dim", _I, REQUIRED),
                                                        ("partition_layout", _LAYOUT, REQUIRED)]),
    "TensorMemoryLayout": ("nvidia.blackwell", "tensor memory", [("block", _L, REQUIRED), ("col_stride", _I, REQUIRED),
                                                                 ("cga_layout", _BB, []), ("two_ctas", _B, False),
                                                                 ("fp4_padded", _B, False)]),
    "TensorMemoryScalesLayout": ("nvidia.blackwell", "tensor memory", [("cga_layout", _BB, [])]),
}
_CALL = re.compile(r"\s*[A-Za-z_][\w.]*\s*\(")


def looks_like_gluon(text: str) -> bool:
    """A constructor call (`Name(` / `a.b.Name(`) rather than MLIR attribute syntax (`#ttg.…`, `loc(…)`)."""
    return bool(_CALL.match(text)) and not re.match(r"\s*loc\s*\(", text)


def parse_gluon(text: str):
    """The attribute object Triton's Gluon builds from a constructor text; a GluonError names what is wrong."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise GluonError(f"not a Gluon constructor call: {e.msg} at column {e.offset or 1} of {abbreviate(text)}") \
            from None
    except (RecursionError, MemoryError, ValueError):
        raise GluonError("the Gluon constructor is nested too deeply") from None
    from .attribute import parse_attribute
    name, attr_text = _layout(tree.body)
    try:
        return parse_attribute(attr_text)
    except TTLayoutError as e:                       # a column would point into the TTGIR text, not the input
        raise type(e)(f"{name}: " + re.sub(r"^column \d+: ", "", str(e))) from None


def class_name(node) -> str:
    """The Gluon class a call names (`ttgl.BlockedLayout`, `gl.amd.AMDMFMALayout`, `BlockedLayout`, ...)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        raise GluonError("only a Gluon layout class can be called, e.g. ttgl.BlockedLayout(...)")
    path = ".".join([node.id] + parts[::-1])
    module, _, name = path.rpartition(".")
    if name not in CLASSES:
        raise GluonError(f"unknown Gluon layout class {abbreviate(path)} (known: {', '.join(CLASSES)})")
    home = CLASSES[name][0]
    allowed = {home} | {f"{root}.{home}".rstrip(".") for root in ROOTS}
    if module not in allowed:
        where = ".".join(x for x in ("ttgl", home) if x)
        raise GluonError(f"{abbreviate(path)}: Gluon's {name} is {where}.{name}")
    return name


def _layout(node) -> tuple[str, str]:
    """(class name, TTGIR attribute text) of one constructor call."""
    if not isinstance(node, ast.Call):
        raise GluonError("expected a Gluon layout constructor call, e.g. ttgl.BlockedLayout(...)")
    name = class_name(node.func)
    fields = CLASSES[name][2]
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise GluonError(f"{name}: '*' and '**' arguments are not supported; write the values out")
    if len(node.args) > len(fields):
        raise GluonError(f"{name} takes at most {len(fields)} arguments, got {len(node.args)}")
    given = {}
    for (field, _, _), arg in zip(fields, node.args):
        given[field] = arg
    known = [f for f, _, _ in fields]
    for kw in node.keywords:
        if kw.arg not in known:
            raise GluonError(f"{name} has no argument '{kw.arg}' (its arguments: {', '.join(known)})")
        if kw.arg in given:
            raise GluonError(f"{name} got argument '{kw.arg}' twice")
        given[kw.arg] = kw.value
    values = {}
    for field, kind, default in fields:
        if field not in given:
            if default is REQUIRED:
                raise GluonError(f"{name} is missing argument '{field}'")
            values[field] = default
        else:
            values[field] = _value(given[field], kind, default, f"{name} argument '{field}'")
    return name, _BUILD[name](values, f"{name}: ")


def _value(node, kind: str, default, what: str):
    if isinstance(node, ast.Constant) and node.value is None and default is None:
        return None
    if kind == _LAYOUT:
        if not isinstance(node, ast.Call):
            raise GluonError(f"{what} must be a Gluon layout constructor call")
        name, text = _layout(node)
        return CLASSES[name][1], name, text
    if kind == _I or kind == _B:
        return _scalar(node, kind, what)
    if not isinstance(node, (ast.List, ast.Tuple)):
        raise GluonError(f"{what} must be {kind}")
    inner = _I if kind == _L else _L
    return [_value(e, inner, REQUIRED, what) for e in node.elts]


def _scalar(node, kind: str, what: str):
    want = bool if kind == _B else int
    if isinstance(node, ast.Constant) and type(node.value) is want and (
            want is bool or (isinstance(node.value, int) and node.value >= 0)):
        return node.value
    shown = ast.unparse(node) if len(ast.dump(node)) < 400 else "that value"
    raise GluonError(f"{what} must be {'a non-negative integer' if want is int else kind}, got {abbreviate(shown)}")



def _need(ok: bool, message: str) -> None:
    if not ok:
        raise GluonError(message)


def _same_rank(where: str, rank: int, **lists) -> None:
    for field, values in lists.items():
        for v in values:
            _need(len(v) == rank,
                  f"{where}every entry of {field} must have {rank} values (the rank), got {int_list(v)}")


def _cga_text(cga) -> str:
    return f", CGALayout = {int_lists(cga)}" if cga else ""


def _tf(b: bool) -> str:
    return "true" if b else "false"


def _blocked(v, at):
    rank = len(v["size_per_thread"])
    for f in ("threads_per_warp", "warps_per_cta", "order"):
        _need(len(v[f]) == rank, f"{at}{f} has {len(v[f])} entries, size_per_thread {rank}")
    _same_rank(at, rank, cga_layout=v["cga_layout"])
    return (f"#ttg.blocked<{{sizePerThread = {int_list(v['size_per_thread'])}, threadsPerWarp = "
            f"{int_list(v['threads_per_warp'])}, warpsPerCTA = {int_list(v['warps_per_cta'])}, "
            f"order = {int_list(v['order'])}"
            f"{_cga_text(v['cga_layout'])}}}>")


def _parent(v, field: str, kind: str, at: str) -> str:
    got, name, text = v[field]
    _need(got == kind, f"{at}{field} must be a {kind} layout, got {name}")
    return text


def _slice(v, at):
    return f"#ttg.slice<{{dim = {v['dim']}, parent = {_parent(v, 'parent', 'distributed', at)}}}>"


def _dot_operand(v, at):
    kw = f", kWidth = {v['k_width']}" if v["k_width"] else ""
    return f"#ttg.dot_op<{{opIdx = {v['operand_index']}, parent = {_parent(v, 'parent', 'distributed', at)}{kw}}}>"


def _distributed_linear(v, at):
    shape, lists = v["shape"], [v[f] for f in ("reg_bases", "lane_bases", "warp_bases", "block_bases")]
    _same_rank(at, len(shape), reg_bases=lists[0], lane_bases=lists[1], warp_bases=lists[2], block_bases=lists[3])
    _need(all(is_pow2(s) for s in shape), f"{at}every shape entry must be a power of two, got {int_list(shape)}")
    for basis in (b for bs in lists for b in bs):
        _need(all(x < s for x, s in zip(basis, shape)),
              f"{at}basis {int_list(basis)} lies outside shape {int_list(shape)}")
    _need(is_surjective(shape, *lists), f"{at}the bases must reach every element of shape {int_list(shape)} "
                                        "(Gluon requires a surjective layout)")
    kind = "linear" if is_permutation_matrix(shape, *lists) else "generic_linear"
    return (f"#ttg.{kind}<{{register = {int_lists(lists[0])}, lane = {int_lists(lists[1])}, "
            f"warp = {int_lists(lists[2])}, "
            f"block = {int_lists(lists[3])}}}>")


def _nvmma_distributed(v, at):
    _need(len(v["version"]) == 2, f"{at}version must be [major, minor], got {int_list(v['version'])}")
    _same_rank(at, len(v["warps_per_cta"]), cga_layout=v["cga_layout"])
    major, minor = v["version"]
    return (f"#ttg.nvidia_mma<{{versionMajor = {major}, versionMinor = {minor}, warpsPerCTA = "
            f"{int_list(v['warps_per_cta'])}{_cga_text(v['cga_layout'])}, instrShape = {int_list(v['instr_shape'])}}}>")


def _amd_mfma(v, at):
    instr, ebw = v["instr_shape"], 32 if v["element_bitwidth"] is None else v["element_bitwidth"]
    tiles = v["tiles_per_warp"] or [1] * len(v["warps_per_cta"])
    _need(1 <= v["version"] <= 4, f"{at}version must be in the [1, 4] range, got {v['version']}")
    _need(len(instr) == 3, f"{at}instr_shape must follow the (M, N, K) format, got {int_list(instr)}")
    _need(instr[:2] in ([32, 32], [16, 16], [64, 4], [4, 64]), f"{at}invalid intrinsic shape {int_list(instr)}")
    _need(ebw in (32, 64), f"{at}element_bitwidth must be 32 or 64, got {ebw}")
    _same_rank(at, len(v["warps_per_cta"]), cga_layout=v["cga_layout"])
    tpw = f", tilesPerWarp = {int_list(tiles)}" if any(t != 1 for t in tiles) else ""
    return (f"#ttg.amd_mfma<{{version = {v['version']}, warpsPerCTA = {int_list(v['warps_per_cta'])}, instrShape = "
            f"{int_list(instr)}, isTransposed = {_tf(v['transposed'])}{_cga_text(v['cga_layout'])}{tpw}"
            f", elementBitWidth = {ebw}}}>")


def _amd_wmma(v, at):
    rank = 2 if v["rank"] is None else v["rank"]
    instr = [16, 16, 16] if v["instr_shape"] is None else v["instr_shape"]
    _need(1 <= v["version"] <= 3, f"{at}version must be in the [1, 3] range, got {v['version']}")
    _same_rank(at, rank, warp_bases=v["warp_bases"], reg_bases=v["reg_bases"] or [], cga_layout=v["cga_layout"])
    return (f"#ttg.amd_wmma<{{version = {v['version']}, isTranspose = {_tf(v['transposed'])}, rank = {rank}, "
            f"ctaLayout = {{register = {int_lists(v['reg_bases'] or [])}, warp = {int_lists(v['warp_bases'])}}}"
            f"{_cga_text(v['cga_layout'])}, instrShape = {int_list(instr)}}}>")


def _swizzled_shared(v, at):
    _same_rank(at, len(v["order"]), cga_layout=v["cga_layout"])
    return (f"#ttg.swizzled_shared<{{vec = {v['vec']}, perPhase = {v['per_phase']}, maxPhase = {v['max_phase']}, "
            f"order = {int_list(v['order'])}{_cga_text(v['cga_layout'])}}}>")


def _nvmma_shared(v, at):
    swz, ebw, cga = v["swizzle_byte_width"], v["element_bitwidth"], v["cga_layout"]
    _need(ebw in (8, 16, 32, 64), f"{at}element_bitwidth must be 8, 16, 32 or 64, got {ebw}")
    _need(swz in (0, 32, 64, 128), f"{at}swizzle_byte_width must be 0, 32, 64 or 128, got {swz}")
    _need(not v["fp4_padded"] or swz == 128, f"{at}fp4_padded only supports 128 byte swizzling")
    _need(not v["fp4_padded"] or ebw == 8, f"{at}fp4_padded is only supported for element_bitwidth=8")
    _same_rank(at, v["rank"], cga_layout=cga)
    fp4 = ", fp4Padded = true" if v["fp4_padded"] else ""
    tail = _cga_text(cga) or f", rank = {v['rank']}"
    return (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {swz}, transposed = {_tf(v['transposed'])}, "
            f"elementBitWidth = {ebw}{fp4}{tail}}}>")


def _shared_linear(v, at):
    offset, block = v["offset_bases"], v["block_bases"]
    _need(offset and offset[0], f"{at}offset_bases must not be empty")
    _same_rank(at, len(offset[0]), offset_bases=offset, block_bases=block)
    _need(is_pow2(v["alignment"]), f"{at}alignment must be a positive power of two, got {v['alignment']}")
    return (f"#ttg.shared_linear<{{offset = {int_lists(offset)}, block = {int_lists(block)}}}, "
            f"alignment = {v['alignment']}>")


def _padded_shared(v, at):
    pairs, offset, shape = v["interval_padding_pairs"], v["offset_bases"], v["shape"]
    _need(len(shape) > 0, f"{at}shape must not be empty")
    _same_rank(at, len(shape), offset_bases=offset, cga_layout=v["cga_layout"])
    _need(len(pairs) > 0, f"{at}interval_padding_pairs must have at least one [interval, padding] pair")
    _need(all(len(p) == 2 for p in pairs), f"{at}every interval_padding_pairs entry must be [interval, padding]")
    _need(len({p[0] for p in pairs}) == len(pairs), f"{at}intervals must be distinct")
    _need(all(is_pow2(x) for p in pairs for x in p), f"{at}intervals and paddings must be powers of two")
    sizes = infer_out_sizes(len(shape), offset)
    block = [[x * s for x, s in zip(b, sizes)] for b in v["cga_layout"]]   # Gluon multiplies in the CTA tiles
    pads = ", ".join(f"{i}:+{p}" for i, p in pairs)
    return f"#ttg.padded_shared<[{pads}] {{offset = {int_lists(offset)}, block = {int_lists(block)}}}>"


def _partitioned_shared(v, at):
    for f in ("num_partitions", "num_groups"):
        _need(is_pow2(v[f]), f"{at}{f} must be a power of two, got {v[f]}")
    return (f"#ttg.partitioned_shared<{{numPartitions = {v['num_partitions']}, numGroups = {v['num_groups']}, "
            f"partitionDim = {v['partition_dim']}, partitionLayout = {_parent(v, 'partition_layout', 'shared', at)}}}>")


def _tensor_memory(v, at):
    _need(len(v["block"]) == 2, f"{at}block must be [M, N], got {int_list(v['block'])}")
    _same_rank(at, 2, cga_layout=v["cga_layout"])
    _need(is_pow2(v["col_stride"]), f"{at}col_stride must be a power of two, got {v['col_stride']}")
    flags = "".join(f", {k} = true" for k, on in (("twoCTAs", v["two_ctas"]), ("fp4Padded", v["fp4_padded"])) if on)
    return (f"#ttng.tensor_memory_encoding<blockM = {v['block'][0]}, blockN = {v['block'][1]}, "
            f"colStride = {v['col_stride']}{_cga_text(v['cga_layout'])}{flags}>")


def _tensor_memory_scales(v, at):
    _same_rank(at, 2, cga_layout=v["cga_layout"])
    return f"#ttng.tensor_memory_scales_encoding<{_cga_text(v['cga_layout'])[2:]}>"


_BUILD = {"BlockedLayout": _blocked, "SliceLayout": _slice, "DistributedLinearLayout": _distributed_linear,
          "DotOperandLayout": _dot_operand, "NVMMADistributedLayout": _nvmma_distributed, "AMDMFMALayout": _amd_mfma,
          "AMDWMMALayout": _amd_wmma, "SwizzledSharedLayout": _swizzled_shared, "NVMMASharedLayout": _nvmma_shared,
          "SharedLinearLayout": _shared_linear, "PaddedSharedLayout": _padded_shared,
          "PartitionedSharedLayout": _partitioned_shared, "TensorMemoryLayout": _tensor_memory,
          "TensorMemoryScalesLayout": _tensor_memory_scales}
