"""A dot's row: where its operands come from (no cost of its own in the audit's unit)."""
from __future__ import annotations

from ..kinds import Category
from .context import Context, Unreadable, finding
from .facts import CONVERTED, LOCAL_LOAD, REGISTERS, SHARED_MEMORY, Dot, Operand
from .findings import Finding


def dot_op(ctx: Context, op) -> Finding:
    types = [ctx.parse_type(t) for t in op.operand_types[:3]]
    if len(types) < 2:
        raise Unreadable(f"{op.name} has {len(types)} operand type(s), not 2 or 3")
    acc = ctx.parse_type(op.result_types[0]) if op.result_types else types[-1]
    operands = []
    for name, vt, label in zip(op.operands[:2], types[:2], ("A", "B")):
        producer = ctx.defining(name)
        if producer is not None and producer.name == "ttg.convert_layout":
            operands.append(Operand(label, CONVERTED, producer.line))
        elif producer is not None and producer.name == "ttg.local_load":
            operands.append(Operand(label, LOCAL_LOAD, producer.line))
        else:
            operands.append(Operand(label, SHARED_MEMORY if vt.kind == "memdesc" else REGISTERS))
    return finding(ctx, op, Category.DOT, types[:2] + [acc], acc, 0.0, facts=Dot(tuple(operands)),
                    instructions=_dot_instructions(ctx, op))


def _dot_instructions(ctx: Context, op) -> dict | None:
    """A wgmma of two or more warp groups makes its warp-group index warp-uniform with one shfl.sync.idx."""
    if op.name == "ttng.warp_group_dot" and (ctx.num_warps or 4) > 4:
        return {"shuffles": 1}
    return None
