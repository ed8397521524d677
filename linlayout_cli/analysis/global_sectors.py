"""Memory transactions of one warp-level global access, from the real address pattern: for each instruction a
thread issues (a group of `vec` consecutive registers), the byte addresses of every lane of warp 0, from the
layout's register and lane bases and the pointers' per-dim contiguity and constancy, and the distinct memory
units they touch: 32-byte sectors on NVIDIA (the L1/L2 transaction granule, CUDA C++ Best Practices Guide,
"Coalesced Access to Global Memory"), 128-byte cache lines on AMD CDNA3 (AMD CDNA 3 ISA / white paper: the
vector L1 and L2 line is 128 bytes).

The address model, per tensor dim d (the pointers' AxisInfo along d):

* the contiguous dim (the one of largest contiguity > 1): element x lies at byte (x mod run) * element bytes
  of its run, runs of `contiguity` elements; distinct runs are taken as far apart (`REASON_RUNS`);
* a dim whose pointers are constant in runs (constancy > 1): every element of a run has the same address (a
  broadcast pointer), runs far apart;
* any other dim: its stride is not known from the IR (a runtime row stride), so each step along it is taken
  as at least one unit apart (`REASON_STRIDED`): an upper bound that is exact for any stride of a unit or more.

A run is taken to start on a unit boundary; where the pointers' divisibility is smaller than a unit, a real
run may straddle one more unit (`REASON_ALIGNMENT`).

Example: the transposed matmul epilogue of the H200 calibration stores 64x128 f16 (`st.global.b16`, 1 element
per instruction), pointers contiguous along dim 1. With `#blocked<{[1, 8], [2, 16], [4, 1], [1, 0]}>` the 16
lanes along dim 1 hold columns 0, 8, ..., 120 (16 bytes apart) on two rows: 8 sectors per row, 16 per access.
With the transposed accumulator's `#linear` (lanes [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]]) 8 lanes cover
columns 0..7, 16 contiguous bytes, on 4 rows: 4 sectors per access. The GPU measured 16 -> 4.
"""
from __future__ import annotations

import math

from ..records import frozen

NVIDIA_SECTOR_BYTES = 32
AMD_LINE_BYTES = 128

REASON_STRIDED = "strided-dim"       # a dim with no contiguity: steps assumed at least one unit apart
REASON_RUNS = "runs-apart"           # the contiguous dim holds several runs: runs assumed far apart
REASON_ALIGNMENT = "alignment"       # runs aligned to less than a unit: assumed unit-aligned


@frozen
class WarpAccess:
    """Units one warp's accesses touch: `per_instruction` for each of a thread's instructions (warp 0),
    `ideal` the fewest units the bytes of one instruction could fill, `unit_bytes` the unit (32 or 128), and
    the assumptions the address model had to make (`reasons`, codes above)."""
    per_instruction: tuple[int, ...]
    ideal: int
    unit_bytes: int
    bytes_per_instruction: int
    reasons: tuple[str, ...]

    @property
    def sectors(self) -> int:
        """Units per warp access: the largest any instruction touches (all are equal on regular layouts)."""
        return max(self.per_instruction) if self.per_instruction else 0

    @property
    def mean(self) -> float:
        return sum(self.per_instruction) / len(self.per_instruction) if self.per_instruction else 0.0


def unit_bytes(vendor: str) -> int:
    """32-byte sectors (NVIDIA) or 128-byte lines (AMD)."""
    return AMD_LINE_BYTES if vendor == "amd" else NVIDIA_SECTOR_BYTES


def warp_access(ll, element_bits: int, vec: int, contiguity: tuple, constancy: tuple,
                divisibility_bytes: int = 16, unit: int = NVIDIA_SECTOR_BYTES) -> WarpAccess:
    """The units each instruction of warp 0 touches, for a distributed layout `ll` (any kind: its linear
    layout over the tensor's dims), `vec` elements per instruction, and the pointers' per-dim `contiguity`
    and `constancy` (elements). `divisibility_bytes`: the alignment of a contiguous run's first element.

    >>> from linlayout_cli.engine import LinearLayout
    >>> blocked2 = LinearLayout({"register": [[0, 1], [0, 2], [0, 4], [8, 0], [16, 0], [32, 0]],
    ...     "lane": [[0, 8], [0, 16], [0, 32], [0, 64], [1, 0]], "warp": [[2, 0], [4, 0]]},
    ...     [("dim0", 64), ("dim1", 128)])
    >>> warp_access(blocked2, 16, 1, (1, 128), (1, 1)).sectors
    16
    >>> linear = LinearLayout({"register": [[1, 0], [0, 8], [8, 0], [16, 0], [32, 0], [0, 64]],
    ...     "lane": [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], "warp": [[0, 16], [0, 32]]},
    ...     [("dim0", 64), ("dim1", 128)])
    >>> warp_access(linear, 16, 1, (1, 128), (1, 1)).sectors
    4
    """
    sizes = [s for _, s in ll.get_out_dims()]
    rank = len(sizes)
    bytes_ = max(1, element_bits // 8)
    contiguity = tuple(min(max(1, c), s) for c, s in zip(contiguity, sizes)) if len(contiguity) == rank \
        else (1,) * rank
    constancy = tuple(min(max(1, k), s) for k, s in zip(constancy, sizes)) if len(constancy) == rank \
        else (1,) * rank
    fast = max(range(rank), key=lambda d: contiguity[d]) if rank else 0
    if rank and contiguity[fast] <= 1:
        fast = -1
    reasons = set()
    for d in range(rank):
        if d != fast and constancy[d] < sizes[d] and sizes[d] > 1:
            reasons.add(REASON_STRIDED)
    if fast >= 0 and contiguity[fast] < sizes[fast]:
        reasons.add(REASON_RUNS)
    if fast >= 0 and divisibility_bytes < unit:
        reasons.add(REASON_ALIGNMENT)

    regs = _span(ll.remove_zero_bases_along_dim("register").flat_in_dim("register"))
    lanes = _span(ll.flat_in_dim("lane"))
    vec = max(1, vec)
    tables = _unit_tables(sizes, fast, contiguity, constancy, bytes_, unit)
    per_instruction = []
    distinct_bytes = 0
    for start in range(0, len(regs), vec):
        cells = {r ^ lane for r in regs[start:start + vec] for lane in lanes}
        per_instruction.append(len(_units(cells, tables)))
        distinct_bytes = max(distinct_bytes, len(cells) * bytes_)
    ideal = max(1, math.ceil(distinct_bytes / unit))
    return WarpAccess(tuple(per_instruction), ideal, unit, distinct_bytes, tuple(sorted(reasons)))


def _unit_tables(sizes: list, fast: int, contiguity: tuple, constancy: tuple, bytes_: int, unit: int) -> list:
    """The map from a flat tensor index (dim 0 in the lowest bits) to the memory unit holding that element, as one
    table per dim, (shift, mask, table): the unit is the sum over dims of table[(x >> shift) & mask]. Each dim's
    entry is the far component of its address (its run along `fast`, its constant block along the others) in mixed
    radix, and along `fast` also the unit index within its contiguous run (the only part that is not per dim-block).

    >>> sorted(_units({0, 1, 2, 3, 16, 17}, _unit_tables([16, 4], 0, (16, 1), (1, 1), 2, 4)))   # f16, 4-byte units
    [0, 16, 64]
    """
    top = math.prod(sizes)
    tables = []
    shift, radix = 0, 1
    for d, size in enumerate(sizes):
        block = contiguity[d] if d == fast else constancy[d]
        at = ((lambda c, b=block, r=radix: (c // b) * r + ((c % b) * bytes_ // unit) * top) if d == fast
              else (lambda c, b=block, r=radix: (c // b) * r))
        tables.append((shift, size - 1, [at(c) for c in range(size)] if size <= TABLE_LIMIT else _Lazy(at)))
        shift += size.bit_length() - 1
        radix *= size
    return tables


TABLE_LIMIT = 1 << 16                # a longer dim gets its entries computed as they are asked for


class _Lazy(dict):
    """A table whose entries are computed when first read (a dim too long to tabulate whole)."""

    def __init__(self, at):
        super().__init__()
        self.at = at

    def __missing__(self, c: int) -> int:
        self[c] = value = self.at(c)
        return value


def _units(cells, tables) -> set[int]:
    """The distinct memory units of a set of flat tensor indices (`_unit_tables`)."""
    if len(tables) == 1:
        (_, m0, t0), = tables
        return {t0[x & m0] for x in cells}
    if len(tables) == 2:
        (_, m0, t0), (s1, m1, t1) = tables
        return {t0[x & m0] + t1[(x >> s1) & m1] for x in cells}
    return {sum(t[(x >> s) & m] for s, m, t in tables) for x in cells}


def _span(vectors) -> list[int]:
    out = [0]
    for v in vectors:
        out += [x ^ v for x in out]
    return out
