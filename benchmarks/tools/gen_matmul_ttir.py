"""Compiles the matmul kernels of benchmarks/kernels with real Triton at each
block configuration and writes the TTIR Triton prints (`compiled.asm["ttir"]`):

- matmul_tutorial/source.py (Triton's tutorial matmul) at CONFIGS for f32,
  bf16 and int8 inputs (int8 accumulates and stores int32), as
  OUT_DIR/matmul_tutorial/kernel.<dtype>.<BM>x<BN>x<BK>.ttir;
- matmul_batched/source.py (a 3-D tt.dot over BB matrices at once) at
  BATCHED_CONFIGS for f32 and bf16, as
  OUT_DIR/matmul_batched/kernel.<dtype>.<BB>x<BM>x<BN>x<BK>.ttir.

Needs Triton and a GPU (the accelerator machine); every kernel's GPU result
is compared with torch before its TTIR is written. The sizes are multiples of
16, so sizes and leading strides carry Triton's divisibility hints and the
unit strides are specialized away, as in a real launch on contiguous tensors.

usage: python3 gen_matmul_ttir.py OUT_DIR
"""
import importlib.util
import os
import sys

import torch
import triton
import triton.language as tl
import triton.runtime.errors

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kernels")

# (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K): the configurations of Triton's
# tutorial autotuner, the small blocks a CPU may prefer, and deeper K blocks
# (each block product of a CPU loads and stores its accumulator once).
CONFIGS = [(32, 32, 32), (32, 64, 32), (64, 32, 32), (64, 64, 32), (64, 64, 64),
           (64, 128, 32), (128, 64, 32), (128, 128, 32), (128, 128, 64),
           (64, 256, 32), (128, 256, 64), (64, 64, 128), (128, 128, 128)]
# (BLOCK_B, BLOCK_M, BLOCK_N, BLOCK_K) of the batched kernel.
BATCHED_CONFIGS = [(1, 64, 64, 64), (2, 64, 64, 64), (2, 64, 128, 32), (4, 32, 64, 64),
                   (2, 128, 128, 64), (1, 128, 128, 128), (1, 128, 256, 64)]
# name: (input dtype, accumulator, output dtype).
DTYPES = {"f32": (torch.float32, tl.float32, torch.float32),
          "bf16": (torch.bfloat16, tl.float32, torch.bfloat16),
          "i8": (torch.int8, tl.int32, torch.int32)}
SIZE, BATCH = 512, 8


def load(name):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(KERNELS, name, "source.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def operands(shape, dtype):
    if dtype == torch.int8:
        return (torch.randint(-128, 128, shape, device="cuda", dtype=dtype),
                torch.randint(-128, 128, shape, device="cuda", dtype=dtype))
    return (torch.randn(shape, device="cuda", dtype=dtype),
            torch.randn(shape, device="cuda", dtype=dtype))


def emit(path, launch, a, b, c):
    """Runs `launch()` on the GPU and writes its TTIR to `path`, unless the
    GPU cannot launch it (shared memory): then no GPU result vouches for its
    TTIR, and Triton's autotuner skips it too."""
    try:
        compiled = launch()
    except triton.runtime.errors.OutOfResources as e:
        print(f"{os.path.basename(path)}: skipped, {e}")
        return
    # Exact in double for int8 (CUDA has no integer matmul).
    ref = (a.double() @ b.double()).to(c.dtype)
    err = (c.double() - ref.double()).abs().max().item()
    with open(path, "w") as f:
        f.write(compiled.asm["ttir"])
    print(f"{path}: GPU max error vs torch {err:.3g}")


def main():
    out = sys.argv[1]
    tutorial, batched = load("matmul_tutorial"), load("matmul_batched")
    for folder in ("matmul_tutorial", "matmul_batched"):
        os.makedirs(os.path.join(out, folder), exist_ok=True)
    for name, (dtype, acc, out_dtype) in DTYPES.items():
        a, b = operands((SIZE, SIZE), dtype)
        for bm, bn, bk in CONFIGS:
            c = torch.empty(SIZE, SIZE, device="cuda", dtype=out_dtype)
            grid = (triton.cdiv(SIZE, bm) * triton.cdiv(SIZE, bn), )
            emit(os.path.join(out, "matmul_tutorial", f"kernel.{name}.{bm}x{bn}x{bk}.ttir"),
                 lambda: tutorial[grid](
                     a, b, c, SIZE, SIZE, SIZE, a.stride(0), a.stride(1), b.stride(0),
                     b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=bm,
                     BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, ACC_DTYPE=acc),
                 a, b, c)
        if dtype == torch.int8:
            continue
        a, b = operands((BATCH, SIZE, SIZE), dtype)
        for bb, bm, bn, bk in BATCHED_CONFIGS:
            c = torch.empty(BATCH, SIZE, SIZE, device="cuda", dtype=out_dtype)
            grid = (triton.cdiv(SIZE, bm) * triton.cdiv(SIZE, bn), triton.cdiv(BATCH, bb))
            emit(os.path.join(out, "matmul_batched", f"kernel.{name}.{bb}x{bm}x{bn}x{bk}.ttir"),
                 lambda: batched[grid](
                     a, b, c, BATCH, SIZE, SIZE, SIZE, *a.stride(), *b.stride(), *c.stride(),
                     BLOCK_B=bb, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                 a, b, c)


if __name__ == "__main__":
    main()
