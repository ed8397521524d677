"""Column sums of one row-major f32 tile (tl.sum along axis 0): at [64, 64] with 4 warps the warps lie along the
reduced axis, so the reduction crosses warps through shared memory (issue 23's case)."""
import triton
import triton.language as tl


@triton.jit
def reduce_sum_axis0(x_ptr, out_ptr, n_rows, n_cols, row_stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * row_stride + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + cols, tl.sum(x, axis=0), mask=cols < n_cols)
