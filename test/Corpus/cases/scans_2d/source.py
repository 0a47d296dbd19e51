@triton.jit
def scans_2d(x_ptr, rev_ptr, prod_ptr, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    tl.store(rev_ptr + r * C + c, tl.cumsum(x, axis=1, reverse=True))
    tl.store(prod_ptr + r * C + c, tl.cumprod(x, axis=0))
