"""Renderers: a LinearLayout -> Triton's tensor-view / hardware-view text, streamed to a write(bytes) callable."""
from __future__ import annotations

SMALL_LIMIT = 1 << 12    # up to this many elements / hardware indices the plain-Python renderer is faster than
                         # importing numpy; above it the row templates (render/templates.py) take over, and numpy
                         # where a layout's text repeats too little for them


def render_layout(layout, use_hw_view: bool, write) -> None:
    from . import small
    is_shared = layout.has_in_dim("offset")
    if small.entries(layout) <= SMALL_LIMIT:
        view = {(False, False): small.distributed_tensor_view, (False, True): small.distributed_hardware_view,
                (True, False): small.shared_tensor_view, (True, True): small.shared_hardware_view}
        return view[is_shared, use_hw_view](layout, write)
    from . import templates
    if templates.render(layout, use_hw_view, write):
        return
    from . import distributed, shared
    module = shared if is_shared else distributed
    (module.hardware_view if use_hw_view else module.tensor_view)(layout, write)


def layout_str(layout, use_hw_view: bool = False) -> str:
    """The whole text in memory (for tests and small layouts)."""
    parts: list[bytes] = []
    render_layout(layout, use_hw_view, parts.append)
    return b"".join(parts).decode()
