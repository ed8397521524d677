"""Copy one block through device-side tensor descriptors (a TMA load, a TMA store): scripts/make_tma_cases.py."""
import triton
import triton.language as tl


@triton.jit
def tma_copy_2d(src, dst, M, N, BM: tl.constexpr, BN: tl.constexpr):
    a = tl.make_tensor_descriptor(src, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    c = tl.make_tensor_descriptor(dst, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    x = a.load([0, 0])
    c.store([0, 0], x)


@triton.jit
def tma_copy_3d(src, dst, L, M, N, BL: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    a = tl.make_tensor_descriptor(src, shape=[L, M, N], strides=[M * N, N, 1], block_shape=[BL, BM, BN])
    c = tl.make_tensor_descriptor(dst, shape=[L, M, N], strides=[M * N, N, 1], block_shape=[BL, BM, BN])
    x = a.load([0, 0, 0])
    c.store([0, 0, 0], x)
