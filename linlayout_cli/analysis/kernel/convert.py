"""The cost of a `ttg.convert_layout`: the `convert` model's report (analysis/convert.py) in a row."""
from __future__ import annotations

from .context import Context, finding, op_type
from .findings import Finding


def convert_op(ctx: Context, op) -> Finding:
    src, dst = ctx.parse_type(op_type(op, "operand", 0)), ctx.parse_type(op_type(op, "result", 0))
    report, cost, fields = ctx.memo.get(("convert", ctx.key(src), ctx.key(dst), ctx.target.name),
                                        lambda: _convert_row(ctx, src, dst))
    return finding(ctx, op, "convert", (src, dst), src, "", cost, fields=dict(fields),
                    scratch_bytes=fields["scratch_bytes"], conversion=report)


def _convert_row(ctx: Context, src, dst) -> tuple[object, float, dict]:
    """(report, cost, fields) of a conversion: the `convert` model's report (reports/ words it) in a row."""
    from ..convert import analyze_convert
    bits = src.element_bits
    report = analyze_convert(ctx.linear(src), ctx.linear(dst), bits, ctx.target.name)
    p = report.per_thread
    conflicts = {k: v or 0 for k, v in (report.bank_conflicts or {}).items()}
    cost = (p["shuffles"] + p["shared_stores"] * (1 + conflicts.get("store", 0))
            + p["shared_loads"] * (1 + conflicts.get("load", 0)) + 2 * p["barriers"])
    fields = {"path": report.path, "scratch_bytes": report.scratch_bytes, "per_thread": dict(p),
              "store_vector_bits": report.store_vector_bits, "load_vector_bits": report.load_vector_bits,
              "bank_conflicts": report.bank_conflicts, "element_bits": bits}
    return report, cost, fields
