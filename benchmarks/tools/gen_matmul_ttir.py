"""Compiles benchmarks/kernels/matmul_tutorial/source.py with real Triton at
each block configuration of CONFIGS, for fp32 and bf16 inputs, and writes the
TTIR Triton prints (`compiled.asm["ttir"]`) as kernel.<dtype>.<BM>x<BN>x<BK>.ttir
into the output folder; int8 inputs (i8) accumulate and store int32. Needs Triton and a GPU (the accelerator machine);
the sizes are multiples of 16, so M, N, K and the leading strides carry
Triton's divisibility hints and the unit strides are specialized away, as in
a real launch on contiguous tensors.

usage: python3 gen_matmul_ttir.py OUT_DIR
"""
import importlib.util
import os
import sys

import torch
import triton
import triton.language as tl
import triton.runtime.errors

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "kernels", "matmul_tutorial", "source.py")

# (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K): the configurations of Triton's
# tutorial autotuner, the small blocks a CPU may prefer, and deeper K blocks
# (each block product of a CPU loads and stores its accumulator once).
CONFIGS = [(32, 32, 32), (32, 64, 32), (64, 32, 32), (64, 64, 32), (64, 64, 64),
           (64, 128, 32), (128, 64, 32), (128, 128, 32), (128, 128, 64),
           (64, 256, 32), (128, 256, 64), (64, 64, 128), (128, 128, 128)]
# name: (input dtype, accumulator, output dtype).
DTYPES = {"f32": (torch.float32, tl.float32, torch.float32),
          "bf16": (torch.bfloat16, tl.float32, torch.bfloat16),
          "i8": (torch.int8, tl.int32, torch.int32)}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    spec = importlib.util.spec_from_file_location("matmul_tutorial", SOURCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    size = 512
    for name, (dtype, acc, out_dtype) in DTYPES.items():
        if dtype == torch.int8:
            a = torch.randint(-128, 128, (size, size), device="cuda", dtype=dtype)
            b = torch.randint(-128, 128, (size, size), device="cuda", dtype=dtype)
        else:
            a = torch.randn(size, size, device="cuda", dtype=dtype)
            b = torch.randn(size, size, device="cuda", dtype=dtype)
        for bm, bn, bk in CONFIGS:
            c = torch.empty(size, size, device="cuda", dtype=out_dtype)
            grid = (triton.cdiv(size, bm) * triton.cdiv(size, bn),)
            try:
                compiled = module.matmul_tutorial[grid](
                    a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0),
                    b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=bm,
                    BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, ACC_DTYPE=acc)
            except triton.runtime.errors.OutOfResources as e:
                # The GPU cannot launch it (shared memory), so no GPU result
                # vouches for its TTIR; Triton's autotuner skips it too.
                print(f"{name} {bm}x{bn}x{bk}: skipped, {e}")
                continue
            # Exact in double for int8 (CUDA has no integer matmul).
            ref = (a.double() @ b.double()).to(out_dtype)
            err = (c.double() - ref.double()).abs().max().item()
            path = os.path.join(out, f"kernel.{name}.{bm}x{bn}x{bk}.ttir")
            with open(path, "w") as f:
                f.write(compiled.asm["ttir"])
            print(f"{path}: GPU max error vs torch {err:.3g}")


if __name__ == "__main__":
    main()
