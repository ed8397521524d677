"""A 3-D tile [B, M, N] loaded at once (batch stride, row stride, contiguous columns), reduced over the batch."""
import triton
import triton.language as tl


@triton.jit
def load_3d(x_ptr, out_ptr, batch_stride, row_stride,
            BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.arange(0, BLOCK_B)
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.arange(0, BLOCK_N)
    offs = b[:, None, None] * batch_stride + m[None, :, None] * row_stride + n[None, None, :]
    x = tl.load(x_ptr + offs)
    total = tl.sum(x, axis=0)
    tl.store(out_ptr + m[:, None] * BLOCK_N + n[None, :], total)
