"""The cost of reductions and scans: within a thread, across lanes, across warps (analysis/reduction.py counts
their instructions)."""
from __future__ import annotations

import math

from ...errors import TTLayoutError
from ..kinds import Category
from .context import Context, Unreadable, finding, op_type
from .facts import Reduction
from .findings import Finding


def reduce_op(ctx: Context, op) -> Finding:
    src = ctx.parse_type(op_type(op, "operand", 0))
    axis = op.int_attr("axis") or 0
    if not 0 <= axis < len(src.shape):
        raise Unreadable(f"axis {axis} of a rank-{len(src.shape)} tensor")
    ll = ctx.linear(src)
    along = {d: sum(1 for b in ll.get_in_dim_bases(d) if b[axis]) if ll.has_in_dim(d) else 0
             for d in ("register", "lane", "warp", "block")}
    widths = tuple(ctx.parse_type(t).element_bits for t in op.operand_types)
    bits = sum(widths)
    scratch = 0
    if op.name == "tt.reduce" and (along["warp"] or along["block"]):
        from ..reduction import reduce_scratch_bytes
        scratch = ctx.memo.get(("reduce",) + ctx.key(src)[1:3] + (axis, widths),
                               lambda: reduce_scratch_bytes(ll, axis, widths))
    if op.name == "tt.scan" and along["warp"]:
        scratch = _scan_scratch(src, axis, ll, bits)
    rounds = along["lane"]
    if along["warp"]:                                # shuffles, then shared memory and a barrier
        cost = rounds + 4 + 2
    else:                                            # shuffles within a warp, or registers only
        cost = rounds
    facts = Reduction(axis, along["register"], along["lane"], along["warp"], scratch)
    try:
        counts = _reduce_instructions(ctx, op, ll, axis, widths)
    except TTLayoutError:                            # the counts are not modelled; the row stands
        counts = None
    category = Category.REDUCE if op.name == "tt.reduce" else Category.SCAN
    return finding(ctx, op, category, (src,), src, cost, rounds, facts=facts, scratch_bytes=scratch,
                   instructions=counts)


def _combiner(ctx: Context, op) -> str | None:
    """The one arithmetic op of a reduce / scan body (`arith.addf` for tl.sum), or None for a longer body."""
    i = ctx.position.get(id(op))
    if i is None:
        return None
    body = []
    for inner in ctx.module.ops[i + 1:]:
        if inner.depth <= op.depth:
            break
        if inner.name not in ("tt.reduce.return", "tt.scan.return"):
            body.append(inner.name)
            if len(body) > 1:
                return None
    return body[0] if body else None


def _reduce_instructions(ctx: Context, op, ll, axis: int, widths) -> dict | None:
    """The reduce's or scan's shared loads and stores, shuffles and barriers (analysis/reduction.py); None for
    what that model leaves out (a reversed scan, a result of another rank)."""
    from ..reduction import reduce_counts, scan_counts
    target, name = ctx.target, ctx.target.name
    if op.name == "tt.scan":
        if op.flag("reverse"):
            return None
        return ctx.memo.get(("scan-counts",) + ctx.key(ctx.parse_type(op_type(op, "operand", 0)))[1:3]
                            + (axis, widths, name), lambda: scan_counts(ll, axis, widths, target))
    out = ctx.parse_type(op.result_types[0]) if op.result_types else None
    out_ll = ctx.linear(out) if out is not None and out.kind == "tensor" else None
    combiner = _combiner(ctx, op)
    key = ("reduce-counts",) + ctx.key(ctx.parse_type(op_type(op, "operand", 0)))[1:3] + (
        axis, widths, name, combiner, ctx.key(out) if out_ll is not None else None)
    return ctx.memo.get(key, lambda: reduce_counts(ll, axis, widths, out_ll, target, combiner))


def _scan_scratch(src, axis: int, ll, bits: int) -> int:
    """Triton's ScanLoweringHelper::getScratchSizeInBytes: one partial per (non-axis element, warp along axis)."""
    warps_along = 1 << sum(1 for b in ll.get_in_dim_bases("warp") if b[axis]) if ll.has_in_dim("warp") else 1
    others = math.prod(s for k, s in enumerate(src.shape) if k != axis)
    non_axis_threads = 1
    for d in ("lane", "warp"):
        if ll.has_in_dim(d):
            non_axis_threads *= 1 << sum(1 for b in ll.get_in_dim_bases(d) if any(b) and not b[axis])
    return max(1, warps_along) * max(others, non_axis_threads) * math.ceil(bits / 8)
