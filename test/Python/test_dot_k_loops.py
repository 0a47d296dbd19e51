"""tt.dot K loops on the fast preset, where refcpu-widen-k-loops loads U
iterations' blocks at once: the corpus matmul kernels (each form of K loop
Triton emits: carried pointers, pointers from the induction variable, block
pointers, B read transposed) at K deep enough for the widened loop, its
masked last group and the iterations left after it, against numpy."""

import os

import numpy as np
import pytest

import casekit
import refcpu

torch = pytest.importorskip("torch")


def cdiv(a, b):
    return (a + b - 1) // b


# case: (BM, BN, BK, flat grid, B given as N x K, input dtype, output dtype)
CASES = {
    "matmul_f32": (32, 32, 32, False, False, torch.float32, torch.float32),
    "matmul_kloop": (32, 32, 16, False, True, torch.float32, torch.float32),
    "matmul_blockptr": (32, 16, 16, False, False, torch.float32, torch.float32),
    "matmul_bf16": (32, 32, 32, False, False, torch.bfloat16, torch.float32),
    "matmul_f16": (64, 32, 32, False, False, torch.float16, torch.float16),
    "matmul_tutorial": (32, 32, 32, True, False, torch.float16, torch.float16),
}


# K: one group of 256 and a masked remainder; several groups whose last one
# is masked; fewer iterations than a group; exactly two groups; odd K, whose
# last block the product stops within (refcpu/Analysis/TrimmedK.h) at an odd
# lane, half of a bf16 pair or part of an int8 quad.
@pytest.mark.parametrize("k", [300, 1000, 40, 512, 301, 7])
@pytest.mark.parametrize("name", sorted(CASES))
def test_deep_k(name, k, tmp_path):
    bm, bn, bk, flat, b_transposed, dtype, out_dtype = CASES[name]
    kernel = refcpu.compile(casekit.Case(name).ttir(), dump_dir=tmp_path)
    # The loop was widened: its blocks are 256 deep.
    with open(os.path.join(tmp_path, "1-ttir-opt.mlir")) as f:
        assert "x256x" in f.read()
    m, n = 77, 45
    gen = torch.Generator().manual_seed(k)
    a = torch.randn(m, k, generator=gen).to(dtype)
    b = torch.randn(k, n, generator=gen).to(dtype)
    c = torch.full((m, n), float("nan"), dtype=out_dtype)
    b_arg = b.T.contiguous() if b_transposed else b
    grid = (cdiv(m, bm) * cdiv(n, bn), 1, 1) if flat else (cdiv(m, bm), cdiv(n, bn), 1)
    kernel.launch(grid, a, b_arg, c, m, n, k, k, b_arg.stride(0), n)
    want = a.double() @ b.double()
    # Rounding of the inputs is the same on both sides; the sums differ in
    # order (and f16 outputs are rounded once more).
    tolerance = 2e-2 if out_dtype == torch.float16 else 1e-4
    err = (c.double() - want).abs().max().item() / want.abs().max().item()
    assert err < tolerance, err
