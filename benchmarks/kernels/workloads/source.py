"""The row-wise workloads of bench_workloads.py as Triton kernels: one
program per row of a contiguous [rows, cols] f32 matrix, the whole row in
one block (BLOCK, the next power of two of cols, is a constexpr). TTIR is
generated from this file by tools/gen_workload_ttir.py with real Triton on
a GPU; refcpu runs that TTIR."""
import triton
import triton.language as tl


@triton.jit
def softmax(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * cols + offs, num / tl.sum(num, axis=0), mask=mask)


@triton.jit
def layer_norm(x_ptr, w_ptr, b_ptr, y_ptr, cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / cols
    d = tl.where(mask, x - mean, 0.0)
    rstd = 1 / tl.sqrt(tl.sum(d * d, axis=0) / cols + eps)
    w = tl.load(w_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(y_ptr + row * cols + offs, d * rstd * w + b, mask=mask)


@triton.jit
def row_sum(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * cols + offs, mask=offs < cols, other=0.0)
    tl.store(y_ptr + row, tl.sum(x, axis=0))


@triton.jit
def cumsum(x_ptr, y_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(x_ptr + row * cols + offs, mask=mask, other=0.0)
    tl.store(y_ptr + row * cols + offs, tl.cumsum(x, axis=0), mask=mask)


@triton.jit
def cross_entropy(logits_ptr, target_ptr, loss_ptr, cols, BLOCK: tl.constexpr):
    # loss[row] = logsumexp(logits[row, :]) - logits[row, target[row]]
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(logits_ptr + row * cols + offs, mask=mask, other=-float("inf"))
    target = tl.load(target_ptr + row)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    picked = tl.sum(tl.where(offs == target, x, 0.0), axis=0)
    tl.store(loss_ptr + row, lse - picked)
