@triton.jit
def libdevice_mix(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    r = libdevice.tanh(x) + libdevice.erf(x) * libdevice.pow(y, 1.5) + libdevice.atan2(x, y)
    r = r + libdevice.log1p(y) - libdevice.rsqrt(y) + libdevice.expm1(x * 0.1)
    tl.store(out_ptr + offs, r, mask=m)
