"""A layout as Triton 3.9's Gluon writes it: the Python constructor that builds it, e.g.
`ttgl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])`.

`class_text`: the constructor of the attribute's own Gluon class (None where Gluon 3.9 has none or refuses the
values); `linear_text`: the linear one built from a linear layout's bases (`DistributedLinearLayout` or
`SharedLinearLayout`; None where Gluon cannot hold the bases). Reading such text back is `parsing/gluon.py`.
"""
from __future__ import annotations

from ..attributes import encodings as enc
from ..attributes.encodings import int_list, int_lists
from ..attributes.verify import infer_out_sizes, is_surjective

PREFIX = "ttgl."


def _call(name: str, fields) -> str:
    return f"{PREFIX}{name}(" + ", ".join(f"{k}={v}" for k, v in fields) + ")"


def _cga(attr):
    return [("cga_layout", int_lists(attr.cga))] if attr.cga else []


def class_text(attr) -> str | None:
    """The constructor of the attribute's own Gluon class, or None where Gluon 3.9 cannot build it."""
    if isinstance(attr, enc.LinearEncoding):        # generic_linear too: a DistributedLinearLayout at its own size
        return linear_text({"register": attr.register, "lane": attr.lane, "warp": attr.warp, "block": attr.block})
    if isinstance(attr, enc.AMDRotatingSharedEncoding):
        return None
    if isinstance(attr, enc.BlockedEncoding):
        return _call("BlockedLayout", [("size_per_thread", int_list(attr.size_per_thread)),
                                       ("threads_per_warp", int_list(attr.threads_per_warp)),
                                       ("warps_per_cta", int_list(attr.warps_per_cta)),
                                       ("order", int_list(attr.order))] + _cga(attr))
    if isinstance(attr, (enc.SliceEncoding, enc.DotOperandEncoding)):
        parent = class_text(attr.parent)
        if parent is None:
            return None
        if isinstance(attr, enc.SliceEncoding):
            return _call("SliceLayout", [("dim", attr.dim), ("parent", parent)])
        return _call("DotOperandLayout", [("operand_index", attr.op_idx), ("parent", parent),
                                          ("k_width", attr.k_width)])
    if isinstance(attr, enc.NvidiaMmaEncoding):
        return _call("NVMMADistributedLayout", [("version", int_list((attr.version_major, attr.version_minor))),
                                                ("warps_per_cta", int_list(attr.warps_per_cta)),
                                                ("instr_shape", int_list(attr.instr_shape))] + _cga(attr))
    if isinstance(attr, enc.AMDMfmaEncoding):
        if not 1 <= attr.version <= 4 or len(attr.instr_shape) != 3:
            return None                              # Gluon needs a version 1-4 and an (M, N, K) shape
        fields = [("version", attr.version), ("instr_shape", int_list(attr.instr_shape)),
                  ("transposed", attr.is_transposed), ("warps_per_cta", int_list(attr.warps_per_cta))]
        if attr.element_bit_width != 32:
            fields.append(("element_bitwidth", attr.element_bit_width))
        if any(t != 1 for t in attr.tiles_per_warp):
            fields.append(("tiles_per_warp", int_list(attr.tiles_per_warp)))
        return _call("amd.AMDMFMALayout", fields + _cga(attr))
    if isinstance(attr, enc.AMDWmmaEncoding):
        fields = [("version", attr.version), ("transposed", attr.is_transpose),
                  ("warp_bases", int_lists(attr.cta_warp))]
        if attr.cta_register:
            fields.append(("reg_bases", int_lists(attr.cta_register)))
        if tuple(attr.instr_shape) != (16, 16, 16):
            fields.append(("instr_shape", int_list(attr.instr_shape)))
        fields += _cga(attr)
        if attr.rank != 2:
            fields.append(("rank", attr.rank))
        return _call("amd.AMDWMMALayout", fields)
    if isinstance(attr, enc.SwizzledSharedEncoding):
        return _call("SwizzledSharedLayout", [("vec", attr.vec), ("per_phase", attr.per_phase),
                                              ("max_phase", attr.max_phase), ("order", int_list(attr.order))]
                     + _cga(attr))
    if isinstance(attr, enc.NVMMASharedEncoding):
        if attr.fp4_padded and (attr.swizzling_byte_width != 128 or attr.element_bit_width != 8):
            return None                              # Gluon asserts fp4_padded only with 128-byte swizzling, 8 bits
        fields = [("swizzle_byte_width", attr.swizzling_byte_width), ("element_bitwidth", attr.element_bit_width),
                  ("rank", attr.rank), ("transposed", attr.transposed)]
        if attr.fp4_padded:
            fields.append(("fp4_padded", True))
        return _call("NVMMASharedLayout", fields + _cga(attr))
    if isinstance(attr, enc.SharedLinearEncoding):
        return linear_text({"offset": attr.offset, "block": attr.block}, alignment=attr.alignment)
    if isinstance(attr, enc.PaddedSharedEncoding):
        sizes = infer_out_sizes(attr.rank, attr.offset)
        cga = [[v // s for v, s in zip(b, sizes)] for b in attr.block]   # Gluon's block bases count whole tiles
        return _call("PaddedSharedLayout", [
            ("interval_padding_pairs", int_lists(zip(attr.intervals, attr.paddings))),
            ("offset_bases", int_lists(attr.offset)), ("cga_layout", int_lists(cga)),
            ("shape", int_list(attr.out_sizes()))])
    if isinstance(attr, enc.PartitionedSharedEncoding):
        inner = class_text(attr.partition_layout)
        return None if inner is None else _call("amd.cdna5.PartitionedSharedLayout", [
            ("num_partitions", attr.num_partitions), ("num_groups", attr.num_groups),
            ("partition_dim", attr.partition_dim), ("partition_layout", inner)])
    if isinstance(attr, enc.TensorMemoryEncoding):
        flags = [(k, True) for k, on in (("two_ctas", attr.two_ctas), ("fp4_padded", attr.fp4_padded)) if on]
        return _call("nvidia.blackwell.TensorMemoryLayout", [("block", int_list((attr.block_m, attr.block_n))),
                                                             ("col_stride", attr.col_stride)] + _cga(attr) + flags)
    if isinstance(attr, enc.TensorMemoryScalesEncoding) and attr.block_rep_order == "mnThenK":
        return _call("nvidia.blackwell.TensorMemoryScalesLayout", _cga(attr))
    return None


def linear_text(bases: dict, shape=None, alignment: int | None = None) -> str | None:
    """The linear constructor from a layout's bases (`{"register": …}` or `{"offset": …}`) at `shape` (default:
    the size the bases span), or None where Gluon cannot build it: a `DistributedLinearLayout` must reach every
    element of its shape (non-permutation bases become a `#ttg.generic_linear`)."""
    if "offset" in bases:
        return _call("SharedLinearLayout", [("offset_bases", int_lists(bases["offset"])),
                                            ("block_bases", int_lists(bases.get("block", ()))),
                                            ("alignment", alignment if alignment is not None else 16)])
    lists = [bases.get(d, ()) for d in ("register", "lane", "warp", "block")]
    sizes = list(shape) if shape is not None else infer_out_sizes(next((len(b[0]) for b in lists if b), 0), *lists)
    if not is_surjective(sizes, *lists):
        return None
    return _call("DistributedLinearLayout", [(f"{name}_bases", int_lists(b))
                                             for name, b in zip(("reg", "lane", "warp", "block"), lists)]
                 + [("shape", int_list(sizes))])


def of_text(attr_text: str) -> str | None:
    """The Gluon constructor of an attribute given as its MLIR text (a suggested or scratch layout).

    >>> of_text("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 16, order = [1, 0]}>")
    'ttgl.SwizzledSharedLayout(vec=2, per_phase=1, max_phase=16, order=[1, 0])'
    """
    from ..parsing import parse_attribute
    return class_text(parse_attribute(attr_text))


def of_layout(attr, ll) -> str | None:
    """The Gluon constructor of a layout: its own class's, else the linear one from its linear layout `ll` at
    the tensor shape; None where Gluon builds neither."""
    own = class_text(attr)
    if own is not None:
        return own
    bases = {d: [list(b) for b in ll.get_in_dim_bases(d)] for d in ll.in_dims}
    if "offset" in bases:
        from ..analysis.info import alignment_of
        return linear_text(bases, alignment=alignment_of(attr))
    return linear_text(bases, [size for _, size in ll.get_out_dims()])
