"""The cost of a TMA copy: one bulk copy, no register layout; the messages it takes and who issues them.

Triton 3.9 lowers a TMA copy (load, store, reduce) to one `cp.async.bulk.tensor.<rank>d` per message: the box of
one message is getTMABlockShape of the buffer's nvmma_shared encoding (every dim at most 256 elements, the
contiguous dim exactly one swizzle row: 128-byte swizzle and f16 -> 64 elements), the block takes
prod(ceil(shape / box)) messages, and warp w's elected thread issues messages w, w + W, w + 2W, ... (W: the warps
of the region that runs the op, a warp_specialize partition's own). So one issuing thread has ceil(messages / W)
instructions. Example: a 64x128 f16 block with 128-byte swizzle has box [64, 64], 2 messages; with 4 warps
warps 0 and 1 issue one each (1 instruction per issuing thread), with 1 warp it issues both.
"""
from __future__ import annotations

import math

from ...attributes.encodings import NVMMASharedEncoding
from ...conversions.nvmma_shared import tma_block_shape
from ..kinds import Category
from .context import Context, finding, swizzle_bytes, value_bytes
from .facts import Tma
from .findings import Finding


def region_warps(ctx: Context, op) -> int | None:
    """The warps that run `op`: those of the innermost `ttg.warp_specialize` partition around it (its
    `num_warps(N)`), else the module's."""
    tree = ctx.tree
    i = ctx.position.get(id(op))
    if i is None:
        return ctx.num_warps
    ops = ctx.module.ops
    child, j = i, tree.parent[i]
    while j >= 0:
        if ops[j].name == "ttg.warp_specialize":
            # its regions in order (default, partition0, ...), told apart by the region each direct child lives in
            regions = list(dict.fromkeys(ops[k].region for k in range(j + 1, tree.end[j] + 1)
                                         if tree.parent[k] == j))
            index = regions.index(ops[child].region)
            if index == 0:
                return ctx.num_warps
            parts = ops[j].partition_warps()
            return parts[index - 1] if index - 1 < len(parts) else None
        child, j = j, tree.parent[j]
    return ctx.num_warps


def tma_messages(mem) -> tuple[tuple[int, ...], int] | None:
    """(box, messages) of a TMA copy of buffer `mem` (a memdesc of one CTA's block), None without an nvmma_shared
    encoding (the block is one CTA's: the data here has one CTA per cluster)."""
    enc = mem.encoding if mem is not None else None
    if not isinstance(enc, NVMMASharedEncoding):
        return None
    shape = list(mem.shape)
    box = tma_block_shape(enc, shape)
    return tuple(box), math.prod(-(-s // b) for s, b in zip(shape, box))


def tma_op(ctx: Context, op) -> Finding:
    # the copied buffer: the largest memdesc the op names (a load's operands also hold its 8-byte mbarrier)
    mems = [ctx.parse_type(t) for t in op.result_types + op.operand_types if t.startswith("!ttg.memdesc<")]
    mem = max(mems, key=value_bytes, default=None)
    facts = Tma(value_bytes(mem) if mem else 0, swizzle_bytes(mem))
    split = tma_messages(mem) if op.name.startswith("ttng.async_tma_copy") or op.name == "ttng.async_tma_reduce" \
        else None
    if split is not None:
        box, messages = split
        warps = region_warps(ctx, op)
        per_thread = -(-messages // warps) if warps else None
        facts = Tma(facts.shared_bytes, facts.swizzle_bytes, len(box), box, messages, warps, per_thread)
    return finding(ctx, op, Category.TMA, (mem,), mem, 1.0, 1.0, facts=facts)
