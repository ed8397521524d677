"""The audit's orchestrator. Every layout decision of a real TTGIR kernel, with its cost and its Python line.

For each op that touches layouts: `ttg.convert_layout` (the `convert` model), shared-memory stores and loads
(`local_alloc` with a value, `local_store`, `local_load`: the shared-access model; `async_copy_global_to_local`: the
`bank` model), TMA copies, global loads, stores and atomics on tensors of pointers (vector width from the layout
and the pointers' AxisInfo, 32-byte sectors per warp access), reductions and scans (within a thread, across lanes,
across warps) and dots (operand and accumulator layouts). Then the kernel's shared memory: its allocations live
from definition to last use (a use inside a loop keeps them live through the loop) and each op's scratch lives at
that op; the peak is what the CTA needs, against the target's limit. Each row also counts its op's instructions
in the assembly's classes (`Finding.counts`, with Triton's Membar barriers: analysis/membar.py).

`cost` is the weighted cost per thread that `advise` ranks by too (`weights.py`, docs/advise_model.md): shared
wavefronts, shuffles, barriers (8 each), global instructions plus the sectors (stores) or 128-byte lines (loads) a
warp access touches; x 8 inside a loop, whose trip count a dump does not tell. `ideal` is the cost the same op
would have at its best (`weights.ideal_cost`, docs/audit_model.md), and `waste` = cost - ideal ranks the rows
(`rank_by_waste`) and the kernels (`module_cost`). It orders the report; it is no time estimate.

An op whose text cannot be read (a missing type, an alias that failed to parse) is a row "not analysed", an op of a
kind the model leaves out (docs/audit_model.md, "Not modelled") a row "not modelled", a padded buffer the compiled
kernel would fault on a row "error"; any other exception is a bug and ends the audit. Analyses are cached by (op kind, canonical layouts, shapes, element widths, target), across
the modules of a file, so a dump repeating one conversion ten thousand times analyses it once.
"""
from __future__ import annotations

from ...errors import TTLayoutError
from ...records import copier, replace
from ..kinds import Category
from ..targets import Target
from .context import Context, Memo, place, problem_row
from .convert import convert_op
from .dot import dot_op
from .findings import Extra, Finding, ModuleAudit, SharedUse
from .global_access import buffer_op, global_op
from .memory import alloc_op, buffer_info, buffer_roots, buffer_users, shared_use
from .modules import check_threads, function_units, module_target
from .ops import BUFFER_OPS, DOT_OPS, GLOBAL_OPS, SHARED_OPS, TMA_OPS
from .reduce import reduce_op
from .shared import shared_op
from .sync import synchronisation
from .tma import tma_op
from .weights import weighed

ANALYSES = {"ttg.convert_layout": (Category.CONVERT, convert_op),
            **{n: (Category.SHARED, shared_op) for n in SHARED_OPS},
            **{n: (Category.TMA, tma_op) for n in TMA_OPS}, **{n: (Category.GLOBAL, global_op) for n in GLOBAL_OPS},
            **{n: (Category.GLOBAL, buffer_op) for n in BUFFER_OPS},
            "tt.reduce": (Category.REDUCE, reduce_op), "tt.scan": (Category.SCAN, reduce_op),
            **{n: (Category.DOT, dot_op) for n in DOT_OPS}}


def _applies(op) -> bool:
    if op.name == "ttg.local_alloc":
        return True                                  # a store into the buffer, or the buffer itself (alloc_op)
    if op.name in GLOBAL_OPS:
        return bool(op.operand_types) and op.operand_types[0].startswith(("tensor<", "!tt.ptr"))
    return op.name in ANALYSES


def _audit_module(module, index: int, target: Target | None = None, memo: Memo | None = None,
                  several: bool = False) -> ModuleAudit:
    tgt, given = module_target(module, target, several)
    check_threads(module, tgt, several)
    memo = memo if memo is not None else Memo()
    rows: list[Finding] = []
    problems: list[Finding] = []
    shared: list[SharedUse] = []
    extras: list[Extra] = []
    warp_size = module.threads_per_warp or tgt.warp_size
    for unit in function_units(module):
        ctx = Context(unit, tgt, memo)
        ctx.num_warps = module.num_warps
        findings: dict[int, Finding] = {}
        allocs: set[int] = set()                     # the local_allocs without a value
        sites: list[int] = []                        # every local_alloc with a result
        for i, op in enumerate(unit.ops):
            if not _applies(op):
                continue
            if op.name == "ttg.local_alloc":
                if op.results:
                    sites.append(i)
                if not op.operands:
                    allocs.add(i)
                    continue
            category, analyse = ANALYSES[op.name]
            try:
                findings[i] = analyse(ctx, op)
            except TTLayoutError as e:
                findings[i] = problem_row(op, category, e)
                problems.append(findings[i])
        roots = buffer_roots(unit.ops)
        users = buffer_users(ctx, roots[0], findings)
        for i in sites:
            op = unit.ops[i]
            try:
                if i in allocs:
                    findings[i] = alloc_op(ctx, op, roots[0], users)
                elif not findings[i].problem:
                    findings[i] = replace(findings[i], buffer=buffer_info(ctx, op, roots[0], users))
            except TTLayoutError as e:
                findings[i] = problem_row(op, Category.BUFFER, e)
                problems.append(findings[i])
        placed: dict = {}
        shared.append(shared_use(ctx, findings, roots, placed))
        more, barriers = synchronisation(ctx, findings, roots[0], placed)
        extras += more
        rows += _weighed_rows(ctx, findings, barriers, warp_size)
    first = shared[0]
    use = SharedUse(max(u.total for u in shared), 0, tuple(b for u in shared for b in u.allocations),
                    max(u.largest_scratch for u in shared), first.limit, any(u.bound for u in shared))
    return ModuleAudit(index, module.first_line, tgt, module.num_warps, module.threads_per_warp,
                       tuple(rows), use, tuple(problems), given, getattr(module, "section", None), tuple(extras))


def _weighed_rows(ctx: Context, findings: dict, barriers: dict, warp_size: int) -> list[Finding]:
    """The rows in op order, weighed (`weights.weighed`) with Membar's barriers. A repeated op's one row
    (`context.placed_row`) is weighed once per count of barriers and copied to each op's line and location with
    one generated copy (`records.copier`): the step a function of 450,000 converts takes 450,000 times."""
    ops = ctx.module.ops
    shared = {id(r): r for r in ctx.rows.values()}
    prices: dict = {}
    placed: dict = {}                                # (id(shared row), barriers) -> its (membar, cost, ideal)
    at = copier(Finding, ("line", "loc", "frames", "loops", "membar", "cost", "ideal"))
    out = []
    for i in sorted(findings):
        f, b = findings[i], barriers.get(i, 0)
        if id(f) not in shared:
            out.append(weighed(f, warp_size, b, prices))
            continue
        price = placed.get((id(f), b))
        if price is None:
            w = weighed(f, warp_size, b, prices)
            price = placed[(id(f), b)] = (w.membar, w.cost, w.ideal)
        op = ops[i]
        loc, frames = place(ctx, op)
        out.append(at(f, op.line, loc, frames, op.loops, *price))
    return out


def analyze_audit(modules, target: Target | None = None, several: bool = False,
                  memo: Memo | None = None) -> list[ModuleAudit]:
    """Audit every module of a dump (`modules`: `parsing.module.iter_modules`, the modules separated by `// -----`,
    each read when its turn comes), for `target` (a Target, resolved by the caller; default: each module's
    `ttg.target`), with one cache of analyses for them all (`memo`: one kept across dumps, e.g. a worker's for every kernel it audits, or `advise`'s
    across its candidates); `several`: the file holds more than one module (errors then say which)."""
    memo = memo if memo is not None else Memo()
    return [_audit_module(m, i, target, memo, several) for i, m in enumerate(modules)]
