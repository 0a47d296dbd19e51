@triton.jit
def inplace_twice(x_ptr, old_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(x_ptr + offs, x * 3.0, mask=m)
    tl.store(old_ptr + offs, x + 1.0, mask=m)
    y = tl.load(x_ptr + offs, mask=m)
    tl.store(x_ptr + offs, y - 1.0, mask=m)
