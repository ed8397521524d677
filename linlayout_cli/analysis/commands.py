"""``ttlayout bank`` and ``ttlayout swizzle`` (dispatched from linlayout_cli.cli.execute).

Output goes through ``click.get_current_context().obj["stdout"]`` (bytes); user errors raise TTLayoutError.
rich is imported only when stdout is a terminal and --json is not given."""
from __future__ import annotations

import os
import shutil
import sys

import click

from ..errors import TTLayoutError
from .targets import DEFAULT_TARGET, TARGETS

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
TARGET_HELP = ("Bank model: " + ", ".join(TARGETS) + f" (default {DEFAULT_TARGET}; "
               "NVIDIA targets reproduce Triton 3.9, AMD ones follow docs/bank_model.md).")


class _Subcommand(click.Command):
    """Usage lines read 'ttlayout bank ...' although cli.execute passes prog_name='ttlayout'."""

    def main(self, *args, prog_name=None, **kwargs):
        return super().main(*args, prog_name=f"{prog_name or 'ttlayout'} {self.name}", **kwargs)


def _emit(text: str) -> None:
    click.get_current_context().obj["stdout"](text.encode("utf-8"))


def _use_rich(as_json: bool) -> bool:
    if as_json or os.environ.get("TTLAYOUT_PLAIN"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _width() -> int:
    return max(60, min(160, shutil.get_terminal_size((120, 24)).columns))


def _alias_table(input_file: str | None):
    """(name -> attribute) of the -i file, or None without -i."""
    if not input_file:
        return None
    from ..cli import read_input
    from ..parsing import parse_mlir_file
    text = read_input(input_file, click.get_current_context().obj["stdin"])
    return {d.name: d.attr for d in parse_mlir_file(text)}


def _resolve(text: str | None, table, what: str, kind: str):
    """An attribute given on the command line (text, or '#alias' / 'alias' of the -i file)."""
    from ..parsing import parse_attribute
    if text is None:
        return None
    if table is not None:
        name = text[1:] if text.startswith("#") else text
        if name in table:
            attr = table[name]
            if getattr(attr, "kind", None) != kind:
                raise TTLayoutError(f"#{name} is not a {kind} layout attribute: {str(attr)[:80]}")
            return attr
    attr = parse_attribute(text, table or None)
    if getattr(attr, "kind", None) != kind:
        raise TTLayoutError(f"the {what} layout must be a {kind} layout attribute, got {str(attr)[:80]}")
    return attr


def _from_aliases(table, alias_names, roles):
    """Attributes named by --alias-names a,b (roles: list of (what, kind)); auto-pick when unambiguous."""
    names = [n.lstrip("#") for group in alias_names for n in group.split(",") if n]
    if names:
        if len(names) != len(roles):
            raise TTLayoutError(f"--alias-names needs {len(roles)} names ({', '.join(w for w, _ in roles)}), "
                                f"got {len(names)}")
        out = []
        for name, (what, kind) in zip(names, roles):
            if name not in table:
                raise TTLayoutError(f"Can't find the layout attribute: {name}")
            attr = table[name]
            if getattr(attr, "kind", None) != kind:
                raise TTLayoutError(f"#{name} is not a {kind} layout attribute (needed for the {what} layout)")
            out.append(attr)
        return out
    return None


def _shape_and_bits(tensor_type: str | None, bitwidth: int | None):
    if not tensor_type:
        raise TTLayoutError("missing -t: specify the tensor type, e.g. -t 'tensor<64x64xf16>'")
    from ..cli import DEFAULT_MAX_ELEMENTS, tensor_shape
    from ..parsing import parse_tensor_type
    from .bank import check_bitwidth, element_bitwidth
    ttype = parse_tensor_type(tensor_type)
    shape = tensor_shape(ttype, tensor_type, DEFAULT_MAX_ELEMENTS)
    bits = bitwidth if bitwidth is not None else element_bitwidth(ttype.element)
    return shape, check_bitwidth(bits), ttype.element


COMMON = [
    click.option("-t", "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<64x64xf16>' (required); "
                 "the element type gives the bit width."),
    click.option("-i", "input_file", metavar="FILE", help="MLIR/TTGIR file whose '#name = <attr>' aliases the "
                 "layouts may name ('-' = stdin)."),
    click.option("--target", default=DEFAULT_TARGET, show_default=True, metavar="NAME", help=TARGET_HELP),
    click.option("--bitwidth", type=int, metavar="N", help="Element bit width (overrides the element type)."),
    click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the report."),
]


def _common(f):
    for opt in reversed(COMMON):
        f = opt(f)
    return f


@click.command("bank", cls=_Subcommand, context_settings=CONTEXT)
@click.option("-r", "--reg", "reg", metavar="ATTR", help="Register (distributed) layout attribute, or #alias of -i.")
@click.option("-s", "--shared", "shared", metavar="ATTR", help="Shared layout attribute, or #alias of -i.")
@click.option("--alias-names", "alias_names", multiple=True, metavar="REG,SHARED",
              help="With -i: the aliases of the register and the shared layout.")
@_common
def bank(reg, shared, alias_names, tensor_type, input_file, target, bitwidth, as_json):
    """Shared-memory bank conflicts of storing/loading a register layout to/from a shared layout.

    The count is Triton 3.9's get_shared_bank_conflicts (extra wavefronts per wavefront, 2^k - 1); the report
    explains it: vector width, ideal vs actual wavefronts per instruction, and which lanes of the worst
    wavefront hit which bank at which 32-bit words.

    \b
    ttlayout bank -r '#ttg.blocked<{...}>' -s '#ttg.swizzled_shared<{...}>' -t 'tensor<64x64xf16>'
    ttlayout bank -i kernel.ttgir --alias-names blocked,shared -t 'tensor<64x64xf16>' --json
    """
    from .bank import analyze_attrs
    from .targets import get_target
    tgt = get_target(target)
    if alias_names and input_file is None:
        raise TTLayoutError("--alias-names needs -i FILE")
    if alias_names and reg is not None and shared is not None:
        raise TTLayoutError("give the layouts either with -r and -s or with --alias-names, not both")
    table = _alias_table(input_file)
    reg_attr = _resolve(reg, table, "register", "distributed")
    shared_attr = _resolve(shared, table, "shared", "shared")
    if table is not None and (reg_attr is None or shared_attr is None):
        picked = _from_aliases(table, alias_names, [("register", "distributed"), ("shared", "shared")])
        if picked is None:
            picked = _auto_pick(table, reg_attr, shared_attr)
        reg_attr, shared_attr = reg_attr or picked[0], shared_attr or picked[1]   # -r / -s win
    if reg_attr is None or shared_attr is None:
        missing = "-r REG_ATTR" if reg_attr is None else "-s SHARED_ATTR"
        raise TTLayoutError(f"missing {missing}; see 'ttlayout bank --help'")
    shape, bits, element = _shape_and_bits(tensor_type, bitwidth)
    report = analyze_attrs(reg_attr, shared_attr, shape, bits, tgt)
    from . import report as rep
    reg_text, shared_text = str(reg_attr), str(shared_attr)
    if as_json:
        _emit(rep.bank_json(report, reg_text, shared_text, element))
    elif _use_rich(as_json):
        _emit(rep.bank_rich(report, reg_text, shared_text, element, _width()))
    else:
        _emit(rep.bank_text(report, reg_text, shared_text, element))


def _auto_pick(table, reg_attr, shared_attr):
    dist = [n for n, a in table.items() if getattr(a, "kind", None) == "distributed"]
    shar = [n for n, a in table.items() if getattr(a, "kind", None) == "shared"]
    if reg_attr is None:
        if len(dist) != 1:
            raise TTLayoutError(f"the file has {len(dist)} distributed layouts ({', '.join(dist[:6])}); "
                                "say which with -r '#name' or --alias-names reg,shared")
        reg_attr = table[dist[0]]
    if shared_attr is None:
        if len(shar) != 1:
            raise TTLayoutError(f"the file has {len(shar)} shared layouts ({', '.join(shar[:6])}); "
                                "say which with -s '#name' or --alias-names reg,shared")
        shared_attr = table[shar[0]]
    return reg_attr, shared_attr


@click.command("swizzle", cls=_Subcommand, context_settings=CONTEXT)
@click.option("-r", "--write", "write", metavar="ATTR", help="Register layout that writes (stores) the tensor.")
@click.option("--read", "read", metavar="ATTR", help="Register layout that reads it back (default: the same).")
@click.option("--alias-names", "alias_names", multiple=True, metavar="WRITE,READ",
              help="With -i: the aliases of the writing and the reading layout.")
@click.option("--no-search", is_flag=True, help="Skip the search over swizzled_shared layouts; print Triton's "
              "generic swizzling result as it is.")
@_common
def swizzle(write, read, alias_names, no_search, tensor_type, input_file, target, bitwidth, as_json):
    """The shared layout that maximises vectorisation and then minimises bank conflicts for writing with one
    register layout and reading with another (Triton's generic swizzling, lib/Tools/GenericSwizzling.cpp).

    Prints a ready-to-paste #ttg.swizzled_shared<...> when one is as good, else #ttg.shared_linear<...>, with
    the conflicts of the unswizzled layout and of the suggestion.

    \b
    ttlayout swizzle -r '#ttg.blocked<{...}>' --read '#ttg.blocked<{...}>' -t 'tensor<64x64xf16>'
    """
    from .swizzle import suggest
    from .targets import get_target
    from ..conversions import to_linear_layout
    tgt = get_target(target)
    if alias_names and input_file is None:
        raise TTLayoutError("--alias-names needs -i FILE")
    if alias_names and write is not None:
        raise TTLayoutError("give the layouts either with -r/--read or with --alias-names, not both")
    table = _alias_table(input_file)
    w = _resolve(write, table, "write", "distributed")
    r = _resolve(read, table, "read", "distributed")
    if table is not None and w is None:
        names = [n.lstrip("#") for group in alias_names for n in group.split(",") if n]
        if len(names) == 1:
            names.append(names[0])
        picked = _from_aliases(table, [",".join(names)] if names else (),
                               [("write", "distributed"), ("read", "distributed")])
        if picked is None:
            dist = [n for n, a in table.items() if getattr(a, "kind", None) == "distributed"]
            if len(dist) not in (1, 2):
                raise TTLayoutError(f"the file has {len(dist)} distributed layouts ({', '.join(dist[:6])}); "
                                    "say which with --alias-names write,read")
            picked = [table[dist[0]], table[dist[-1]]]
        w, r = picked[0], r or picked[1]                  # --read wins
    if w is None:
        raise TTLayoutError("missing -r WRITE_ATTR; see 'ttlayout swizzle --help'")
    if r is None:
        r = w
    shape, bits, element = _shape_and_bits(tensor_type, bitwidth)
    w_ll, r_ll = to_linear_layout(w, shape), to_linear_layout(r, shape)
    s = suggest(w_ll, r_ll, bits, tgt, search=not no_search)
    from . import report as rep
    if as_json:
        _emit(rep.swizzle_json(s, str(w), str(r), element))
    elif _use_rich(as_json):
        _emit(rep.swizzle_rich(s, str(w), str(r), element, _width()))
    else:
        _emit(rep.swizzle_text(s, str(w), str(r), element))
