"""`ttlayout audit KERNEL.ttgir`: every layout decision of a real kernel (conversions, shared-memory accesses,
global loads and stores, reductions, dots) with its cost and its Python line, and the kernel's shared memory."""
from __future__ import annotations

from .. import inputs
from . import common
from .options import Arg, Opt

ARGUMENTS = (Arg("path", "FILE"),)
OPTIONS = (
    Opt(("--target",), "target", metavar="NAME",
        help="Target (sm80, sm90, sm100, gfx942, gfx950); default: the module's ttg.target."),
    Opt(("--top",), "top", type=int, minimum=1, metavar="N",
        help="Show the N costliest ops (every conversion and shared-memory access is always shown)."),
    Opt(("--json",), "as_json", "flag", help="Print one JSON object instead of the report."),
)


def run(obj, path, target, top, as_json):
    """Audit a TTGIR dump (TRITON_KERNEL_DUMP=1, MLIR_ENABLE_DUMP=1, kernel.asm["ttgir"]; '-' = stdin).

    One row per op that touches layouts, costliest first, with the Python line it comes from; then the shared
    memory the kernel needs against the target's limit. Files with several modules ('// -----') are audited
    module by module.

    \b
    ttlayout audit kernel.ttgir
    ttlayout audit kernel.ttgir --target gfx942 --top 10 --json
    """
    from ..analysis.audit import analyze_audit
    from ..reports import audit as report
    text = inputs.read_text(path, obj["stdin"])
    if target is not None:
        from ..analysis.targets import get_target
        get_target(target)
    audits = analyze_audit(inputs.modules(text), target)
    if not audits:
        from ..errors import TTLayoutError
        raise TTLayoutError(f"{'standard input' if path == '-' else path} holds no module to audit")
    shown = "standard input" if path == "-" else path
    common.emit_report(obj, report.blocks(audits, shown, top), as_json, lambda: report.json_text(audits, shown))
