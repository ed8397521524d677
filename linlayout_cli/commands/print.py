"""`ttlayout -l ATTR -t TYPE` / `ttlayout -i FILE -t TYPE`: the tensor or hardware view, byte-identical to Triton's
triton-tensor-layout, including its LLVM-style option spellings. The work is `printing.print_layouts`."""
from __future__ import annotations

import click

from .. import __version__
from .group import single_option
from .printing import COLORS, DEFAULTS, FORMATS, normalize_argv, print_layouts  # noqa: F401  (normalize_argv: group)


@click.command("print", context_settings={"help_option_names": ["-h", "--help"]})
@single_option("-l", "layout", metavar="ATTR", help="One layout attribute, e.g. '#ttg.blocked<{...}>' (a whole alias "
              "line '#name = <attr> loc(...)' copied from a dump works too).")
@single_option("-t", "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>', or a '!ttg.memdesc<...>'; "
              "an encoding written in it is the layout when -l is not given. Without -t, -i prints each alias at the "
              "shapes the file uses it with.")
@single_option("-i", "input_file", metavar="FILE",
              help="MLIR/TTGIR file with '#name = <attr>' aliases ('-' = stdin).")
@single_option("-o", "output", metavar="FILE",
              help="Write the output to FILE (atomically) instead of stdout ('-' = stdout).")
@click.option("--alias-names", "alias_names", multiple=True, metavar="A,B",
              help="Aliases (with or without '#') to print from the -i file, comma separated; repeatable.")
@click.option("--use-hw-view", is_flag=True, help="Print the hardware view (per block/warp/register) instead of the tensor view.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=DEFAULTS["fmt"], show_default=True,
              help="text: Triton's view, byte for byte; json: the same grid as nested JSON arrays, for scripts; "
                   "svg: a picture (cells coloured by warp and lane, or by bank); html: one self-contained "
                   "interactive page (hover, click a thread, search, tensor/hardware switch).")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--color", "color", type=click.Choice(COLORS), default=DEFAULTS["color"], show_default=True,
              help="Colour the text view by warp and lane (shared layouts: by bank), replicated cells underlined; "
                   "auto: only on a terminal, and not when NO_COLOR is set. The text itself never changes.")
@click.option("--max-elements", type=click.IntRange(min=1), default=DEFAULTS["max_elements"], show_default=True,
              help="Refuse tensors (or hardware index spaces) with more elements than this, before allocating "
                   "anything (the default keeps the output under about 1 GB; hard limit 2^31); raise it for huge "
                   "layouts.")
@click.option("--tmem-warps", type=int, metavar="N",
              help="For a tensor memory layout: print instead the register layout tmem_load gives with N warps "
                   "(a power of two, at least 4), as Triton's get_tmem_reg_layout computes it.")
@click.option("--tmem-instr", default=DEFAULTS["tmem_instr"], show_default=True, metavar="SHAPE",
              help="The tcgen05.ld/st message shape for --tmem-warps: 32x32b, 16x64b, 16x128b or 16x256b.")
@click.version_option(__version__, "--version", prog_name="ttlayout")
def command(**options):
    """Print which thread/register (or shared-memory offset) holds each tensor element, exactly like Triton's
    triton-tensor-layout. Single-dash spellings (-use-hw-view, -alias-names=a,b) work too.

    The command name may be left out: 'ttlayout -l ATTR -t TYPE' is 'ttlayout print -l ATTR -t TYPE'."""
    code = print_layouts(click.get_current_context().obj, **options)
    if code:
        raise click.exceptions.Exit(code)
