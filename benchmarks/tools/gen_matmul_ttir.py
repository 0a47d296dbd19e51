"""Compiles benchmarks/kernels/matmul_tutorial/source.py with real Triton at
each block configuration of CONFIGS, for fp32 and bf16 inputs, and writes the
TTIR Triton prints (`compiled.asm["ttir"]`) as kernel.<dtype>.<BM>x<BN>x<BK>.ttir
into the output folder. Needs Triton and a GPU (the accelerator machine);
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
import triton.runtime.errors

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "kernels", "matmul_tutorial", "source.py")

# (BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K): the configurations of Triton's
# tutorial autotuner and the small blocks a CPU may prefer.
CONFIGS = [(32, 32, 32), (32, 64, 32), (64, 32, 32), (64, 64, 32), (64, 64, 64),
           (64, 128, 32), (128, 64, 32), (128, 128, 32), (128, 128, 64),
           (64, 256, 32), (128, 256, 64)]
DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    spec = importlib.util.spec_from_file_location("matmul_tutorial", SOURCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    size = 512
    for name, dtype in DTYPES.items():
        a = torch.randn(size, size, device="cuda", dtype=dtype)
        b = torch.randn(size, size, device="cuda", dtype=dtype)
        for bm, bn, bk in CONFIGS:
            c = torch.empty(size, size, device="cuda", dtype=dtype)
            grid = (triton.cdiv(size, bm) * triton.cdiv(size, bn),)
            try:
                compiled = module.matmul_tutorial[grid](
                    a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0),
                    b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=bm,
                    BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8)
            except triton.runtime.errors.OutOfResources as e:
                # The GPU cannot launch it (shared memory), so no GPU result
                # vouches for its TTIR; Triton's autotuner skips it too.
                print(f"{name} {bm}x{bn}x{bk}: skipped, {e}")
                continue
            ref = (a.float() @ b.float()).to(dtype)
            err = (c.float() - ref.float()).abs().max().item()
            path = os.path.join(out, f"kernel.{name}.{bm}x{bn}x{bk}.ttir")
            with open(path, "w") as f:
                f.write(compiled.asm["ttir"])
            print(f"{path}: GPU max error vs torch {err:.3g}")


if __name__ == "__main__":
    main()
