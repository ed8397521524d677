"""Layout attribute + tensor shape -> LinearLayout, dispatched on the attribute's class: `to_linear_layout` is
Triton's `toLinearLayout`; `analysable_layout` is the same for the analyses, which take distributed and shared
layouts only and check the size first."""
from __future__ import annotations

import importlib

from ..attributes import encodings as enc
from ..engine.bits import is_pow2
from ..errors import MAX_ELEMENTS, ShapeError, UnsupportedError, abbreviate, check_size

# class -> (module, function); modules load on first use, so a blocked layout never imports the MMA code
_CONVERTERS = {
    enc.BlockedEncoding: ("blocked", "blocked_to_ll"),
    enc.SliceEncoding: ("slice", "slice_to_ll"),
    enc.LinearEncoding: ("linear", "linear_to_ll"),                      # and GenericLinearEncoding
    enc.SwizzledSharedEncoding: ("shared", "swizzled_to_ll"),            # and AMDRotatingSharedEncoding
    enc.SharedLinearEncoding: ("shared", "shared_linear_to_ll"),
    enc.NvidiaMmaEncoding: ("nvidia_mma", "nvidia_mma_to_ll"),
    enc.DotOperandEncoding: ("dot_operand", "dot_operand_to_ll"),
    enc.AMDMfmaEncoding: ("amd_mfma", "mfma_to_ll"),
    enc.AMDWmmaEncoding: ("amd_wmma", "wmma_to_ll"),
    enc.NVMMASharedEncoding: ("nvmma_shared", "nvmma_shared_to_ll"),
    enc.PaddedSharedEncoding: ("padded_shared", "padded_to_ll"),                # the linear component only
    enc.PartitionedSharedEncoding: ("partitioned_shared", "partitioned_to_ll"),  # in dims offset, block, partition
    enc.TensorMemoryEncoding: ("tmem", "tmem_to_ll"),                           # in dims row, col, block
    enc.TensorMemoryScalesEncoding: ("tmem", "tmem_scales_to_ll"),
}
_NEEDS_CONVERT = ("slice", "partitioned_shared")     # wrappers: they convert the layout they wrap
LAYOUT_KINDS = ("distributed", "shared")
PRINT_ONLY = (enc.PaddedSharedEncoding, enc.PartitionedSharedEncoding)


class PrintOnlyLayout(UnsupportedError):
    """A padded or partitioned shared layout: only its memory map can be shown, the analyses do not model its
    padding or partitions. `mnemonic`: '#ttg.padded_shared' or '#ttg.partitioned_shared'."""

    def __init__(self, mnemonic: str):
        super().__init__(f"{mnemonic} can only be printed: its padding or partitions are not modelled")
        self.mnemonic = mnemonic


def to_linear_layout(attr, shape):
    """Triton's toLinearLayout(shape, attr); raises a TTLayoutError where Triton would abort."""
    shape = list(shape)
    for s in shape:
        if not is_pow2(s):
            raise ShapeError(f"tensor dimension of size {s} is not supported: every dimension must be a positive power of two")
    return _convert(attr, shape)


def _convert(attr, shape):
    target = next((_CONVERTERS[c] for c in type(attr).__mro__ if c in _CONVERTERS), None)
    if target is None:
        raise UnsupportedError(f"Unsupported tensor layout attribute: {attr}")
    module, name = target
    convert = getattr(importlib.import_module(f".{module}", __name__), name)
    return convert(attr, shape, _convert) if module in _NEEDS_CONVERT else convert(attr, shape)


def analysable_layout(attr, shape, max_elements: int = MAX_ELEMENTS):
    """`to_linear_layout` for the analyses: `attr` must be a distributed or shared layout other than a padded or
    partitioned one (PrintOnlyLayout), and the layout's hardware index space at most `max_elements` (a broadcast
    layout can have far more slots than the tensor has elements; TooManyElements)."""
    if isinstance(attr, PRINT_ONLY):
        raise PrintOnlyLayout(str(attr).split("<", 1)[0])
    if getattr(attr, "kind", None) not in LAYOUT_KINDS:
        raise UnsupportedError(f"Unsupported tensor layout attribute: {abbreviate(str(attr))}")
    linear = to_linear_layout(attr, list(shape))
    check_size(linear.get_total_in_dim_size(), "the layout's hardware index space", max_elements)
    return linear
