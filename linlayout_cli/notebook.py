"""A layout at a tensor type, as a Python object that shows itself: `layout(attr, type)` in a notebook draws the
tensor view (`_repr_svg_`); `.svg()`, `.html()` and `.text()` give the pictures and Triton's text.

    from linlayout_cli import layout
    mma = layout("#ttg.nvidia_mma<{versionMajor = 3, ...}>", "tensor<128x128xf16>")
    mma                     # in Jupyter: the picture
    print(mma.text())       # Triton's tensor view
"""
from __future__ import annotations

from . import inputs
from .records import frozen


@frozen
class Layout:
    """A layout attribute, its linear layout at one tensor shape, and the element width (for shared banks)."""
    title: str
    linear: object                 # LinearLayout
    element_bits: int = 16

    @property
    def shared(self) -> bool:
        return self.linear.has_in_dim("offset")

    def text(self, hardware: bool = False) -> str:
        """Triton's text view (without its 'Print layout attribute' header), in memory: about 13 bytes per element
        (use `write` to stream a big one to a file)."""
        from .render import render_layout
        out = bytearray()
        render_layout(self.linear, hardware, out.extend)
        return out.decode()

    def write(self, file, hardware: bool = False) -> None:
        """Stream the text view into a binary file object (bounded memory, like the command line)."""
        from .render import render_layout
        render_layout(self.linear, hardware, file.write)

    def svg(self, hardware: bool = False) -> str:
        """The SVG picture (drawn at tile granularity for big tensors)."""
        from .render.svg import document, layout_panel
        return document(layout_panel(self.linear, hardware, self.element_bits, self.title))

    def html(self, hardware: bool = False) -> str:
        """The self-contained interactive page."""
        from .render.html import layout_spec, page
        return page([layout_spec(self.title, self.linear, self.element_bits)], hardware)

    def _repr_svg_(self) -> str:
        return self.svg()


def layout(attr: str, tensor_type: str, max_elements: int = inputs.DEFAULT_MAX_ELEMENTS) -> Layout:
    """`attr` (a layout attribute's text) at `tensor_type` (e.g. 'tensor<64x64xf16>'). Like the command line's
    --max-elements, `max_elements` refuses bigger tensors and hardware index spaces (ShapeError) before anything
    is allocated (default 2^26; hard limit 2^31)."""
    parsed = inputs.attribute(attr)
    tensor = inputs.tensor(tensor_type, max_elements)
    linear = inputs.linear_layout(parsed, tensor.shape, max_elements)
    bits = tensor.element_bits if linear.has_in_dim("offset") else 16
    return Layout(str(parsed), linear, bits)


def from_linear(linear, element_bits: int = 16, title: str = "") -> Layout:
    """A picture-able wrapper around a `LinearLayout` built by hand."""
    return Layout(title, linear, element_bits)
