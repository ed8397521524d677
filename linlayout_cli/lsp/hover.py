"""The Markdown the server shows: hovers on an alias, a type, an inline layout and an op; the words of its
diagnostics, code actions and inlay hints. The reports' own text (`info`'s summary, `audit --line N`'s facts) is
shown in fenced blocks, as the terminal prints it."""
from __future__ import annotations

from . import model
from .document import Document

MAX_HOVER_CHARS = 12000


def fenced(text: str, lang: str = "text") -> str:
    """A Markdown code block holding `text` (a longer fence when the text has backticks)."""
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}"


def _cut(markdown: str) -> str:
    if len(markdown) <= MAX_HOVER_CHARS:
        return markdown
    return markdown[:MAX_HOVER_CHARS] + "\n\n… (cut: the hover shows its first 12,000 characters)"


def layout_markdown(attr, shape, element: str, grid: bool) -> str:
    """`info`'s summary of a layout at a shape, and a small grid of who holds what when asked and it fits."""
    try:
        info = model.layout_text(attr, shape, element)
    except model.TTLayoutError as e:
        return f"*not analysed at {'x'.join(map(str, shape))}x{element}:* {e}"
    parts = [f"at `tensor<{'x'.join(map(str, shape))}x{element}>`", fenced(info.summary)]
    if grid:
        picture = model.thread_grid(info.linear)
        if picture is not None:
            title, text = picture
            parts += [f"*{title}*", fenced(text)]
    return "\n\n".join(parts)


def alias_hover(doc: Document, name: str, section) -> str:
    """An alias under the cursor: its definition, and `info`'s summary at the first shape the section uses it
    at."""
    aliases = doc.aliases(section)
    attr = model.alias_value(aliases, name)
    idx = doc.index(section)
    d = idx.definitions[name]
    uses = len(idx.uses.get(name, ()))
    head = f"**#{name}** — defined at line {d.line + 1}, used {uses} time{'s' if uses != 1 else ''}" + (
        f" in {section.title()}" if len(doc.sections) > 1 else "")
    if isinstance(attr, Exception):
        return _cut(f"{head}\n\n**does not parse:** {attr}")
    if not model.is_layout(attr):
        return _cut(f"{head}\n\n{fenced(str(attr), 'mlir')}")
    parts = [head, fenced(f"#{name} = {attr}", "mlir")]
    type_text = doc.first_type_using(section, name)
    vt = model.value_type(aliases, type_text) if type_text else None
    if vt is not None and vt.shape and vt.encoding is not None:
        parts.append(f"first used as `{type_text}`; " + layout_markdown(vt.encoding, vt.shape, vt.pointee
                                                                           if vt.is_pointer else vt.element, False))
    else:
        parts.append("*no tensor of this section uses it: hover a type for its summary at a shape*")
    return _cut("\n\n".join(parts))


def type_hover(doc: Document, type_text: str, section) -> str | None:
    """A `tensor<…, #layout>` (or memdesc) type: `info` at that shape, with the grid."""
    vt = model.value_type(doc.aliases(section), type_text)
    if vt.kind == "other" or not vt.shape:
        return None
    if vt.encoding is None:
        if vt.problem:
            return _cut(f"`{type_text}`\n\n**its layout does not parse:** {vt.problem}")
        return None
    element = vt.pointee if vt.is_pointer else vt.element
    head = f"`{type_text}`" + (f" — pointers to {element}" if vt.is_pointer else "")
    name = vt.encoding_text[1:] if vt.encoding_text.startswith("#") else ""
    definition = doc.index(section).definitions.get(name)
    if definition is not None:
        head += f" — **#{name}**, defined at line {definition.line + 1}"
    return _cut(head + "\n\n" + fenced(str(vt.encoding), "mlir") + "\n\n" + layout_markdown(
        vt.encoding, vt.shape, element, True))


def inline_hover(doc: Document, text: str, section) -> str | None:
    """An inline `#ttg.…<…>` outside a type and an alias definition (an op's attribute): the attribute as Triton
    prints it (with no shape there is no summary to give)."""
    try:
        attr = model.parse_inline(doc.aliases(section), text)
    except model.TTLayoutError as e:
        return f"**does not parse:** {e}"
    if not model.is_layout(attr):
        return None
    return _cut(fenced(str(attr), "mlir") + "\n\n*hover the tensor type that holds it for its summary at a shape*")


def row_hover(doc: Document, row: model.Row, module_audit, asm_column) -> str:
    """An op's audit row: `audit --line N`'s facts, the verdict, and the assembly counts beside it."""
    title = f"{row.op} at line {row.line} ({model.where(row)}), {model.target_name(module_audit)}"
    head = (f"**{row.op}** — waste {model.number(row.waste)}, cost {model.number(row.cost)} "
            f"(weighted cost per thread, as advise ranks; `{model.HELP_AUDIT}`)\n\n{row.verdict}")
    parts = [head]
    if asm_column is not None:
        parts.append(f"**assembly** (model/assembly on its Python line): `{model.assembly_cell(row, asm_column)}`")
    parts.append(fenced(model.row_text(row, title)))
    return _cut("\n\n".join(parts))


def diagnostic_message(row: model.Row) -> str:
    """A wasteful op's warning: its waste and cost, and the verdict in words."""
    return f"{row.op}: waste {model.number(row.waste)} of cost {model.number(row.cost)}: {row.verdict}"


def fix_title(fix: model.Fix) -> str:
    """'redefine #blocked2 as #ttg.blocked<…>: barriers 28 → 14'."""
    names = " and ".join(f"#{a} as {_short(v)}" for a, v in fix.aliases)
    return f"redefine {names}: {fix.gains}"


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def inlay_text(row: model.Row) -> str:
    """The convert path at a convert_layout: ' ⇢ smem 4096 B, conflicts 0/0'."""
    return f"⇢ {row.short}"
