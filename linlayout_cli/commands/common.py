"""What the analysis commands share: their common options, how they pick layouts from `-i` aliases, and where
their report goes (plain text when piped, rich in a terminal, JSON on request). `obj` is the process's streams
and output sink (see cli.execute)."""
from __future__ import annotations

import os
import sys

from .. import inputs
from ..analysis.targets import DEFAULT_TARGET, TARGETS
from ..errors import TTLayoutError, abbreviate
from .options import Opt

TARGET_HELP = ("Bank model: " + ", ".join(TARGETS) + f" (default {DEFAULT_TARGET}; "
               "NVIDIA targets reproduce Triton 3.9, AMD ones follow docs/bank_model.md).")


COMMON = (
    Opt(("-t",), "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<64x64xf16>' (required); the element "
        "type gives the bit width. An encoding written in it ('tensor<64x64xf16, #blocked>', '!ttg.memdesc<...>') "
        "is the layout of its kind that no option gives."),
    Opt(("-i",), "input_file", metavar="FILE", help="MLIR/TTGIR file whose '#name = <attr>' aliases the layouts may "
        "name ('-' = stdin)."),
    Opt(("--target",), "target", default=DEFAULT_TARGET, show_default=True, metavar="NAME", help=TARGET_HELP),
    Opt(("--bitwidth",), "bitwidth", type=int, metavar="N", help="Element bit width (overrides the element type)."),
    Opt(("--json",), "as_json", "flag", help="Print one JSON object instead of the report."),
)

ONE_LAYOUT_TENSOR = Opt(("-t",), "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>' "
                        "(required); an encoding written in it ('tensor<128x256xf16, #mma>', '!ttg.memdesc<...>') is "
                        "the layout when -l is not given.")


# ----------------------------------------------------------------------------------------- inputs


def alias_table(obj, input_file: str | None):
    """The `-i` file's aliases (name -> AliasDef), or None without -i."""
    if not input_file:
        return None
    return inputs.alias_table(input_file, obj["stdin"])


def resolve(text: str | None, table, role: str, kind: str):
    """A layout given on the command line (text, or '#alias' / 'alias' of the -i file), checked to be a `kind`
    layout; None when not given."""
    if text is None:
        return None
    if table is not None:
        name = text[1:] if text.startswith("#") else text
        if name in table:
            return inputs.require_kind(table[name].attr, kind, role, name)
    return inputs.require_kind(inputs.attribute(text, table), kind, role)


def from_alias_names(table, names: list[str], roles):
    """The layouts named by --alias-names, one per (role, kind) of `roles`."""
    if len(names) != len(roles):
        raise TTLayoutError(f"--alias-names needs {len(roles)} names ({', '.join(r for r, _ in roles)}), "
                            f"got {len(names)}")
    return [inputs.require_kind(inputs.named(table, name), kind, role, name)
            for name, (role, kind) in zip(names, roles)]


def aliases_of_kind(table, kind: str) -> list[str]:
    return [d.name for d in table.layouts() if d.attr.kind == kind]


def check_alias_usage(alias_names, input_file, given_all: bool, flags: str) -> None:
    if alias_names and input_file is None:
        raise TTLayoutError("--alias-names needs -i FILE")
    if alias_names and given_all:
        raise TTLayoutError(f"give the layouts either with {flags} or with --alias-names, not both")


def given_tensor(tensor_type: str | None):
    """The checked -t tensor where one is given (its encoding may give a layout), else None."""
    return inputs.tensor(tensor_type) if tensor_type is not None else None


def tensor_and_bits(tensor_type: str | None, bitwidth: int | None, example: str = "tensor<64x64xf16>", t=None):
    """The checked tensor (`t` where already parsed) and the element bit width (--bitwidth overrides the
    element type)."""
    from ..analysis.bank import check_bitwidth
    t = t or inputs.tensor(tensor_type, example=example)
    return t, check_bitwidth(bitwidth if bitwidth is not None else t.element_bits)


# ----------------------------------------------------------------------------------------- output


def emit(obj, text: str) -> None:
    obj["stdout"](text.encode("utf-8"))


def use_rich(as_json: bool) -> bool:
    if as_json or os.environ.get("TTLAYOUT_PLAIN"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def width() -> int:
    import shutil
    return max(60, min(160, shutil.get_terminal_size((120, 24)).columns))


def emit_report(obj, doc, as_json: bool, json_text) -> None:
    """One report three ways: `json_text()` with --json, rich in a terminal, plain text otherwise."""
    from ..reports import blocks as fmt
    if as_json:
        emit(obj, json_text())
    elif use_rich(as_json):
        emit(obj, fmt.to_rich(doc, width()))
    else:
        emit(obj, fmt.to_text(doc))


def one_layout(obj, layout: str | None, input_file: str | None, alias_names, command: str, t=None):
    """The single layout of `info` / `lookup`: -l ATTR, one alias of the -i file (named by --alias-names, or the
    file's only layout), or the encoding written in -t (`tensor<128x256xf16, #mma>`, `!ttg.memdesc<...>`),
    which must agree with the other two when they are given too."""
    names = inputs.split_names(alias_names)
    if names and input_file is None:
        raise TTLayoutError("--alias-names needs -i FILE")
    if layout is not None and input_file is not None:
        raise TTLayoutError("give the layout either with -l or with -i, not both")
    table = alias_table(obj, input_file)
    inline = inputs.inline_layout(t, table, required=layout is None and not names) if t is not None else None
    if layout is not None:
        attr = inputs.attribute(layout)
    elif inline is not None and not names:
        return inline[1]
    elif table is None:
        raise TTLayoutError(f"missing -l ATTR (or -i FILE --alias-names NAME); see 'ttlayout {command} --help'")
    elif len(names) > 1:
        raise TTLayoutError(f"ttlayout {command} takes one layout, got {len(names)} alias names")
    elif names:
        attr = inputs.named(table, names[0])
    else:
        layouts = table.layouts()
        if len(layouts) != 1:
            raise TTLayoutError(f"the file has {len(layouts)} layouts ({', '.join(d.name for d in layouts[:6])}); "
                                "say which with --alias-names NAME")
        attr = layouts[0].attr
    if inline is not None:
        inputs.check_same_layout(attr, inline[1], "-l" if layout is not None else "--alias-names")
    return attr


def from_tensor(t, table, attrs: list, roles, flags, command: str):
    """The encoding written in -t (`tensor<64x64xf16, #blocked>`, `!ttg.memdesc<64x64xf16, #shared, ...>`) as the
    first of `roles` of its kind: (the attributes with that role filled in where no option gave it, which must
    otherwise be the same layout; agree(picked), checking the layouts --alias-names picked for it)."""
    found = inputs.inline_layout(t, table, required=None in attrs) if t is not None else None
    if found is None:
        return attrs, lambda picked: None
    inline = found[1]
    kinds = [kind for _, kind in roles]
    kind = getattr(inline, "kind", None)
    if kind not in kinds:
        raise TTLayoutError(f"the encoding in -t is a {kind} layout ({abbreviate(str(inline))}); ttlayout {command} "
                            f"takes {' and '.join(f'a {k} layout as the {r}' for r, k in roles)}")
    i = kinds.index(kind)
    if attrs[i] is not None:
        inputs.check_same_layout(attrs[i], inline, flags[i])

    def agree(picked):
        inputs.check_same_layout(picked[i], inline, "--alias-names")
    return [inline if k == i and a is None else a for k, a in enumerate(attrs)], agree
