"""Point questions about one layout: who holds element (i, j), what thread T holds, what sits at offset N.

A holder is one (block, warp, lane, register) index; the holders of an element are one solution of the layout's
linear system plus every combination of its kernel (the broadcast bits), so a replicated element lists all its
copies. Threads are named as the views name them: `T<lane + warp x lanes>:<register>`, `B<block>:` in front when
the layout spans several CTAs.
"""
from __future__ import annotations

from ..engine import LinearLayout, flatten, gf2, unflatten
from ..engine.bits import log2
from ..errors import TTLayoutError
from ..records import frozen

HARDWARE = ("register", "lane", "warp", "block")
MAX_HOLDERS = 1 << 16              # a fully broadcast element of a huge layout is listed up to this many copies


@frozen
class Holder:
    block: int
    warp: int
    lane: int
    register: int
    lanes_per_warp: int
    blocks: int

    @property
    def thread(self) -> int:
        return self.lane + self.warp * self.lanes_per_warp

    @property
    def name(self) -> str:
        """'T37:5', or 'B1:T37:5' when the layout spans several CTAs."""
        return (f"B{self.block}:" if self.blocks > 1 else "") + f"T{self.thread}:{self.register}"


@frozen
class Held:
    """One element a thread holds: its block and register, and the element's coordinates."""
    block: int
    register: int
    element: tuple[int, ...]


def _sizes(ll: LinearLayout, dims) -> dict[str, int]:
    return {d: (ll.get_in_dim_size(d) if ll.has_in_dim(d) else 1) for d in dims}


def _flat_columns(ll: LinearLayout, dims) -> list[int]:
    """Flattened images of every input bit, the in dims taken in `dims` order."""
    return [c for d in dims for c in ll.flat_in_dim(d)]


def check_element(ll: LinearLayout, element) -> int:
    """The flattened index of an element, or the error naming the valid range."""
    sizes = [size for _, size in ll.get_out_dims()]
    if len(element) != len(sizes):
        raise TTLayoutError(f"--element needs {len(sizes)} indices (the tensor is {'x'.join(map(str, sizes))}), "
                            f"got {len(element)}")
    for i, (e, size) in enumerate(zip(element, sizes)):
        if not 0 <= e < size:
            raise TTLayoutError(f"--element index {e} of dim {i} is out of range: valid 0..{size - 1}")
    return flatten([element], ll.out_shifts())[0]


def copies(ll: LinearLayout, dims=HARDWARE) -> int:
    """How many inputs hold each element the layout reaches: 2^(dimension of its kernel)."""
    return 1 << len(gf2.null_space(_flat_columns(ll, dims)))


def _coset(ll: LinearLayout, dims, element) -> list[int]:
    """Flattened inputs (in `dims` order) that map to `element`, ascending; the first MAX_HOLDERS of a larger
    coset (`copies` says how many there are)."""
    columns = _flat_columns(ll, dims)
    target = check_element(ll, element)
    x0 = gf2.solve(columns, [target])[0]
    if x0 is None:
        return []
    kernel = gf2.null_space(columns)[:log2(MAX_HOLDERS)]
    return sorted(x0 ^ k for k in gf2.span(kernel))[:MAX_HOLDERS]


def _split(x: int, sizes: dict[str, int]) -> dict[str, int]:
    return dict(zip(sizes, unflatten(x, sizes.values())))


def holders(ll: LinearLayout, element) -> list[Holder]:
    """Every (block, warp, lane, register) holding `element` of a distributed layout, in the order the tensor view
    lists them (by block, then thread, then register)."""
    sizes = _sizes(ll, HARDWARE)
    found = [_split(x, sizes) for x in _coset(ll, HARDWARE, element)]
    out = [Holder(h["block"], h["warp"], h["lane"], h["register"], sizes["lane"], sizes["block"]) for h in found]
    return sorted(out, key=lambda h: (h.block, h.thread, h.register))


def thread_elements(ll: LinearLayout, thread: int, block: int | None = None) -> list[Held]:
    """Every element thread `thread` holds, register by register, for one block or (None) each block in turn."""
    return list(iter_thread_elements(ll, thread, block))


def iter_thread_elements(ll: LinearLayout, thread: int, block: int | None = None):
    """`thread_elements` one at a time (a thread of an 8192x8192 tensor holds 262,144 elements: JSON streams
    them); a thread or block out of range is refused here, before any is made."""
    sizes = _sizes(ll, HARDWARE)
    threads = sizes["lane"] * sizes["warp"]
    if not 0 <= thread < threads:
        raise TTLayoutError(f"--thread {thread} is out of range: valid 0..{threads - 1} "
                            f"({sizes['warp']} warps of {sizes['lane']} lanes)")
    if block is not None and not 0 <= block < sizes["block"]:
        raise TTLayoutError(f"--block {block} is out of range: valid 0..{sizes['block'] - 1}")
    lane, warp = thread % sizes["lane"], thread // sizes["lane"]
    out_sizes = [size for _, size in ll.get_out_dims()]
    flat = {d: _flat_columns(ll, (d,)) for d in HARDWARE}
    regs = gf2.span(flat["register"])            # element of each register, relative to register 0
    thread_base = gf2.apply(flat["lane"], lane) ^ gf2.apply(flat["warp"], warp)

    def held():
        for b in range(sizes["block"]) if block is None else [block]:
            base = thread_base ^ gf2.apply(flat["block"], b)
            for r, e in enumerate(regs):
                yield Held(b, r, tuple(unflatten(base ^ e, out_sizes)))
    return held()


def shared_offsets(ll: LinearLayout, element) -> list[tuple[int, int]]:
    """Every (block, offset) of a shared layout holding `element`."""
    sizes = _sizes(ll, ("offset", "block"))
    return sorted((h["block"], h["offset"]) for h in (_split(x, sizes) for x in _coset(ll, ("offset", "block"), element)))


def element_at(ll: LinearLayout, offset: int, block: int = 0) -> tuple[int, ...]:
    """The element stored at `offset` of `block` of a shared layout."""
    sizes = _sizes(ll, ("offset", "block"))
    if not 0 <= offset < sizes["offset"]:
        raise TTLayoutError(f"--offset {offset} is out of range: valid 0..{sizes['offset'] - 1}")
    if not 0 <= block < sizes["block"]:
        raise TTLayoutError(f"--block {block} is out of range: valid 0..{sizes['block'] - 1}")
    ins = [(d, v) for d, v in (("offset", offset), ("block", block)) if ll.has_in_dim(d)]
    return tuple(v for _, v in ll.apply(ins))


@frozen
class TmemPlace:
    """One tensor memory place of an element: block, row and element slot `col` (`per_column` slots per 32-bit
    column); named as the print command's tensor memory view names it."""
    block: int
    row: int
    col: int
    per_column: int
    blocks: int
    show_slot: bool

    @property
    def column(self) -> int:
        return self.col // self.per_column

    @property
    def slot(self) -> int:
        return self.col % self.per_column

    @property
    def name(self) -> str:
        """'R3:C5', 'R3:C5.1' where several elements share a 32-bit column, 'B1:R3:C5' with several CTAs."""
        return ((f"B{self.block}:" if self.blocks > 1 else "") + f"R{self.row}:C{self.column}"
                + (f".{self.slot}" if self.show_slot else ""))


def tmem_places(ll: LinearLayout, element, element_bits: int) -> list[TmemPlace]:
    """Every (block, row, slot) of a tensor memory layout holding `element`, unused slots left out (the holders
    the tensor memory view lists), by block, row, column."""
    from .info import tmem_unused
    dims = ("row", "col", "block")
    sizes = _sizes(ll, dims)
    row_unused, col_unused = tmem_unused(ll)
    per_column = max(1, 32 // element_bits)
    used_cols = [k for k in range(log2(sizes["col"])) if not col_unused >> k & 1]
    show_slot = per_column > 1 and any(1 << k < per_column for k in used_cols)
    found = [_split(x, sizes) for x in _coset(ll, dims, element)]
    out = [TmemPlace(h["block"], h["row"], h["col"], per_column, sizes["block"], show_slot) for h in found
           if not (h["row"] & row_unused or h["col"] & col_unused)]
    return sorted(out, key=lambda p: (p.block, p.row, p.col))


@frozen
class MemoryPlace:
    """Where a padded or partitioned shared layout stores an element: block, partition (its buffer), linear
    offset, and memory `position` (the offset plus the padding before it, what the hardware view prints)."""
    block: int
    partition: int
    offset: int
    position: int


def _position(padding, offset: int) -> int:
    return padding.padded_offset(offset) if padding is not None else offset


def memory_places(ll: LinearLayout, element, padding=None) -> list[MemoryPlace]:
    """Every place of a padded (`padding`) or partitioned shared layout holding `element`, by block, partition,
    offset."""
    dims = ("offset", "block", "partition")
    sizes = _sizes(ll, dims)
    found = [_split(x, sizes) for x in _coset(ll, dims, element)]
    return sorted((MemoryPlace(h["block"], h["partition"], h["offset"], _position(padding, h["offset"]))
                   for h in found), key=lambda p: (p.block, p.partition, p.offset))


def elements_at_position(ll: LinearLayout, position: int, block: int = 0, padding=None):
    """(linear offset or None where `position` is padding, [(partition, element)]) of memory position `position`
    in `block` of a padded or partitioned shared layout: one element per partition (each its own buffer).

    With [4:+4] (4 elements, then 4 unused): position 9 is offset 5; position 5 is padding."""
    sizes = _sizes(ll, ("offset", "block", "partition"))
    last = _position(padding, sizes["offset"] - 1)
    if not 0 <= position <= last:
        raise TTLayoutError(f"--offset {position} is out of range: valid 0..{last} (memory positions"
                            + (", padding included)" if padding is not None else ")"))
    if not 0 <= block < sizes["block"]:
        raise TTLayoutError(f"--block {block} is out of range: valid 0..{sizes['block'] - 1}")
    lo, hi = 0, sizes["offset"] - 1              # the positions grow with the offset: find the one at `position`
    while lo < hi:
        mid = (lo + hi) // 2
        if _position(padding, mid) < position:
            lo = mid + 1
        else:
            hi = mid
    if _position(padding, lo) != position:
        return None, []
    out = []
    for part in range(sizes["partition"]):
        ins = [(d, v) for d, v in (("offset", lo), ("block", block), ("partition", part)) if ll.has_in_dim(d)]
        out.append((part, tuple(v for _, v in ll.apply(ins))))
    return lo, out


def bank_of(offset: int, element_bits: int, banks: int = 32) -> int:
    """The 4-byte bank an element's first byte lives in, counting offsets in elements from a bank-0 start."""
    return (offset * element_bits // 32) % banks


__all__ = ["Holder", "Held", "TmemPlace", "tmem_places", "MemoryPlace", "memory_places", "elements_at_position", "holders", "thread_elements", "shared_offsets", "element_at", "bank_of", "copies"]
