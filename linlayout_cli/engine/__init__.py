"""GF(2) linear-layout engine (port of Triton's LinearLayout)."""

from .linear_layout import LinearLayout, divide_left, lstsq

__all__ = ["LinearLayout", "divide_left", "lstsq"]
