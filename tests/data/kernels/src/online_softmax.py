"""Softmax of long rows with an online loop (running maximum and sum), then a second loop that writes."""
import triton
import triton.language as tl


@triton.jit
def online_softmax(out_ptr, in_ptr, row_stride, n_cols, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    in_row = in_ptr + row * row_stride
    m = tl.full([BLOCK_N], -float("inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(in_row + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    row_max = tl.max(m, axis=0)
    den = tl.sum(s * tl.exp(m - row_max), axis=0)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(in_row + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - row_max) / den
        tl.store(out_ptr + row * row_stride + cols, y.to(tl.float16), mask=cols < n_cols)
