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
from .errors import ShapeError, TTLayoutError
from .records import frozen

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: the engine loads when a layout is converted
    from .analysis.targets import Target
    from .engine import LinearLayout


# ----------------------------------------------------------------------------------------- arguments


def _int(value, name: str, minimum: int | None = None) -> int:
    """An integer argument (numpy integers too, not a bool), else a TTLayoutError naming the argument.

    >>> _int("4", "jobs")
    Traceback (most recent call last):
    ...
    linlayout_cli.errors.TTLayoutError: jobs must be an integer, not str ('4')
    """
    import operator
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise TTLayoutError(f"{name} must be an integer, not {type(value).__name__} ({_shown(value)})") from None
    if minimum is not None and number < minimum:
        raise TTLayoutError(f"{name} must be {minimum} or more, not {number}")
    return number


def _str(value, name: str, optional: bool = False) -> str | None:
    """A text argument, else a TTLayoutError naming the argument."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TTLayoutError(f"{name} must be a string{' or None' if optional else ''}, not {type(value).__name__} "
                            f"({_shown(value)})")
    return value


def _flag(value, name: str) -> bool:
    """A True/False argument, else a TTLayoutError naming the argument."""
    if value not in (True, False) or isinstance(value, str):
        raise TTLayoutError(f"{name} must be True or False, not {type(value).__name__} ({_shown(value)})")
    return bool(value)


def _shape(value, name: str = "shape") -> list[int]:
    """A tensor shape argument: a sequence of integers."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TTLayoutError(f"{name} must be a list of integers, not {type(value).__name__} ({_shown(value)})")
    return [_int(v, f"{name}[{k}]") for k, v in enumerate(value)]


def _shown(value) -> str:
    from .errors import abbreviate
    return abbreviate(repr(value), 40)


@frozen
class Layout:
    """A layout attribute, its linear layout at one tensor shape, and the element width (for shared banks)."""
    title: str
    linear: LinearLayout
    element_bits: int = 16

    @property
    def shared(self) -> bool:
        return self.linear.has_in_dim("offset")

    def text(self, hardware: bool = False) -> str:
        """Triton's text view (without its 'Print layout attribute' header), in memory: about 13 bytes per element
        (use `write` to stream a big one to a file)."""
        from .render import render_layout
        out = bytearray()
        render_layout(self.linear, _flag(hardware, "hardware"), out.extend)
        return out.decode()

    def write(self, file, hardware: bool = False) -> None:
        """Stream the text view into a binary file object (bounded memory, like the command line)."""
        from .render import render_layout
        if not callable(getattr(file, "write", None)):
            raise TTLayoutError(f"file must be a binary file object (open(..., 'wb')), not {type(file).__name__}")
        render_layout(self.linear, _flag(hardware, "hardware"), file.write)

    def svg(self, hardware: bool = False) -> str:
        """The SVG picture (drawn at tile granularity for big tensors)."""
        from .render.svg import document, layout_panel
        return document(layout_panel(self.linear, _flag(hardware, "hardware"), self.element_bits, self.title))

    def html(self, hardware: bool = False) -> str:
        """The self-contained interactive page."""
        from .render.html import layout_spec, page
        return page([layout_spec(self.title, self.linear, self.element_bits)], _flag(hardware, "hardware"))

    def cute(self) -> str:
        """The layout in CuTe notation (`ttlayout help cute`), as `--format cute` writes it: prefixed where the text
        alone would read back as another layout (`cute-tv[ctas=2]: ...`); an UnsupportedError saying why where it
        has none."""
        from .analysis.cute import cute_form, cute_input, cute_text
        from .analysis.info import mnemonic
        text = cute_text(self.linear, mnemonic(self.title))
        shape = [size for _, size in self.linear.get_out_dims()]
        return cute_input(cute_form(self.linear, mnemonic(self.title)), shape) or text

    def _repr_svg_(self) -> str:
        return self.svg()


def layout(attr, tensor_type: str, lanes: int = inputs.DEFAULT_LANES,
           max_elements: int = inputs.DEFAULT_MAX_ELEMENTS) -> Layout:
    """`attr` (a layout attribute's text, a Gluon constructor or CuTe text, or a Gluon layout object such as
    `ttgl.BlockedLayout(...)` itself) at `tensor_type` (e.g. 'tensor<64x64xf16>', which gives CuTe text its shape);
    `lanes`: the lanes per warp a CuTe thread mode splits into (64 for AMD CDNA). The title is the attribute, the
    one CuTe text became included. Like the command line's --max-elements, `max_elements` refuses bigger tensors
    and hardware index spaces (ShapeError) before anything is allocated (default 2^26; hard limit 2^31)."""
    lanes, max_elements = _int(lanes, "lanes", 1), _int(max_elements, "max_elements", 1)
    type_text = _str(tensor_type, "tensor_type", optional=True)
    attr = layout_text(attr)
    parsed = inputs.attribute(attr, shape=lambda: inputs.tensor(type_text, max_elements).shape, lanes=lanes)
    tensor = inputs.tensor(type_text, max_elements)
    linear = inputs.linear_layout(parsed, tensor.shape, max_elements)
    bits = tensor.element_bits if linear.has_in_dim("offset") else 16
    return Layout(str(parsed), linear, bits)


def linear_layout(attr, shape, kind: str | None = None, role: str | None = None,
                  lanes: int = inputs.DEFAULT_LANES):
    """`attr` (an attribute's text, a Gluon constructor or CuTe text, or a Gluon layout object) as Triton's
    LinearLayout at `shape`; with
    `kind` ('distributed' or 'shared') it must be such a layout (CuTe text is read as one), the error naming it the
    `role` layout."""
    attr = layout_text(attr)
    shape = _shape(shape)
    lanes = _int(lanes, "lanes", 1)
    if kind not in (None, "distributed", "shared"):
        raise TTLayoutError(f"kind must be 'distributed', 'shared' or None, not {_shown(kind)}")
    role = _str(role, "role", optional=True)
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
    from .analysis.targets import KNOWN
    bitwidth = _int(bitwidth, "bitwidth", 1)
    shape = _shape(shape)
    reg_ll = linear_layout(reg, shape, "distributed", "register")
    shared_ll = linear_layout(shared, shape, "shared", "shared")
    return conflicts_of_layouts(reg_ll, shared_ll, bitwidth, KNOWN["sm90"])   # Triton's is sm90's


# ----------------------------------------------------------------------------------------- kernels


class Audit:
    """What `audit(x)` found: `kernels` (one `analysis.kernels.KernelAudit` per kernel, or a `KernelFailure`
    saying why one could not be audited) and, for one kernel, `modules` (its `ModuleAudit`s, every op row).
    `.text()` is the report the command line prints, `.json()` its JSON, and a notebook shows the HTML table."""

    def __init__(self, kernels, where: str, modules=None, compiled=None, asm=None):
        self.kernels, self.where, self.modules, self.compiled = list(kernels), where, modules, compiled
        self.asm = asm                           # one kernel: each module's assembly column, or None

    @property
    def failed(self) -> bool:
        from .analysis.kernels import KernelFailure
        return any(isinstance(k, KernelFailure) for k in self.kernels)

    def text(self, top: int | None = None) -> str:
        """One kernel: every op row (`ttlayout audit FILE`), with the compiler's figures where known; many: one row
        per kernel, ranked, then the `top` costliest ops (`ttlayout audit DIR`)."""
        from .reports.blocks import to_text
        top = None if top is None else _int(top, "top", 0)
        if self.modules is None:
            from .reports.kernels import advise_line, blocks
            return to_text(blocks(self.kernels, self.where, top, advise_line(self.kernels)))
        import os

        from .reports.audit import advise_command
        from .reports.audit import blocks as one
        from .reports.kernels import compiled_blocks
        extra = [b for k in self.kernels for b in compiled_blocks(k)] if self.compiled is not None else []
        command = advise_command(self.where) if self.compiled is None and os.path.isfile(self.where) else None
        return to_text(one(self.modules, self.where, top, asm=self.asm, advise=command) + extra)

    def json(self) -> str:
        """A file or text: the JSON of `ttlayout audit FILE --json`; a directory or a compiled kernel (whose
        compiler's figures it holds): `{"kernels": [...], "failures": [...], "summary": {...}}`."""
        if self.modules is not None and self.compiled is None:
            import os

            from .reports.audit import advise_command, json_text
            command = advise_command(self.where) if os.path.isfile(self.where) else None
            return json_text(self.modules, self.where, {"advise_command": command}, asm=self.asm)
        from .reports.kernels import json_text as many
        return many(self.kernels)

    def html(self) -> str:
        """The self-contained page of `ttlayout audit ... --format html`."""
        from .render.kernels import page
        return page(self.kernels, self.where)

    def _repr_html_(self) -> str:
        from .render.kernels import fragment
        return fragment(self.kernels, self.where, top=None if self.modules is not None else 10)

    def __repr__(self) -> str:
        return f"<ttlayout audit of {self.where}: {len(self.kernels)} kernel(s)>"


def audit(x, target: str | None = None, jobs: int | None = None) -> Audit:
    """Audit kernels where they are: a path (a TTGIR file, or a directory searched for *.ttgir, Triton's cache
    included, each kernel's NAME.json beside it), TTGIR text, or a Triton `CompiledKernel` (anything with
    `.asm["ttgir"]` and `.metadata`, duck-typed: Triton is not imported). `target`: as --target; `jobs`: processes
    for a directory (default: one per processor).

        from linlayout_cli import audit
        audit(kernel)              # kernel = my_kernel[grid](...) or triton.compile(...): a table in a notebook
        print(audit("~/.triton/cache").text())
    """
    import os

    from . import sources
    from .analysis.targets import get_target
    jobs = None if jobs is None else _int(jobs, "jobs", 1)
    # the name is resolved once, here at the API's edge; everything below takes the Target
    chosen = get_target(target) if _str(target, "target", optional=True) is not None else None
    if hasattr(x, "asm") and hasattr(x, "metadata"):
        return _audit_compiled(x, chosen)
    if isinstance(x, os.PathLike) or isinstance(x, str) and not _looks_like_ttgir(x):
        path = os.path.expanduser(os.fspath(x))
        if sources.is_directory(path):
            kernels, failures = sources.find_kernels([path])
            return Audit(failures + sources.audit_kernels(kernels, chosen, None, jobs), path)
        return _audit_one(inputs.kernel_text(path, None), path, chosen)
    if isinstance(x, str):
        return _audit_one(x, "TTGIR text", chosen)
    raise TTLayoutError(f"audit(x): x must be a path, TTGIR text or a compiled kernel, not {type(x).__name__} "
                        f"({_shown(x)})")


def _looks_like_ttgir(text: str) -> bool:
    return "\n" in text or "module" in text and "{" in text


def _audit_one(text: str, where: str, target: Target | None, compiled=None, name: str | None = None,
               assembly: str | None = None) -> Audit:
    """One TTGIR text's audit; `assembly`: its kernel's PTX or AMDGCN text (a CompiledKernel's `asm`), else the
    NAME.ptx / NAME.amdgcn beside the file `where` names."""
    import os

    from . import sources
    modules, audits, origin = sources.audit_modules(text, target, compiled)
    name = name or os.path.basename(where).removesuffix(".ttgir")
    if assembly is not None:
        listing, asm_error = sources.read_assembly(assembly)
    elif os.path.isfile(where):
        listing, asm_error = sources.kernel_assembly(where, len(modules) > 1)
    else:
        listing, asm_error = None, None
    columns = sources.asm_columns(audits, listing)
    records = sources.kernel_records(modules, audits, origin, name=name, path=where, compiled=compiled,
                                     columns=columns, asm_error=asm_error)
    return Audit(records, where, audits, compiled, columns)


def _compiled_ttgir(kernel) -> str:
    """A CompiledKernel's TTGIR text (`asm["ttgir"]`, text or bytes)."""
    try:
        text = kernel.asm["ttgir"]
    except (KeyError, TypeError, IndexError):
        raise TTLayoutError("the compiled kernel's asm holds no 'ttgir'") from None
    return text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)


def _audit_compiled(kernel, target: Target | None) -> Audit:
    """A CompiledKernel: its TTGIR (`asm["ttgir"]`), its metadata (a namedtuple in Triton 3.9, a dict before)."""
    from . import sources
    from .analysis.kernels import compiled_from
    text = _compiled_ttgir(kernel)
    compiled = compiled_from(kernel.metadata)
    name = compiled.name or str(getattr(kernel, "name", "") or "kernel")
    key = getattr(kernel, "hash", None)
    label = sources.cache_label(name, key if isinstance(key, str) else compiled.key)
    assembly = next((kernel.asm[k] for k in ("ptx", "amdgcn") if isinstance(kernel.asm, dict) and k in kernel.asm), None)
    if isinstance(assembly, bytes):
        assembly = assembly.decode("utf-8", "replace")
    return _audit_one(text, label, target, compiled, label, assembly)


# ----------------------------------------------------------------------------------------- Gluon layout objects


def layout_text(attr) -> str:
    """A layout given as text, as is; a Gluon layout object (`ttgl.BlockedLayout(...)`, `ttgl.amd.AMDMFMALayout`,
    ...: any object whose class has the name and the constructor fields of one, as Triton 3.9's Gluon defines
    them) as the constructor text that builds it. Triton is never imported."""
    if isinstance(attr, str):
        return attr
    try:
        return gluon_constructor(attr)
    except TTLayoutError as e:
        raise type(e)(f"attr: {e}") from None


def gluon_constructor(obj, depth: int = 0) -> str:
    """The Gluon constructor text of a Gluon layout object, read from its attributes (field names of
    `parsing.gluon.CLASSES`); a nested layout (a slice's or dot operand's parent) is written the same way.

    >>> class BlockedLayout:
    ...     size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout = [1, 4], [4, 8], [4, 1], [1, 0], []
    >>> gluon_constructor(BlockedLayout())
    'ttgl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0], cga_layout=[])'
    """
    from .errors import UnsupportedError, abbreviate
    from .parsing.gluon import CLASSES, REQUIRED
    name = type(obj).__name__
    if name not in CLASSES or depth > 8:
        raise UnsupportedError(f"{abbreviate(name, 40)} is not a layout ttlayout reads: give a Gluon layout object "
                               f"({', '.join(CLASSES)}) or a layout's text")
    home, _, fields = CLASSES[name]
    args = []
    for field, _, default in fields:
        value = getattr(obj, field, None)
        if value is None:
            if default is REQUIRED:
                raise UnsupportedError(f"the {name} object has no '{field}'")
            continue
        args.append(f"{field}={_gluon_value(value, depth)}")
    return f"ttgl{'.' + home if home else ''}.{name}({', '.join(args)})"


def _gluon_value(value, depth: int) -> str:
    """A field's value as Gluon code: True/False, an integer, a list of them, or a nested layout object."""
    import operator

    from .errors import UnsupportedError, abbreviate
    value = getattr(value, "value", value) if type(value).__name__ == "constexpr" else value
    if isinstance(value, bool):
        return "True" if value else "False"
    try:
        return str(operator.index(value))               # int, numpy integers
    except TypeError:
        pass
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_gluon_value(v, depth) for v in value) + "]"
    if hasattr(value, "__dict__") or hasattr(type(value), "__dataclass_fields__"):
        return gluon_constructor(value, depth + 1)
    raise UnsupportedError(f"a Gluon layout field holds {abbreviate(repr(value), 40)}, not an integer, a list or a "
                           "layout")


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
        change = _int(change, "change", 1)              # 0 and -1 would index from the end: refused
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
    from .analysis.targets import get_target
    chosen = get_target(target) if _str(target, "target", optional=True) is not None else None   # resolved once
    text, name = _kernel_text(source)
    modules = tuple(analyze_advise(inputs.modules(text), chosen))
    return AdviceResult(text, name, modules)


def _kernel_text(source) -> tuple[str, str]:
    """(TTGIR text, name) of a dump given as text, a path, or a CompiledKernel (`.asm["ttgir"]`), read as
    `audit` reads them."""
    import os

    if hasattr(source, "asm") and hasattr(source, "metadata"):
        return _compiled_ttgir(source), str(getattr(source, "name", "") or "kernel")
    if isinstance(source, os.PathLike) or isinstance(source, str) and not _looks_like_ttgir(source):
        path = os.path.expanduser(os.fspath(source))
        return inputs.kernel_text(path, None), path
    if not isinstance(source, str):
        raise TTLayoutError(f"advise(source): source must be TTGIR text, a path or a compiled kernel, not "
                            f"{type(source).__name__} ({_shown(source)})")
    return source, "<text>"
