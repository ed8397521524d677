"""Row sums of one wide row-major f32 tile (tl.sum along axis 1): at [16, 256] with 8 warps the warps lie both
along the reduced axis (2) and across it (4)."""
import triton
import triton.language as tl


@triton.jit
def reduce_sum_axis1_wide(x_ptr, out_ptr, n_rows, n_cols, row_stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * row_stride + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rows, tl.sum(x, axis=1), mask=rows < n_rows)
