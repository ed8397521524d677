"""`ttlayout info`: one layout at one shape on one screen: who holds what, spread, replication, vector width,
swizzle, bases, and the same layout as a paste-ready `#ttg.linear` and as Gluon code."""
from __future__ import annotations

from .. import inputs
from . import common
from .options import Opt

OPTIONS = (
    Opt(("-l",), "layout", metavar="ATTR", help="The layout attribute (or a Gluon constructor)."),
    common.ONE_LAYOUT_TENSOR,
    Opt(("-i",), "input_file", metavar="FILE", help="MLIR/TTGIR file holding the layout as an alias ('-' = stdin)."),
    Opt(("--alias-names",), "alias_names", "multi", metavar="NAME", help="With -i: the alias to describe."),
    Opt(("--json",), "as_json", "flag", help="Print one JSON object instead of the summary."),
)


def run(obj, layout, tensor_type, input_file, alias_names, as_json):
    """Summarise one layout at one tensor shape.

    \b
    ttlayout info -l '#ttg.blocked<{...}>' -t 'tensor<128x256xf16>'
    ttlayout info -i kernel.ttgir --alias-names mma -t 'tensor<128x256xf16>' --json
    """
    from ..analysis.info import analyze_info
    from ..reports import info as report
    t = inputs.tensor(tensor_type)
    attr = common.one_layout(obj, layout, input_file, alias_names, "info", t)
    ll = inputs.linear_layout(attr, t.shape)
    result = analyze_info(attr, ll, t.shape, t.element, t.element_bits)
    common.emit_report(obj, report.blocks(result), as_json, lambda: report.json_text(result))
