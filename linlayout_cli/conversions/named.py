"""LinearLayout -> the Triton attribute with exactly these bases. The named kind where there is one: `#ttg.blocked` for a
distributed layout, `#ttg.swizzled_shared` for a shared one (with the CGALayout their block bases show).

Candidates are read off the bases (a blocked layout's register, lane and warp bases walk the dims in `order`,
each starting where the level below stopped; a swizzled layout's offsets walk a row, then rows whose column is
XORed with vec x phase) and each is checked by converting it back with the ordinary conversion: a candidate is
returned only when `to_linear_layout(candidate, shape)` gives the same bases. Otherwise `linear_attribute` writes
the bases verbatim (`#ttg.linear`, `#ttg.shared_linear`).

>>> from linlayout_cli.engine import LinearLayout
>>> ll = LinearLayout({"register": [], "lane": [[1], [2], [4], [8], [16]], "warp": [[32], [0]], "block": []}, ["dim0"])
>>> str(named_attribute(ll, [64]))
'#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>'
"""
from __future__ import annotations

import itertools

from ..attributes import encodings as enc
from ..attributes.encodings import BlockedEncoding, SwizzledSharedEncoding
from ..attributes.verify import verify_linear, verify_shared_linear
from ..engine import LinearLayout
from ..errors import TTLayoutError, UnsupportedError
from .common import standard_out_dims

MAX_ORDER_RANK = 4          # every order is tried up to this rank; above it only the one the bases show
MAX_CANDIDATES = 64         # blocked candidates converted before giving up (the first one matches when any does)


def _standard(ll: LinearLayout) -> LinearLayout:
    return ll.transpose_outs(standard_out_dims(ll.num_out_dims))


def _bases(ll: LinearLayout, dim: str) -> list[tuple[int, ...]]:
    return [tuple(b) for b in ll.get_in_dim_bases(dim)] if ll.has_in_dim(dim) else []


def _unit_dim(basis) -> int | None:
    """The dim a basis moves along when it moves along exactly one, else None."""
    dims = [d for d, c in enumerate(basis) if c]
    return dims[0] if len(dims) == 1 else None


def _orders(first_seen: list[int], rank: int):
    """`first_seen` completed with the remaining dims from the last down, then (small ranks) every other order."""
    natural = tuple(first_seen + [d for d in range(rank - 1, -1, -1) if d not in first_seen])
    yield natural
    if rank <= MAX_ORDER_RANK:
        for order in itertools.permutations(range(rank)):
            if order != natural:
                yield order


def _cga_of(ll: LinearLayout, shape) -> tuple[tuple, list[int]] | None:
    """(CGALayout, shape per CTA): the block bases in units of whole CTA tiles, where a CTA's extent along a dim is
    the smallest block basis component there (the whole dim when no block moves along it)."""
    blocks = _bases(ll, "block")
    cta = []
    for d, n in enumerate(shape):
        moved = [b[d] for b in blocks if b[d]]
        cta.append(min(moved) if moved else n)
    if any(b[d] % cta[d] for b in blocks for d in range(len(shape))):
        return None
    return tuple(tuple(b[d] // cta[d] for d in range(len(shape))) for b in blocks), cta


def _matches(attr, shape, ll: LinearLayout) -> bool:
    from . import to_linear_layout
    try:
        return _standard(to_linear_layout(attr, shape)) == ll
    except TTLayoutError:
        return False


# ----------------------------------------------------------------------------------------- blocked


def _runs(bases, start: int, order, base: list[int], cta: list[int]):
    """Every way the bases from `start` on split into consecutive runs along the dims in `order`: the j-th basis of
    dim d's run is unit_d x base[d] x 2^j, or 0 once base[d] x 2^j reaches the CTA's extent (Triton drops what
    falls past the tensor's edge, so a dim once used up only takes zeros). Yields (counts, position after)."""
    if not order:
        yield [], start
        return
    d = order[0]
    longest = 0
    while start + longest < len(bases):
        b = bases[start + longest]
        want = base[d] << longest
        if not (_unit_dim(b) == d and b[d] == want if any(b) else want >= cta[d]):
            break
        longest += 1
    for c in range(longest, -1, -1):
        for rest, end in _runs(bases, start + c, order[1:], base, cta):
            yield [c] + rest, end


def _sizes(order, counts, rank: int) -> list[int]:
    sizes = [1] * rank
    for d, c in zip(order, counts):
        sizes[d] = 1 << c
    return sizes


def _size_per_thread(reg, order, rank: int) -> list[int]:
    """sizePerThread from the register bases' prefix: for each dim in order, the longest run 1, 2, 4, ... (a larger
    value gives the same bases wherever a longer run is read)."""
    counts, pos = [], 0
    for d in order:
        c = 0
        while pos < len(reg) and _unit_dim(reg[pos]) == d and reg[pos][d] == 1 << c:
            c += 1
            pos += 1
        counts.append(c)
    return _sizes(order, counts, rank)


def _level(bases, order, base: list[int], cta: list[int]):
    """threadsPerWarp or warpsPerCTA: every split of all the lane or warp bases into runs along `order`."""
    for counts, end in _runs(bases, 0, order, base, cta):
        if end == len(bases):
            yield _sizes(order, counts, len(base))


def blocked_of(ll: LinearLayout, shape) -> BlockedEncoding | None:
    """The `#ttg.blocked` whose layout at `shape` is `ll`, or None."""
    ll = _standard(ll)
    found = _cga_of(ll, shape)
    if found is None or ll.has_in_dim("offset"):
        return None
    cga, cta = found
    rank = len(shape)
    reg, lane, warp = _bases(ll, "register"), _bases(ll, "lane"), _bases(ll, "warp")
    seen = []       # lanes first: registers may only repeat the CTA tile, which can hide the fastest dim
    for b in lane + warp + reg:
        d = _unit_dim(b)
        if d is not None and d not in seen:
            seen.append(d)
    tried = 0
    for order in _orders(seen, rank):
        spt = _size_per_thread(reg, order, rank)
        for tpw in _level(lane, order, spt, cta):
            base = [s * t for s, t in zip(spt, tpw)]
            for wpc in _level(warp, order, base, cta):
                attr = BlockedEncoding(tuple(spt), tuple(tpw), tuple(wpc), tuple(order), cga)
                if _matches(attr, shape, ll):
                    return attr
                tried += 1
                if tried >= MAX_CANDIDATES:
                    return None
    return None


# ----------------------------------------------------------------------------------------- swizzled_shared


def swizzled_shared_of(ll: LinearLayout, shape) -> SwizzledSharedEncoding | None:
    """The `#ttg.swizzled_shared` whose layout at `shape` is `ll` (smallest vec, perPhase, maxPhase that give it),
    or None."""
    ll = _standard(ll)
    found = _cga_of(ll, shape)
    if found is None or not ll.has_in_dim("offset"):
        return None
    cga = found[0]
    rank = len(shape)
    offsets = _bases(ll, "offset")
    if rank == 1:
        attr = SwizzledSharedEncoding(1, 1, 1, (0,), cga)
        return attr if _matches(attr, shape, ll) else None
    col = _unit_dim(offsets[0]) if offsets else None
    if col is None:
        return None
    mains = []
    for b in offsets:
        others = [d for d, c in enumerate(b) if c and d != col]
        if len(others) > 1:
            return None
        mains.append(others[0] if others else col)
    seen = list(dict.fromkeys(mains))
    order = tuple(seen + [d for d in range(rank - 1, -1, -1) if d not in seen])
    row = order[1]
    xors = [b[col] for b, m in zip(offsets, mains) if m == row]
    swizzled = [k for k, x in enumerate(xors) if x]
    if not swizzled:
        params = (1, 1, 1)
    else:
        first = swizzled[0]
        run = 1
        while first + run < len(xors) and xors[first + run]:
            run += 1
        params = (xors[first], 1 << first, 1 << run)
    attr = SwizzledSharedEncoding(*params, order, cga)
    return attr if _matches(attr, shape, ll) else None


def named_attribute(ll: LinearLayout, shape):
    """`#ttg.blocked` or `#ttg.swizzled_shared` with exactly these bases at `shape`, else None."""
    if ll.has_in_dim("offset"):
        return swizzled_shared_of(ll, shape)
    return blocked_of(ll, shape)


def linear_attribute(ll: LinearLayout, alignment: int = 16):
    """The bases verbatim as an attribute: `#ttg.linear` (`#ttg.generic_linear` where Triton refuses #ttg.linear)
    for a distributed layout, `#ttg.shared_linear` with `alignment` for a shared one; UnsupportedError where
    Triton takes neither (register or lane bases that move several dims at once)."""
    ll = _standard(ll)
    b = {d: tuple(_bases(ll, d)) for d in ("register", "lane", "warp", "block", "offset")}
    rank = ll.num_out_dims
    if ll.has_in_dim("offset"):
        verify_shared_linear(b["offset"], b["block"], alignment, rank)
        return enc.SharedLinearEncoding(b["offset"], b["block"], alignment)
    for cls, generic in ((enc.LinearEncoding, False), (enc.GenericLinearEncoding, True)):
        try:
            verify_linear(b["register"], b["lane"], b["warp"], b["block"], rank, generic)
        except TTLayoutError:
            continue
        return cls(b["register"], b["lane"], b["warp"], b["block"])
    raise UnsupportedError("no Triton attribute holds this layout: its register or lane bases move several tensor "
                           "dims at once, which neither #ttg.linear nor #ttg.generic_linear takes")


__all__ = ["named_attribute", "blocked_of", "swizzled_shared_of", "linear_attribute"]
