"""Corpus additions for the failure classes of Triton's own unit tests on
refcpu (issue 10): scaled dots with fp4 (e2m1) operands packed along K, M
and N, a batched fp8 scaled dot, bitonic sorts (tl.sort), and a batched fp16
dot with an fp16 accumulator.

The scaled-dot references decode the operands in float64 by the OCP rules
(e2m1: sign, two exponent bits with bias 1, one mantissa bit; two codes per
byte, the lower index in the low nibble; e8m0 scales 2^(s-127)); gen.py
reports whether the GPU agrees with them. The fp16 dot's expected output is
the GPU's own (its accumulation and rounding are what refcpu must match).

Generate on a machine with Triton 3.6 and a GPU:
    python3 gen.py unittest RAW
then here: python3 finalize.py RAW EMPTY_DIR OUT
"""
import torch
import triton
import triton.language as tl

from casekit import case

g = torch.Generator().manual_seed(31337)

_FP4 = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
                     -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0], dtype=torch.float64)


def packed_fp4(*shape):
    """Random bytes: two e2m1 codes each."""
    return torch.randint(0, 256, shape, generator=g, dtype=torch.uint8)


def unpack_fp4(packed, dim):
    """float64 values of `packed` with `dim` doubled (low nibble first)."""
    lo, hi = (packed & 0xF).long(), (packed >> 4).long()
    both = torch.stack([_FP4[lo], _FP4[hi]], dim=dim + 1)
    shape = list(packed.shape)
    shape[dim] *= 2
    return both.reshape(shape)


def scales(*shape):
    """e8m0 exponents from 2^-6 to 2^6."""
    return torch.randint(121, 134, shape, generator=g, dtype=torch.uint8)


def scale_values(s, k):
    """float64 factors of e8m0 scales s[..., groups], repeated to k columns."""
    return torch.pow(2.0, s.double() - 127).repeat_interleave(k // s.shape[-1], dim=-1)


# 1. e2m1 x e2m1, both packed along K, both scaled -------------------------------------
@triton.jit
def dot_scaled_fp4(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
                   K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rkh = tl.arange(0, K // 2)
    rs = tl.arange(0, K // 32)
    a = tl.load(a_ptr + rm[:, None] * (K // 2) + rkh[None, :])
    b = tl.load(b_ptr + rkh[:, None] * N + rn[None, :])
    sa = tl.load(sa_ptr + rm[:, None] * (K // 32) + rs[None, :])
    sb = tl.load(sb_ptr + rn[:, None] * (K // 32) + rs[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def _fp4_ref(a):
    K = a[0].shape[1] * 2
    lhs = unpack_fp4(a[0], 1) * scale_values(a[1], K)
    rhs = unpack_fp4(a[2], 0) * scale_values(a[3], K).T
    return {4: (lhs @ rhs).float()}


case(name="dot_scaled_fp4", kernel=dot_scaled_fp4,
     make_args=lambda: [packed_fp4(32, 64), scales(32, 4), packed_fp4(64, 32), scales(32, 4),
                        torch.zeros(32, 32)],
     constexprs=dict(M=32, N=32, K=128), grid=lambda a: (1,), reference=_fp4_ref,
     outputs=[4], atol=1e-3, rtol=1e-4)


# 2. bf16 x e2m1 packed along N (rhs_k_pack=False), only B scaled ----------------------
@triton.jit
def dot_scaled_bf16_fp4n(a_ptr, b_ptr, sb_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
                         K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rnh = tl.arange(0, N // 2)
    rk = tl.arange(0, K)
    rs = tl.arange(0, K // 32)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * (N // 2) + rnh[None, :])
    sb = tl.load(sb_ptr + rn[:, None] * (K // 32) + rs[None, :])
    c = tl.dot_scaled(a, None, "bf16", b, sb, "e2m1", rhs_k_pack=False)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def _bf16_fp4n_ref(a):
    K = a[0].shape[1]
    rhs = unpack_fp4(a[1], 1) * scale_values(a[2], K).T
    return {3: (a[0].double() @ rhs).float()}


case(name="dot_scaled_bf16_fp4n", kernel=dot_scaled_bf16_fp4n,
     make_args=lambda: [torch.randn(32, 64, generator=g).to(torch.bfloat16),
                        packed_fp4(64, 16), scales(32, 2), torch.zeros(32, 32)],
     constexprs=dict(M=32, N=32, K=64), grid=lambda a: (1,), reference=_bf16_fp4n_ref,
     outputs=[3], atol=1e-2, rtol=1e-3)


# 3. e2m1 packed along M (lhs_k_pack=False) x e5m2, both scaled -------------------------
@triton.jit
def dot_scaled_fp4m_e5m2(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr, M: tl.constexpr,
                         N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rmh = tl.arange(0, M // 2)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    rs = tl.arange(0, K // 32)
    a = tl.load(a_ptr + rmh[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    sa = tl.load(sa_ptr + rm[:, None] * (K // 32) + rs[None, :])
    sb = tl.load(sb_ptr + rn[:, None] * (K // 32) + rs[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e5m2", lhs_k_pack=False)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def _e5m2_values(bits):
    return bits.view(torch.float8_e5m2).double()


def _fp4m_e5m2_ref(a):
    K = a[0].shape[1]
    lhs = unpack_fp4(a[0], 0) * scale_values(a[1], K)
    rhs = _e5m2_values(a[2]) * scale_values(a[3], K).T
    return {4: (lhs @ rhs).float()}


def _e5m2_bits(*shape):
    # Finite e5m2 values of moderate size: exponent field 10..20.
    sign = torch.randint(0, 2, shape, generator=g, dtype=torch.uint8) << 7
    exponent = torch.randint(10, 21, shape, generator=g, dtype=torch.uint8) << 2
    mantissa = torch.randint(0, 4, shape, generator=g, dtype=torch.uint8)
    return sign | exponent | mantissa


case(name="dot_scaled_fp4m_e5m2", kernel=dot_scaled_fp4m_e5m2,
     make_args=lambda: [packed_fp4(16, 64), scales(32, 2), _e5m2_bits(64, 32), scales(32, 2),
                        torch.zeros(32, 32)],
     constexprs=dict(M=32, N=32, K=64), grid=lambda a: (1,), reference=_fp4m_e5m2_ref,
     outputs=[4], atol=1e-2, rtol=1e-3)


# 4. Bitonic sorts along the last axis, ascending and descending ------------------------
@triton.jit
def sort_rows(x_ptr, up_ptr, down_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(up_ptr + offs, tl.sort(x, descending=False))
    tl.store(down_ptr + offs, tl.sort(x, descending=True))


case(name="sort_rows", kernel=sort_rows,
     make_args=lambda: [torch.randn(8, 128, generator=g), torch.zeros(8, 128),
                        torch.zeros(8, 128)],
     constexprs=dict(R=8, C=128), grid=lambda a: (1,),
     reference=lambda a: {1: a[0].sort(1).values, 2: a[0].sort(1, descending=True).values},
     outputs=[1, 2])


@triton.jit
def sort_i32(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(y_ptr + offs, tl.sort(tl.load(x_ptr + offs)))


case(name="sort_i32", kernel=sort_i32,
     make_args=lambda: [torch.randint(-1000, 1000, (512,), generator=g, dtype=torch.int32),
                        torch.zeros(512, dtype=torch.int32)],
     constexprs=dict(N=512), grid=lambda a: (1,), reference=lambda a: {1: a[0].sort().values},
     outputs=[1])


# 5. Batched fp16 dot into an fp16 accumulator -----------------------------------------
@triton.jit
def dot3d_f16(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
              K: tl.constexpr):
    rb = tl.arange(0, B)[:, None, None]
    rm = tl.arange(0, M)[None, :, None]
    rn = tl.arange(0, N)[None, None, :]
    rka = tl.arange(0, K)[None, None, :]
    rkb = tl.arange(0, K)[None, :, None]
    a = tl.load(a_ptr + rb * M * K + rm * K + rka)
    b = tl.load(b_ptr + rb * K * N + rkb * N + rn)
    c = tl.dot(a, b, out_dtype=tl.float16)
    tl.store(c_ptr + rb * M * N + rm * N + rn, c)


case(name="dot3d_f16", kernel=dot3d_f16,
     make_args=lambda: [torch.randn(2, 16, 64, generator=g).half(),
                        torch.randn(2, 64, 32, generator=g).half(),
                        torch.zeros(2, 16, 32, dtype=torch.float16)],
     constexprs=dict(B=2, M=16, N=32, K=64), grid=lambda a: (1,), reference=None,
     outputs=[2], atol=1e-2, rtol=1e-2,
     note="expected = the GPU's fp16 result (Triton's dot with out_dtype=float16)")
