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
from array import array


class Buffer:
    """One allocation as the allocator places it: size, alignment, live range [start, end) in post-order op ids,
    the region of the op owning it, the warp_specialize whose partitions it lives in (they run at once; -1 none),
    and its offset once placed. (A plain class: `dataclasses` costs the audit's start-up, see records.py.)"""
    __slots__ = ("name", "size", "alignment", "start", "end", "region", "concurrent", "offset")

    def __init__(self, name: str, size: int, alignment: int, start: int, end: int, region: int = -1,
                 concurrent: int = -1, offset: int = 0):
        self.name, self.size, self.alignment, self.start, self.end = name, size, alignment, start, end
        self.region, self.concurrent, self.offset = region, concurrent, offset

    def __repr__(self) -> str:
        return (f"Buffer(name={self.name!r}, size={self.size}, alignment={self.alignment}, start={self.start}, "
                f"end={self.end}, region={self.region}, concurrent={self.concurrent}, offset={self.offset})")

    def intersects(self, other: "Buffer") -> bool:
        return self.start < other.end and other.start < self.end

    def place(self, offset: int) -> int:
        self.offset = (offset + self.alignment - 1) // self.alignment * self.alignment
        return self.offset


class OpTree:
    """The region structure of a module's ops (pre-order, each with its region depth), computed once in O(n):
    each op's parent, the last op of its subtree and its number in a post-order walk (so a loop comes after its
    body and a value used in the body stays live through the loop)."""

    def __init__(self, ops):
        n = len(ops)
        self.depth = [op.depth for op in ops]
        self.parent = [-1] * n
        self.end = array("q", range(n))             # machine integers: 8 bytes an op, not an int object each
        self.post = array("q", bytes(8 * n))
        stack: list[int] = []
        counter = 0
        for i, d in enumerate(self.depth):
            while stack and self.depth[stack[-1]] >= d:
                j = stack.pop()
                self.post[j] = counter
                counter += 1
                self.end[j] = i - 1
            self.parent[i] = stack[-1] if stack else -1
            stack.append(i)
        while stack:
            j = stack.pop()
            self.post[j] = counter
            counter += 1
            self.end[j] = n - 1

    def top_below(self, u: int, defined: int) -> int:
        """The op at `defined`'s region level that holds op u (u itself when it is at that level or above)."""
        depth = self.depth[defined]
        while u > defined and self.depth[u] > depth and self.parent[u] > defined \
                and self.depth[self.parent[u]] >= depth:
            u = self.parent[u]
        return u

    def post_range(self, a: int, b: int) -> tuple[int, int]:
        """(smallest, largest) post-order number of the ops a..b (pre-order): the smallest is the first leaf
        down from a, the largest the topmost ancestor of b inside the range."""
        low = a
        while low + 1 <= b and self.depth[low + 1] > self.depth[low]:
            low += 1
        high = b
        while self.parent[high] >= a:
            high = self.parent[high]
        return self.post[low], self.post[high]


def post_order_ids(ops) -> list[int]:
    """Pre-order ops (with their region depth) -> each op's number in a post-order walk."""
    return OpTree(ops).post


def subtree_end(ops, i: int) -> int:
    """Index of the last op inside op i's regions (i itself when it has none)."""
    j = i + 1
    while j < len(ops) and ops[j].depth > ops[i].depth:
        j += 1
    return j - 1


def live_interval(tree: OpTree, defined: int, uses: list[int]) -> tuple[int, int]:
    """[start, end) in post-order ids of a value defined at op `defined` and used at ops `uses`: every op from the
    definition to the use (lifted to the definition's region level, so a use in a loop body keeps the whole loop)."""
    last = defined
    for u in uses:
        top = tree.top_below(u, defined)
        last = max(last, tree.end[top] if top > defined else u)
    low, high = tree.post_range(defined, last)
    return low, high + 1


EXACT_LIMIT = 512                # buffers live together beyond which the offsets are a plain bound (see below)


def compute_offsets(buffers: list[Buffer]) -> int:
    """`place_buffers`' size."""
    return place_buffers(buffers)[0]


def place_buffers(buffers: list[Buffer]) -> tuple[int, bool]:
    """Triton's computeOffsets: initial starts by the triple algorithm, then colour and bump until no two live
    buffers overlap. Returns the shared-memory size.

    Buffers whose live ranges chain together (a component of the interval graph) are placed on their own:
    those of other components never interfere with them. A component of more than EXACT_LIMIT buffers (only
    hostile inputs have one; the algorithm is quadratic) is stacked end to end instead, an upper bound: the second
    value says whether that happened."""
    size, bound = 0, False
    for group in _components(buffers):
        if len(group) > EXACT_LIMIT:
            offset = 0
            for b in group:
                offset = b.place(offset) + b.size
            size, bound = max(size, offset), True
            continue
        if len(group) == 1:                          # alone in its live range (an op's scratch, mostly)
            size = max(size, group[0].place(0) + group[0].size)
            continue
        size = max(size, _offsets_of(group))
    return size, bound


def _components(buffers: list[Buffer]) -> list[list[Buffer]]:
    """Buffers grouped by chains of overlapping live ranges (buffers of one warp_specialize stay together), each
    group in the order of `buffers`."""
    order = sorted(range(len(buffers)), key=lambda k: (buffers[k].start, buffers[k].end))
    group_of = [0] * len(buffers)
    group, reach = -1, None
    concurrent: dict[int, int] = {}
    for k in order:
        b = buffers[k]
        if reach is None or b.start >= reach:
            group += 1
            reach = b.end
        else:
            reach = max(reach, b.end)
        group_of[k] = group
    for k, b in enumerate(buffers):                 # partitions of one warp_specialize run at once: one group
        if b.concurrent >= 0:
            first = concurrent.setdefault(b.concurrent, group_of[k])
            if first != group_of[k]:
                old = group_of[k]
                group_of = [first if g == old else g for g in group_of]
    out: dict[int, list[Buffer]] = {}
    for k, b in enumerate(buffers):
        out.setdefault(group_of[k], []).append(b)
    return list(out.values())


def _offsets_of(buffers: list[Buffer]) -> int:
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
