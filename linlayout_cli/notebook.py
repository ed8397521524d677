"""The Python API, on attribute texts as the command line takes them (the analyses take linear layouts).

A layout at a tensor type, as a Python object that shows itself: `layout(attr, type)` in a notebook draws the
tensor view (`_repr_svg_`); `.svg()`, `.html()` and `.text()` give the pictures and Triton's text, `.linear` the
LinearLayout the analyses take. `linear_layout(attr, shape)` is that LinearLayout alone, `bank_conflicts` Triton's own
bank-conflict count. `.cute()` is the layout in CuTe notation, and CuTe text is accepted wherever an attribute is.

    from linlayout_cli import layout
    mma = layout("#ttg.nvidia_mma<{versionMajor = 3, ...}>", "tensor<128x128xf16>")
    mma                     # in Jupyter: the picture
    print(mma.text())       # Triton's tensor view
    mma.cute()              # the same layout in CuTe notation: '((_4,_8,_4),(_2,_2,...)):((_2,_256,_4096),(...))'
"""
from __future__ import annotations

from . import inputs
from .errors import ShapeError
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

    def cute(self) -> str:
        """The layout in CuTe notation (`ttlayout help cute`); an UnsupportedError saying why where it has none."""
        from .analysis.cute import cute_text
        from .analysis.info import mnemonic
        return cute_text(self.linear, mnemonic(self.title))

    def _repr_svg_(self) -> str:
        return self.svg()


def layout(attr: str, tensor_type: str, lanes: int = inputs.DEFAULT_LANES,
           max_elements: int = inputs.DEFAULT_MAX_ELEMENTS) -> Layout:
    """`attr` (a layout attribute's text, a Gluon constructor or CuTe text) at `tensor_type` (e.g.
    'tensor<64x64xf16>', which gives CuTe text its shape); `lanes`: the lanes per warp a CuTe thread mode splits
    into (64 for AMD CDNA). The title is the attribute, the one CuTe text became included. Like the command line's
    --max-elements, `max_elements` refuses bigger tensors and hardware index spaces (ShapeError) before anything
    is allocated (default 2^26; hard limit 2^31)."""
    parsed = inputs.attribute(attr, shape=lambda: inputs.tensor(tensor_type, max_elements).shape, lanes=lanes)
    tensor = inputs.tensor(tensor_type, max_elements)
    linear = inputs.linear_layout(parsed, tensor.shape, max_elements)
    bits = tensor.element_bits if linear.has_in_dim("offset") else 16
    return Layout(str(parsed), linear, bits)


def linear_layout(attr: str, shape, kind: str | None = None, role: str | None = None,
                  lanes: int = inputs.DEFAULT_LANES):
    """`attr` (an attribute's text, a Gluon constructor or CuTe text) as Triton's LinearLayout at `shape`; with
    `kind` ('distributed' or 'shared') it must be such a layout (CuTe text is read as one), the error naming it the
    `role` layout."""
    shape = [int(s) for s in shape]
    if not shape:
        raise ShapeError("a rank-0 tensor has no elements to lay out")
    parsed = inputs.attribute(attr, shape=shape, kind=kind, lanes=lanes)
    if kind is not None:
        parsed = inputs.require_kind(parsed, kind, role or kind)
    return inputs.linear_layout(parsed, shape)


def bank_conflicts(reg: str, shared: str, shape, bitwidth: int) -> int:
    """Triton 3.9's `GluonOpBuilder.get_shared_bank_conflicts(reg, shared, shape, bitwidth)`: extra wavefronts
    per wavefront (2^k - 1) of a warp storing `reg` (a distributed layout's text) to `shared` (a shared layout's);
    a `TTLayoutError` where Triton aborts (tensor smaller than one wavefront, bit width > 128, layouts Triton
    cannot convert)."""
    from .analysis.bank import conflicts_of_layouts
    reg_ll = linear_layout(reg, shape, "distributed", "register")
    shared_ll = linear_layout(shared, shape, "shared", "shared")
    return conflicts_of_layouts(reg_ll, shared_ll, int(bitwidth), "sm90")


# ----------------------------------------------------------------------------------------- advise


@frozen
class AdviceResult:
    """What `advise` found for a dump: `modules` (one `analysis.advise.Advice` each, its `changes` best first),
    the report as text or JSON, and the dump with a change applied (`patched`)."""
    source: str                    # the dump's text
    name: str                      # what the report calls it (the path, or "<text>")
    modules: tuple

    @property
    def changes(self) -> tuple:
        """The first module's changes, best first."""
        return self.modules[0].changes if self.modules else ()

    def text(self) -> str:
        from .reports.advise import blocks
        from .reports.blocks import to_text
        return to_text(blocks(list(self.modules), self.name))

    def json(self) -> str:
        from .reports.advise import json_text
        return json_text(list(self.modules), self.name)

    def patched(self, change: int = 1) -> str:
        """The dump with the `change`-th change (1 = the best) of every module applied: only the changed alias
        definitions differ from the input; the input itself where no module has that many changes."""
        chosen = {a.index: {c.alias: c.after for c in a.changes[change - 1].aliases}
                  for a in self.modules if len(a.changes) >= change}
        return inputs.replace_aliases(self.source, chosen) if chosen else self.source


def advise(source, target: str | None = None) -> AdviceResult:
    """`ttlayout advise` in Python: `source` is a TTGIR dump's text, a path to one, or a Triton `CompiledKernel`
    (its `asm["ttgir"]`); `target` overrides the dump's `ttg.target`.

        from linlayout_cli import advise
        a = advise("kernel.ttgir")
        print(a.text())                      # the report; a.json() the same as JSON
        open("patched.ttgir", "w").write(a.patched())
    """
    from .analysis.advise import analyze_advise
    text, name = _kernel_text(source)
    modules = tuple(analyze_advise(inputs.modules(text), target))
    return AdviceResult(text, name, modules)


def _kernel_text(source) -> tuple[str, str]:
    """(TTGIR text, name) of a dump given as text, a path, or a CompiledKernel (`.asm["ttgir"]`)."""
    import os
    asm = getattr(source, "asm", None)
    if asm is not None:
        return asm["ttgir"], getattr(getattr(source, "name", None), "__str__", lambda: "<kernel>")()
    if isinstance(source, os.PathLike) or isinstance(source, str) and "\n" not in source and os.path.exists(source):
        return inputs.read_text(os.fspath(source), None), os.fspath(source)
    if not isinstance(source, str):
        raise TypeError(f"advise takes TTGIR text, a path or a CompiledKernel, not {type(source).__name__}")
    return source, "<text>"
