"""The print command's SVG: one panel per layout, stacked: Triton's own views drawn by svg.py, the padded,
partitioned and tensor memory views by memory_svg.py."""
from __future__ import annotations

from .svg import document, layout_panel, stack


def render_svg(layouts, use_hw_view: bool, element_bits, write) -> None:
    """One SVG of one or more (title, shown) pairs, stacked (`shown`: inputs.Printed, whose view is Triton's own or
    a padded / partitioned / tensor memory view); element_bits: one per layout."""
    def panel_of(title, shown, bits):
        if shown.view == "triton":
            return layout_panel(shown.linear, use_hw_view, bits, title)
        from .memory_svg import memory_panel
        return memory_panel(shown, use_hw_view, bits, title)
    panel = stack([panel_of(title, shown, bits) for (title, shown), bits in zip(layouts, element_bits)], gap=40)
    write(document(panel).encode())
