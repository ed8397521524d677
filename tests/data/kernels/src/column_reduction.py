"""Column sums of a row-major matrix: accumulate row tiles, then reduce across rows (axis 0)."""
import triton
import triton.language as tl


@triton.jit
def column_reduction(x_ptr, out_ptr, n_rows, n_cols, row_stride,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < n_cols
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, n_rows, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < n_rows) & col_mask[None, :]
        acc += tl.load(x_ptr + rows[:, None] * row_stride + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=col_mask)
