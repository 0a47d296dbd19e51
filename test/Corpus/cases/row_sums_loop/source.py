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
