"""`ttlayout convert`: what a `ttg.convert_layout` costs, as Triton 3.9's compiler lowers it: no-op, register
permutation, warp shuffles or a round trip through shared memory, with the instructions per thread."""
from __future__ import annotations

from .. import inputs
from ..records import frozen
from . import layouts
from .hardware import TARGET, select
from .layouts import BitsRequest, Role
from .options import JSON, OUTPUT, format_option
from .output import write_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

TO_BANK = ("a convert_layout goes between distributed layouts (for register <-> shared memory costs use "
           "'ttlayout bank')")
ROLES = (Role("source", "distributed", ("-r", "--src"), "src", "src", "Source (distributed) layout, or #alias of -i.",
              legacy=("-s",), wrong_kind=TO_BANK),
         Role("destination", "distributed", ("-d", "--dst"), "dst", "dst",
              "Destination (distributed) layout, or #alias of -i.", wrong_kind=TO_BANK))
EXAMPLE = "tensor<128x256xf16>"

OPTIONS = (*layouts.options(ROLES, EXAMPLE, bits=True), TARGET, JSON,
           format_option("svg: both layouts and what moves"), OUTPUT)


@frozen
class Request(BitsRequest):
    """One `ttlayout convert` command line."""
    src: str | None = None
    dst: str | None = None
    target: str | None = None
    as_json: bool = False
    fmt: str = "text"
    output: str | None = None


def run(ctx: Context, given: Request) -> None:
    """The cost of converting a tensor from one distributed layout to another, as Triton 3.9 lowers
    ttg.convert_layout: which hardware bits move, and whether that takes no instruction, register moves, warp
    shuffles or a round trip through shared memory (scratch bytes, stores, loads, barriers, bank conflicts).

    \b
    ttlayout convert -r '#ttg.blocked<{...}>' -d '#ttg.blocked<{...}>' -t 'tensor<64x64xf32>'
    ttlayout convert -i kernel.ttgir --alias-names mma,blocked -t 'tensor<128x128xf16>' --json
    """
    from ..analysis.convert import analyze_convert
    from ..reports import convert as report
    from ..reports.builders import convert_report
    p = layouts.pick(ctx, "convert", ROLES, given, EXAMPLE, target=given.target)
    tgt = select(given.target, p.targets, ctx=ctx)
    result = analyze_convert(p.layouts[0], p.layouts[1], p.width, tgt)
    texts = (str(p.attrs[0]), str(p.attrs[1]))

    def svg(write):
        from ..render.convert_svg import render_convert_svg
        render_convert_svg(p.layouts[0], p.layouts[1], *texts, report.verdict(result), result.moves, p.width, write)
    gluon = tuple(inputs.looks_like_gluon(text) for text in (given.src, given.dst))
    blocks, json_text = convert_report(p.layouts, texts, p.tensor.shape, p.tensor.element, p.width, tgt, p.attrs,
                                       result, gluon)
    write_report(ctx, given.output, blocks, json_text, given.fmt, given.as_json, {"svg": svg})
