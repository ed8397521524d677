"""`ttlayout -l ATTR -t TYPE` / `ttlayout -i FILE -t TYPE`: the tensor or hardware view, byte-identical to Triton's
triton-tensor-layout, including its LLVM-style option spellings."""
from __future__ import annotations

import os
import re
import sys

import click

from .. import __version__, inputs
from ..errors import TTLayoutError

_VALUE_OPTS = {"t": "-t", "l": "-l", "i": "-i", "o": "-o", "alias-names": "--alias-names",
               "max-elements": "--max-elements"}
FORMATS = ["text", "json", "svg", "html"]


def normalize_argv(argv: list[str]) -> list[str]:
    """Accept triton-tensor-layout's LLVM spellings: -use-hw-view[=bool], -alias-names=a,b, -t=X, --t X."""
    from ..errors import abbreviate
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        m = re.fullmatch(r"--?use-hw-view(?:=(.*))?", arg, re.S)
        if m:
            value = (m.group(1) or "true").lower()
            if value not in ("true", "false", "1", "0"):
                raise click.UsageError(f"invalid value '{abbreviate(m.group(1))}' for -use-hw-view (expected true or false)")
            out += ["--use-hw-view"] if value in ("true", "1") else []
            continue
        m = re.fullmatch(r"--?(t|l|i|o|alias-names|max-elements)(?:=(.*))?", arg, re.S)
        if not m:
            out.append(arg)
            continue
        out.append(_VALUE_OPTS[m.group(1)])
        if m.group(2) is not None:
            out.append(m.group(2))
        else:
            nxt = next(args, None)
            out += [nxt] if nxt is not None else []
    return out


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-l", "layout", metavar="ATTR", help="One layout attribute, e.g. '#ttg.blocked<{...}>'.")
@click.option("-t", "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>' (required).")
@click.option("-i", "input_file", metavar="FILE", help="MLIR/TTGIR file with '#name = <attr>' aliases ('-' = stdin).")
@click.option("-o", "output", metavar="FILE", help="Write the output to FILE (atomically) instead of stdout.")
@click.option("--alias-names", "alias_names", multiple=True, metavar="A,B",
              help="Aliases (no '#') to print from the -i file, comma separated; repeatable.")
@click.option("--use-hw-view", is_flag=True, help="Print the hardware view (per block/warp/register) instead of the tensor view.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text: Triton's view, byte for byte; json: the same grid as nested JSON arrays, for scripts; "
                   "svg: a picture (cells coloured by warp and lane, or by bank); html: one self-contained "
                   "interactive page (hover, click a thread, search, tensor/hardware switch).")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the text view by warp and lane (shared layouts: by bank), replicated cells underlined; "
                   "auto: only on a terminal, and not when NO_COLOR is set. The text itself never changes.")
@click.option("--max-elements", type=click.IntRange(min=1), default=inputs.DEFAULT_MAX_ELEMENTS, show_default=True,
              help="Refuse tensors (or hardware index spaces) with more elements than this, before allocating "
                   "anything (the default keeps the output under about 1 GB; hard limit 2^31); raise it for huge "
                   "layouts.")
@click.version_option(__version__, "--version", prog_name="ttlayout")
def command(layout, tensor_type, input_file, output, alias_names, use_hw_view, fmt, as_json, color, max_elements):
    """Print which thread/register (or shared-memory offset) holds each tensor element, exactly like Triton's
    triton-tensor-layout. Single-dash spellings (-use-hw-view, -alias-names=a,b) work too.

    Subcommands: 'ttlayout bank --help', 'ttlayout swizzle --help'."""
    obj = click.get_current_context().obj
    if not tensor_type and not layout and not input_file:
        raise TTLayoutError("nothing to do: give -l ATTR (or -i FILE) and -t TYPE; see 'ttlayout --help'")
    tensor = inputs.tensor(tensor_type, max_elements)
    shape = tensor.shape
    jobs = []                                    # (alias name or None, layout, trailing blank line)
    if input_file:
        table = inputs.alias_table(input_file, obj["stdin"])
        names = inputs.split_names(alias_names)
        if names:
            jobs += [(name, inputs.named(table, name, strip_hash=False), True) for name in names]
        else:
            jobs += [(d.name, d.attr, False) for d in table.values() if getattr(d.attr, "kind", None)]
    if layout:
        jobs.append((None, inputs.attribute(layout), False))
    converted = [(name, attr, inputs.linear_layout(attr, shape, max_elements), blank) for name, attr, blank in jobs]
    as_json = as_json or fmt == "json"
    if fmt in ("svg", "html") and not as_json:
        return _picture(fmt, converted, tensor, use_hw_view, obj["sink"](output))
    system = _color_system(color, output) if not as_json else None
    with obj["sink"](output) as write:
        from ..render import render_layout
        for name, attr, linear, blank in converted:
            if as_json:
                from ..render.json_view import render_json
                header = {"layout": str(attr), "alias": name, "shape": list(shape),
                          "view": "hardware" if use_hw_view else "tensor", "kind": attr.kind}
                render_json(linear, use_hw_view, header, write)
                continue
            head = f"#{name} = " if name is not None else ""
            write(f"Print layout attribute: {head}{attr}\n".encode())
            if system is None:
                render_layout(linear, use_hw_view, write)
            else:
                from ..render.color import colored_writer
                colored = colored_writer(linear, use_hw_view, _element_bits(linear, tensor), write, system)
                render_layout(linear, use_hw_view, colored)
                colored.close()
            if blank:
                write(b"\n")


def _color_system(mode: str, output):
    """rich's colour system for the text view, or None for plain text. auto: standard output is a terminal,
    NO_COLOR is unset or empty and TERM is not 'dumb'; checked before rich is imported."""
    if mode == "never":
        return None
    if mode == "auto":
        if output not in (None, "-") or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
            return None
        try:
            if sys.stdout is None or not sys.stdout.isatty():
                return None
        except (AttributeError, ValueError):
            return None
    from ..render.color import color_system
    return color_system(mode == "always")


def _element_bits(linear, tensor) -> int:
    """The element width shared-memory banks need (distributed layouts do not use it)."""
    return tensor.element_bits if linear.has_in_dim("offset") else 16


def _picture(fmt: str, converted, tensor, use_hw_view: bool, sink) -> None:
    """--format svg / html: every layout of the command line in one picture (or one page)."""
    layouts = [((f"#{name} = " if name is not None else "") + str(attr), linear)
               for name, attr, linear, _ in converted]
    bits = [_element_bits(linear, tensor) for _, linear in layouts]
    with sink as write:
        if fmt == "svg":
            from ..render.svg import render_svg
            render_svg(layouts, use_hw_view, bits, write)
        else:
            from ..render.html import render_html
            render_html(layouts, use_hw_view, bits, write)
