"""The cost of a TMA copy: one bulk copy, no register layout."""
from __future__ import annotations

from ..kinds import Category
from .context import Context, finding, swizzle_bytes, value_bytes
from .facts import Tma
from .findings import Finding


def tma_op(ctx: Context, op) -> Finding:
    mem = next((ctx.parse_type(t) for t in op.operand_types + op.result_types if t.startswith("!ttg.memdesc<")), None)
    return finding(ctx, op, Category.TMA, (mem,), mem, 1.0, 1.0,
                   facts=Tma(value_bytes(mem) if mem else 0, swizzle_bytes(mem)))
