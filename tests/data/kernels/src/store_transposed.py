"""A tile loaded row-major and stored column-major without tl.trans: the store's pointers are contiguous along
dim 0 while the loaded tile's layout runs along dim 1."""
import triton
import triton.language as tl


@triton.jit
def store_transposed(in_ptr, out_ptr, in_stride, out_stride, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    tile = tl.load(in_ptr + rows[:, None] * in_stride + cols[None, :])
    tl.store(out_ptr + cols[None, :] * out_stride + rows[:, None], tile * 2.0)
