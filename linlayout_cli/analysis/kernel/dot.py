"""A dot's row: where its operands come from (no cost of its own in the audit's unit)."""
from __future__ import annotations

from ..kinds import Category
from .context import Context, Unreadable, finding
from .facts import Dot
from .findings import Finding


def dot_op(ctx: Context, op) -> Finding:
    types = [ctx.parse_type(t) for t in op.operand_types[:3]]
    if len(types) < 2:
        raise Unreadable(f"{op.name} has {len(types)} operand type(s), not 2 or 3")
    acc = ctx.parse_type(op.result_types[0]) if op.result_types else types[-1]
    notes = []
    for name, vt, label in zip(op.operands[:2], types[:2], ("A", "B")):
        where = "shared memory" if vt.kind == "memdesc" else "registers"
        producer = ctx.defining(name)
        if producer is not None and producer.name == "ttg.convert_layout":
            notes.append(f"{label} converted to its operand layout at line {producer.line}")
        elif producer is not None and producer.name == "ttg.local_load":
            notes.append(f"{label} loaded from shared memory at line {producer.line}")
        else:
            notes.append(f"{label} in {where}")
    verdict = "; ".join(notes)
    return finding(ctx, op, Category.DOT, types[:2] + [acc], acc, verdict, 0.0, facts=Dot(tuple(notes)),
                    instructions=_dot_instructions(ctx, op))


def _dot_instructions(ctx: Context, op) -> dict | None:
    """A wgmma of two or more warp groups makes its warp-group index warp-uniform with one shfl.sync.idx."""
    if op.name == "ttng.warp_group_dot" and (ctx.num_warps or 4) > 4:
        return {"shuffles": 1}
    return None
