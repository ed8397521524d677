"""Layout attribute + tensor shape -> LinearLayout, dispatched on the attribute's class."""
from __future__ import annotations

from ..attributes import encodings as enc
from ..errors import ShapeError, UnsupportedError
from .common import is_pow2


def to_linear_layout(attr, shape):
    """Triton's toLinearLayout(shape, attr); raises a TTLayoutError where Triton would abort."""
    shape = list(shape)
    for s in shape:
        if not is_pow2(s):
            raise ShapeError(f"tensor dimension of size {s} is not supported: every dimension must be a positive power of two")
    return _convert(attr, shape)


def _convert(attr, shape):
    from . import blocked, linear, shared, slice as slice_
    if isinstance(attr, enc.BlockedEncoding):
        return blocked.blocked_to_ll(attr, shape)
    if isinstance(attr, enc.SliceEncoding):
        return slice_.slice_to_ll(attr, shape, _convert)
    if isinstance(attr, enc.LinearEncoding):
        return linear.linear_to_ll(attr, shape)
    if isinstance(attr, enc.SwizzledSharedEncoding):
        return shared.swizzled_to_ll(attr, shape)
    if isinstance(attr, enc.SharedLinearEncoding):
        return shared.shared_linear_to_ll(attr, shape)
    extra = _extra_converter(attr)
    if extra is not None:
        return extra(attr, shape, _convert)
    if isinstance(attr, (enc.PaddedSharedEncoding, enc.PartitionedSharedEncoding)):
        raise UnsupportedError(f"{_name(attr)} has no linear layout in Triton 3.9 (triton-tensor-layout aborts on it)")
    if getattr(attr, "kind", None) not in ("distributed", "shared"):
        raise UnsupportedError(f"Unsupported tensor layout attribute: {attr}")
    raise UnsupportedError(f"{_name(attr)} is not yet supported")


def _extra_converter(attr):
    """Converters for the MMA family and nvmma_shared, when present."""
    try:
        from . import mma
    except ImportError:
        return None
    return mma.CONVERTERS.get(type(attr))


def _name(attr) -> str:
    text = str(attr)
    return text.split("<", 1)[0]
