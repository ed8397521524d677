"""Embedding-style gather: row indices loaded from memory pick whole rows (contiguous along the columns), and a
scattered gather of single elements by index (no contiguity at all); an atomic add accumulates a histogram."""
import triton
import triton.language as tl


@triton.jit
def gather_rows(table_ptr, idx_ptr, out_ptr, hist_ptr, row_stride, BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    idx = tl.load(idx_ptr + r)
    n = tl.arange(0, BLOCK_N)
    rows = tl.load(table_ptr + idx[:, None] * row_stride + n[None, :])
    picked = tl.load(table_ptr + idx * 7)
    tl.store(out_ptr + r[:, None] * BLOCK_N + n[None, :], rows + picked[:, None])
    tl.atomic_add(hist_ptr + idx % BLOCK_N, 1.0)
