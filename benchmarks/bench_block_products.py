"""The runtime's block-product kernels alone (refcpu_rt_matmul_bf16 / _i8 /
_f32, the calls a tt.dot becomes in the fast preset) against torch.matmul
(torch._int_mm for int8, where torch has it) on the same shapes, one thread,
best of interleaved runs. The shapes are those a program of Triton's
tutorial matmul hands the kernel once refcpu-widen-k-loops made its K block
256 deep: M x N blocks of C, with A, B and C either whole matrices or blocks
of a 512- or 1024-wide matrix (rows that far apart, as in a launch).

A launch adds what this leaves out (the kernel body's loads and stores,
shared packing, threads): bench_matmul.py measures that. This isolates the
kernels' own loop, which the 16-core host (AMX, no perf) cannot profile:
compare the kernels' rate with the whole launch's, and libraries with each
other, on the same machine in one run. Calls outside a launch pack B on
every call (no launch cache), as a program that does not share B does.
Never run by the test command.

usage: /usr/bin/python3 benchmarks/bench_block_products.py [--dtypes bf16 i8 f32]
           [--repeat N] [--calls N]
"""
import argparse
import ctypes
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (M, N, K, leading dimension of A and C: 0 for the block's own width).
SHAPES = [
    (128, 256, 256, 0), (128, 256, 256, 512), (128, 256, 256, 1024),
    (128, 128, 256, 0), (128, 128, 256, 1024),
    (64, 64, 256, 0), (32, 32, 256, 0),
]


def matrix(tensor, rows, cols, row_stride):
    """A tensor's first rows x cols as the kernels' matrix parameters
    (REFCPU_MATRIX_PARAMS: allocated and aligned pointers, offset, sizes,
    strides in elements)."""
    pointer = ctypes.c_void_p(tensor.data_ptr())
    return [pointer, pointer] + [ctypes.c_int64(v) for v in (0, rows, cols, row_stride, 1)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dtypes", nargs="+", choices=["bf16", "i8", "f32"],
                        default=["bf16", "i8", "f32"])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--calls", type=int, default=50,
                        help="calls per timed run")
    args = parser.parse_args()

    import torch
    sys.path.insert(0, os.path.join(ROOT, "python"))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import refcpu
    from bench_corpus import best_of

    torch.set_num_threads(1)
    # The library refcpu loaded; the kernels are among its exports.
    lib = ctypes.CDLL(refcpu.library_path())
    kernels = {"bf16": (lib.refcpu_rt_matmul_bf16, torch.bfloat16, torch.float32),
               "i8": (lib.refcpu_rt_matmul_i8, torch.int8, torch.int32),
               "f32": (lib.refcpu_rt_matmul_f32, torch.float32, torch.float32)}
    print("dtype    M    N    K   ld  refcpu GOP/s  torch GOP/s  vs torch")
    for dtype in args.dtypes:
        kernel, in_type, acc_type = kernels[dtype]
        for m, n, k, ld in SHAPES:
            lda, ldc = ld or k, ld or n
            if dtype == "i8":
                a = torch.randint(-128, 128, (m, lda), dtype=in_type)
                b = torch.randint(-128, 128, (k, n), dtype=in_type)
            else:
                a = torch.randn(m, lda).to(in_type)
                b = torch.randn(k, n).to(in_type)
            c = torch.zeros(m, ldc, dtype=acc_type)
            params = (matrix(a, m, k, lda) + matrix(b, k, n, n) + matrix(c, m, n, ldc)
                      + [ctypes.c_int32(0)])
            av = a[:, :k]
            kernel(*params)
            want = av.double() @ b.double()
            err = (c[:, :n].double() - want).abs().max().item() / want.abs().max().item()
            if err > 1e-2:
                sys.exit(f"{dtype} {m}x{n}x{k}: relative error {err:.1e}")
            if dtype == "i8":
                av = av.contiguous()
                peer = lambda: torch._int_mm(av, b)
            else:
                peer = lambda: torch.matmul(av, b)
            fns = [lambda: [kernel(*params) for _ in range(args.calls)]]
            try:
                peer()
                fns.append(lambda: [peer() for _ in range(args.calls)])
            except (RuntimeError, AttributeError):  # no torch._int_mm here
                pass
            times = best_of(fns, args.repeat)
            rates = [2.0 * m * n * k * args.calls / t / 1e9 for t in times]
            torch_rate = rates[1] if len(rates) > 1 else float("nan")
            print(f"{dtype:5} {m:4} {n:4} {k:4} {ld or '-':>4} {rates[0]:13.1f} "
                  f"{torch_rate:12.1f} {rates[0] / torch_rate:9.2f}", flush=True)


if __name__ == "__main__":
    main()
