"""Corpus additions for the structured access path (issues 3 and 4): loops
that advance pointer and offset tensors, masks with lower and upper bounds,
negative strides, column-major operands, and a load and store of the same
memory in one program.

Generate on a machine with Triton 3.6 and a GPU:
    python3 gen.py strided RAW
then here: python3 finalize.py RAW EMPTY_DIR OUT
"""
import torch
import triton
import triton.language as tl

from casekit import case

g = torch.Generator().manual_seed(2718)


def randn(*shape):
    return torch.randn(*shape, generator=g, dtype=torch.float32)


# 1. The tutorial matmul: pointer tensors advanced in the K loop, B column-major ---------
@triton.jit
def matmul_kloop(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BK) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c_ptrs = c_ptr + offs_m[:, None] * scm + offs_n[None, :] * scn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _kloop_args(M=70, N=50, K=83):
    a = randn(M, K)
    b_cm = randn(N, K)  # B[k, n] = b_cm[n, k]: unit stride along K
    c = torch.zeros(M, N)
    return [a, b_cm, c, M, N, K, K, 1, 1, K, N, 1]


case(name="matmul_kloop", kernel=matmul_kloop, make_args=_kloop_args,
     constexprs=dict(BM=32, BN=32, BK=16),
     grid=lambda a: (triton.cdiv(a[3], 32), triton.cdiv(a[4], 32)),
     reference=lambda a: {2: (a[0].double() @ a[1].double().T).float()}, outputs=[2],
     atol=1e-3, rtol=1e-4)


# 2. Windowed copy: masks with lower and upper bounds, nonzero other ------------------------
@triton.jit
def window_copy(x_ptr, y_ptr, R, C, lo, hi, BR: tl.constexpr, BC: tl.constexpr):
    rows = tl.program_id(0) * BR + tl.arange(0, BR)
    cols = tl.program_id(1) * BC + tl.arange(0, BC)
    inside = (rows[:, None] < R) & (cols[None, :] < C)
    window = inside & (cols[None, :] >= lo) & (cols[None, :] <= hi)
    x = tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=window, other=-3.0)
    tl.store(y_ptr + rows[:, None] * C + cols[None, :], x * 2.0, mask=inside)


def _window_ref(a):
    x, R, C, lo, hi = a[0], a[2], a[3], a[4], a[5]
    cols = torch.arange(C)[None, :]
    y = torch.where((cols >= lo) & (cols <= hi), x, torch.full_like(x, -3.0)) * 2.0
    return {1: y}


case(name="window_copy", kernel=window_copy,
     make_args=lambda: [randn(37, 45), torch.zeros(37, 45), 37, 45, 7, 30],
     constexprs=dict(BR=16, BC=16), grid=lambda a: (triton.cdiv(37, 16), triton.cdiv(45, 16)),
     reference=_window_ref, outputs=[1])


# 3. Negative strides: rows read bottom-up through a run-time stride, columns reversed ----
@triton.jit
def flip_2d(x_ptr, y_ptr, row_stride, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    last_row = x_ptr + (R - 1) * C
    x = tl.load(last_row + r[:, None] * row_stride + c[None, :])
    tl.store(y_ptr + r[:, None] * C + c[None, :], x)
    xr = tl.load(x_ptr + r[:, None] * C + (C - 1 - c)[None, :])
    tl.store(y_ptr + R * C + r[:, None] * C + c[None, :], xr)


case(name="flip_2d", kernel=flip_2d,
     make_args=lambda: [randn(8, 16), torch.zeros(2, 8, 16), -16],
     constexprs=dict(R=8, C=16), grid=lambda a: (1,),
     reference=lambda a: {1: torch.stack([a[0].flip(0), a[0].flip(1)])}, outputs=[1])


# 4. A load and a store of the same memory in one program ----------------------------------
@triton.jit
def inplace_twice(x_ptr, old_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(x_ptr + offs, x * 3.0, mask=m)
    tl.store(old_ptr + offs, x + 1.0, mask=m)
    y = tl.load(x_ptr + offs, mask=m)
    tl.store(x_ptr + offs, y - 1.0, mask=m)


case(name="inplace_twice", kernel=inplace_twice,
     make_args=lambda: [randn(1000), torch.zeros(1000), 1000],
     constexprs=dict(BLOCK=256), grid=lambda a: (triton.cdiv(1000, 256),),
     reference=lambda a: {0: a[0] * 3.0 - 1.0, 1: a[0] + 1.0}, outputs=[0, 1])


# 5. Row sums with an offset tensor carried by the loop, result pointers after it ---------
@triton.jit
def row_sums_loop(x_ptr, out_ptr, R, C, BR: tl.constexpr, BC: tl.constexpr):
    rows = tl.program_id(0) * BR + tl.arange(0, BR)
    cols = tl.arange(0, BC)
    ptrs = x_ptr + rows[:, None] * C + cols[None, :]
    acc = tl.zeros((BR,), dtype=tl.float32)
    for _ in range(0, tl.cdiv(C, BC)):
        x = tl.load(ptrs, mask=(rows[:, None] < R) & (cols[None, :] < C), other=0.0)
        acc += tl.sum(x, axis=1)
        cols += BC
        ptrs += BC
    tl.store(out_ptr + rows, acc, mask=rows < R)


case(name="row_sums_loop", kernel=row_sums_loop,
     make_args=lambda: [randn(50, 77), torch.zeros(50), 50, 77],
     constexprs=dict(BR=16, BC=32), grid=lambda a: (triton.cdiv(50, 16),),
     reference=lambda a: {1: a[0].double().sum(1).float()}, outputs=[1], atol=1e-4, rtol=1e-4)


# 6. Triton's tutorial matmul: grouped program order, rows and columns wrapped with %, -------
#    pointers advanced in the K loop, fp16 operands with an fp32 accumulator
@triton.jit
def matmul_tutorial(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                    stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                    BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def _tutorial_args(M=100, N=72, K=80):
    a = randn(M, K).half()
    b = randn(K, N).half()
    c = torch.zeros(M, N, dtype=torch.float16)
    return [a, b, c, M, N, K, K, 1, N, 1, N, 1]


case(name="matmul_tutorial", kernel=matmul_tutorial, make_args=_tutorial_args,
     constexprs=dict(BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32, GROUP_SIZE_M=2),
     grid=lambda a: (triton.cdiv(a[3], 32) * triton.cdiv(a[4], 32),),
     reference=lambda a: {2: (a[0].double() @ a[1].double()).half()}, outputs=[2],
     atol=2e-2, rtol=1e-2)
