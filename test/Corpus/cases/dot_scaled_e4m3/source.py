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
