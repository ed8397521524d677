"""`ttlayout audit KERNEL.ttgir`: every layout decision of a real kernel (conversions, shared-memory accesses,
global loads and stores, reductions, dots) with its cost and its Python line, and the kernel's shared memory."""
from __future__ import annotations

from .. import inputs
from ..errors import TTLayoutError
from .hardware import TARGET, check_named, select
from .options import JSON, OUTPUT, Arg, Opt
from .output import write_report

ARGUMENTS = (Arg("path", "FILE"),)
OPTIONS = (
    TARGET,
    Opt(("--top",), "top", type=int, minimum=1, metavar="N",
        help="Show the N costliest ops (every conversion and shared-memory access is always shown)."),
    Opt(("--asm",), "asm", metavar="FILE", help="The kernel's PTX or AMDGCN (default: NAME.ptx / NAME.amdgcn beside "
        "NAME.ttgir): a column of its instructions per Python line beside the model's."),
    JSON, OUTPUT,
)


def run(obj, path, target, top, asm, as_json, output):
    """Audit a TTGIR dump (TRITON_KERNEL_DUMP=1, MLIR_ENABLE_DUMP=1, kernel.asm["ttgir"]; '-' = stdin).

    One row per op that touches layouts, costliest first, with the Python line it comes from; then the shared
    memory the kernel needs against the target's limit. Files with several modules ('// -----') are audited
    module by module, each on its own ttg.target unless --target is given.

    \b
    ttlayout audit kernel.ttgir
    ttlayout audit kernel.ttgir --target gfx942 --top 10 --json -o audit.json
    ttlayout audit ~/.triton/cache/HASH/kernel.ttgir --asm kernel.ptx
    """
    from ..analysis.audit import analyze_audit
    from ..reports import audit as report
    text = inputs.read_text(path, obj["stdin"])
    if target is not None:
        target = select(target).name
    for named in inputs.module_targets(text) if target is None else ():
        check_named(named)
    several = inputs.several_modules(text)
    audits = analyze_audit(inputs.modules(text), target, several)
    shown = "standard input" if path == "-" else path
    if not audits:
        raise TTLayoutError(f"{shown} holds no module to audit")
    listing = inputs.assembly(path, asm, obj["stdin"], several)
    columns = None
    if listing is not None:
        from ..analysis.asm import kernel_asm
        columns = [kernel_asm(m, listing) for m in audits]
    write_report(obj, output, lambda: report.blocks(audits, shown, top, columns),
                 lambda: report.json_text(audits, shown, columns), as_json=as_json)
