"""GF(2) linear-layout engine (port of Triton's LinearLayout), with the flattened bit view of a layout:
``flatten`` / ``unflatten`` here, ``LinearLayout.flat_columns`` and friends, ``gf2.span`` and ``gf2.rank``,
and the power-of-two arithmetic in ``bits``."""

from .linear_layout import LinearLayout, bit_shifts, divide_left, flatten, lstsq, unflatten

__all__ = ["LinearLayout", "bit_shifts", "divide_left", "flatten", "lstsq", "unflatten"]
