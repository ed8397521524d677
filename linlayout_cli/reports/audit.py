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
    return python_line(f.loc)


def python_line(loc: str | None) -> str:
    """'softmax.py:14' from 'tests/data/kernels/src/softmax.py:14:19' (the JSON keeps the whole location)."""
    if not loc:
        return "-"
    path, _, rest = loc.rpartition(":")
    path, _, line_no = path.rpartition(":")
    return f"{path.rsplit('/', 1)[-1]}:{line_no}" if path else loc


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


def module_blocks(m: ModuleAudit, path: str, top: int | None = None, several: bool = False) -> list:
    t = m.target
    warps = f"{m.num_warps} warps" if m.num_warps else "warps unknown"
    lanes = f" x {m.threads_per_warp} threads" if m.threads_per_warp else ""
    where = f"{path}" + (f", module {m.index + 1} (line {m.first_line})" if several else "")
    default = " (the module names no ttg.target; give --target)" if m.target_given == "default" else ""
    out = [line(f"ttlayout audit {where}: {t.name}{default}, {t.arch}, {warps}{lanes}", "bold")]
    rows = ranked(m, top)
    if rows:
        out.append(Table(("cost", "line", "op", "python", "layouts", "verdict"), tuple(
            (f"{f.cost:g}", str(f.line), f.op, _where(f), _layouts(f), verdict(f) if not f.problem else
             f"{f.verdict}: {_short(f.problem, 70)}") for f in rows), "  "))
    else:
        out.append(line("no op touches a layout", indent="  "))
    hidden = len(m.findings) - len(rows)
    if hidden:
        out.append(line(f"... {plural(hidden, 'cheaper op')} not shown (--top)", indent="  "))
    out.append(BLANK)
    out.append(Fields(tuple(_footer(m)), label_width=14))
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
    for status in ("not analysed", "not modelled"):
        problems = [f for f in m.findings if f.problem and f.verdict == status]
        if problems:
            f = problems[0]
            rows.append((status, f"{plural(len(problems), 'op')}: {_short(f'line {f.line}: {f.op}: {f.problem}', 90)}"))
    return rows


def blocks(audits: list[ModuleAudit], path: str, top: int | None = None) -> list:
    out: list = []
    for k, m in enumerate(audits):
        if k:
            out.append(BLANK)
        out += module_blocks(m, path, top, several=len(audits) > 1)
    return out


def _finding_json(f: Finding) -> dict:
    return {"op": f.op, "line": f.line, "loc": f.loc, "loops": f.loops, "category": f.category,
            "layouts": list(f.layouts), "attrs": list(f.attrs), "shape": list(f.shape), "element_type": f.element,
            "verdict": verdict(f), "cost": f.cost, "scratch_bytes": f.scratch_bytes, **f.fields,
            **({"problem": f.problem} if f.problem else {})}


def ops_json(m: ModuleAudit) -> list[dict]:
    """A module's op rows as the JSON report writes them (`ops`), in dump order."""
    return [_finding_json(f) for f in sorted(m.findings, key=lambda f: f.line)]


def _module_json(m: ModuleAudit) -> dict:
    s = m.shared
    return {
        "module": m.index, "first_line": m.first_line, "target": m.target.name, "target_from": m.target_given,
        "num_warps": m.num_warps,
        "threads_per_warp": m.threads_per_warp, "shared_bytes": s.total, "shared_limit": s.limit,
        "shared_bytes_is_bound": s.bound,
        "allocations": [{"name": b.name, "line": b.line, "bytes": b.bytes, "alignment": b.alignment}
                        for b in s.allocations],
        "ops": ops_json(m),
        "summary": {"conversions": m.paths, "largest_scratch": s.largest_scratch,
                    "costliest": [{"line": f.line, "op": f.op, "loc": f.loc, "cost": f.cost}
                                  for f in ranked(m) if f.cost > 0][:5],
                    "problems": list(m.problems)},
    }


def json_text(audits: list[ModuleAudit], path: str) -> str:
    """One object; `modules` holds one entry per module; the first module's fields are repeated at the top."""
    import json
    mods = [_module_json(m) for m in audits]
    top = dict(mods[0]) if mods else {}
    return json.dumps({"file": path, **top, "modules": mods}, indent=2) + "\n"
