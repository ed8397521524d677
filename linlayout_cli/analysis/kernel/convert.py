"""The cost of a `ttg.convert_layout`: the `convert` model's report (analysis/convert.py) in a row."""
from __future__ import annotations

from ..kinds import Category
from .context import Context, finding, op_type, placed_row
from .facts import Convert
from .findings import Finding


def convert_op(ctx: Context, op) -> Finding:
    operands, results = op.operand_types, op.result_types
    texts = (operands[0], results[0]) if operands and results else (op_type(op, "operand", 0),
                                                                    op_type(op, "result", 0))    # (Unreadable)
    return placed_row(ctx, op, ("convert",) + texts + (bool(op.loops),), lambda: _convert_finding(ctx, op, *texts))


def _convert_finding(ctx: Context, op, src_text: str, dst_text: str) -> Finding:
    src, dst = ctx.parse_type(src_text), ctx.parse_type(dst_text)
    report, cost, facts = ctx.memo.get(("convert", ctx.key(src), ctx.key(dst), ctx.target.name),
                                       lambda: _convert_row(ctx, src, dst))
    return finding(ctx, op, Category.CONVERT, (src, dst), src, cost, facts=facts,
                   scratch_bytes=facts.scratch_bytes, conversion=report)


def _convert_row(ctx: Context, src, dst) -> tuple[object, float, Convert]:
    """(report, cost, facts) of a conversion: the `convert` model's report (reports/ words it) in a row."""
    from ..convert import analyze_convert
    bits = src.element_bits
    report = analyze_convert(ctx.linear(src), ctx.linear(dst), bits, ctx.target)
    p = report.per_thread
    conflicts = {k: v or 0 for k, v in (report.bank_conflicts or {}).items()}
    cost = (p["shuffles"] + p["shared_stores"] * (1 + conflicts.get("store", 0))
            + p["shared_loads"] * (1 + conflicts.get("load", 0)) + 2 * p["barriers"])
    facts = Convert(report.path, report.scratch_bytes, dict(p), report.store_vector_bits, report.load_vector_bits,
                    report.bank_conflicts, bits)
    return report, cost, facts
