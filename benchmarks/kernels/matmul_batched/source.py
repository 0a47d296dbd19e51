# A batched matmul with a 3-D tt.dot: each program multiplies BLOCK_B
# matrices' [BLOCK_M, BLOCK_K] x [BLOCK_K, BLOCK_N] blocks at once, over a
# masked K loop, the batch in the second grid dimension.
# benchmarks/tools/gen_matmul_ttir.py compiles it with real Triton at each
# block configuration of kernel.<dtype>.<BB>x<BMxBNxBK>.ttir.
import triton
import triton.language as tl


@triton.jit
def matmul_batched(a_ptr, b_ptr, c_ptr, BATCH, M, N, K, stride_ab, stride_am, stride_ak,
                   stride_bb, stride_bk, stride_bn, stride_cb, stride_cm, stride_cn,
                   BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_b = tl.program_id(axis=1) * BLOCK_B + tl.arange(0, BLOCK_B)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = (a_ptr + offs_b[:, None, None] * stride_ab + offs_m[None, :, None] * stride_am +
              offs_k[None, None, :] * stride_ak)
    b_ptrs = (b_ptr + offs_b[:, None, None] * stride_bb + offs_k[None, :, None] * stride_bk +
              offs_n[None, None, :] * stride_bn)
    rows = (offs_b[:, None, None] < BATCH) & (offs_m[None, :, None] < M)
    cols = (offs_b[:, None, None] < BATCH) & (offs_n[None, None, :] < N)
    accumulator = tl.zeros((BLOCK_B, BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=rows & (offs_k[None, None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_ptrs, mask=cols & (offs_k[None, :, None] < K - k * BLOCK_K), other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)
    c_ptrs = (c_ptr + offs_b[:, None, None] * stride_cb + offs_m[None, :, None] * stride_cm +
              offs_n[None, None, :] * stride_cn)
    tl.store(c_ptrs, c, mask=rows & cols)
