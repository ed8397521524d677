"""The `audit` report: one row per op that touches layouts, costliest first, with its Python line; then the
kernel's shared memory against the target's limit, the conversions by path and the costliest ops. Blocks and JSON."""
from __future__ import annotations

from ..analysis.audit import Finding, ModuleAudit
from .blocks import BLANK, Fields, Table, line
from .common import plural
from .convert import verdict as convert_verdict


def _short(text: str, limit: int = 44) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _where(f: Finding) -> str:
    """'softmax.py:14' from 'tests/data/kernels/src/softmax.py:14:19' (the JSON keeps the whole location)."""
    if not f.loc:
        return "-"
    path, _, rest = f.loc.rpartition(":")
    path, _, line_no = path.rpartition(":")
    return f"{path.rsplit('/', 1)[-1]}:{line_no}" if path else f.loc


def verdict(f: Finding) -> str:
    """The row's answer in words (a conversion's is the `convert` report's verdict)."""
    return convert_verdict(f.conversion) if f.conversion is not None else f.verdict


def _layouts(f: Finding) -> str:
    sep = " -> " if f.category == "convert" else ", "
    return sep.join(_short(x, 28) for x in f.layouts)


def ranked(m: ModuleAudit, top: int | None = None) -> list[Finding]:
    """Findings costliest first (ties: dump order); every convert and shared access is kept within `top`."""
    rows = sorted(m.findings, key=lambda f: (-f.cost, f.line))
    if top is None or len(rows) <= top:
        return rows
    must = [f for f in rows if f.category in ("convert", "shared")]
    rest = [f for f in rows if f.category not in ("convert", "shared")]
    return sorted(must + rest[:max(0, top - len(must))], key=lambda f: (-f.cost, f.line))


def asm_cell(f: Finding, asm) -> str:
    """The assembly column of a row: for its Python line, the model's count / the assembly's in each class
    either has ('st 4/4, bar 2/2'; 'none' where both are zero), with ' *' where the line differs; the assembly's
    alone ('asm: st 4') on a line the model counts nothing on; '-' for a row without a line."""
    from ..analysis.asm import ASM_CLASSES, SHORT
    row = asm.row(f) if asm is not None else None
    if row is None:
        return "-"
    line, counts = row
    check = asm.check(line)
    if check is None:
        parts = [f"{SHORT[c]} {counts[c]}" for c in ASM_CLASSES if counts[c]]
        return "asm: " + (", ".join(parts) if parts else "none")
    parts = [f"{SHORT[c]} {check.model[c]}/{check.asm[c]}" for c in ASM_CLASSES if check.model[c] or check.asm[c]]
    return (", ".join(parts) if parts else "none") + ("" if check.agrees else " *")


def asm_footer(asm) -> list[tuple[str, str]]:
    """The footer lines of the assembly column: how many Python lines agree, the ones that differ, the totals."""
    from ..analysis.asm import ASM_CLASSES, SHORT
    kind = "PTX" if asm.kind == "ptx" else "AMDGCN"
    agree = (f"{kind}: {asm.agreeing} of {plural(len(asm.lines), 'Python line')} agree with the model "
             f"(model/assembly per line; * differs)")
    rows = [("assembly", agree)]
    if asm.disagreeing:
        rows.append(("differ", _short("; ".join(f"line {c.line} ({c.differences()})" for c in asm.disagreeing), 110)))
    totals = ", ".join(f"{SHORT[c]} {asm.model_total[c]}/{asm.total[c]}" for c in ASM_CLASSES)
    rows.append(("kernel total", totals))
    return rows


def module_blocks(m: ModuleAudit, path: str, top: int | None = None, several: bool = False, asm=None) -> list:
    t = m.target
    warps = f"{m.num_warps} warps" if m.num_warps else "warps unknown"
    lanes = f" x {m.threads_per_warp} threads" if m.threads_per_warp else ""
    where = f"{path}" + (f", module {m.index + 1} (line {m.first_line})" if several else "")
    default = " (the module names no ttg.target; give --target)" if m.target_given == "default" else ""
    out = [line(f"ttlayout audit {where}: {t.name}{default}, {t.arch}, {warps}{lanes}", "bold")]
    rows = ranked(m, top)
    if rows:
        head = ("cost", "line", "op", "python", "layouts") + (("asm",) if asm is not None else ()) + ("verdict",)
        out.append(Table(head, tuple(
            (f"{f.cost:g}", str(f.line), f.op, _where(f), _layouts(f))
            + ((asm_cell(f, asm),) if asm is not None else ())
            + (verdict(f) if not f.problem else f"{f.verdict}: {_short(f.problem, 70)}",) for f in rows), "  "))
    else:
        out.append(line("no op touches a layout", indent="  "))
    hidden = len(m.findings) - len(rows)
    if hidden:
        out.append(line(f"... {plural(hidden, 'cheaper op')} not shown (--top)", indent="  "))
    out.append(BLANK)
    out.append(Fields(tuple(_footer(m) + (asm_footer(asm) if asm is not None else [])), label_width=14))
    return out


def _footer(m: ModuleAudit) -> list[tuple[str, str]]:
    s = m.shared
    share = f" ({100 * s.total / s.limit:.0f}% of {s.limit // 1024} KiB)" if s.limit else ""
    over = "  OVER THE LIMIT" if s.limit and s.total > s.limit else ""
    if s.bound:
        over += " (at most: too many buffers live together to place them as Triton does)"
    allocated = sum(b.bytes for b in s.allocations)
    rows = [("shared memory", f"{s.total} bytes{share}{over}: {plural(len(s.allocations), 'allocation')} "
                              f"({allocated} bytes), largest scratch {s.largest_scratch} bytes")]
    paths = m.paths
    if paths:
        rows.append(("conversions", ", ".join(f"{n} {p}" for p, n in sorted(paths.items(), key=lambda kv: -kv[1]))))
    else:
        rows.append(("conversions", "none"))
    costly = [f for f in ranked(m) if f.cost > 0][:3]
    if costly:
        rows.append(("costliest", "; ".join(f"{f.op} at {_where(f)} (line {f.line})" for f in costly)))
    for status in ("error", "not analysed", "not modelled"):
        problems = [f for f in m.findings if f.problem and f.verdict == status]
        if problems:
            f = problems[0]
            rows.append((status, f"{plural(len(problems), 'op')}: {_short(f'line {f.line}: {f.op}: {f.problem}', 90)}"))
    return rows


def blocks(audits: list[ModuleAudit], path: str, top: int | None = None, asm=None) -> list:
    """The report of every module; `asm`: per module, its assembly column (analysis.asm.KernelAsm) or None."""
    out: list = []
    for k, m in enumerate(audits):
        if k:
            out.append(BLANK)
        out += module_blocks(m, path, top, several=len(audits) > 1, asm=asm[k] if asm else None)
    return out


def _finding_json(f: Finding, asm=None) -> dict:
    row = asm.row(f) if asm is not None else None
    return {"op": f.op, "line": f.line, "loc": f.loc, "loops": f.loops, "category": f.category,
            "layouts": list(f.layouts), "attrs": list(f.attrs), "shape": list(f.shape), "element_type": f.element,
            "verdict": verdict(f), "cost": f.cost, "scratch_bytes": f.scratch_bytes, **f.fields,
            **({"problem": f.problem} if f.problem else {}), **({"asm": row[1]} if row is not None else {})}


def _module_json(m: ModuleAudit, asm=None) -> dict:
    s = m.shared
    return {
        "module": m.index, "first_line": m.first_line, "target": m.target.name, "target_from": m.target_given,
        "num_warps": m.num_warps,
        "threads_per_warp": m.threads_per_warp, "shared_bytes": s.total, "shared_limit": s.limit,
        "shared_bytes_is_bound": s.bound,
        "allocations": [{"name": b.name, "line": b.line, "bytes": b.bytes, "alignment": b.alignment}
                        for b in s.allocations],
        "ops": [_finding_json(f, asm) for f in sorted(m.findings, key=lambda f: f.line)],
        "summary": {"conversions": m.paths, "largest_scratch": s.largest_scratch,
                    "costliest": [{"line": f.line, "op": f.op, "loc": f.loc, "cost": f.cost}
                                  for f in ranked(m) if f.cost > 0][:5],
                    "problems": list(m.problems)},
        **({"asm": asm.json()} if asm is not None else {}),
    }


def json_text(audits: list[ModuleAudit], path: str, asm=None) -> str:
    """One object; `modules` holds one entry per module; the first module's fields are repeated at the top.
    `asm`: per module, its assembly column or None (then every op has `asm`, the module an `asm` total)."""
    import json
    mods = [_module_json(m, asm[k] if asm else None) for k, m in enumerate(audits)]
    top = dict(mods[0]) if mods else {}
    return json.dumps({"file": path, **top, "modules": mods}, indent=2) + "\n"
