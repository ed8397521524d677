"""Converters for the tensor-core layouts and nvmma_shared, looked up by `conversions.to_linear_layout`.

Each converter is `fn(attr, shape, convert) -> LinearLayout`; `convert` (any attribute -> LinearLayout) is
accepted for uniformity, the parents handled here are converted directly.
"""
from __future__ import annotations

from ..attributes.encodings import (AMDMfmaEncoding, AMDWmmaEncoding, DotOperandEncoding, NVMMASharedEncoding,
                                    NvidiaMmaEncoding)
from .amd_mfma import mfma_to_ll
from .amd_wmma import wmma_to_ll
from .dot_operand import dot_operand_to_ll
from .nvidia_mma import nvidia_mma_to_ll
from .nvmma_shared import nvmma_shared_to_ll

CONVERTERS = {
    NvidiaMmaEncoding: nvidia_mma_to_ll,
    DotOperandEncoding: dot_operand_to_ll,
    AMDMfmaEncoding: mfma_to_ll,
    AMDWmmaEncoding: wmma_to_ll,
    NVMMASharedEncoding: nvmma_shared_to_ll,
}
