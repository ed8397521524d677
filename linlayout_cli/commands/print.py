"""`ttlayout -l ATTR -t TYPE` / `ttlayout -i FILE -t TYPE`: the tensor or hardware view, byte-identical to Triton's
triton-tensor-layout, including its LLVM-style option spellings."""
from __future__ import annotations

import re

import click

from .. import __version__, inputs
from ..errors import TTLayoutError, abbreviate

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


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-l", "layout", metavar="ATTR", help="One layout attribute, e.g. '#ttg.blocked<{...}>'.")
@click.option("-t", "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>' (required).")
@click.option("-i", "input_file", metavar="FILE", help="MLIR/TTGIR file with '#name = <attr>' aliases ('-' = stdin).")
@click.option("-o", "output", metavar="FILE", help="Write the output to FILE (atomically) instead of stdout.")
@click.option("--alias-names", "alias_names", multiple=True, metavar="A,B",
              help="Aliases (no '#') to print from the -i file, comma separated; repeatable.")
@click.option("--use-hw-view", is_flag=True, help="Print the hardware view (per block/warp/register) instead of the tensor view.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: Triton's view, byte for byte; json: the same grid as nested JSON arrays, for scripts.")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--max-elements", type=click.IntRange(min=1), default=inputs.DEFAULT_MAX_ELEMENTS, show_default=True,
              help="Refuse tensors (or hardware index spaces) with more elements than this, before allocating "
                   "anything (the default keeps the output under about 1 GB; hard limit 2^31); raise it for huge "
                   "layouts.")
@click.option("--tmem-warps", type=int, metavar="N",
              help="For a tensor memory layout: print instead the register layout tmem_load gives with N warps "
                   "(a power of two, at least 4), as Triton's get_tmem_reg_layout computes it.")
@click.option("--tmem-instr", default="32x32b", show_default=True, metavar="SHAPE",
              help="The tcgen05.ld/st message shape for --tmem-warps: 32x32b, 16x64b, 16x128b or 16x256b.")
@click.version_option(__version__, "--version", prog_name="ttlayout")
def command(layout, tensor_type, input_file, output, alias_names, use_hw_view, fmt, as_json, max_elements,
            tmem_warps, tmem_instr):
    """Print which thread/register (or shared-memory offset) holds each tensor element, exactly like Triton's
    triton-tensor-layout. Single-dash spellings (-use-hw-view, -alias-names=a,b) work too.

    Subcommands: 'ttlayout bank --help', 'ttlayout swizzle --help'."""
    obj = click.get_current_context().obj
    if not tensor_type and not layout and not input_file:
        raise TTLayoutError("nothing to do: give -l ATTR (or -i FILE) and -t TYPE; see 'ttlayout --help'")
    t = inputs.tensor(tensor_type, max_elements)
    shape = t.shape
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
    _check_tmem_instr(tmem_warps, tmem_instr)
    converted = [(name, attr, inputs.printed(attr, t, max_elements, tmem_warps, tmem_instr), blank)
                 for name, attr, blank in jobs]
    as_json = as_json or fmt == "json"
    _check_memory_views([p for _, _, p, _ in converted], tmem_warps, as_json)
    with obj["sink"](output) as write:
        from ..render import render_layout
        for name, attr, shown, blank in converted:
            if as_json:
                from ..render.json_view import render_json
                header = {"layout": str(attr), "alias": name, "shape": list(shape),
                          "view": "hardware" if use_hw_view else "tensor", "kind": attr.kind or "distributed"}
                if shown.tmem_load:
                    header["tmem_load"] = shown.tmem_load
                render_json(shown.linear, use_hw_view, header, write)
                continue
            head = f"#{name} = " if name is not None else ""
            write(f"Print layout attribute: {head}{attr}\n".encode())
            if shown.tmem_load:
                write(f"tmem_load register layout ({tmem_warps} warps, {tmem_instr}): {shown.tmem_load}\n".encode())
            if shown.view == "triton":
                render_layout(shown.linear, use_hw_view, write)
            else:
                _render_memory(shown, use_hw_view, write)
            if blank:
                write(b"\n")


def _render_memory(shown, use_hw_view: bool, write) -> None:
    from ..render import memory
    if shown.view == "tensor_memory":
        view = memory.tmem_hardware_view if use_hw_view else memory.tmem_tensor_view
        view(shown.linear, shown.element_bits, write)
    else:
        view = memory.shared_hardware_view if use_hw_view else memory.shared_tensor_view
        view(shown.linear, shown.padding, write)


def _check_tmem_instr(tmem_warps, tmem_instr: str) -> None:
    from ..conversions.tmem_registers import ATOMS
    if tmem_instr not in ATOMS:
        raise TTLayoutError(f"unknown --tmem-instr '{abbreviate(tmem_instr)}' (expected {', '.join(ATOMS)})")
    if tmem_warps is None and tmem_instr != "32x32b":
        raise TTLayoutError("--tmem-instr needs --tmem-warps N")


def _check_memory_views(shown, tmem_warps, as_json: bool) -> None:
    """--tmem-warps needs a tensor memory layout; JSON only covers Triton's own views."""
    if tmem_warps is not None and not any(p.tmem_load for p in shown):
        raise TTLayoutError("--tmem-warps applies to tensor memory layouts (#ttng.tensor_memory_encoding, "
                            "#ttng.tensor_memory_scales_encoding) only")
    if as_json and any(p.view != "triton" for p in shown):
        raise TTLayoutError("--format json covers Triton's own views only, not the padded, partitioned or tensor "
                            "memory views (the register layout of --tmem-warps is covered)")
