"""Renderers: a LinearLayout -> Triton's tensor-view / hardware-view text, streamed to a write(bytes) callable."""
from __future__ import annotations


def render_layout(layout, use_hw_view: bool, write) -> None:
    from . import distributed, shared
    module = shared if layout.has_in_dim("offset") else distributed
    (module.hardware_view if use_hw_view else module.tensor_view)(layout, write)


def layout_str(layout, use_hw_view: bool = False) -> str:
    """The whole text in memory (for tests and small layouts)."""
    parts: list[bytes] = []
    render_layout(layout, use_hw_view, parts.append)
    return b"".join(parts).decode()
