"""`ttlayout audit KERNEL.ttgir`: every layout decision of a real kernel (conversions, shared-memory accesses,
global loads and stores, reductions, dots) with its cost and its Python line, and the kernel's shared memory.
`ttlayout audit DIR... | --cache [DIR]`: every kernel found there, one row each, ranked."""
from __future__ import annotations

from .. import inputs, sources
from ..errors import TTLayoutError, abbreviate_path
from .hardware import TARGET, check_named, select
from .options import JSON, OUTPUT, Arg, Opt, format_option
from .output import Progress, width, write_report, write_result

ARGUMENTS = (Arg("paths", "PATH...", required=False, many=True),)
CACHE = Opt(("--cache",), "cache", "flag", help="Audit Triton's cache: the directories given, else $TRITON_CACHE_DIR "
            "(else ~/.triton/cache). Each kernel's NAME.json gives its target, warps and the compiler's shared bytes.")
FORMAT = format_option("html: one page, the kernels in a sortable table, a click lists a kernel's ops")
JOBS = Opt(("-j", "--jobs"), "jobs", type=int, minimum=1, metavar="N",
           help="Audit N kernels at a time (default: one per processor).")
OPTIONS = (
    TARGET,
    Opt(("--top",), "top", type=int, minimum=1, metavar="N",
        help="Show the N costliest ops (every conversion and shared-memory access is always shown); over many "
             "kernels, the N costliest ops across them (default 10)."),
    CACHE,
    FORMAT,
    JOBS,
    JSON, OUTPUT,
)


def run(obj, paths, target, top, cache, fmt, jobs, as_json, output):
    """Audit a TTGIR dump (TRITON_KERNEL_DUMP=1, MLIR_ENABLE_DUMP=1, kernel.asm["ttgir"]; '-' = stdin), or every
    kernel in directories and Triton's cache.

    One row per op that touches layouts, costliest first, with the Python line it comes from; then the shared
    memory the kernel needs against the target's limit. Files with several modules ('// -----') are audited
    module by module, each on its own ttg.target unless --target is given.

    Directories are searched for *.ttgir; each kernel is a row, ranked by layout cost, with its costliest op,
    conversions and shared bytes beside the compiler's (NAME.json), then the costliest ops across all of them.
    A kernel that cannot be audited is listed with the reason, and the exit status is 1.

    \b
    ttlayout audit kernel.ttgir
    ttlayout audit kernel.ttgir --target gfx942 --top 10 --json -o audit.json
    ttlayout audit --cache                       # $TRITON_CACHE_DIR or ~/.triton/cache
    ttlayout audit --cache DIR --format html -o kernels.html
    """
    if not paths and not cache:
        raise TTLayoutError("give a TTGIR file ('-' = stdin), directories of kernels, or --cache")
    if target is not None:
        target = select(target).name
    if not cache and len(paths) == 1 and fmt != "html" and not sources.is_directory(paths[0]):
        return _one_file(obj, paths[0], target, top, as_json or fmt == "json", output)
    return _many(obj, paths, cache, target, top, fmt, jobs, as_json, output)


def _one_file(obj, path, target, top, as_json, output):
    from ..analysis.audit import analyze_audit
    from ..reports import audit as report
    if path != "-":
        error = sources.artifact_error(path)
        if error is not None:
            raise TTLayoutError(error)
    text = inputs.read_text(path, obj["stdin"])
    for named in inputs.module_targets(text) if target is None else ():
        check_named(named)
    audits = analyze_audit(inputs.modules(text), target, inputs.several_modules(text))
    shown = "standard input" if path == "-" else path
    if not audits:
        raise TTLayoutError(f"{shown} holds no module to audit")
    write_report(obj, output, lambda: report.blocks(audits, shown, top), lambda: report.json_text(audits, shown),
                 as_json=as_json)


def _many(obj, paths, cache, target, top, fmt, jobs, as_json, output) -> int:
    """Every kernel of the paths (or of the cache), audited in parallel; 1 when one could not be audited."""
    from ..analysis.kernels import KernelFailure
    from ..reports import kernels as report
    from ..reports.blocks import to_rich, to_text
    if "-" in paths:
        raise TTLayoutError("standard input ('-') is one file: give it alone, not with directories or --cache")
    if cache and not paths:
        paths = (sources.default_cache(),)
        if not sources.is_directory(paths[0]):
            raise TTLayoutError(f"no Triton cache at {abbreviate_path(paths[0])} (set TRITON_CACHE_DIR, or give "
                                "the directory: ttlayout audit --cache DIR)")
    where = ", ".join(abbreviate_path(p, 60) for p in paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3
                                                                    else "")
    kernels, failures = sources.find_kernels(paths)
    if not kernels and not failures:
        raise TTLayoutError(f"no kernel in {where}: no *.ttgir file below it")
    keep = None if as_json or fmt != "text" else (top or report.DEFAULT_TOP)
    with Progress(obj["stderr"], "auditing") as progress:
        results = failures + sources.audit_kernels(kernels, target, keep, jobs, progress)

    def html(write):
        from ..render.kernels import page
        write(page(results, where).encode("utf-8"))

    def json(write):
        for chunk in report.json_chunks(results, top):
            write(chunk.encode("utf-8"))

    def text(write):
        write(to_text(report.blocks(results, where, top)).encode("utf-8"))
    write_result(obj, output, text, json, fmt, as_json, {"html": html},
                 rich=lambda: to_rich(report.blocks(results, where, top), width()))
    return 1 if any(isinstance(r, KernelFailure) for r in results) else 0
