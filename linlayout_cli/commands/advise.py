"""`ttlayout advise KERNEL.ttgir`: the layout changes that make a kernel cheaper, priced on the whole kernel by the
audit model, best first; `--write FILE` writes the dump with the chosen change applied (only the alias definitions
differ)."""
from __future__ import annotations

import os

from .. import inputs
from ..errors import TTLayoutError, abbreviate_path
from ..records import frozen
from .hardware import TARGET, check_named, override_note, select
from .options import JSON, OUTPUT, Arg, Opt
from .output import same_file, write_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

ARGUMENTS = (Arg("path", "FILE"),)
OPTIONS = (
    TARGET,
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
    path: str
    target: str | None = None
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

    \b
    ttlayout advise kernel.ttgir
    ttlayout advise kernel.ttgir --write patched.ttgir --json -o advice.json
    """
    from ..analysis.advise import analyze_advise
    from ..reports import advise as report
    path, target, write, write_dir, change = given.path, given.target, given.write, given.write_dir, given.change
    if write is not None and write_dir is not None:
        raise TTLayoutError("give --write or --write-dir, not both")
    for flag, value in (("--write", write), ("--write-dir", write_dir), ("-o", given.output)):
        if value == "":
            raise TTLayoutError(f"{flag} is empty; give a {'directory' if flag == '--write-dir' else 'file'} name")
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


def _file_name(path: str, advice) -> str:
    """The name a changed dump gets in --write-dir: the input's file name, or the kernel's for stdin."""
    if path != "-":
        return os.path.basename(path)
    return f"{advice[0].kernel.split(',')[0]}.ttgir"
