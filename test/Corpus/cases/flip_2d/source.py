@triton.jit
def flip_2d(x_ptr, y_ptr, row_stride, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    last_row = x_ptr + (R - 1) * C
    x = tl.load(last_row + r[:, None] * row_stride + c[None, :])
    tl.store(y_ptr + r[:, None] * C + c[None, :], x)
    xr = tl.load(x_ptr + r[:, None] * C + (C - 1 - c)[None, :])
    tl.store(y_ptr + R * C + r[:, None] * C + c[None, :], xr)
