"""`ttlayout advise KERNEL.ttgir`: the layout changes that make a kernel cheaper, priced on the whole kernel by the
audit model, best first; `--write FILE` writes the dump with the chosen change applied (only the alias definitions
differ). `ttlayout advise DIR... | --cache [DIR] [NAME@HASH...] --top N`: the same for the N kernels `audit` ranks
costliest there (or the ones named by their `audit --cache` labels)."""
from __future__ import annotations

import os

from .. import inputs, sources
from ..errors import TTLayoutError, abbreviate_path
from ..outfile import check_name
from ..records import frozen
from .hardware import TARGET, check_named, override_note, select
from .options import JSON, OUTPUT, Arg, Opt
from .output import Progress, same_file, write_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

ARGUMENTS = (Arg("paths", "PATH...", required=False, many=True),)
OPTIONS = (
    TARGET,
    Opt(("--cache",), "cache", "flag", help="Advise on kernels of Triton's cache: the directories given, else "
        "$TRITON_CACHE_DIR (else ~/.triton/cache); NAME@HASH picks a kernel as 'ttlayout audit --cache' labels it."),
    Opt(("--top",), "top", type=int, minimum=1, metavar="N",
        help="Over directories or a cache: advice for the N kernels 'ttlayout audit' ranks costliest (default 1; "
             "every kernel named by NAME@HASH when some are)."),
    Opt(("-j", "--jobs"), "jobs", type=int, minimum=1, metavar="N",
        help="Audit N kernels at a time to rank them (default: one per processor)."),
    Opt(("--write",), "write", metavar="FILE",
        help="Write the dump with the chosen change applied (only the changed alias definitions differ; never the "
             "input file)."),
    Opt(("--write-dir",), "write_dir", metavar="DIR",
        help="Write the changed dump into DIR under the input's file name (for several kernels)."),
    Opt(("--change",), "change", type=int, minimum=1, metavar="N",
        help="Which change --write applies: the N-th of the report (default 1, the best)."),
    JSON, OUTPUT,
)


def read_kernels(path: str, ctx: Context) -> tuple[str, str]:
    """(the dump's text, the name it is shown by): the one input step of `advise` (a file or '-')."""
    text = inputs.kernel_text(path, ctx.stdin)
    return text, "standard input" if path == "-" else path


@frozen
class Request:
    """One `ttlayout advise` command line."""
    paths: tuple[str, ...] = ()
    target: str | None = None
    cache: bool = False
    top: int | None = None
    jobs: int | None = None
    write: str | None = None
    write_dir: str | None = None
    change: int | None = None
    as_json: bool = False
    output: str | None = None


def run(ctx: Context, given: Request) -> None:
    """Propose layout changes that lower a kernel's cost (a TTGIR dump; '-' = stdin).

    For every layout alias, alternatives that every op using it accepts are priced on the whole kernel with the
    audit model; the changes that lower the cost are shown best first, with the ops they touch, the kernel's
    instruction counts and shared memory before and after, and the trade-offs. --write FILE writes the dump with
    the best change (or --change N) applied: TRITON_KERNEL_OVERRIDE=1 runs it, and the Gluon line carries it into
    a Gluon kernel (README, "advise").

    Over directories or Triton's cache (--cache [DIR]), the kernels are ranked as 'ttlayout audit' ranks them
    and the N costliest advised on (--top N, default 1); NAME@HASH (as 'ttlayout audit --cache' prints it)
    names a kernel of the cache.

    \b
    ttlayout advise kernel.ttgir
    ttlayout advise kernel.ttgir --write patched.ttgir --json -o advice.json
    ttlayout advise --cache --top 3 --write-dir patched/
    ttlayout advise --cache DIR softmax@VEI3L42R
    """
    write, write_dir = given.write, given.write_dir
    if write is not None and write_dir is not None:
        raise TTLayoutError("give --write or --write-dir, not both")
    for flag, value in (("--write", write), ("--write-dir", write_dir), ("-o", given.output)):
        if value == "":
            raise TTLayoutError(f"{flag} is empty; give a {'directory' if flag == '--write-dir' else 'file'} name")
    if write is not None:                    # refused before the analysis, whether or not a change is found
        check_name(write)
        if os.path.isdir(write):
            raise TTLayoutError(f"--write {abbreviate_path(write)} is a directory; give a file name (or --write-dir)")
    if write_dir is not None and os.path.exists(write_dir) and not os.path.isdir(write_dir):
        raise TTLayoutError(f"--write-dir {abbreviate_path(write_dir)} is not a directory")
    paths = given.paths
    if not paths and not given.cache:
        raise TTLayoutError("give a TTGIR file ('-' = stdin), directories of kernels, or --cache [DIR] [NAME@HASH]")
    if (given.cache or len(paths) != 1 or sources.is_directory(paths[0]) or sources.is_label(paths[0])):
        _many(ctx, given)
        return
    if given.top is not None:
        raise TTLayoutError("--top ranks the kernels of directories or a cache; one file is advised on whole")
    _one(ctx, given, paths[0])


def _one(ctx: Context, given: Request, path: str) -> None:
    """One TTGIR file (or standard input): its advice, and the changed dump (--write, --write-dir)."""
    from ..analysis.advise import analyze_advise
    from ..reports import advise as report
    target, write, write_dir, change = given.target, given.write, given.write_dir, given.change
    text, shown = read_kernels(path, ctx)
    tgt = select(target) if target is not None else None      # resolved once; analysis takes the Target
    for named in inputs.module_targets(text) if tgt is None else ():
        check_named(named)
    advice = analyze_advise(inputs.modules(text), tgt)
    if tgt is not None and advice:            # (after the analysis: an error stays the one line)
        override_note(ctx, tgt, inputs.module_targets(text))
    if not advice:
        raise TTLayoutError(f"{shown} holds no module to advise on")
    pick = (change or 1) - 1
    chosen = {a.index: {c.alias: c.after for c in a.changes[pick].aliases} for a in advice if len(a.changes) > pick}
    if change and not chosen:
        raise TTLayoutError(f"--change {change}: no module has {change} change(s)")
    destination = write if write is not None else (os.path.join(write_dir, _file_name(path, advice))
                                                   if write_dir else None)
    output = given.output
    if destination is not None and output is not None and output != "-" and same_file(destination, output):
        raise TTLayoutError(f"--write and -o name the same file ({abbreviate_path(output)}): the report would "
                            "replace the changed dump; give each its own file")
    if destination is not None and chosen:
        patched = inputs.replace_aliases(text, chosen)
        with ctx.sink(destination) as put:
            put(patched.encode("utf-8"))
    write_report(ctx, given.output, lambda: report.blocks(advice, shown, destination, pick),
                 lambda: report.json_text(advice, shown, destination if chosen else None, pick),
                 as_json=given.as_json)


def _many(ctx: Context, given: Request) -> None:
    """Kernels of directories, files or the cache: the `top` costliest as `audit` ranks them (or those NAME@HASH
    names), each advised on; --write-dir writes each changed dump as LABEL.ttgir."""
    from ..analysis.advise import analyze_advise
    from ..analysis.kernels import KernelAudit, ranked
    from ..reports import advise as report
    target = select(given.target) if given.target is not None else None     # resolved once
    labels = tuple(p for p in given.paths if sources.is_label(p))
    dirs = tuple(p for p in given.paths if p not in labels)
    if given.cache:
        for p in dirs:
            if p != "-" and os.path.lexists(p) and not sources.is_directory(p):
                raise TTLayoutError(f"--cache takes directories: {abbreviate_path(p)} is a file (give it without "
                                    "--cache to advise on it)")
    if labels and not dirs and not given.cache:
        raise TTLayoutError(f"{labels[0]} is a kernel label ('ttlayout audit --cache' prints them) and no file: "
                            f"give --cache [DIR] to look for it there")
    kernels, _, where = sources.kernels_of(dirs, given.cache, "advise")
    chosen = sources.select_labels(kernels, labels, where) if labels else kernels
    top = given.top if given.top is not None else (len(chosen) if labels else 1)
    ranking = None                      # (kernels advised on, kernels ranked) when audit's ranking chose them
    if len(chosen) > top:
        with Progress(ctx.stderr, "ranking") as progress:
            results = sources.audit_kernels(chosen, target, 0, given.jobs, progress)
        order: list[str] = []
        for record in ranked(r for r in results if isinstance(r, KernelAudit)):
            if record.path not in order:
                order.append(record.path)
        by_path = {k.path: k for k in chosen}
        ranking = (top, len(chosen))
        chosen = [by_path[p] for p in order[:top]]
    if given.write is not None and len(chosen) > 1:
        raise TTLayoutError(f"--write takes one kernel and {len(chosen)} are advised on: give --write-dir DIR")
    names = [f"{k.label}.ttgir" for k in chosen]
    if given.write_dir is not None and len(set(names)) < len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise TTLayoutError(f"two kernels would be written as {twice} in --write-dir: name one of them")
    pick = (given.change or 1) - 1
    runs: list = []
    patches: list[tuple[str, str]] = []          # (file, changed dump): written once every kernel is advised on
    for k, name in zip(chosen, names):
        text = inputs.kernel_text(k.path, ctx.stdin)
        advice = analyze_advise(inputs.modules(text), target)
        if not advice:
            raise TTLayoutError(f"{abbreviate_path(k.path)} holds no module to advise on")
        changes = {a.index: {c.alias: c.after for c in a.changes[pick].aliases} for a in advice
                   if len(a.changes) > pick}
        destination = given.write if given.write is not None else (
            os.path.join(given.write_dir, name) if given.write_dir is not None else None)
        output = given.output
        if destination is not None and output is not None and output != "-" and same_file(destination, output):
            raise TTLayoutError(f"--write and -o name the same file ({abbreviate_path(output)}): the report would "
                                "replace the changed dump; give each its own file")
        if destination is not None and changes:
            patches.append((destination, inputs.replace_aliases(text, changes)))
        runs.append(report.KernelRun(k.path, k.label, k.name, advice, destination if changes else None,
                                     destination))
    if given.change and not any(len(a.changes) > pick for r in runs for a in r.advice):
        raise TTLayoutError(f"--change {given.change}: no kernel has {given.change} change(s)")
    for destination, patched in patches:
        with ctx.sink(destination) as put:
            put(patched.encode("utf-8"))
    write_report(ctx, given.output, lambda: report.kernels_blocks(runs, where, ranking, pick),
                 lambda: report.kernels_json(runs, where, ranking, pick), as_json=given.as_json)


def _file_name(path: str, advice) -> str:
    """The name a changed dump gets in --write-dir: the input's file name, or the kernel's for stdin."""
    if path != "-":
        return os.path.basename(path)
    return f"{advice[0].kernel.split(',')[0]}.ttgir"
