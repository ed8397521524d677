"""`ttlayout -l ATTR -t TYPE` / `ttlayout -i FILE -t TYPE`: the tensor or hardware view, byte-identical to Triton's
triton-tensor-layout, including its LLVM-style option spellings."""
from __future__ import annotations

import re

import click

from .. import __version__, inputs
from ..errors import TTLayoutError, abbreviate
from . import single_option

_VALUE_OPTS = {"t": "-t", "l": "-l", "i": "-i", "o": "-o", "alias-names": "--alias-names",
               "max-elements": "--max-elements"}


def normalize_argv(argv: list[str]) -> list[str]:
    """Accept triton-tensor-layout's LLVM spellings: -use-hw-view[=bool], -alias-names=a,b, -t=X, --t X."""
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


@click.command("print", context_settings={"help_option_names": ["-h", "--help"]})
@single_option("-l", "layout", metavar="ATTR", help="One layout attribute, e.g. '#ttg.blocked<{...}>' (a whole alias "
              "line '#name = <attr> loc(...)' copied from a dump works too).")
@single_option("-t", "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>' (required), or a "
              "'!ttg.memdesc<...>'; an encoding written in it is the layout when -l is not given.")
@single_option("-i", "input_file", metavar="FILE",
              help="MLIR/TTGIR file with '#name = <attr>' aliases ('-' = stdin).")
@single_option("-o", "output", metavar="FILE",
              help="Write the output to FILE (atomically) instead of stdout ('-' = stdout).")
@click.option("--alias-names", "alias_names", multiple=True, metavar="A,B",
              help="Aliases (with or without '#') to print from the -i file, comma separated; repeatable.")
@click.option("--use-hw-view", is_flag=True, help="Print the hardware view (per block/warp/register) instead of the tensor view.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: Triton's view, byte for byte; json: the same grid as nested JSON arrays, for scripts.")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--max-elements", type=click.IntRange(min=1), default=inputs.DEFAULT_MAX_ELEMENTS, show_default=True,
              help="Refuse tensors (or hardware index spaces) with more elements than this, before allocating "
                   "anything (the default keeps the output under about 1 GB; hard limit 2^31); raise it for huge "
                   "layouts.")
@click.version_option(__version__, "--version", prog_name="ttlayout")
def command(layout, tensor_type, input_file, output, alias_names, use_hw_view, fmt, as_json, max_elements):
    """Print which thread/register (or shared-memory offset) holds each tensor element, exactly like Triton's
    triton-tensor-layout. Single-dash spellings (-use-hw-view, -alias-names=a,b) work too.

    The command name may be left out: 'ttlayout -l ATTR -t TYPE' is 'ttlayout print -l ATTR -t TYPE'."""
    obj = click.get_current_context().obj
    if not layout and not input_file and not tensor_type:
        raise TTLayoutError("nothing to do: give -l ATTR (or -i FILE) and -t TYPE; see 'ttlayout --help'")
    if alias_names and not input_file:
        raise TTLayoutError("--alias-names picks aliases of an -i FILE, but no -i was given")
    t = inputs.tensor(tensor_type, max_elements)
    shape = t.shape
    if not layout and not input_file and t.encoding is None:
        raise TTLayoutError("nothing to print: -t gives the shape, but no layout was given (-l ATTR, -i FILE, or an "
                            "encoding in -t such as tensor<16x16xf16, #ttg.blocked<...>>)")
    table = inputs.alias_table(input_file, obj["stdin"]) if input_file else None
    names = inputs.split_names(alias_names)
    inline = inputs.inline_layout(t, table, required=not layout and not names)
    jobs = []                                    # (alias name or None, layout, trailing blank line)
    if names:
        jobs += [(name[1:] if name.startswith("#") else name, inputs.named(table, name), True) for name in names]
    elif inline is not None and not layout:
        jobs.append((inline[0], inline[1], inline[0] is not None))
    elif input_file:
        jobs += [(d.name, d.attr, False) for d in table.layouts()]
        if not jobs and not layout:
            raise TTLayoutError(f"{'standard input' if input_file == '-' else abbreviate(input_file)} holds no "
                                "layout alias ('#name = #ttg.<layout><...>'); nothing to print")
    if layout:
        attr = inputs.attribute(layout, table)
        if inline is not None:
            inputs.check_same_layout(attr, inline[1])
        jobs.append((None, attr, False))
    converted = [(name, attr, inputs.linear_layout(attr, shape, max_elements), blank) for name, attr, blank in jobs]
    as_json = as_json or fmt == "json"
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
            render_layout(linear, use_hw_view, write)
            if blank:
                write(b"\n")
