"""Row maxima of one row-major f32 tile (tl.max along axis 1): at [64, 64] with 4 warps the warps lie across the
reduced axis, so the reduction stays inside each warp (registers and lane shuffles)."""
import triton
import triton.language as tl


@triton.jit
def reduce_max_axis1(x_ptr, out_ptr, n_rows, n_cols, row_stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * row_stride + cols[None, :], mask=mask, other=-float("inf"))
    tl.store(out_ptr + rows, tl.max(x, axis=1), mask=rows < n_rows)
