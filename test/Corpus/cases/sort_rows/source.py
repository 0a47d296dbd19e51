@triton.jit
def sort_rows(x_ptr, up_ptr, down_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(up_ptr + offs, tl.sort(x, descending=False))
    tl.store(down_ptr + offs, tl.sort(x, descending=True))
