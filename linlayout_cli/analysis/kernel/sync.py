"""Membar's barriers (analysis/membar.py) and the lowering's own barriers and warp-index shuffles."""
from __future__ import annotations

from ...records import replace
from .context import Context
from .findings import COUNT_CLASSES, Extra
from .ops import MMA_V5_OPS, WARP_INDEX_OPS


def synchronisation(ctx: Context, findings: dict, root: dict, placed: dict) -> tuple[list[Extra], dict[int, int]]:
    """Membar's barriers (analysis/membar.py) and the lowering's own barriers: (Extras for the ops without a row,
    {row index: barriers at it} for the rows, which `weighed` adds to `Finding.membar`)."""
    from .. import membar
    ops = ctx.module.ops
    warp_sync = {i for i, f in findings.items()
                 if f.conversion is not None and getattr(f.conversion, "barrier", None) == "warp"}
    syncs = {i for i, op in enumerate(ops)          # a wgmma wait of two warp groups ends with a CTA barrier
             if op.name == "ttng.warp_group_dot_wait"
             and (ctx.num_warps or 4) > 4 and ctx.target.vendor == "nvidia"}
    scratch = placed.get("scratch", {})            # (copied only where a TMA descriptor's 128 bytes are left
    if any(ops[i].name == "ttng.tensormap_create" for i in scratch):    # out: one warp writes them and Triton
        scratch = {i: s for i, s in scratch.items() if ops[i].name != "ttng.tensormap_create"}   # keeps them apart)
    at = membar.barriers(ops, ctx.tree, root, placed.get("buffers", {}), scratch, warp_sync, syncs=syncs)
    for i in syncs:
        at[i] = at.get(i, 0) + 1
    for i, op in enumerate(ops):                     # a tcgen05 MMA is issued by one thread after a CTA barrier
        if op.name in MMA_V5_OPS:
            at[i] = at.get(i, 0) + 1
    extras = [extra(ops[i], barriers=at[i]) for i in sorted(at) if i not in findings]
    if ctx.target.vendor == "nvidia":
        extras += _warp_index_shuffles(ops, findings, ctx.tree)
    return extras, {i: n for i, n in at.items() if i in findings}


def _warp_index_shuffles(ops, findings: dict, tree) -> list[Extra]:
    """Tensor memory is addressed by warp and a TMA store is issued by one elected warp: the first such op of a
    function (or of a warp_specialize partition, which becomes a function) makes the warp index uniform with one
    `shfl.sync.idx`; LLVM reuses it for the others."""
    from ..membar import partition_scopes
    seen, out = set(), []
    for i, (op, scope) in enumerate(zip(ops, partition_scopes(ops, tree))):
        if op.name in WARP_INDEX_OPS and scope not in seen:
            seen.add(scope)
            if i in findings:
                counts = dict(findings[i]._own_counts() or {})     # its own instructions (a TMA store's) kept
                counts["shuffles"] = counts.get("shuffles", 0) + 1
                findings[i] = replace(findings[i], instructions=counts)
            else:
                out.append(extra(op, shuffles=1))
    return out


def extra(op, **counts) -> Extra:
    return Extra(op.name, op.line, str(op.loc) if op.loc else None, op.loc.frames if op.loc else (),
                 dict.fromkeys(COUNT_CLASSES, 0) | counts)
