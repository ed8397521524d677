"""Layouts as Triton 3.9's Gluon writes them: the Python constructor that builds the same layout, e.g.
`ttgl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])`.

Two constructors exist for every layout: the one of its own Gluon class (`class_text`; None for kinds Gluon has no
class for, such as `amd_rotating_shared`) and the linear one built from its bases at a shape (`linear_text`:
`DistributedLinearLayout` or `SharedLinearLayout`). Field names and defaults follow
`triton/experimental/gluon/language/_layouts.py` and `amd/_layouts.py` of Triton 3.9.
"""
from __future__ import annotations

from .attributes import encodings as enc

PREFIX = "ttgl."


def _list(xs) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def _bases(bs) -> str:
    return "[" + ", ".join(_list(b) for b in bs) + "]"


def _call(name: str, fields) -> str:
    return f"{PREFIX}{name}(" + ", ".join(f"{k}={v}" for k, v in fields) + ")"


def _cga(attr):
    return [("cga_layout", _bases(attr.cga))] if attr.cga else []


def class_text(attr) -> str | None:
    """The constructor of the attribute's own Gluon class, or None where Gluon 3.9 has none."""
    if isinstance(attr, enc.LinearEncoding):        # generic_linear too: its bases need the shape
        return None
    if isinstance(attr, enc.AMDRotatingSharedEncoding):
        return None
    if isinstance(attr, enc.BlockedEncoding):
        return _call("BlockedLayout", [("size_per_thread", _list(attr.size_per_thread)),
                                       ("threads_per_warp", _list(attr.threads_per_warp)),
                                       ("warps_per_cta", _list(attr.warps_per_cta)),
                                       ("order", _list(attr.order))] + _cga(attr))
    if isinstance(attr, enc.SliceEncoding):
        parent = class_text(attr.parent)
        return None if parent is None else _call("SliceLayout", [("dim", attr.dim), ("parent", parent)])
    if isinstance(attr, enc.DotOperandEncoding):
        parent = class_text(attr.parent)
        return None if parent is None else _call("DotOperandLayout", [
            ("operand_index", attr.op_idx), ("parent", parent), ("k_width", attr.k_width)])
    if isinstance(attr, enc.NvidiaMmaEncoding):
        return _call("NVMMADistributedLayout", [("version", _list((attr.version_major, attr.version_minor))),
                                                ("warps_per_cta", _list(attr.warps_per_cta)),
                                                ("instr_shape", _list(attr.instr_shape))] + _cga(attr))
    if isinstance(attr, enc.AMDMfmaEncoding):
        if not 1 <= attr.version <= 4 or len(attr.instr_shape) != 3:
            return None                              # Gluon needs a version 1-4 and an (M, N, K) shape
        fields = [("version", attr.version), ("instr_shape", _list(attr.instr_shape)),
                  ("transposed", attr.is_transposed), ("warps_per_cta", _list(attr.warps_per_cta))]
        if attr.element_bit_width != 32:
            fields.append(("element_bitwidth", attr.element_bit_width))
        if any(t != 1 for t in attr.tiles_per_warp):
            fields.append(("tiles_per_warp", _list(attr.tiles_per_warp)))
        return _call("amd.AMDMFMALayout", fields + _cga(attr))
    if isinstance(attr, enc.AMDWmmaEncoding):
        fields = [("version", attr.version), ("transposed", attr.is_transpose),
                  ("warp_bases", _bases(attr.cta_warp))]
        if attr.cta_register:
            fields.append(("reg_bases", _bases(attr.cta_register)))
        if tuple(attr.instr_shape) != (16, 16, 16):
            fields.append(("instr_shape", _list(attr.instr_shape)))
        fields += _cga(attr)
        if attr.rank != 2:
            fields.append(("rank", attr.rank))
        return _call("amd.AMDWMMALayout", fields)
    if isinstance(attr, enc.SwizzledSharedEncoding):
        return _call("SwizzledSharedLayout", [("vec", attr.vec), ("per_phase", attr.per_phase),
                                              ("max_phase", attr.max_phase), ("order", _list(attr.order))]
                     + _cga(attr))
    if isinstance(attr, enc.NVMMASharedEncoding):
        fields = [("swizzle_byte_width", attr.swizzling_byte_width), ("element_bitwidth", attr.element_bit_width),
                  ("rank", attr.rank), ("transposed", attr.transposed)]
        if attr.fp4_padded:
            fields.append(("fp4_padded", True))
        return _call("NVMMASharedLayout", fields + _cga(attr))
    if isinstance(attr, enc.SharedLinearEncoding):
        return _call("SharedLinearLayout", [("offset_bases", _bases(attr.offset)), ("block_bases", _bases(attr.block)),
                                            ("alignment", attr.alignment)])
    return None


def linear_text(bases: dict, shape, alignment: int | None = None) -> str:
    """The linear constructor from a layout's bases (`{"register": …}` or `{"offset": …}`) at `shape`."""
    if "offset" in bases:
        return _call("SharedLinearLayout", [("offset_bases", _bases(bases["offset"])),
                                            ("block_bases", _bases(bases.get("block", ()))),
                                            ("alignment", alignment if alignment is not None else 16)])
    return _call("DistributedLinearLayout", [(f"{name}_bases", _bases(bases.get(dim, ())))
                                             for name, dim in (("reg", "register"), ("lane", "lane"),
                                                               ("warp", "warp"), ("block", "block"))]
                 + [("shape", _list(shape))])
