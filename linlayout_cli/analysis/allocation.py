"""Shared-memory offsets as Triton's allocator assigns them (lib/Analysis/Allocation.cpp), so that a dump's total
can be compared with the compiler's `metadata.shared`.

Buffers: every `ttg.local_alloc` in shared memory (live from its definition to the last use of it or of a view of
it; a use inside a region keeps it live through that region's op), every op's scratch (live at that op only,
aligned to 128 bytes), a `ttg.warp_specialize`'s packed explicit captures (aligned to 8), and one byte per
partition warp for the whole function. Ops are numbered in post-order, so a loop comes after its body and a
value used in the body stays live through the loop. Offsets: buffers sorted by size, placed by the triple
algorithm of "Algorithms for Compile-Time Memory Optimization", then first-fit colouring bumps overlapping live
buffers until none interfere. The total is the highest end.
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class Buffer:
    name: str
    size: int
    alignment: int
    start: int                      # liveness in post-order op ids: [start, end)
    end: int
    region: int = -1                # the region of the op owning it
    concurrent: int = -1            # the warp_specialize whose partitions it lives in (they run at once), or -1
    offset: int = 0

    def intersects(self, other: "Buffer") -> bool:
        return self.start < other.end and other.start < self.end

    def place(self, offset: int) -> int:
        self.offset = (offset + self.alignment - 1) // self.alignment * self.alignment
        return self.offset


def post_order_ids(ops) -> list[int]:
    """Pre-order ops (with their region depth) -> each op's number in a post-order walk."""
    ids = [0] * len(ops)
    stack: list[int] = []
    counter = 0
    for i, op in enumerate(ops):
        while stack and ops[stack[-1]].depth >= op.depth:
            ids[stack.pop()] = counter
            counter += 1
        stack.append(i)
    while stack:
        ids[stack.pop()] = counter
        counter += 1
    return ids


def subtree_end(ops, i: int) -> int:
    """Index of the last op inside op i's regions (i itself when it has none)."""
    j = i + 1
    while j < len(ops) and ops[j].depth > ops[i].depth:
        j += 1
    return j - 1


def live_interval(ops, ids, defined: int, uses: list[int]) -> tuple[int, int]:
    """[start, end) in post-order ids of a value defined at op `defined` and used at ops `uses`: every op from the
    definition to the use (lifted to the definition's region level, so a use in a loop body keeps the whole loop)."""
    depth = ops[defined].depth
    last = defined
    for u in uses:
        top = u
        while top > defined and ops[top].depth > depth:        # climb to the op at the definition's level
            k = top - 1
            while k > defined and ops[k].depth >= ops[top].depth:
                k -= 1
            top = k if ops[k].depth < ops[top].depth else top
            if ops[top].depth <= depth:
                break
        last = max(last, subtree_end(ops, top) if top > defined else u)
    span = [ids[k] for k in range(defined, last + 1)]
    return min(span), max(span) + 1


def compute_offsets(buffers: list[Buffer]) -> int:
    """Triton's computeOffsets: initial starts by the triple algorithm, then colour and bump until no two live
    buffers overlap. Returns the shared-memory size."""
    order = sorted(buffers, key=lambda b: -b.size)            # Python's sort is stable, like llvm::stable_sort
    _calculate_starts(order)
    size = 0
    while True:
        graph = _interference(order)
        size = _allocate(order, graph)
        if not _interference(order):
            return size


def _calculate_starts(buffers: list[Buffer]) -> None:
    full = (0, math.inf)
    triples: list[tuple[int, tuple]] = [(0, full)]             # (offset, live range), kept sorted by offset
    todo = list(buffers)
    while todo and triples:
        offset, rng = triples.pop(0)
        pick = None
        for b in todo:
            if not (b.start < rng[1] and rng[0] < b.end):
                continue
            if all(not (b.start < r[1] and r[0] < b.end) for _, r in triples):
                pick = b
                break
        if pick is None:
            continue
        aligned = pick.place(offset)
        _insert(triples, aligned + pick.size, (max(rng[0], pick.start), min(rng[1], pick.end)))
        if rng[0] < pick.start:
            _insert(triples, offset, (rng[0], pick.end))
        if pick.end < rng[1]:
            _insert(triples, offset, (pick.start, rng[1]))
        todo.remove(pick)


def _insert(triples: list, offset: int, rng: tuple) -> None:
    """std::multimap::insert: after the last entry with the same key."""
    k = 0
    while k < len(triples) and triples[k][0] <= offset:
        k += 1
    triples.insert(k, (offset, rng))


def _overlap(a: Buffer, b: Buffer) -> bool:
    return a.offset < b.offset + b.size and b.offset < a.offset + a.size


def _interference(buffers: list[Buffer]) -> dict:
    graph: dict[int, set] = {}
    for x in buffers:
        for y in buffers:
            if x is y or not _overlap(x, y):
                continue
            concurrent = x.concurrent >= 0 and x.concurrent == y.concurrent and x.region != y.region
            if x.intersects(y) or concurrent:
                graph.setdefault(id(x), set()).add(id(y))
    return graph


def _allocate(buffers: list[Buffer], graph: dict) -> int:
    by_id = {id(b): b for b in buffers}
    colors = {id(b): (0 if k == 0 else -1) for k, b in enumerate(buffers)}
    for x in buffers:
        taken = {colors[y] for y in graph.get(id(x), ()) if colors[y] >= 0}
        c = 0
        while c in taken:
            c += 1
        colors[id(x)] = c
    size = 0
    for x in buffers:
        new = 0
        for y in graph.get(id(x), ()):
            new = max(new, by_id[y].offset + by_id[y].size)
        if colors[id(x)] != 0:
            x.place(new)
        size = max(size, x.offset + x.size)
    return size
