"""Column sums of a [BLOCK_M, BLOCK_N] window of a column-major f32 matrix that starts at a runtime row (tl.sum
along axis 0). The loads run along axis 0 but the start row is not 16-divisible, so nothing is vectorized: at
[64, 64] with 4 warps on NVIDIA the lanes (32) and two of the warps lie along the reduced axis."""
import triton
import triton.language as tl


@triton.jit
def reduce_sum_axis0_colmajor(x_ptr, out_ptr, row_start, n_rows, n_cols, col_stride,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = row_start + tl.arange(0, BLOCK_M)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] + cols[None, :] * col_stride, mask=mask, other=0.0)
    tl.store(out_ptr + cols, tl.sum(x, axis=0), mask=cols < n_cols)
