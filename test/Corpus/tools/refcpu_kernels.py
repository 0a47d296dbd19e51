"""refcpu's own corpus additions (issues 4 and 5): dots of every supported
kind, block pointers with boundary checks on every edge, tensor descriptors,
scatter stores, atomic_cas, reverse scans, cumprod and libdevice calls.

Generate on a machine with Triton 3.6 and a GPU:
    python3 gen.py refcpu RAW && python3 gen_blockptr.py refcpu BP
then here: python3 finalize.py RAW BP OUT
"""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

from casekit import case

g = torch.Generator().manual_seed(4321)


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=g, dtype=torch.float32).to(dtype)


def randint(lo, hi, *shape, dtype=torch.int32):
    return torch.randint(lo, hi, shape, generator=g, dtype=torch.int64).to(dtype)


# Device-side tensor descriptors need a global scratch allocator on the GPU.
triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))


# 1. bf16 matmul with fp32 accumulation -----------------------------------------------
@triton.jit
def matmul_bf16(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def _bf16_args(M=100, N=72, K=90):
    a, b = randn(M, K, dtype=torch.bfloat16), randn(K, N, dtype=torch.bfloat16)
    c = torch.zeros(M, N)
    return [a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1)]


case(name="matmul_bf16", kernel=matmul_bf16, make_args=_bf16_args,
     constexprs=dict(BM=32, BN=32, BK=32),
     grid=lambda a: (triton.cdiv(a[3], 32), triton.cdiv(a[4], 32)),
     reference=lambda a: {2: (a[0].double() @ a[1].double()).float()}, outputs=[2],
     atol=2e-3, rtol=2e-3)


# 2. batched 3D dot ---------------------------------------------------------------------
@triton.jit
def dot_batched(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                K: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rka = tl.arange(0, K)[None, None, :]
    rkb = tl.arange(0, K)[None, :, None]
    a = tl.load(a_ptr + rb * M * K + rm * K + rka)
    b = tl.load(b_ptr + rb * K * N + rkb * N + rn)
    c = tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rb * M * N + rm * N + rn, c)


case(name="dot_batched_3d", kernel=dot_batched,
     make_args=lambda: [randn(4, 16, 32), randn(4, 32, 16), torch.zeros(4, 16, 16)],
     constexprs=dict(B=4, M=16, N=16, K=32), grid=lambda a: (1,),
     reference=lambda a: {2: torch.bmm(a[0].double(), a[1].double()).float()}, outputs=[2],
     atol=1e-4, rtol=1e-4)


# 3. int8 x int8 -> int32 dot -------------------------------------------------------------
@triton.jit
def dot_int8(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b))


case(name="dot_int8", kernel=dot_int8,
     make_args=lambda: [randint(-128, 128, 32, 64, dtype=torch.int8),
                        randint(-128, 128, 64, 32, dtype=torch.int8),
                        torch.zeros(32, 32, dtype=torch.int32)],
     constexprs=dict(M=32, N=32, K=64), grid=lambda a: (1,),
     reference=lambda a: {2: (a[0].long() @ a[1].long()).int()}, outputs=[2])


# 4. matmul whose K loop uses block pointers, boundary checks on every edge -----------------
@triton.jit
def matmul_blockptr(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_blk = tl.make_block_ptr(a_ptr, shape=(M, K), strides=(sam, sak), offsets=(pid_m * BM, 0),
                              block_shape=(BM, BK), order=(1, 0))
    b_blk = tl.make_block_ptr(b_ptr, shape=(K, N), strides=(sbk, sbn), offsets=(0, pid_n * BN),
                              block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_blk = tl.advance(a_blk, (0, BK))
        b_blk = tl.advance(b_blk, (BK, 0))
    c_blk = tl.make_block_ptr(c_ptr, shape=(M, N), strides=(scm, scn), offsets=(pid_m * BM, pid_n * BN),
                              block_shape=(BM, BN), order=(1, 0))
    tl.store(c_blk, acc, boundary_check=(0, 1))


def _mmbp_args(M=77, N=45, K=70):
    a, b = randn(M, K), randn(K, N)
    c = torch.zeros(M, N)
    return [a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            c.stride(0), c.stride(1)]


case(name="matmul_blockptr", kernel=matmul_blockptr, make_args=_mmbp_args,
     constexprs=dict(BM=32, BN=16, BK=16),
     grid=lambda a: (triton.cdiv(a[3], 32), triton.cdiv(a[4], 16)),
     reference=lambda a: {2: (a[0].double() @ a[1].double()).float()}, outputs=[2],
     atol=1e-3, rtol=1e-4)


# 5. dot with an epilogue: bias add + leaky relu -------------------------------------------
@triton.jit
def dot_epilogue(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K: tl.constexpr,
                 BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=rm[:, None] < M, other=0.0)
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
    acc = tl.dot(a, b, input_precision="ieee")
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0)
    y = acc + bias[None, :]
    y = tl.where(y > 0, y, 0.01 * y)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], y, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _epi_ref(a):
    y = a[0].double() @ a[1].double() + a[2].double()[None, :]
    return {3: torch.where(y > 0, y, 0.01 * y).float()}


case(name="dot_epilogue", kernel=dot_epilogue,
     make_args=lambda: [randn(50, 32), randn(32, 30), randn(30), torch.zeros(50, 30), 50, 30],
     constexprs=dict(K=32, BM=16, BN=32), grid=lambda a: (triton.cdiv(50, 16),),
     reference=_epi_ref, outputs=[3], atol=1e-4, rtol=1e-4)


# 6. tensor descriptors: a 2D tiled copy with scaling --------------------------------------
@triton.jit
def tensor_desc_scale(x_ptr, y_ptr, M, N, alpha, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    x = xd.load([pid_m * BM, pid_n * BN])
    yd.store([pid_m * BM, pid_n * BN], x * alpha)


case(name="tensor_desc_scale", kernel=tensor_desc_scale,
     make_args=lambda: [randn(40, 36), torch.zeros(40, 36), 40, 36, 1.5],
     constexprs=dict(BM=16, BN=16), grid=lambda a: (triton.cdiv(40, 16), triton.cdiv(36, 16)),
     reference=lambda a: {1: a[0] * 1.5}, outputs=[1])


# 7. scatter store: destinations loaded from memory ----------------------------------------
@triton.jit
def scatter_store(src_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    idx = tl.load(idx_ptr + offs, mask=m, other=0)
    v = tl.load(src_ptr + offs, mask=m)
    tl.store(out_ptr + idx, v * 2.0, mask=m)


def _scatter_args(n=3000):
    return [randn(n), torch.randperm(n, generator=g).to(torch.int32), torch.zeros(n), n]


def _scatter_ref(a):
    out = torch.zeros_like(a[2])
    out[a[1].long()] = a[0] * 2.0
    return {2: out}


case(name="scatter_store", kernel=scatter_store, make_args=_scatter_args,
     constexprs=dict(BLOCK=256), grid=lambda a: (triton.cdiv(3000, 256),),
     reference=_scatter_ref, outputs=[2])


# 8. atomic_cas, scalar and tensor ---------------------------------------------------------
@triton.jit
def atomic_cas_slots(slot_ptr, old_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    # Each lane owns one slot: swap in pid+1 where the slot holds its even index.
    cmp = tl.where(offs % 2 == 0, offs, -1)
    old = tl.atomic_cas(slot_ptr + offs, cmp, offs * 0 + pid + 1)
    tl.store(old_ptr + offs, old)
    # A scalar CAS per program on a shared counter slot (never matching).
    tl.atomic_cas(slot_ptr + pid * BLOCK, -7, 1000)


def _cas_ref(a):
    slots = a[0].clone()
    idx = torch.arange(slots.numel())
    pid = idx // 64
    hit = (idx % 2 == 0) & (slots == idx.int())
    old = slots.clone()
    slots = torch.where(hit, (pid + 1).int(), slots)
    return {0: slots, 1: old}


case(name="atomic_cas_slots", kernel=atomic_cas_slots,
     make_args=lambda: [torch.where(torch.rand(512, generator=g) < 0.7, torch.arange(512), randint(0, 9, 512).long()).int(),
                        torch.zeros(512, dtype=torch.int32)],
     constexprs=dict(BLOCK=64), grid=lambda a: (8,),
     reference=_cas_ref, outputs=[0, 1])


# 9. reverse cumsum along rows, cumprod along columns ------------------------------------------
@triton.jit
def scans_2d(x_ptr, rev_ptr, prod_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    tl.store(rev_ptr + r * C + c, tl.cumsum(x, axis=1, reverse=True))
    tl.store(prod_ptr + r * C + c, tl.cumprod(x, axis=0))


def _scan_ref(a):
    x = a[0].double()
    return {1: x.flip(1).cumsum(1).flip(1).float(), 2: x.cumprod(0).float()}


case(name="scans_2d", kernel=scans_2d,
     make_args=lambda: [(torch.rand(16, 32, generator=g) * 0.5 + 0.75), torch.zeros(16, 32), torch.zeros(16, 32)],
     constexprs=dict(R=16, C=32), grid=lambda a: (1,),
     reference=_scan_ref, outputs=[1, 2], atol=1e-4, rtol=1e-4)


# 10. libdevice calls ----------------------------------------------------------------------
@triton.jit
def libdevice_mix(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    r = libdevice.tanh(x) + libdevice.erf(x) * libdevice.pow(y, 1.5) + libdevice.atan2(x, y)
    r = r + libdevice.log1p(y) - libdevice.rsqrt(y) + libdevice.expm1(x * 0.1)
    tl.store(out_ptr + offs, r, mask=m)


def _ld_ref(a):
    x, y = a[0].double(), a[1].double()
    r = torch.tanh(x) + torch.erf(x) * y.pow(1.5) + torch.atan2(x, y)
    r = r + torch.log1p(y) - torch.rsqrt(y) + torch.expm1(x * 0.1)
    return {2: r.float()}


case(name="libdevice_mix", kernel=libdevice_mix,
     make_args=lambda: [randn(2000) * 2, torch.rand(2000, generator=g) * 4 + 0.1, torch.zeros(2000), 2000],
     constexprs=dict(BLOCK=512), grid=lambda a: (triton.cdiv(2000, 512),),
     reference=_ld_ref, outputs=[2], atol=1e-4, rtol=1e-4)


# 11. microscaled dot: fp8 e4m3 operands with e8m0 scales per 32 K-elements ---------------------
@triton.jit
def dot_scaled_e4m3(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
                    K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    rs = tl.arange(0, K // 32)
    # fp8 data arrives as uint8 bit patterns (numpy has no fp8 type).
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :]).to(tl.float8e4nv, bitcast=True)
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :]).to(tl.float8e4nv, bitcast=True)
    sa = tl.load(as_ptr + rm[:, None] * (K // 32) + rs[None, :])
    sb = tl.load(bs_ptr + rn[:, None] * (K // 32) + rs[None, :])
    c = tl.dot_scaled(a, sa, "e4m3", b, sb, "e4m3")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def _ds_args(M=32, N=32, K=64):
    a = (torch.randn(M, K, generator=g) * 2).to(torch.float8_e4m3fn)
    b = (torch.randn(K, N, generator=g) * 2).to(torch.float8_e4m3fn)
    sa = torch.randint(124, 130, (M, K // 32), generator=g, dtype=torch.int32).to(torch.uint8)
    sb = torch.randint(124, 130, (N, K // 32), generator=g, dtype=torch.int32).to(torch.uint8)
    return [a.view(torch.uint8), sa, b.view(torch.uint8), sb, torch.zeros(M, N)]


def _ds_ref(a):
    fa = a[0].view(torch.float8_e4m3fn).double()
    fb = a[2].view(torch.float8_e4m3fn).double()
    A = fa * torch.pow(2.0, a[1].double() - 127).repeat_interleave(32, dim=1)
    B = fb * torch.pow(2.0, a[3].double() - 127).repeat_interleave(32, dim=1).T
    return {4: (A @ B).float()}


case(name="dot_scaled_e4m3", kernel=dot_scaled_e4m3, make_args=_ds_args,
     constexprs=dict(M=32, N=32, K=64), grid=lambda a: (1,),
     reference=_ds_ref, outputs=[4], atol=1e-3, rtol=1e-4)
