"""fp16 matmul whose epilogue adds a bias, applies ReLU and writes the tile transposed (C^T, row-major)."""
import triton
import triton.language as tl


@triton.jit
def matmul_epilogue_transpose(a_ptr, b_ptr, bias_ptr, ct_ptr, M, N, K, stride_am, stride_bk,
                              stride_ctn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                              BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    bias = tl.load(bias_ptr + offs_n)
    out = tl.maximum(acc + bias[None, :].to(tl.float32), 0.0).to(tl.float16)
    out_t = tl.trans(out)
    ct_ptrs = ct_ptr + offs_n[:, None] * stride_ctn + offs_m[None, :]
    tl.store(ct_ptrs, out_t, mask=(offs_n[:, None] < N) & (offs_m[None, :] < M))
