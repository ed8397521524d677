"""The kernel's shared memory: buffers (a `local_alloc` without a value is a row of its own), their views and
lifetimes, each op's scratch, and the peak as Triton's allocator lays it out (analysis/allocation.py)."""
from __future__ import annotations

import bisect
import math
from collections.abc import Callable

from ...errors import TTLayoutError
from ..kinds import Category
from .context import Context, finding, op_type, swizzle_bytes, value_bytes
from .facts import AsyncCopy, BufferInfo, BufferUse, SharedAccess
from .findings import Buffer, Finding, SharedUse
from .ops import FUNCTION_OPS, READERS, VIEW_OPS, WRITERS


def buffer_roots(ops) -> tuple[dict[str, str], dict[str, int]]:
    """(value -> the local_alloc it is a view of, value -> index of its defining op, for those values): memdesc views
    and loop values (`scf.for ... iter_args(%a = %buf)`) stand for the buffer they come from."""
    root: dict[str, str] = {}
    for op in ops:
        if op.name == "ttg.local_alloc" and op.results:
            name = op.results[0].split(":")[0]
            root[name] = name
        elif op.name in VIEW_OPS and op.results and op.operands:
            source = root.get(op.operands[0].split("#")[0])
            if source:
                root[op.results[0].split(":")[0]] = source
        elif op.name == "scf.for":
            _alias_loop(op, root)
    defined_at: dict[str, int] = {}
    if root:                                         # where the buffers' names are defined (their live ranges)
        wanted = set(root) | {name.split("#")[0] for name in root}
        for i, op in enumerate(ops):
            for r in op.results:
                name = r.split(":")[0]
                if name in wanted:
                    defined_at[name] = i
    return root, defined_at


def _stages(ops, root: dict, name: str, mem) -> int:
    """How many copies a multi-buffered allocation holds: its leading dimension when views index into it."""
    if len(mem.shape) < 2:
        return 1
    indexed = any(op.name == "ttg.memdesc_index" and op.operands and root.get(op.operands[0].split("#")[0]) == name
                  for op in ops)
    return mem.shape[0] if indexed else 1


def buffer_users(ctx: Context, root: dict, findings: dict) -> dict[str, dict]:
    """Per local_alloc: the ops that write and read it (directly or through a view), each with its line and, where
    the bank model applies, its bank conflicts."""
    out: dict[str, dict] = {}
    if not root:
        return out                                   # no buffer (every local_alloc is a root of its own)
    for i, op in enumerate(ctx.module.ops):
        if op.name in VIEW_OPS or op.name == "scf.for":
            continue
        touched = {root.get(o.split("#")[0]) or root.get(o) for o in op.operands}
        if op.name == "ttg.local_alloc" and op.results and op.operands:
            touched.add(op.results[0].split(":")[0])
        touched.discard(None)
        for name in touched:
            role = "writes" if op.name in WRITERS else "reads" if op.name in READERS else None
            if role is None:
                continue
            f = findings.get(i)
            conflicts = f.facts.bank_conflicts if f is not None and isinstance(f.facts, (SharedAccess, AsyncCopy)) \
                else None
            use = BufferUse(op.name, op.line, conflicts)
            assert name is not None                 # touched.discard(None) above
            out.setdefault(name, {"writes": [], "reads": []})[role].append(use)
    return out


def buffer_info(ctx: Context, op, root: dict, users: dict) -> BufferInfo:
    """What an allocation holds: shape, stages, layout, bytes, and its readers and writers."""
    mem = ctx.parse_type(op_type(op, "result", 0))
    name = op.results[0].split(":")[0] if op.results else ""
    used = users.get(name, {"writes": [], "reads": []})
    return BufferInfo(tuple(mem.shape), _stages(ctx.module.ops, root, name, mem), mem.encoding_text, value_bytes(mem),
                      mem.element, mem.memory, tuple(used["writes"]), tuple(used["reads"]), swizzle_bytes(mem))


def alloc_op(ctx: Context, op, root: dict, users: dict) -> Finding:
    """A local_alloc without a value: the buffer as a layout decision (its layout, stages and bytes, who uses it)."""
    mem = ctx.parse_type(op_type(op, "result", 0))
    return finding(ctx, op, Category.BUFFER, (mem,), mem, 0.0, buffer=buffer_info(ctx, op, root, users))


# ----------------------------------------------------------------------------------------- shared memory


def shared_use(ctx: Context, findings: dict, roots=None, placed: dict | None = None) -> SharedUse:
    """The kernel's shared memory as Triton's allocator lays it out (see `allocation`): explicit allocations with
    their views' liveness, each op's scratch, warp-specialization captures; each function on its own (Triton
    allocates per function), the module needing the most of them."""
    from .. import allocation as al
    ops = ctx.module.ops
    tree = ctx.tree
    ids = tree.post
    root, defined_at = roots if roots is not None else buffer_roots(ops)
    uses = _uses(ops, set(root) | {op.results[0].split(":")[0] for op in ops
                                   if op.name in ("tt.atomic_rmw", "tt.atomic_cas") and op.results})
    ws_of = _warp_specialize_of(tree, ops)
    func_of = _function_of(tree, ops)
    buffers: dict[str, al.Buffer] = {}
    where: dict[str, int] = {}
    todo = [i for i, f in findings.items() if f.scratch_bytes]
    special = [i for i, op in enumerate(ops) if op.name in _ALLOCATING]
    todo = sorted(set(todo).union(special)) if special else sorted(todo)
    scratch_at: list[int] = []                       # the ops with a scratch, in op order, and its bytes
    scratch_bytes: list[int] = []
    for i in todo:                                   # the ops that allocate: buffers, and scratch in op order
        op = ops[i]
        if op.name == "ttg.local_alloc" and op.results and op.result_types:
            vt = ctx.parse_type(op.result_types[0])
            if vt.kind == "memdesc" and vt.memory in ("#smem", ""):
                name = op.results[0].split(":")[0]
                align = op.int_attr("alignment") or _alignment(vt)
                buffers[name] = al.Buffer(name, value_bytes(vt), align, *al.live_interval(tree, i, uses.get(name, [])),
                                          region=op.region, concurrent=ws_of.get(i, -1))
                where[name] = i
        f = findings.get(i)
        size = f.scratch_bytes if f is not None else 0
        if op.name == "ttg.warp_specialize":
            size = _capture_bytes(ctx, op)
        elif op.name == "ttng.tensormap_create":
            size = 128                              # the TMA descriptor is built in shared memory
        elif op.name in ("tt.atomic_rmw", "tt.atomic_cas"):
            size = _atomic_scratch(ctx, op, uses)
        if size:
            scratch_at.append(i)
            scratch_bytes.append(size)
    for alias, r in root.items():                     # views and loop values keep their buffer live
        if alias == r or r not in buffers or alias not in defined_at and alias.split("#")[0] not in defined_at:
            continue
        at = defined_at.get(alias, defined_at.get(alias.split("#")[0]))
        assert at is not None                       # the check above: alias or its root is in defined_at
        start, end = al.live_interval(tree, at, uses.get(alias, []))
        b = buffers[r]
        b.start, b.end = min(b.start, start), max(b.end, end)
    warps = partition_warps(ops)
    groups: dict[int, list] = {}
    for b in buffers.values():
        groups.setdefault(func_of[where[b.name]], []).append(b)
    boxed: dict[int, al.Buffer] = {}                 # the scratch some buffer's live range covers
    alone = _outside(list(buffers.values())) if not warps else (lambda at: False)
    alone_size = 0
    for i, size in zip(scratch_at, scratch_bytes):
        concurrent = ws_of.get(i, -1)
        if concurrent < 0 and alone(ids[i]):         # the allocator places it at 0, alone in its live range
            alone_size = max(alone_size, size)
            continue
        b = boxed[i] = al.Buffer(f"scratch@{ops[i].line}", size, 8 if ops[i].name == "ttg.warp_specialize" else 128,
                                 ids[i], ids[i] + 1, region=ops[i].region, concurrent=concurrent)
        where[b.name] = i
        groups.setdefault(func_of[i], []).append(b)
    total, bound = 0, False
    for group in groups.values():
        if warps:
            group.append(al.Buffer("warp indices", warps, 4, 0, 1 << 62))
        size, stacked = al.place_buffers(group)
        total, bound = max(total, size), bound or stacked
    if not groups and warps:
        total = al.compute_offsets([al.Buffer("warp indices", warps, 4, 0, 1 << 62)])
    total = max(total, alone_size)
    if placed is not None:                           # where each buffer and scratch landed (for Membar)
        spans: dict = {}                             # one (offset, size) per distinct placement
        placed.update({"buffers": {n: (b.offset, b.size) for n, b in buffers.items()},
                       "scratch": {i: _landed(spans, boxed.get(i), size)
                                   for i, size in zip(scratch_at, scratch_bytes)}})
    listed = tuple(Buffer(b.name, ops[where[b.name]].line, b.size, b.alignment, b.start, b.end)
                   for b in buffers.values())
    return SharedUse(total, 0, listed, max(scratch_bytes, default=0), ctx.target.shared_limit, bound)


def _landed(spans: dict, b, size: int) -> tuple[int, int]:
    """Where a scratch landed, (offset, size): its Buffer's place, or 0 when alone; one tuple per distinct place."""
    span = (b.offset, b.size) if b is not None else (0, size)
    return spans.setdefault(span, span)


def _outside(buffers: list) -> Callable[[int], bool]:
    """A test of whether post-order op id `at` lies outside every buffer's live range [start, end): there an op's
    scratch is alone in its component of the interval graph, and the allocator puts it at offset 0."""
    merged: list[list[int]] = []
    for start, end in sorted((b.start, b.end) for b in buffers):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    starts = [m[0] for m in merged]

    def outside(at: int) -> bool:
        k = bisect.bisect_right(starts, at) - 1
        return k < 0 or at >= merged[k][1]
    return outside


_ALLOCATING = frozenset(("ttg.local_alloc", "ttg.warp_specialize", "ttng.tensormap_create", "tt.atomic_rmw",
                         "tt.atomic_cas"))      # ops whose buffer or scratch `shared_use` sizes from the op itself


def _uses(ops, names: set) -> dict[str, list[int]]:
    """The ops (indices) using each of `names` as an operand (`%a#1` counts for `%a` and for `%a#1`); the values
    asked about are a function's buffers and atomics, a few among its 450,000 operands."""
    uses: dict[str, list[int]] = {}
    if not names:
        return uses
    for i, op in enumerate(ops):
        for o in op.operands:
            base = o.split("#")[0] if "#" in o else o
            if base in names:
                uses.setdefault(base, []).append(i)
            if o is not base and o in names:
                uses.setdefault(o, []).append(i)
    return uses


def _function_of(tree, ops) -> list[int]:
    """For each op, the index of the function (`tt.func`) holding it (-1 outside any function)."""
    out = [-1] * len(ops)
    for i, op in enumerate(ops):
        if op.name in FUNCTION_OPS:
            out[i:tree.end[i] + 1] = [i] * (tree.end[i] + 1 - i)
    return out


def _atomic_scratch(ctx: Context, op, uses: dict) -> int:
    """Triton's getRepShapeForAtomic: a used scalar result takes one element, a used tensor result whose layout
    broadcasts (some thread bits hold copies) takes the whole tensor, to give every copy the same value."""
    if not op.results or not uses.get(op.results[0].split(":")[0]) or not op.result_types:
        return 0
    vt = ctx.parse_type(op.result_types[0])
    if vt.kind != "tensor":
        return math.ceil(vt.element_bits / 8)
    try:
        broadcast = any(ctx.linear(vt).get_free_variable_masks().values())
    except TTLayoutError:
        return 0
    return math.prod(vt.shape) * math.ceil(vt.element_bits / 8) if broadcast else 0


def _warp_specialize_of(tree, ops) -> dict[int, int]:
    """Pre-order index of each op inside a warp_specialize's regions -> that warp_specialize's index."""
    out = {}
    for i, op in enumerate(ops):
        if op.name == "ttg.warp_specialize":
            for k in range(i + 1, tree.end[i] + 1):
                out[k] = i
    return out


def partition_warps(ops) -> int:
    """The most partition warps of any warp_specialize (Triton keeps one byte per such warp for the function)."""
    return max((sum(op.partition_warps()) for op in ops
                if op.name == "ttg.warp_specialize"), default=0)


def _capture_bytes(ctx: Context, op) -> int:
    """WarpSpecializeOp::getCaptureSizeAlign: the explicit captures packed like a struct (ints and floats by
    their bytes, pointers and descriptors 8, a shared-memory descriptor 8 + 4 per dimension)."""
    total = 0
    for t in op.operand_types:
        vt = ctx.parse_type(t)
        if vt.kind == "memdesc":
            total += 8 + 4 * len(vt.shape) if vt.memory in ("#smem", "") else 8
        elif t.startswith(("!tt.ptr", "!tt.tensordesc")):
            total += 8
        else:
            try:                                     # a scalar by its bytes; a type of unknown width 8
                total += math.ceil(vt.element_bits / 8) if vt.kind == "other" else 8
            except TTLayoutError:
                total += 8
    return total


def _alias_loop(op, root: dict) -> None:
    """`scf.for ... iter_args(%a = %buf)`: the loop's block argument and result stand for the same buffer."""
    for k, (arg, init) in enumerate(op.iter_args()):
        r = root.get(init.split("#")[0])
        if r is not None:
            root[arg] = r
            if op.results:
                root[f"{op.results[0].split(':')[0]}#{k}"] = r


def _alignment(vt) -> int:
    from ..info import alignment_of
    return alignment_of(vt.encoding) if vt.encoding is not None else 16


# ----------------------------------------------------------------------------------------- modules
