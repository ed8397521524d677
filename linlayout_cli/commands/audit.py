"""`ttlayout audit KERNEL.ttgir`: every layout decision of a real kernel (conversions, shared-memory accesses,
global loads and stores, reductions, dots) with its cost, what it wastes and its Python line, and the kernel's
shared memory; `--line N` / `--op ID`: the full report of one op. `ttlayout audit DIR... | --cache [DIR]`: every
kernel found there, one row each, ranked."""
from __future__ import annotations

from .. import inputs, sources
from ..errors import TTLayoutError
from ..records import frozen
from .hardware import TARGET, check_named, override_note, select
from .options import JSON, OUTPUT, Arg, Opt, format_option
from .output import Buffered, Progress, Streamed, width, write_report, write_result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..analysis.targets import Target
    from . import Context

ARGUMENTS = (Arg("paths", "PATH...", required=False, many=True),)
CACHE = Opt(("--cache",), "cache", "flag", help="Audit Triton's cache: the directories given, else $TRITON_CACHE_DIR "
            "(else ~/.triton/cache). Each kernel's NAME.json gives its target, warps and the compiler's shared bytes.")
FORMAT = format_option("html: one page, the kernels in a sortable table, a click lists a kernel's ops")
JOBS = Opt(("-j", "--jobs"), "jobs", type=int, minimum=1, metavar="N",
           help="Audit N kernels at a time (default: one per processor).")
OPTIONS = (
    TARGET,
    Opt(("--top",), "top", type=int, minimum=1, metavar="N",
        help="Show the N ops that waste most (every conversion and shared-memory access is always shown); over "
             "many kernels, the N costliest ops across them (default 10)."),
    Opt(("--pass",), "pass_name", metavar="NAME|N",
        help="Which module of an MLIR_ENABLE_DUMP capture to audit ('list': list them, numbered): part of a pass "
             "name ('Coalesce', 'RemoveLayoutConversions'), or its number (also a module of a '// -----' file). Default: the last "
             "TTGIR module (the input of ConvertTritonGPUToLLVM); a file without pass headers: every module."),
    Opt(("--line",), "line", type=int, minimum=1, metavar="N",
        help="The full report of the op at line N of the file: `convert`'s for a convert_layout, `bank`'s for a "
             "shared-memory access (layouts, shape, bit width and target from the dump), every fact for another."),
    Opt(("--op",), "op", metavar="ID",
        help="Like --line, for the op defining SSA value ID ('%42', '%x_19'), or the ID-th row in dump order."),
    Opt(("--wide",), "wide", "flag",
        help="Rows in full: the long verdicts and the layouts as the dump writes them, never cut."),
    Opt(("--asm",), "asm", metavar="FILE", help="The kernel's PTX or AMDGCN (default: NAME.ptx / NAME.amdgcn beside "
        "NAME.ttgir, as Triton's cache keeps them): a column of its instructions per Python line beside the model's."),
    CACHE,
    FORMAT,
    JOBS,
    JSON, OUTPUT,
)

# the options that look at one file only
_ONE_FILE = (("--pass", "pass_name"), ("--line", "line"), ("--op", "op"), ("--wide", "wide"), ("--asm", "asm"))


@frozen
class Request:
    """One `ttlayout audit` command line."""
    paths: tuple[str, ...] = ()
    target: str | None = None
    top: int | None = None
    pass_name: str | None = None
    line: int | None = None
    op: str | None = None
    wide: bool = False
    asm: str | None = None
    cache: bool = False
    fmt: str = "text"
    jobs: int | None = None
    as_json: bool = False
    output: str | None = None


def run(ctx: Context, given: Request) -> int | None:
    """Audit a TTGIR dump (TRITON_KERNEL_DUMP=1, MLIR_ENABLE_DUMP=1, kernel.asm["ttgir"]; '-' = stdin), or every
    kernel in directories and Triton's cache.

    One row per op that touches layouts, most waste first (waste = cost above the op's ideal, in the weighted
    cost per thread advise ranks by; 'ttlayout help audit-model'), with the Python line it comes from and what limits its vector; the
    layouts in full below the table; then the shared memory the kernel needs against the target's limit. Files
    with several modules ('// -----') are audited module by module, each on its own ttg.target unless --target is
    given; an MLIR_ENABLE_DUMP capture is audited at its last TTGIR module (--pass picks another).

    Directories are searched for *.ttgir; each kernel is a row, ranked by layout cost, with its costliest op,
    conversions and shared bytes beside the compiler's (NAME.json), then the costliest ops across all of them.
    A kernel that cannot be audited is listed with the reason, and the exit status is 1.

    \b
    ttlayout audit kernel.ttgir
    ttlayout audit mlir_dump.txt --pass RemoveLayoutConversions --top 10
    ttlayout audit kernel.ttgir --line 119
    ttlayout audit ~/.triton/cache/HASH/kernel.ttgir --asm kernel.ptx
    ttlayout audit kernel.ttgir --target gfx942 --json -o audit.json
    ttlayout audit --cache                       # $TRITON_CACHE_DIR or ~/.triton/cache
    ttlayout audit --cache DIR --format html -o kernels.html

    The text report ends with the 'ttlayout advise' command for the (costliest) kernel.
    """
    paths, fmt = given.paths, given.fmt
    if not paths and not given.cache:
        raise TTLayoutError("give a TTGIR file ('-' = stdin), directories of kernels, or --cache")
    target = select(given.target) if given.target is not None else None     # resolved once
    if not given.cache and len(paths) == 1 and fmt != "html" and not sources.is_directory(paths[0]):
        _one_file(ctx, paths[0], target, given)
        return None
    one_file = [flag for flag, name in _ONE_FILE if getattr(given, name) not in (None, False)]
    if one_file:
        raise TTLayoutError(f"{one_file[0]} looks at one file; it does not apply to directories or --cache")
    return _many(ctx, paths, target, given)


def _one_file(ctx: Context, path: str, target: Target | None, given: Request) -> None:
    from ..analysis.audit import analyze_audit
    pass_name, line, op, output = given.pass_name, given.line, given.op, given.output
    as_json = given.as_json or given.fmt == "json"
    from ..reports import audit as report
    text = inputs.kernel_text(path, ctx.stdin)
    if line is not None and op is not None:
        raise TTLayoutError("give one op: --line N or --op ID, not both")
    for named in inputs.module_targets(text) if target is None else ():
        check_named(named)
    shown = "standard input" if path == "-" else path
    if pass_name == "list":
        _list_passes(ctx, text, shown, as_json, output)
        return
    only, notes, extra = _modules(text, pass_name, line, op is not None, shown)
    audits = analyze_audit(inputs.modules(text, only), target, len(only or ()) > 1 or
                           (only is None and inputs.several_modules(text)))
    if not audits:
        raise TTLayoutError(f"{shown} holds no module to audit")
    if target is not None:                       # (after the analysis: an error stays the one line)
        override_note(ctx, target, inputs.module_targets(text))
    if line is not None or op is not None:
        _one_op(ctx, text, only, audits[0], line, op, shown, as_json, output, _pass_title(text, only))
        return
    listing = inputs.assembly(path, given.asm, ctx.stdin, len(audits) > 1, text)
    columns = sources.asm_columns(audits, listing)
    command = report.advise_command(path, target=target.name if target is not None else None)
    write_report(ctx, output, lambda: report.blocks(audits, shown, given.top, given.wide, notes, asm=columns,
                                                    advise=command),
                 Streamed(lambda write: _json_stream(report, write, audits, shown,
                                                     {**extra, "advise_command": command}, columns)),
                 as_json=as_json)


def _json_stream(report, write, audits, shown: str, extra: dict, columns) -> None:
    """The audit's JSON written to the sink as it is made (a huge function's rows are never held)."""
    with Buffered(write) as put:
        report.json_stream(audits, shown, put, extra, columns)


def _modules(text: str, pass_name, line, one: bool, shown: str):
    """(the section numbers to audit, or None for all; lines under the title; JSON fields): --line's section,
    --pass's, a dump's last TTGIR module, or every module of another file (one only, for --op)."""
    found = inputs.file_sections(text)
    dump = inputs.is_dump(found)
    extra = {"passes": [{"number": s.number, "dump": s.title(), "line": s.first_line} for s in found]} if dump else {}
    if line is not None:
        chosen = inputs.section_at_line(found, line)
        if pass_name is not None and inputs.pick_section(found, pass_name, "--pass") != chosen:
            raise TTLayoutError(f"--line {line} is in module {chosen.number}, not in the one --pass names")
        return {chosen.number}, (), extra
    if pass_name is not None:
        chosen = inputs.pick_section(found, pass_name, "--pass")
        if dump and not inputs.section_is_ttgir(text, chosen):
            return {chosen.number}, ("not TTGIR: a module before ConvertTritonToTritonGPU has no layouts yet, one "
                                     "after ConvertTritonGPUToLLVM none any more",), extra
        return {chosen.number}, (), extra
    if dump:
        chosen = inputs.last_ttgir(text, found)
        if chosen is None:
            raise TTLayoutError(f"{shown} is an MLIR_ENABLE_DUMP capture of {len(found)} modules, none of them TTGIR "
                                "(no module carries ttg.num-warps and a tt.func); give --pass NAME to audit one")
        note = (f"the last TTGIR module of the {len(found)} in the dump (the input of the lowering to LLVM); "
                "--pass NAME picks another")
        return {chosen.number}, (note,), extra
    if one and len(found) > 1:
        raise TTLayoutError(f"{shown} holds {len(found)} modules; --op looks in one: give --pass N (1 to "
                            f"{len(found)}), or --line N")
    return None, (), extra


def _list_passes(ctx: Context, text: str, shown: str, as_json: bool, output) -> None:
    """`--pass list`: the modules of the file (an MLIR_ENABLE_DUMP capture's passes), numbered as --pass takes
    them, which are TTGIR, and the one audited by default."""
    from ..reports.passes import passes_blocks, passes_json
    found = inputs.file_sections(text)
    ttgir = [inputs.section_is_ttgir(text, s) for s in found]
    default = inputs.last_ttgir(text, found) if inputs.is_dump(found) else None
    write_report(ctx, output, lambda: passes_blocks(shown, found, ttgir, default),
                 lambda: passes_json(found, ttgir, default), as_json=as_json)


def _pass_title(text: str, only) -> str | None:
    """The pass of the one module audited, for a dump ('IR Dump Before ConvertTritonGPUToLLVM'); None otherwise."""
    found = inputs.file_sections(text)
    if not only or len(only) != 1 or not inputs.is_dump(found):
        return None
    number = next(iter(only))
    return next((s.title() for s in found if s.number == number), None)


def _one_op(ctx: Context, text: str, only, audit, line, op, shown: str, as_json: bool, output,
            pass_title: str | None = None) -> None:
    """`--line N` / `--op ID`: the op's `convert` or `bank` report, built from the dump's layouts, shape, bit
    width and target as `ttlayout convert` / `ttlayout bank` build it; the full facts of any other row."""
    from ..analysis.audit import find_row, op_layouts
    from ..reports import audit as report
    module = next(iter(inputs.modules(text, only or {1})))
    f = find_row(audit, module, line=line, ident=op)
    title = f"ttlayout audit {shown} --line {f.line}: {f.op} at {report.where(f)}, {audit.target.name}" + (
        f", in {pass_title}" if pass_title else "")
    picked = op_layouts(module, f, audit.target)
    if picked is None:
        import json
        write_report(ctx, output, lambda: report.facts_blocks(f, title),
                     lambda: json.dumps(report.finding_json(f), indent=2) + "\n", as_json=as_json)
        return
    from ..reports.builders import bank_report, convert_report
    if picked.kind == "convert":
        attrs = tuple(inputs.attribute(t) for t in picked.texts)
        blocks, json_text = convert_report(picked.layouts, picked.texts, picked.shape, picked.element, picked.bits,
                                           picked.target, attrs)
    else:
        blocks, json_text = bank_report(picked.layouts, picked.texts, picked.element, picked.bits, picked.target)
    from ..reports.blocks import line as text_line
    write_report(ctx, output, lambda: [text_line(title, "bold")] + blocks(), json_text, as_json=as_json)


def _many(ctx: Context, paths: tuple[str, ...], target: Target | None, given: Request) -> int:
    """Every kernel of the paths (or of the cache), audited in parallel; 1 when one could not be audited."""
    from ..analysis.kernels import KernelFailure
    from ..reports import kernels as report
    from ..reports.blocks import to_rich, to_text
    cache, top, fmt, as_json = given.cache, given.top, given.fmt, given.as_json
    kernels, failures, where = sources.kernels_of(paths, cache, "audit")
    keep = None if as_json or fmt != "text" else (top or report.DEFAULT_TOP)
    with Progress(ctx.stderr, "auditing") as progress:
        results = failures + sources.audit_kernels(kernels, target, keep, given.jobs, progress)

    def html(write):
        from ..render.kernels import page
        write(page(results, where).encode("utf-8"))

    def json(write):
        for chunk in report.json_chunks(results, top):
            write(chunk.encode("utf-8"))

    command = report.advise_line(results, paths if cache else None, target.name if target is not None else None)

    def text(write):
        write(to_text(report.blocks(results, where, top, command)).encode("utf-8"))
    write_result(ctx, given.output, text, json, fmt, as_json, {"html": html},
                 rich=lambda: to_rich(report.blocks(results, where, top, command), width()))
    return 1 if any(isinstance(r, KernelFailure) for r in results) else 0
