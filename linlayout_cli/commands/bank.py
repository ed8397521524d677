"""`ttlayout bank`: the shared-memory bank conflicts of storing a register layout to a shared layout and loading
it back, as Triton 3.9 counts them, with the report that explains the count."""
from __future__ import annotations

from . import layouts
from .hardware import TARGET, select
from .layouts import Role
from .options import JSON, OUTPUT, format_option
from .output import write_report

ROLES = (Role("register", "distributed", ("-r", "--reg"), "reg", "reg",
              "Register (distributed) layout attribute, or #alias of -i."),
         Role("shared", "shared", ("-s", "--shared"), "shared", "shared", "Shared layout attribute, or #alias of -i."))

OPTIONS = (*layouts.options(ROLES, "tensor<64x64xf16>", bits=True), TARGET, JSON,
           format_option("svg: a picture of the worst wavefront (banks across, the conflicting banks and lanes in red)"),
           OUTPUT)


def run(obj, target, as_json, fmt, output, **given):
    """Shared-memory bank conflicts of storing/loading a register layout to/from a shared layout.

    The count is Triton 3.9's get_shared_bank_conflicts (extra wavefronts per wavefront, 2^k - 1); the report
    explains it: vector width, ideal vs actual wavefronts per instruction, and which lanes of the worst
    wavefront hit which bank at which 32-bit words.

    \b
    ttlayout bank -r '#ttg.blocked<{...}>' -s '#ttg.swizzled_shared<{...}>' -t 'tensor<64x64xf16>'
    ttlayout bank -i kernel.ttgir --alias-names blocked,shared -t 'tensor<64x64xf16>' --json
    """
    from ..analysis.bank import analyze_bank
    from ..reports import bank as report
    p = layouts.pick(obj, "bank", ROLES, given, "tensor<64x64xf16>", target=target)
    result = analyze_bank(*p.layouts, p.bits, select(target, p.targets, bank=True))
    texts = (str(p.attrs[0]), str(p.attrs[1]), p.tensor.element)

    def svg(write):
        from ..render.bank_svg import render_bank_svg
        render_bank_svg(result, *texts, write)
    write_report(obj, output, lambda: report.blocks(result, *texts), lambda: report.json_text(result, *texts), fmt,
                 as_json, {"svg": svg})
