"""Triton 3.9's attribute verification rules (shape-independent), with Triton's own messages.

Every check raises `VerifyError(<Triton's message>)`. Where Triton 3.9 aborts the process on an
attribute-only problem (a linear layout that is not surjective, negative basis values, bases of
mismatching length, ...) we raise a clean `VerifyError` instead; those messages are one-line
versions of Triton's `LLVM ERROR` text or, where Triton has no message (assertions), our own words.

Bases are tuples of tuples of ints (one inner tuple per basis, one entry per tensor dim), exactly as
stored in the dataclasses of `encodings.py`. "Out sizes" are never stored: like Triton's parser we
infer them with the NextPow2 rule (size(d) = max over bases of the smallest power of two strictly
greater than b[d], minimum 1).
"""
from __future__ import annotations

from ..engine import bit_shifts, flatten, gf2
from ..engine.bits import is_pow2, log2, next_pow2
from ..errors import VerifyError

SURJECTIVE_MSG = ("Layout is expected to be surjective, i.e. every `out` coordinate can be reached "
                  "by some `in` coordinate, but was not")


# ---------------------------------------------------------------------------------------------
# GF(2) helpers on bases
# ---------------------------------------------------------------------------------------------

def infer_out_sizes(rank: int, *basis_lists) -> list[int]:
    """Out-dim sizes the way Triton's parser infers them from the bases (NextPow2 rule, min 1)."""
    sizes = [1] * rank
    for bases in basis_lists:
        for basis in bases:
            for d, v in enumerate(basis):
                n = next_pow2(v)
                if n > sizes[d]:
                    sizes[d] = n
    return sizes


def _flat(sizes, bases) -> list[int]:
    """Bases flattened with dim0 in the least significant bits (Triton's flattenOuts)."""
    return flatten(bases, bit_shifts(sizes))


def is_surjective(sizes, *basis_lists) -> bool:
    total_bits = sum(log2(s) for s in sizes)
    return gf2.rank(_flat(sizes, [b for bases in basis_lists for b in bases])) == total_bits


def is_permutation_matrix(sizes, *basis_lists) -> bool:
    """Triton's isPermutationMatrixLayout: after dropping zero bases every basis is a single bit
    of the flattened output and the remaining bases are invertible (cover every bit exactly once)."""
    total_bits = sum(log2(s) for s in sizes)
    flats = [f for f in _flat(sizes, [b for bases in basis_lists for b in bases]) if f]
    if not all(is_pow2(f) for f in flats):
        return False
    return len(flats) == total_bits and len(set(flats)) == total_bits


def check_bases(bases_by_dim, rank: int, what: str = "LinearLayout") -> None:
    """Basis shape/value sanity checks Triton only asserts on (or aborts with LLVM ERROR)."""
    for dim, bases in bases_by_dim:
        for basis in bases:
            if len(basis) != rank:
                raise VerifyError(
                    f"every basis of a {what} must have {rank} entries (the rank deduced from the "
                    f"first basis), but a basis of '{dim}' has {len(basis)}: [{', '.join(map(str, basis))}]")
            for v in basis:
                if v < 0:
                    raise VerifyError(
                        "Invalid bases passed to LinearLayout.  Expected all basis values to be "
                        f"non-negative, but found a negative value for in dimension '{dim}'.")


def check_surjective(sizes, bases_by_dim, message: str = SURJECTIVE_MSG) -> None:
    if not is_surjective(sizes, *[b for _, b in bases_by_dim]):
        raise VerifyError(message)


# ---------------------------------------------------------------------------------------------
# CGA layout (block bases)
# ---------------------------------------------------------------------------------------------

def verify_cga(cga, rank: int) -> None:
    """CGAEncodingAttr::verify (entries already have length `rank`)."""
    check_bases([("block", cga)], rank)
    sizes = infer_out_sizes(rank, cga)
    if not is_permutation_matrix(sizes, cga):
        raise VerifyError("After removing broadcast bases the CGA encoding must be a permutation matrix")


# ---------------------------------------------------------------------------------------------
# per-kind verifiers (Triton's `verify` methods, in Triton's order)
# ---------------------------------------------------------------------------------------------

def _is_permutation(order) -> bool:
    return sorted(order) == list(range(len(order)))


def _order_str(order) -> str:
    return ", ".join(str(x) for x in order)


def verify_order(order) -> None:
    if not _is_permutation(order):
        raise VerifyError(f"order must be a permutation of 0..(rank-1), but was [{_order_str(order)}]")


def verify_blocked(size_per_thread, threads_per_warp, warps_per_cta, order, cga_rank: int) -> None:
    if not (len(size_per_thread) == len(threads_per_warp) == len(warps_per_cta) == len(order)):
        raise VerifyError("sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have the same rank.")
    for name, values in (("sizePerThread", size_per_thread), ("threadsPerWarp", threads_per_warp),
                         ("warpsPerCTA", warps_per_cta)):
        if any(not is_pow2(x) for x in values):
            raise VerifyError(f"Every element in {name} must be a power of two.")
    if len(order) != cga_rank:
        raise VerifyError("BlockedEncodingAttr and CGALayout's fields must have the same rank.")
    verify_order(order)


def verify_slice(dim: int, parent_rank: int) -> None:
    if parent_rank <= 1:
        raise VerifyError("parent layout must have at least rank >= 2")
    if dim >= parent_rank:
        raise VerifyError(f"slice dim={dim} must be less than the parent rank={parent_rank}")


def verify_dot_operand(op_idx: int, parent, k_width: int) -> None:
    from .encodings import AMDMfmaEncoding, AMDWmmaEncoding, BlockedEncoding, NvidiaMmaEncoding
    if op_idx not in (0, 1):
        raise VerifyError(f"ttg.dot_op opIdx parameter can be 0 or 1, got: {op_idx}")
    if isinstance(parent, NvidiaMmaEncoding):
        ampere_or_hopper = parent.version_major in (2, 3)
        if k_width != 0 and not ampere_or_hopper:
            raise VerifyError("ttg.dot_op kWidth parameter can only be non-zero for Ampere or Hopper MMA parent")
        if k_width == 0 and ampere_or_hopper:
            raise VerifyError("ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent")
        if op_idx != 0 and parent.version_major == 3:
            raise VerifyError("ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper "
                              "WGMMA only allows first operand to be in registers")
        return
    if isinstance(parent, AMDWmmaEncoding):
        if parent.version == 1 and k_width not in (8, 16):
            raise VerifyError("ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 "
                              "(including packed cases for `scaled_dot`)")
        if parent.version == 2 and k_width not in (4, 8, 16):
            raise VerifyError("ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 "
                              "(including packed cases for `scaled_dot`)")
        if parent.version == 3 and k_width == 0:
            raise VerifyError("ttg.dot_op kWidth parameter is mandatory for WMMA v3 ")
        return
    if isinstance(parent, AMDMfmaEncoding):
        if k_width == 0:
            raise VerifyError("ttg.dot_op kWidth parameter is mandatory for MFMA parent")
        return
    if isinstance(parent, BlockedEncoding):
        if k_width != 0:
            raise VerifyError("ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout")
        return
    from .values import print_value
    raise VerifyError(f"ttg.dot_op unexpected parent layout: {print_value(parent, top=True)}")


def verify_nvidia_mma(version_major: int) -> None:
    if version_major == 1:
        raise VerifyError("Volta (versionMajor = 1) is deprecated and no longer supported")
    if version_major not in (2, 3):
        raise VerifyError(f"versionMajor must be 2 (Ampere) or 3 (Hopper), got {version_major}")


def verify_amd_mfma(version: int, instr_shape, element_bit_width: int) -> None:
    if not 0 <= version <= 4:
        raise VerifyError("version must be in the [0, 4] range")
    if len(instr_shape) < 2:
        # Triton indexes instrShape[0] and [1] unchecked (assertion abort).
        raise VerifyError(f"instrShape must have 2 or 3 entries ([mDim, nDim] or [mDim, nDim, kDim]), "
                          f"got [{_order_str(instr_shape)}]")
    m, n = instr_shape[0], instr_shape[1]
    if (m, n) not in ((32, 32), (16, 16), (64, 4), (4, 64)):
        raise VerifyError(f"invalid (mDim, nDim) combination: ({m}, {n})")
    if element_bit_width not in (32, 64):
        raise VerifyError("elementBitWidth must be 32 or 64")


_WMMA_SHAPES = {
    1: [(16, 16, 16)],
    2: [(16, 16, 16), (16, 16, 32)],
    3: [(16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128), (32, 16, 64), (32, 16, 128)],
}


def verify_amd_wmma(version: int, instr_shape) -> None:
    if not 1 <= version <= 3:
        raise VerifyError("WMMA version must be in the [1, 3] range")
    if tuple(instr_shape) not in _WMMA_SHAPES[version]:
        raise VerifyError(f"invalid WMMA v{version} instruction shape")


def verify_linear(register, lane, warp, block, rank: int, generic: bool) -> None:
    """Construction checks (Triton aborts on these) then Linear/GenericLinearEncodingAttr::verify."""
    named = [("register", register), ("lane", lane), ("warp", warp), ("block", block)]
    check_bases(named, rank)
    sizes = infer_out_sizes(rank, register, lane, warp, block)
    if generic:
        check_surjective(sizes, named, "Generic linear layout must be surjective, i.e. all output "
                                       "values must be covered by some input.")
        for name, bases in (("register", register), ("lane", lane), ("block", block)):
            if any(sum(1 for v in b if v) > 1 for b in bases):
                raise VerifyError("In a generic linear layout, register, lane, and block bases must move "
                                  f"in at most one dimension. Swizzled bases found in '{name}'.")
        return
    check_surjective(sizes, named)
    if not is_permutation_matrix(sizes, register, lane, warp, block):
        raise VerifyError("LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases")


def verify_wmma_cta_layout(register, warp, rank: int) -> None:
    named = [("register", register), ("warp", warp)]
    check_bases(named, rank)
    check_surjective(infer_out_sizes(rank, register, warp), named)


def verify_swizzled(order, cga_rank: int) -> None:
    if len(order) != cga_rank:
        raise VerifyError(f"order size ({len(order)}) must match CGALayout rank ({cga_rank})")
    verify_order(order)


def verify_nvmma_shared(swizzling_byte_width: int, element_bit_width: int) -> None:
    if element_bit_width == 0:
        raise VerifyError("elementBitWidth must be non-zero")
    if swizzling_byte_width not in (0, 32, 64, 128):
        raise VerifyError("swizzlingByteWidth must be 0, 32, 64, or 128")


def verify_shared_linear(offset, block, alignment: int, rank: int) -> None:
    named = [("offset", offset), ("block", block)]
    check_bases(named, rank)
    sizes = infer_out_sizes(rank, offset, block)
    check_surjective(sizes, named)      # Triton: LLVM ERROR at construction
    if alignment == 0 or not is_pow2(alignment):
        raise VerifyError("alignment must be a positive power of two")
    if not is_surjective(sizes, offset, block):
        raise VerifyError("The layout must be surjective")
    nonzero = [f for f in _flat(sizes, list(offset) + list(block)) if f]
    total_bits = sum(log2(s) for s in sizes)
    if not (len(nonzero) == total_bits and gf2.rank(nonzero) == total_bits):
        raise VerifyError("After removing the zero bases the layout must be bijective")


def verify_padded_shared(intervals, paddings, offset, block, rank: int, has_block_dim: bool = True) -> None:
    named = [("offset", offset), ("block", block)]
    check_bases(named, rank)
    sizes = infer_out_sizes(rank, offset, block)
    check_surjective(sizes, named)      # Triton: LLVM ERROR at construction
    if len(intervals) != len(paddings):
        raise VerifyError(f"intervals size ({len(intervals)}) must match paddings size ({len(paddings)})")
    if not intervals:
        raise VerifyError("must have at least one interval-padding pair")
    if not all(is_pow2(x) for x in intervals):
        raise VerifyError("interval values must all be power of two")
    if not all(is_pow2(x) for x in paddings):
        raise VerifyError("padding values must all be power of two")
    if len(set(intervals)) != len(intervals):
        raise VerifyError("interval values cannot have duplicates")
    if rank == 0 or not has_block_dim:
        raise VerifyError("linearComponent must have [offset, block] as input dims")
    flats = _flat(sizes, offset)
    if gf2.rank(flats) != len(flats):
        raise VerifyError("Broadcasting in offset dimension is not supported.")
    for bases in (offset, block):
        if any(sum(1 for v in b if v) > 1 for b in bases):
            raise VerifyError("Each offset basis must move in at most one dimension.")
        if any(v and not is_pow2(v) for b in bases for v in b):
            raise VerifyError("Each offset basis must be 0 or a power of two.")


def verify_partitioned(num_partitions: int, num_groups: int, partition_dim: int, rank: int) -> None:
    if num_partitions < 2 or not is_pow2(num_partitions):
        raise VerifyError("numPartitions must be a power of 2 and at least 2")
    if num_groups == 0 or not is_pow2(num_groups):
        raise VerifyError("numGroups must be a power of 2 and greater than 0")
    if partition_dim >= rank:
        raise VerifyError(f"partitionDim ({partition_dim}) must be less than the layout rank ({rank})")


def verify_tensor_memory(block_m: int, block_n: int, col_stride: int, cga, two_ctas: bool,
                         fp4_padded: bool = False) -> None:
    if two_ctas and (not cga or tuple(cga[0]) != (1, 0)):
        raise VerifyError("twoCTAs layout requires the first CGALayout block basis to be [1, 0]")
    if block_m not in (64, 128):
        raise VerifyError(f"blockM must be 64 or 128 but got {block_m}")
    if not is_pow2(block_n):
        raise VerifyError(f"blockN must be a power of 2 but got {block_n}")
    if block_n > 512:
        raise VerifyError(f"blockN must be less than or equal to 512 but got {block_n}")
    if col_stride not in (1, 2, 4):
        # sic: Triton 3.9 prints "but got" twice.
        raise VerifyError(f"colStride must be 1, 2, or 4 but got but got {col_stride}")
    if fp4_padded and col_stride != 1:
        raise VerifyError(f"fp4Padded tensor memory layout requires colStride 1 but got {col_stride}")


def verify_linear_encoding(encoding) -> None:
    """The checks Triton runs on a `#ttg.linear` / `#ttg.generic_linear` / `#ttg.shared_linear` it parses, on one
    built in code (an encoding of `encodings.py`): `VerifyError` where Triton would refuse its print. The rank is
    the first basis's length, as the parser takes it; a layout without bases is refused, as the parser does."""
    from .encodings import GenericLinearEncoding, SharedLinearEncoding
    rank = encoding.rank
    if rank == 0:
        raise VerifyError("Empty Layout not supported")
    if isinstance(encoding, SharedLinearEncoding):
        verify_shared_linear(encoding.offset, encoding.block, encoding.alignment, rank)
    else:
        verify_linear(encoding.register, encoding.lane, encoding.warp, encoding.block, rank,
                      isinstance(encoding, GenericLinearEncoding))
