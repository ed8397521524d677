"""Row argmax of one column-major f16 tile (tl.argmax along axis 1, a two-operand reduction: value and index): the
loads run along axis 0, so at [64, 64] with 4 warps the warps lie along the reduced axis 1."""
import triton
import triton.language as tl


@triton.jit
def reduce_argmax_axis1(x_ptr, out_ptr, n_rows, n_cols, col_stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] + cols[None, :] * col_stride, mask=mask, other=-float("inf"))
    tl.store(out_ptr + rows, tl.argmax(x, axis=1), mask=rows < n_rows)
