"""The cost of launching one program of a small kernel, the floor under
every launch: refcpu's Python API (`kernel[grid](...)` on torch CPU tensors
and on numpy arrays) and, where Triton is installed, an unmodified
@triton.jit kernel launched through refcpu's Triton backend, each against
torch.add of the same 1024 floats in the same run (best of interleaved
runs of `--calls` launches). Never run by the test command.

usage: /usr/bin/python3 benchmarks/bench_launch.py [--repeat N] [--calls N]
"""
import argparse
import os
import sys

import torch

from bench_corpus import best_of, ttir

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "python"))
import refcpu  # noqa: E402


def triton_add():
    """An @triton.jit vector add launched through refcpu's backend, or None
    where Triton is not installed."""
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None
    import refcpu.triton_backend
    refcpu.triton_backend.activate()

    @triton.jit
    def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) +
                 tl.load(y_ptr + offs, mask=mask), mask=mask)

    return lambda x, y, out: add[(1, )](x, y, out, 1024, BLOCK=1024)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--calls", type=int, default=2000)
    args = parser.parse_args()
    kernel = refcpu.compile(ttir("vector_add"))
    x, y, out = torch.rand(1024), torch.rand(1024), torch.empty(1024)
    xn, yn, outn = x.numpy(), y.numpy(), out.numpy()
    launches = {
        "refcpu kernel[grid], torch tensors": lambda: kernel[(1, )](x, y, out, 1024),
        "refcpu kernel[grid], numpy arrays": lambda: kernel[(1, )](xn, yn, outn, 1024),
    }
    through_triton = triton_add()
    if through_triton is not None:
        launches["Triton kernel[grid] on refcpu"] = lambda: through_triton(x, y, out)
    launches["torch.add(out=)"] = lambda: torch.add(x, y, out=out)

    def repeated(fn):
        def run():
            for _ in range(args.calls):
                fn()
        return run

    for fn in launches.values():
        fn()  # compile, warm caches
    times = best_of([repeated(fn) for fn in launches.values()], args.repeat)
    peer = times[-1]
    print(f"one-program launch, best of {args.repeat} x {args.calls} calls, "
          f"{os.cpu_count()} cores")
    for name, t in zip(launches, times):
        print(f"  {name:40s} {t / args.calls * 1e6:7.2f} us  "
              f"({t / peer:.1f}x torch.add)")


if __name__ == "__main__":
    main()
