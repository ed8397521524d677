"""Row-wise softmax over a block of rows: two row reductions broadcast back over the row."""
import triton
import triton.language as tl


@triton.jit
def softmax(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(in_ptr + rows[:, None] * in_row_stride + cols[None, :], mask=mask,
                other=-float("inf")).to(tl.float32)
    shifted = x - tl.max(x, axis=1)[:, None]
    num = tl.exp(shifted)
    den = tl.sum(num, axis=1)
    y = num / den[:, None]
    tl.store(out_ptr + rows[:, None] * out_row_stride + cols[None, :], y.to(tl.float16), mask=mask)
