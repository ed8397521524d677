"""Column maxima of one wide row-major f32 tile (tl.max along axis 0): at [16, 512] with 4 warps the lanes and
warps all lie across the reduced axis, so each thread reduces its own registers."""
import triton
import triton.language as tl


@triton.jit
def reduce_max_axis0_wide(x_ptr, out_ptr, n_rows, n_cols, row_stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * row_stride + cols[None, :], mask=mask, other=-float("inf"))
    tl.store(out_ptr + cols, tl.max(x, axis=0), mask=cols < n_cols)
