"""The barriers Triton 3.9 puts between the shared-memory (and tensor-memory) accesses of one function: its Membar
pass, plus the tensor-memory barriers inserted before it on Blackwell.

Membar (lib/Analysis/Membar.cpp, run on the TTGIR just before the lowering to LLVM) walks the ops in program order
and keeps what was read and written since the last barrier. It inserts a barrier before an op that

- reads what a pending op wrote (read after write), or
- writes what a pending op read or wrote (write after read, write after write).

What an access covers: its allocation's interval as the allocator placed it (offset, size); a `memdesc_index` of
a multi-buffered allocation picks a slot (a constant index: that slot's bytes; two different index values, the
pipeliner's insert and extract slots, are taken as different slots when an async proxy reads one of them); any
other view covers its whole allocation. A scratch buffer (a convert through shared memory, a reduction or scan
across warps, an atomic's broadcast) is a write checked against what is pending; its lowering synchronises
inside (unless a convert stays within warps), after which only its read is pending. A barrier clears what is
pending; so does the end of a `warp_group_dot_wait` of two warp groups (its lowering ends in `bar.sync`). After a
`ttg.async_wait` (cp.async completion) a barrier follows at once. Control flow joins the states of its paths; a
loop is walked until the state at its head no longer changes.

Who accesses what (`_accesses`): `local_alloc` with a value, `local_store`, `async_copy_global_to_local` and TMA
loads write their buffer; `local_load` and TMA stores read it; `warp_group_dot` and `tc_gen5_mma` read their
shared operands, and a `tc_gen5_mma` also writes its accumulator in tensor memory and arrives on its mbarriers;
`init_barrier` / `inval_barrier` write the mbarrier (one elected thread: two of them never conflict),
`barrier_expect`, `arrive_barrier` and `tc_gen5_commit` write it, `wait_barrier` reads it (its other operands only
keep buffers alive). In tensor memory, `tmem_load` / `tmem_store` (every thread) conflict with each other and with
a pending MMA write; an MMA after them needs no barrier (its issue orders it).

`barriers(...)` returns, per op index, how many barriers carry that op's location (before the op; after it for an
async wait). Checked against the TTGIR Triton's own passes write for the 73 kernels of tests/data/cache
(docs/audit_model.md lists where it differs).
"""
from __future__ import annotations

from ..parsing.module import captures, iter_args, leading_memdesc_dim
from ..parsing.ssa import plain_constant, rename_values
from .kernel.ops import (
    BARRIERS,
    FUNCTION_OPS,
    LOOPS,
    MMA_V5_OPS,
    SLOT_VIEWS,
    TERMINATORS,
    TMEM_ROOTS,
    TMEM_VIEWS,
    VIEW_OPS,
    WAITS,
)

READ, WRITE = "r", "w"
THREAD, LEADER, THREAD0, MMA, ASYNC, COPY = "thread", "leader", "thread0", "mma", "async", "copy"
MAX_PASSES = 16                  # walks of a loop body before its head state is taken as stable
VISITS_PER_OP = 64               # op visits a function may take in all (nested loops multiply the walks)


def _accesses(op) -> list[tuple[str, str, str]]:
    """(operand or result name, READ / WRITE, who) of an op's shared- and tensor-memory accesses; names that are
    no buffer are dropped later."""
    name, ops = op.name, op.operands
    first = ops[:1]
    if name == "ttg.local_alloc":
        return [(op.results[0].split(":")[0], WRITE, THREAD)] if ops and op.results else []
    if name == "ttg.local_store":
        return [(ops[1], WRITE, THREAD)] if len(ops) > 1 else []
    if name in ("ttg.async_copy_global_to_local", "amdg.buffer_load_to_local"):
        return [(ops[1], WRITE, COPY)] if len(ops) > 1 else []
    if name == "ttg.local_load":
        return [(o, READ, THREAD) for o in first]
    if name in ("ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather"):
        return [(o, WRITE, THREAD) for o in ops]
    if name in ("ttng.async_tma_copy_local_to_global", "ttng.async_tma_scatter", "ttng.async_tma_reduce"):
        return [(o, READ, THREAD) for o in ops]
    if name in ("ttng.init_barrier", "ttng.inval_barrier"):
        return [(o, WRITE, LEADER) for o in first]
    if name in ("ttng.barrier_expect", "ttng.arrive_barrier"):
        return [(o, WRITE, THREAD0) for o in first]
    if name == "ttng.tc_gen5_commit":
        return [(o, WRITE, THREAD) for o in first]
    if name == "ttng.wait_barrier":                  # the mbarrier, and the buffers the awaited MMA read (deps)
        return [(o, READ, THREAD) for o in first] + [(o, READ, ASYNC) for o in ops[1:]]
    if name == "ttng.warp_group_dot":
        return [(o, READ, ASYNC) for o in ops[:2]]
    if name in MMA_V5_OPS:
        return [(o, READ, MMA) for o in ops[:2]] + [(o, WRITE, MMA) for o in ops[2:]]
    if name == "ttng.tmem_store":
        return [(ops[1], WRITE, THREAD)] if len(ops) > 1 else []
    if name == "ttng.tmem_load":
        return [(o, READ, THREAD) for o in first]
    return []


_ACCESSING = frozenset(("ttg.local_alloc", "ttg.local_store", "ttg.async_copy_global_to_local",
                        "amdg.buffer_load_to_local", "ttg.local_load", "ttng.async_tma_copy_global_to_local",
                        "ttng.async_tma_gather", "ttng.async_tma_copy_local_to_global", "ttng.async_tma_scatter",
                        "ttng.async_tma_reduce", "ttng.init_barrier", "ttng.inval_barrier", "ttng.barrier_expect",
                        "ttng.arrive_barrier", "ttng.tc_gen5_commit", "ttng.wait_barrier", "ttng.warp_group_dot",
                        "ttng.tmem_store", "ttng.tmem_load") + tuple(MMA_V5_OPS))   # the ops `_accesses` names


def _overlaps(a: tuple, b: tuple) -> bool:
    """Whether two accesses (start, end, allocation, slot) may touch the same bytes. Tensor memory (start None)
    by allocation; slots of one allocation picked by two different index values are taken as different."""
    if a[0] is None or b[0] is None:
        return a[0] is None and b[0] is None and a[2] == b[2]
    if a[2] is not None and a[2] == b[2] and a[3] is not None and b[3] is not None:
        return a[3] == b[3]
    return a[0] < b[1] and b[0] < a[1]


class _State:
    """(span, who) read and written since the last barrier."""
    __slots__ = ("reads", "writes")

    def __init__(self, reads=frozenset(), writes=frozenset()):
        self.reads = reads if type(reads) is frozenset else frozenset(reads)
        self.writes = writes if type(writes) is frozenset else frozenset(writes)

    def join(self, other: "_State") -> "_State":
        return _State(self.reads | other.reads, self.writes | other.writes)

    def __eq__(self, other) -> bool:
        return self.reads == other.reads and self.writes == other.writes

    def __hash__(self) -> int:
        return hash((self.reads, self.writes))


def _conflict(mine, who: str, pending) -> bool:
    if who == MMA:
        return False                                 # a tcgen05 MMA's lowering synchronises before it issues
    for span in mine:
        for other, whose in pending:
            if who == whose and who in (LEADER, THREAD0):
                continue                             # one thread issues both
            if _overlaps(span, other):
                return True
    return False


class _Walk:
    def __init__(self, ops, tree, accesses: dict, scratch: dict, warp_sync: set, syncs: set):
        self.ops, self.tree, self.syncs = ops, tree, syncs
        self.accesses = accesses            # op index -> [(span, READ/WRITE, who)]
        self.scratch = scratch              # op index -> (offset, size) of its scratch
        self.spans: dict = {}               # (offset, size) -> its span (start, end, None, None), made once
        self.warp_sync = warp_sync          # scratch ops whose lowering has no CTA barrier inside
        self.before: set[int] = set()       # barriers inserted before op i
        self.after: set[int] = set()        # barriers inserted after op i (async waits)
        self.budget = VISITS_PER_OP * len(ops) + 1024   # op visits left: nested loops stop iterating when spent
        self.own: dict = {}                 # scratch span -> the state after an op that only uses it

    def children(self, i: int) -> list[list[int]]:
        """The op's regions, each the list of its top-level op indices."""
        regions: dict[int, list[int]] = {}
        depth = self.ops[i].depth + 1
        for k in range(i + 1, self.tree.end[i] + 1):
            if self.ops[k].depth == depth:
                regions.setdefault(self.ops[k].region, []).append(k)
        return list(regions.values())

    def block(self, indices: list[int], state: _State) -> _State:
        for i in indices:
            state = self.op(i, state)
        return state

    def op(self, i: int, state: _State) -> _State:
        op = self.ops[i]
        self.budget -= 1
        if i in self.before:
            state = _State()
        name = op.name
        if name not in _CONTROL and i not in self.syncs and self.tree.end[i] == i:
            return self.access(i, state)             # most ops: no region, no barrier of their own
        if name in BARRIERS:
            return _State()
        if name in LOOPS:
            entry = s_in = s_out = state
            regions = self.children(i)
            for _ in range(MAX_PASSES):
                s_out = s_in
                for region in regions:
                    s_out = self.block(region, s_out)
                new_in = entry.join(s_out)
                if new_in == s_in or self.budget <= 0:
                    break
                s_in = new_in
            return entry.join(s_out)
        regions = self.children(i) if self.tree.end[i] > i else []
        if name in ("scf.if", "scf.index_switch"):
            outs = [self.block(region, state) for region in regions]
            out = state if len(outs) < 2 else outs[0]     # a missing else branch keeps the state as it was
            for s in outs:
                out = out.join(s)
            return out
        if name == "ttg.warp_specialize":
            for region in regions[1:]:
                self.block(region, _State())
            return self.block(regions[0], state) if regions else state
        if name in WAITS:
            nxt = i + 1
            if nxt < len(self.ops) and self.ops[nxt].depth == op.depth and (
                    self.ops[nxt].name in WAITS or self.ops[nxt].name in TERMINATORS):
                return state                         # one barrier after a run of waits; none at a region's end
            self.after.add(i)
            return _State()
        if i in self.syncs:
            return _State()
        return self.access(i, state)

    def access(self, i: int, state: _State) -> _State:
        """The state after op i's own shared-memory accesses (a barrier before it where one conflicts)."""
        accesses = self.accesses.get(i, ())
        scratch = self.scratch.get(i)
        if scratch is not None:
            span = self.spans.get(scratch)
            if span is None:
                span = self.spans[scratch] = (scratch[0], scratch[0] + scratch[1], None, None) if scratch[1] else ()
            scratch = span or None
        if not accesses:
            if scratch is None:
                return state
            if i not in self.warp_sync:              # a convert, reduction or scan through shared memory
                if _conflict((scratch,), THREAD, state.reads) or _conflict((scratch,), THREAD, state.writes):
                    self.before.add(i)
                mine = self.own.get(scratch)
                if mine is None:
                    mine = self.own[scratch] = _State(frozenset({(scratch, THREAD)}), frozenset())
                return mine
        hazard = False
        for span, kind, who in accesses:
            if kind == READ:
                hazard = hazard or _conflict([span], who, state.writes)
            else:
                hazard = hazard or _conflict([span], who, state.reads | state.writes)
        if scratch is not None:
            hazard = hazard or _conflict([scratch], THREAD, state.reads | state.writes)
        if hazard:
            self.before.add(i)
            state = _State()
        reads = {(s, w) for s, k, w in accesses if k == READ}
        writes = {(s, w) for s, k, w in accesses if k == WRITE and w != COPY}   # cp.async lands at its wait
        if scratch is not None:
            if i in self.warp_sync:
                return _State(state.reads | reads | {(scratch, THREAD)}, state.writes | writes | {(scratch, THREAD)})
            return _State(reads | {(scratch, THREAD)}, ())
        if not reads and not writes:
            return state
        return _State(state.reads | reads, state.writes | writes)


_CONTROL = frozenset(BARRIERS + LOOPS + WAITS + ("scf.if", "scf.index_switch", "ttg.warp_specialize"))


def _span(ops, defined: dict, root: dict, buffers: dict, name: str, slots: bool,
          carried: dict | None = None) -> tuple | None:
    """What a memdesc value covers: (start, end, allocation, slot). A `memdesc_index` picks a slot (its index
    value; for a constant, that slot's bytes) where `slots`; any other view covers its whole allocation."""
    r = root.get(name.split("#")[0]) or root.get(name)
    placed = buffers.get(r.split("@")[0]) if r else None      # the allocator names a buffer by its own name
    if not placed or not placed[1]:
        return None
    offset, size = placed
    view = defined.get(name.split("#")[0])
    op = ops[view] if view is not None else None
    if op is not None and op.name == "ttg.memdesc_index" and len(op.operands) > 1 and r == root.get(op.operands[0]):
        index = defined.get(op.operands[1])
        k = plain_constant(ops[index].text) if index is not None else None
        count = op.leading_memdesc_dim()
        if k is not None and count is not None and count > 0:
            if 0 <= k < count and size % count == 0:
                return offset + k * size // count, offset + (k + 1) * size // count, r, ("slot", k)
        if slots:
            return offset, offset + size, r, ("index", op.operands[1])
    if op is not None and op.name in SLOT_VIEWS and op.operands:   # a view keeps a constant slot's bytes
        inner = _span(ops, defined, root, buffers, op.operands[0], slots, carried)
        if inner is not None and inner[3] is not None and inner[3][0] == "slot":
            return inner
    if (op is None and slots or op is not None and op.name == "scf.for") and carried is not None:
        init = defined.get(carried.get(name if op is not None else name.split("#")[0], ""))   # a carried slot
        if init is not None and ops[init].name == "ttg.memdesc_index":
            return offset, offset + size, r, ("carried", name)
    return offset, offset + size, r, None




class _Scoped:
    """An op whose value names carry the warp_specialize partition they live in (a partition is isolated from
    above: its SSA names restart, so `%54` of one partition is not `%54` of another)."""
    __slots__ = ("name", "operands", "results", "text", "depth", "region", "line")

    def __init__(self, op, scope: str, operands=None):
        def scoped(n):
            return n + scope if scope and n.startswith("%") else n
        self.name, self.depth, self.region, self.line = op.name, op.depth, op.region, op.line
        self.operands = tuple(scoped(o) for o in (op.operands if operands is None else operands))
        self.results = tuple(scoped(r) for r in op.results)
        self.text = rename_values(op.text, scoped) if scope else op.text

    def iter_args(self) -> tuple[tuple[str, str], ...]:
        return iter_args(self.text)

    def captures(self) -> tuple[str, ...]:
        return captures(self.text)

    def leading_memdesc_dim(self) -> int | None:
        return leading_memdesc_dim(self.text)


def partition_scopes(ops, tree) -> list[str]:
    """For each op, '' or the warp_specialize partition it runs in ('@<op index>.<region>'): a partition is
    lowered to a function of its own."""
    return _partitions(ops, tree)[0]


def _scoped(ops, tree) -> list:
    """The ops with the names inside warp_specialize partitions made unique per partition; a warp_specialize's
    operands are its captures followed by each partition's block arguments (named in that partition's scope)."""
    scope, args = _partitions(ops, tree)
    if not args:
        return ops                                   # no warp_specialize: every name is the function's
    return [_Scoped(op, scope[i], args.get(i)) if scope[i] or i in args else op   # outside partitions: as it is
            for i, op in enumerate(ops)]


def _partitions(ops, tree) -> tuple[list[str], dict[int, list]]:
    scope = [""] * len(ops)
    args: dict[int, list] = {}
    for w, op in enumerate(ops):
        if op.name != "ttg.warp_specialize" or tree.end[w] <= w:
            continue
        regions: dict[int, list[int]] = {}
        for k in range(w + 1, tree.end[w] + 1):
            if ops[k].depth == op.depth + 1:
                regions.setdefault(ops[k].region, []).append(k)
        n = len(op.captures())
        names = list(op.operands[:n])
        for p, (region, tops) in enumerate(list(regions.items())[1:]):
            tag = f"@{w}.{region}"
            for k in range(tops[0], tree.end[tops[-1]] + 1):
                scope[k] = scope[k] or tag
            names += [a + tag for a in op.operands[n + p * n:n + (p + 1) * n]]
        args[w] = names
    return scope, args


def _names(ops, given: dict) -> tuple[dict, dict]:
    """(value -> index of its defining op, value -> its shared allocation): `given` (the module's own roots)
    extended through views, loops and warp_specialize captures in the scoped names."""
    defined: dict[str, int] = {}
    root = dict(given)
    for i, op in enumerate(ops):
        for r in op.results:
            defined[r.split(":")[0]] = i
        if op.name == "ttg.local_alloc" and op.results:
            name = op.results[0].split(":")[0]
            root.setdefault(name, name)
        elif op.name in VIEW_OPS and op.results and op.operands:
            source = root.get(op.operands[0].split("#")[0])
            if source:
                root[op.results[0].split(":")[0]] = source
        elif op.name == "scf.for":
            result = op.results[0].split(":")[0] if op.results else None
            for k, (arg, init) in enumerate(op.iter_args()):
                r = root.get(init.split("#")[0])
                if r is not None:
                    root[arg] = r
                    if result:
                        root[f"{result}#{k}"] = r
        elif op.name == "ttg.warp_specialize":
            n = len(op.captures())
            captures = op.operands[:n]
            rest = op.operands[n:]
            for k in range(0, len(rest) - n + 1, max(1, n)):
                for capture, arg in zip(captures, rest[k:k + n]):
                    r = root.get(capture.split("#")[0])
                    if r is not None:
                        root[arg] = r
    return defined, root


def _loop_arguments(ops) -> dict[str, str]:
    """A loop's block argument -> the value it starts from (`scf.for ... iter_args(%a = %init)`)."""
    out = {}
    for op in ops:
        if op.name == "scf.for":
            result = op.results[0].split(":")[0] if op.results else None
            for k, (arg, init) in enumerate(op.iter_args()):
                if init:
                    out[arg] = init.split("#")[0]
                    if result:
                        out[f"{result}#{k}"] = out[arg]
    return out


def _tensor_memory_roots(ops) -> dict[str, str]:
    """Value -> the `tmem_alloc` it is (a view of)."""
    roots: dict[str, str] = {}
    for op in ops:
        if not op.results:
            continue
        result = op.results[0].split(":")[0]
        if op.name in TMEM_ROOTS:
            roots[result] = result
        elif op.name in TMEM_VIEWS and op.operands and op.operands[0].split("#")[0] in roots:
            roots[result] = roots[op.operands[0].split("#")[0]]
    return roots


def barriers(ops, tree, root: dict, buffers: dict, scratch: dict, warp_sync: set, syncs: set | frozenset = frozenset(),
             start: int = 0) -> dict[int, int]:
    """The barriers of the function whose op is `ops[start]` (or of all of `ops` when that is no function):
    op index -> barriers carrying its location. `root`: value -> its shared allocation (audit.buffer_roots);
    `buffers`: allocation name -> (offset, size) as placed; `scratch`: op index -> (offset, size) of its scratch;
    `warp_sync`: scratch ops without a CTA barrier inside; `syncs`: ops whose lowering ends in a CTA barrier (they
    clear what is pending)."""
    ops = _scoped(ops, tree)
    accessing = [i for i, op in enumerate(ops) if op.name in _ACCESSING]
    if accessing:                                    # (a function of converts alone names no value here)
        defined, root = _names(ops, root)
        tmem = _tensor_memory_roots(ops)
        carried = _loop_arguments(ops)
    accesses: dict[int, list] = {}
    for i in accessing:
        op = ops[i]
        found = []
        for value, kind, who in _accesses(op):
            t = tmem.get(value.split("#")[0])
            if t is not None:
                if who != ASYNC:                     # an awaited MMA's tensor-memory operands need no barrier
                    found.append(((None, None, t, None), kind, who))
                continue
            span = _span(ops, defined, root, buffers, value, who in (ASYNC, MMA) or kind == WRITE,
                         carried if who != THREAD else None)
            if span is not None:
                found.append((span, kind, who))
        if found:
            accesses[i] = found
    walk = _Walk(ops, tree, accesses, scratch, warp_sync, set(syncs))
    top = walk.children(start) if ops and ops[start].name in FUNCTION_OPS else None
    if top:
        for region in top:
            walk.block(region, _State())
    else:
        walk.block([i for i, op in enumerate(ops) if op.depth == (ops[0].depth if ops else 0)], _State())
    out: dict[int, int] = {}
    for i in walk.before | walk.after:
        out[i] = out.get(i, 0) + (i in walk.before) + (i in walk.after)
    return out
