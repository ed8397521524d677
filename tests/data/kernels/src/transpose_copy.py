"""Out-of-place transpose of a row-major fp32 matrix, one square tile per program."""
import triton
import triton.language as tl


@triton.jit
def transpose_copy(in_ptr, out_ptr, n_rows, n_cols, in_stride, out_stride, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(in_ptr + rows[:, None] * in_stride + cols[None, :], mask=mask)
    out_ptrs = out_ptr + cols[:, None] * out_stride + rows[None, :]
    tl.store(out_ptrs, tl.trans(tile), mask=tl.trans(mask))
