"""Flash-attention forward (non-causal): online softmax over key/value blocks, two dots per iteration."""
import triton
import triton.language as tl


@triton.jit
def flash_attention(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, stride_tok, stride_head, sm_scale,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    head = tl.program_id(1).to(tl.int64) * stride_head
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + head + offs_m[:, None] * stride_tok + offs_d[None, :])
    m_i = tl.full((BLOCK_M,), -float("inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, seq_len, BLOCK_N):
        kv_rows = start_n + offs_n
        k = tl.load(k_ptr + head + kv_rows[:, None] * stride_tok + offs_d[None, :])
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + head + kv_rows[:, None] * stride_tok + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + head + offs_m[:, None] * stride_tok + offs_d[None, :], out.to(tl.float16))
