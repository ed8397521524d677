"""Frozen dataclasses, one per Triton layout encoding; fields mirror Triton's parameters.

Bases are tuples of tuples of ints (one inner tuple per basis, one entry per tensor dim).
`cga` holds the `CGALayout` block bases (empty = single CTA).
"""
from __future__ import annotations

from dataclasses import dataclass

Bases = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class BlockedEncoding:
    size_per_thread: tuple[int, ...]
    threads_per_warp: tuple[int, ...]
    warps_per_cta: tuple[int, ...]
    order: tuple[int, ...]
    cga: Bases = ()
    kind = "distributed"

    @property
    def rank(self) -> int:
        return len(self.order)


@dataclass(frozen=True)
class SliceEncoding:
    dim: int
    parent: object
    kind = "distributed"

    @property
    def rank(self) -> int:
        return self.parent.rank - 1


@dataclass(frozen=True)
class DotOperandEncoding:
    op_idx: int
    parent: object
    k_width: int = 0
    kind = "distributed"

    @property
    def rank(self) -> int:
        return self.parent.rank


@dataclass(frozen=True)
class NvidiaMmaEncoding:
    version_major: int
    version_minor: int
    warps_per_cta: tuple[int, ...]
    instr_shape: tuple[int, ...]
    cga: Bases = ()
    kind = "distributed"

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)


@dataclass(frozen=True)
class AMDMfmaEncoding:
    version: int
    warps_per_cta: tuple[int, ...]
    instr_shape: tuple[int, ...]
    is_transposed: bool
    cga: Bases = ()
    tiles_per_warp: tuple[int, ...] = ()     # () = all ones (Triton's default, length len(instr_shape))
    element_bit_width: int = 32
    kind = "distributed"

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)


@dataclass(frozen=True)
class AMDWmmaEncoding:
    version: int
    is_transpose: bool
    cta_register: Bases          # ctaLayout register bases
    cta_warp: Bases              # ctaLayout warp bases
    cga: Bases = ()
    instr_shape: tuple[int, ...] = (16, 16, 16)
    rank: int = 2
    kind = "distributed"


@dataclass(frozen=True)
class LinearEncoding:
    register: Bases
    lane: Bases
    warp: Bases
    block: Bases
    kind = "distributed"

    @property
    def rank(self) -> int:
        for bases in (self.register, self.lane, self.warp, self.block):
            if bases:
                return len(bases[0])
        return 0


@dataclass(frozen=True)
class GenericLinearEncoding(LinearEncoding):
    pass


@dataclass(frozen=True)
class SwizzledSharedEncoding:
    vec: int
    per_phase: int
    max_phase: int
    order: tuple[int, ...]
    cga: Bases = ()
    kind = "shared"

    @property
    def rank(self) -> int:
        return len(self.order)


@dataclass(frozen=True)
class AMDRotatingSharedEncoding(SwizzledSharedEncoding):
    pass


@dataclass(frozen=True)
class NVMMASharedEncoding:
    swizzling_byte_width: int
    transposed: bool
    element_bit_width: int
    fp4_padded: bool = False
    cga: Bases = ()
    rank: int = 2
    kind = "shared"


@dataclass(frozen=True)
class SharedLinearEncoding:
    offset: Bases
    block: Bases
    alignment: int
    kind = "shared"

    @property
    def rank(self) -> int:
        for bases in (self.offset, self.block):
            if bases:
                return len(bases[0])
        return 0


@dataclass(frozen=True)
class PaddedSharedEncoding:
    intervals: tuple[int, ...]
    paddings: tuple[int, ...]
    offset: Bases
    block: Bases
    kind = "shared"

    @property
    def rank(self) -> int:
        return len(self.offset[0]) if self.offset else 0


@dataclass(frozen=True)
class PartitionedSharedEncoding:
    num_partitions: int
    num_groups: int
    partition_dim: int
    partition_layout: object
    kind = "shared"

    @property
    def rank(self) -> int:
        return self.partition_layout.rank


@dataclass(frozen=True)
class TensorMemoryEncoding:
    block_m: int
    block_n: int
    col_stride: int
    cga: Bases = ()
    two_ctas: bool = False
    fp4_padded: bool = False
    kind = None


@dataclass(frozen=True)
class TensorMemoryScalesEncoding:
    cga: Bases = ()
    block_rep_order: str = "mnThenK"
    kind = None


@dataclass(frozen=True)
class OtherAttribute:
    """Any attribute that is not a layout (builtin values, #ttg.shared_memory, loc(...)); kept as its text."""
    text: str
    kind = None


@dataclass(frozen=True)
class TensorType:
    shape: tuple[int, ...] | None     # None = unranked (tensor<*x...>); -1 entries = dynamic '?'
    element: str
