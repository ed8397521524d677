"""The report over many kernels (`ttlayout audit DIR...`, `--cache`): one row per kernel ranked by layout cost
(its target, warps, costliest op with its Python line, conversions by path, shared bytes of the model beside the
compiler's, with a note where they differ or where the metadata and the module disagree); then the costliest ops
across all kernels, and the kernels that could not be audited. Blocks, and JSON."""
from __future__ import annotations

from ..analysis.kernels import KernelAudit, KernelFailure, Summary, ranked, summary
from ..errors import abbreviate
from .audit import loc_text
from .blocks import BLANK, Fields, Table, line
from .common import plural

DEFAULT_TOP = 10                  # ops listed across the kernels when --top is not given


def split(results) -> tuple[list[KernelAudit], list[KernelFailure]]:
    """The audited kernels, ranked, and the failures, by path."""
    kernels = ranked(r for r in results if isinstance(r, KernelAudit))
    failures = sorted((r for r in results if isinstance(r, KernelFailure)), key=lambda f: (f.path, f.name))
    return kernels, failures


def conversions_text(paths: dict) -> str:
    """'2 shared_memory, 1 warp_shuffle' (most first), '-' for none."""
    return ", ".join(f"{n} {p}" for p, n in sorted(paths.items(), key=lambda kv: (-kv[1], kv[0]))) or "-"


def cost_text(cost: float) -> str:
    """A kernel's cost to one decimal: '1960.7', '10'."""
    return f"{round(cost, 1):g}"


def costliest_text(k: KernelAudit) -> str:
    c = k.costliest
    return f"{c.op} at {loc_text(c.loc)}" if c is not None else "-"


def shared_text(k: KernelAudit) -> str:
    """'16384 / 16384' (model / compiler), '-' for an unknown compiler figure; a bound is marked '<='."""
    model = f"<={k.shared_bytes}" if k.shared_is_bound else str(k.shared_bytes)
    return f"{model} / {'-' if k.compiler_shared_bytes is None else k.compiler_shared_bytes}"


def notes_of(k: KernelAudit) -> list[str]:
    """Everything a kernel's row needs explained: the shared bytes' difference, then disagreements."""
    return ([k.shared_note] if k.shared_note else []) + list(k.notes)


def top_ops(kernels, n: int) -> list[tuple[KernelAudit, dict]]:
    """The n costliest op rows across the kernels (cost > 0), with their kernel."""
    rows = [(k, o) for k in kernels for o in k.ops if o.get("cost", 0) > 0]
    rows.sort(key=lambda ko: (-ko[1]["cost"], ko[0].name, ko[0].path, ko[1]["line"]))
    return rows[:n]


def asm_agreement(k: KernelAudit) -> str | None:
    """'4/4': the Python lines whose instruction counts the model and the kernel's assembly agree on, of those
    compared (the assembly column, `analysis.asm`); None for a kernel without its PTX / AMDGCN."""
    a = k.asm
    if not isinstance(a, dict) or "lines_compared" not in a:
        return None
    return f"{a['lines_agreeing']}/{a['lines_compared']}"


def asm_totals(kernels) -> tuple[int, int, int]:
    """(kernels with their assembly, Python lines that agree, lines compared) over the kernels."""
    with_asm = [k.asm for k in kernels if isinstance(k.asm, dict) and "lines_compared" in k.asm]
    return len(with_asm), sum(a["lines_agreeing"] for a in with_asm), sum(a["lines_compared"] for a in with_asm)


def advise_line(results, cache_dirs: tuple[str, ...] | None = None, target: str | None = None) -> str | None:
    """The `ttlayout advise` command for the costliest kernel of `results`: by its cache label
    (`--cache DIR NAME@HASH`) where `cache_dirs` is given (empty: the default cache), else by its file."""
    from .audit import advise_command
    kernels = ranked(r for r in results if isinstance(r, KernelAudit))
    if not kernels:
        return None
    worst = kernels[0]
    if cache_dirs is not None and "@" in worst.name and " (module" not in worst.name:
        return advise_command(label=worst.name, cache_dirs=cache_dirs, target=target)
    return advise_command(worst.path, target=target)


def blocks(results, where: str, top: int | None = None, advise: str | None = None) -> list:
    """The report as text blocks; `where` names what was searched (paths, the cache directory); `advise`: the
    `ttlayout advise` line for the costliest kernel (`audit.advise_command`), the report's last line."""
    kernels, failures = split(results)
    s = summary(results)
    failed = f" ({len(failures)} not audited)" if failures else ""
    out: list = [line(f"ttlayout audit {where}: {plural(len(kernels), 'kernel')}{failed}, ranked by layout cost "
                "(the sum of the cost of each kernel's ops)", "bold")]
    notes: list[tuple[str, str]] = []
    rows = []
    for rank, k in enumerate(kernels, 1):
        marks = []
        for note in notes_of(k):
            notes.append((f"[{len(notes) + 1}]", f"{k.name}: {note}"))
            marks.append(f"[{len(notes)}]")
        shared_mark = marks.pop(0) if k.shared_note else ""
        rows.append((str(rank), cost_text(k.cost), k.name + "".join(" " + m for m in marks), k.target,
                     str(k.num_warps or "-"), costliest_text(k), conversions_text(k.conversions),
                     shared_text(k) + (f" {shared_mark}" if shared_mark else ""), asm_agreement(k) or "-"))
    if rows:
        out.append(Table(("#", "cost", "kernel", "target", "warps", "costliest op", "conversions",
                          "shared bytes (model / compiler)", "asm lines"), tuple(rows), "  "))
    if notes:
        out += [BLANK, line("notes", "bold"), Fields(tuple(notes), label_width=6, indent="  ")]
    n = DEFAULT_TOP if top is None else top
    ops = top_ops(kernels, n)
    if ops:
        out += [BLANK, line(f"the {plural(len(ops), 'costliest op')} across the kernels (--top N)", "bold"),
                Table(("cost", "kernel", "line", "op", "python", "verdict"), tuple(
                    (f"{o['cost']:g}", k.name, str(o["line"]), o["op"], loc_text(o.get("loc")),
                     abbreviate(o.get("problem") and f"{o['verdict']}: {o['problem']}" or o["verdict"], 90))
                    for k, o in ops), "  ")]
    if failures:
        out += [BLANK, line("not audited", "bold"),
                Table(("kernel", "why"), tuple((f.name, abbreviate(f.reason, 140)) for f in failures), "  ")]
    summary_rows = _summary_rows(s, kernels) + ([("advise", advise)] if advise is not None else [])
    out += [BLANK, Fields(tuple(summary_rows), label_width=14)]
    return out


def _summary_rows(s: Summary, kernels) -> list[tuple[str, str]]:
    rows = [("conversions", conversions_text(s.conversions) if s.conversions else "none")]
    shared = [f"{s.shared_equal} equal to the compiler's"]
    if s.shared_explained:
        shared.append(f"{s.shared_explained} differ for a known reason (notes)")
    if s.shared_unexplained:
        shared.append(f"{len(s.shared_unexplained)} differ unexplained: {abbreviate(', '.join(s.shared_unexplained), 80)}")
    if s.shared_unknown:
        shared.append(f"{s.shared_unknown} without the compiler's figure")
    rows.append(("shared bytes", "; ".join(shared)))
    n, agree, compared = asm_totals(kernels)
    if n:
        rows.append(("assembly", f"{agree} of {plural(compared, 'Python line')} agree with the model in the "
                                 f"{plural(n, 'kernel')} whose PTX / AMDGCN is beside its TTGIR (asm lines: per "
                                 "kernel; 'ttlayout audit KERNEL.ttgir' shows each line)"))
    if s.failed:
        rows.append(("not audited", plural(s.failed, "kernel")))
    return rows


def compiled_blocks(k) -> list:
    """For one kernel's report: what the compiler recorded beside the model (shared bytes, warps), and the notes
    (a `KernelFailure` has none)."""
    if not isinstance(k, KernelAudit) or k.compiler_shared_bytes is None:
        return []
    agree = "equal to the model's" if k.shared_agrees else k.shared_note
    rows = [("compiler", f"{k.name}: {k.target}, {k.num_warps} warps, shared memory {k.compiler_shared_bytes} bytes "
                         f"({agree})")]
    rows += [("", note) for note in k.notes]
    return [BLANK, Fields(tuple(rows), label_width=14)]


# ----------------------------------------------------------------------------------------- JSON


def kernel_json(k: KernelAudit) -> dict:
    """One kernel's entry: what its row shows, its op rows as the single-file JSON writes them, and `asm`."""
    c = k.costliest
    return {"name": k.name, "kernel": k.kernel, "path": k.path, "module": k.module, "target": k.target,
            "target_from": k.target_from, "num_warps": k.num_warps, "threads_per_warp": k.threads_per_warp,
            "num_ctas": k.num_ctas, "cost": k.cost,
            "costliest": None if c is None else {"op": c.op, "line": c.line, "loc": c.loc, "cost": c.cost},
            "conversions": k.conversions, "shared_bytes": k.shared_bytes,
            "shared_bytes_is_bound": k.shared_is_bound, "compiler_shared_bytes": k.compiler_shared_bytes,
            "shared_note": k.shared_note or None, "notes": list(k.notes), "problems": k.problems,
            "ops": list(k.ops), "asm": k.asm}


def summary_json(results, top: int | None = None) -> dict:
    s = summary(results)
    kernels, _ = split(results)
    with_asm, agreeing, compared = asm_totals(kernels)
    return {"kernels": s.kernels, "failed": s.failed, "conversions": s.conversions,
            "shared_equal": s.shared_equal, "shared_explained": s.shared_explained,
            "shared_unexplained": list(s.shared_unexplained), "shared_unknown": s.shared_unknown,
            "asm_kernels": with_asm, "asm_lines_agreeing": agreeing, "asm_lines_compared": compared,
            "costliest": [{"kernel": k.name, "line": o["line"], "op": o["op"], "loc": o.get("loc"), "cost": o["cost"]}
                          for k, o in top_ops(kernels, DEFAULT_TOP if top is None else top)]}


def json_chunks(results, top: int | None = None):
    """The JSON report, `{"kernels": [...], "failures": [...], "summary": {...}}`, as pieces of text (one per
    kernel), exactly as `json.dumps(..., indent=2)` writes the whole."""
    import json
    kernels, failures = split(results)

    def nested(obj) -> str:
        return json.dumps(obj, indent=2).replace("\n", "\n    ")
    yield '{\n  "kernels": ['
    for i, k in enumerate(kernels):
        yield ("," if i else "") + "\n    " + nested(kernel_json(k))
    yield ("\n  ]" if kernels else "]") + ',\n  "failures": '
    yield json.dumps([{"name": f.name, "path": f.path, "reason": f.reason} for f in failures],
                     indent=2).replace("\n", "\n  ")
    yield ',\n  "summary": ' + json.dumps(summary_json(results, top), indent=2).replace("\n", "\n  ") + "\n}\n"


def json_text(results, top: int | None = None) -> str:
    return "".join(json_chunks(results, top))
