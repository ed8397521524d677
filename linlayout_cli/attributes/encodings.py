"""Frozen records (dataclass-like, see `frozen`), one per Triton layout encoding; fields mirror Triton's parameters.

Bases are tuples of tuples of ints (one inner tuple per basis, one entry per tensor dim).
`cga` holds the `CGALayout` block bases (empty = single CTA).

`str(attr)` is Triton 3.9's canonical print of the attribute (the attribute's own printer, no
aliases), e.g. `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1],
order = [1, 0]}>` (one line). Objects come from `linlayout_cli.parsing.parse_attribute`, which also
verifies them; constructing a record directly performs no verification.
"""
from __future__ import annotations

from ..engine.bits import log2, next_pow2
from ..records import frozen, replace  # noqa: F401  (replace: copies of encodings)

Bases = tuple[tuple[int, ...], ...]


def int_list(xs) -> str:
    """A list of integers as MLIR and Python both write it (the one printer of int lists and bases).

    >>> int_list((1, 4)), int_lists(((0, 1), (1, 0))), int_lists(())
    ('[1, 4]', '[[0, 1], [1, 0]]', '[]')
    """
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def int_lists(bs) -> str:
    """A list of integer lists (bases), `int_list` each."""
    return "[" + ", ".join(int_list(b) for b in bs) + "]"


def _cga(cga) -> str:
    """`, CGALayout = [[..]]`, printed iff there is at least one block basis."""
    return f", CGALayout = {int_lists(cga)}" if cga else ""


def _bool(b) -> str:
    return "true" if b else "false"


@frozen
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

    def __str__(self) -> str:
        return (f"#ttg.blocked<{{sizePerThread = {int_list(self.size_per_thread)}, "
                f"threadsPerWarp = {int_list(self.threads_per_warp)}, warpsPerCTA = {int_list(self.warps_per_cta)}, "
                f"order = {int_list(self.order)}{_cga(self.cga)}}}>")


@frozen
class SliceEncoding:
    dim: int
    parent: Distributed
    kind = "distributed"

    @property
    def rank(self) -> int:
        return self.parent.rank - 1

    def __str__(self) -> str:
        return f"#ttg.slice<{{dim = {self.dim}, parent = {self.parent}}}>"


@frozen
class DotOperandEncoding:
    op_idx: int
    parent: Distributed
    k_width: int = 0
    kind = "distributed"

    @property
    def rank(self) -> int:
        return self.parent.rank

    def __str__(self) -> str:
        kw = f", kWidth = {self.k_width}" if self.k_width else ""
        return f"#ttg.dot_op<{{opIdx = {self.op_idx}, parent = {self.parent}{kw}}}>"


@frozen
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

    def __str__(self) -> str:
        return (f"#ttg.nvidia_mma<{{versionMajor = {self.version_major}, versionMinor = {self.version_minor}, "
                f"warpsPerCTA = {int_list(self.warps_per_cta)}{_cga(self.cga)}, instrShape = {int_list(self.instr_shape)}}}>")


@frozen
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

    def __str__(self) -> str:
        tpw = f", tilesPerWarp = {int_list(self.tiles_per_warp)}" if any(t != 1 for t in self.tiles_per_warp) else ""
        ebw = f", elementBitWidth = {self.element_bit_width}" if self.element_bit_width != 32 else ""
        return (f"#ttg.amd_mfma<{{version = {self.version}, warpsPerCTA = {int_list(self.warps_per_cta)}, "
                f"instrShape = {int_list(self.instr_shape)}, isTransposed = {_bool(self.is_transposed)}"
                f"{_cga(self.cga)}{tpw}{ebw}}}>")


@frozen
class AMDWmmaEncoding:
    version: int
    is_transpose: bool
    cta_register: Bases          # ctaLayout register bases
    cta_warp: Bases              # ctaLayout warp bases
    cga: Bases = ()
    instr_shape: tuple[int, ...] = (16, 16, 16)
    rank: int = 2
    kind = "distributed"

    def __str__(self) -> str:
        cta = []
        if self.cta_register:
            cta.append(f"register = {int_lists(self.cta_register)}")
        if self.cta_warp:
            cta.append(f"warp = {int_lists(self.cta_warp)}")
        instr = f", instrShape = {int_list(self.instr_shape)}" if tuple(self.instr_shape) != (16, 16, 16) else ""
        return (f"#ttg.amd_wmma<{{version = {self.version}, isTranspose = {_bool(self.is_transpose)}, "
                f"ctaLayout = {{{', '.join(cta)}}}{_cga(self.cga)}{instr}}}>")


@frozen
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

    mnemonic = "linear"

    def __str__(self) -> str:
        return (f"#ttg.{self.mnemonic}<{{register = {int_lists(self.register)}, lane = {int_lists(self.lane)}, "
                f"warp = {int_lists(self.warp)}, block = {int_lists(self.block)}}}>")


@frozen
class GenericLinearEncoding(LinearEncoding):
    mnemonic = "generic_linear"


@frozen
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

    mnemonic = "swizzled_shared"

    def __str__(self) -> str:
        return (f"#ttg.{self.mnemonic}<{{vec = {self.vec}, perPhase = {self.per_phase}, "
                f"maxPhase = {self.max_phase}, order = {int_list(self.order)}{_cga(self.cga)}}}>")


@frozen
class AMDRotatingSharedEncoding(SwizzledSharedEncoding):
    mnemonic = "amd_rotating_shared"


@frozen
class NVMMASharedEncoding:
    swizzling_byte_width: int
    transposed: bool
    element_bit_width: int
    fp4_padded: bool = False
    cga: Bases = ()
    rank: int = 2
    kind = "shared"

    def __str__(self) -> str:
        fp4 = ", fp4Padded = true" if self.fp4_padded else ""
        tail = f", rank = {self.rank}" if (not self.cga and self.rank != 2) else _cga(self.cga)
        return (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {self.swizzling_byte_width}, "
                f"transposed = {_bool(self.transposed)}, elementBitWidth = {self.element_bit_width}{fp4}{tail}}}>")


@frozen
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

    def __str__(self) -> str:
        block = f", block = {int_lists(self.block)}" if self.block else ""
        return f"#ttg.shared_linear<{{offset = {int_lists(self.offset)}{block}}}, alignment = {self.alignment}>"


@frozen
class PaddedSharedEncoding:
    intervals: tuple[int, ...]
    paddings: tuple[int, ...]
    offset: Bases
    block: Bases
    out_rank: int = 0    # rank when there are no bases at all (`{order = [0, 1], shape = [1, 1]}`); else 0
    kind = "shared"

    @property
    def rank(self) -> int:
        for bases in (self.offset, self.block):
            if bases:
                return len(bases[0])
        return self.out_rank

    def out_sizes(self) -> list[int]:
        """Out-dim sizes inferred from the bases (NextPow2 rule), as Triton stores them."""
        sizes = [1] * self.rank
        for b in list(self.offset) + list(self.block):
            for d, v in enumerate(b):
                sizes[d] = max(sizes[d], next_pow2(v))
        return sizes

    def order(self) -> list[int]:
        """Triton's getOrder(): dims in order of first appearance in the offset bases, then the
        remaining dims from rank-1 down to 0."""
        order = []
        for b in self.offset:
            for d, v in enumerate(b):
                if v:
                    if d not in order:
                        order.append(d)
                    break
        for d in range(self.rank - 1, -1, -1):
            if d not in order:
                order.append(d)
        return order

    def __str__(self) -> str:
        pads = ", ".join(f"{i}:+{p}" for i, p in zip(self.intervals, self.paddings))
        shape, order = self.out_sizes(), self.order()
        identity = tuple(tuple((1 << k) if i == d else 0 for i in range(self.rank))
                         for d in order for k in range(log2(shape[d])))
        if not self.block and tuple(map(tuple, self.offset)) == identity:
            body = f"order = {int_list(order)}, shape = {int_list(shape)}"
        else:
            body = f"offset = {int_lists(self.offset)}, block = {int_lists(self.block)}"
        return f"#ttg.padded_shared<[{pads}] {{{body}}}>"


@frozen
class PartitionedSharedEncoding:
    num_partitions: int
    num_groups: int
    partition_dim: int
    partition_layout: Shared
    kind = "shared"

    @property
    def rank(self) -> int:
        return self.partition_layout.rank

    def __str__(self) -> str:
        return (f"#ttg.partitioned_shared<{{numPartitions = {self.num_partitions}, numGroups = {self.num_groups}, "
                f"partitionDim = {self.partition_dim}, partitionLayout = {self.partition_layout}}}>")


@frozen
class TensorMemoryEncoding:
    block_m: int
    block_n: int
    col_stride: int
    cga: Bases = ()
    two_ctas: bool = False
    fp4_padded: bool = False
    kind = None

    def __str__(self) -> str:
        two = ", twoCTAs = true" if self.two_ctas else ""
        fp4 = ", fp4Padded = true" if self.fp4_padded else ""
        return (f"#ttng.tensor_memory_encoding<blockM = {self.block_m}, blockN = {self.block_n}, "
                f"colStride = {self.col_stride}{_cga(self.cga)}{two}{fp4}>")


@frozen
class TensorMemoryScalesEncoding:
    cga: Bases = ()
    block_rep_order: str = "mnThenK"
    kind = None

    def __str__(self) -> str:
        parts = []
        if self.cga:
            parts.append(f"CGALayout = {int_lists(self.cga)}")
        if self.block_rep_order != "mnThenK":
            parts.append(f"blockRepOrder = {self.block_rep_order}")
        return f"#ttng.tensor_memory_scales_encoding<{', '.join(parts)}>"


@frozen
class OtherAttribute:
    """Any attribute that is not a layout (builtin values, #ttg.shared_memory, loc(...)); kept as its text."""
    text: str
    kind = None

    def __str__(self) -> str:
        return self.text


@frozen
class TensorType:
    shape: tuple[int, ...] | None     # None = unranked (tensor<*x...>); -1 entries = dynamic '?'
    element: str

    def __str__(self) -> str:
        if self.shape is None:
            return f"tensor<*x{self.element}>"
        dims = "".join(("?" if d < 0 else str(d)) + "x" for d in self.shape)
        return f"tensor<{dims}{self.element}>"


TYPE_CHECKING = False
if TYPE_CHECKING:      # for annotations only: `frozen` reads a record's field names, never their types
    Distributed = (BlockedEncoding | SliceEncoding | DotOperandEncoding | NvidiaMmaEncoding | AMDMfmaEncoding
                   | AMDWmmaEncoding | LinearEncoding)
    Shared = (SwizzledSharedEncoding | NVMMASharedEncoding | SharedLinearEncoding | PaddedSharedEncoding
              | PartitionedSharedEncoding)
