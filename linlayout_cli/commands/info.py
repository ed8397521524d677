"""`ttlayout info`: one layout at one shape on one screen: who holds what, spread, replication, vector width,
swizzle, bases, and the same layout as a paste-ready `#ttg.linear` and as Gluon code."""
from __future__ import annotations

from ..records import frozen
from . import layouts
from .layouts import LayoutRequest, Role
from .options import JSON, OUTPUT
from .output import write_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

ROLES = (Role("layout", None, ("-l",), "layout", "name", "The layout attribute (or a Gluon constructor).", memory=True),)
OPTIONS = (*layouts.options(ROLES, "tensor<128x256xf16>"), JSON, OUTPUT)


@frozen
class Request(LayoutRequest):
    """One `ttlayout info` command line."""
    layout: str | None = None
    as_json: bool = False
    output: str | None = None


def run(ctx: Context, given: Request) -> None:
    """Summarise one layout at one tensor shape.

    \b
    ttlayout info -l '#ttg.blocked<{...}>' -t 'tensor<128x256xf16>'
    ttlayout info -i kernel.ttgir --alias-names mma -t 'tensor<128x256xf16>' --json
    """
    from ..analysis.info import analyze_info
    from ..reports import info as report
    p = layouts.pick(ctx, "info", ROLES, given)
    t = p.tensor
    padding = p.paddings[0] if p.paddings else None
    result = analyze_info(p.attrs[0], p.layouts[0], t.shape, t.element, t.element_bits, padding)
    if p.headers:                                   # --triton X.Y: the attribute as that release writes it
        from ..records import replace
        result = replace(result, attr=p.header(0))
    write_report(ctx, given.output, lambda: report.blocks(result), lambda: report.json_text(result),
                 as_json=given.as_json)
