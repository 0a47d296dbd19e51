"""PyTorch Inductor on refcpu against Inductor's own C++ backend: the same
models compiled twice with torch.compile, once with
`cpu_backend="cpp"` (Inductor's C++/OpenMP code, the peer a PyTorch user
compares with) and once with `cpu_backend="triton"` (Triton kernels run by
refcpu), plus eager mode; best of interleaved runs in one process, printed
as ratios (peer time / refcpu time, > 1 means refcpu is faster). Needs
Triton and torch with Inductor (the accelerator machine). Never run by the
test command.

usage: python3 benchmarks/bench_inductor.py [--repeat N] [--threads N]
"""
import argparse
import os
import sys

import torch
import torch._inductor.config as inductor_config
from torch._inductor.utils import run_and_get_code

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refcpu.triton_backend  # noqa: E402
from bench_corpus import best_of  # noqa: E402


def models():
    """name -> (function, inputs): the models of test/Python/test_inductor.py
    at sizes where the kernels, not the launch, take the time."""
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.GELU(),
                              torch.nn.Linear(1024, 256), torch.nn.Tanh())
    norm = torch.nn.LayerNorm(1024)

    def layer_norm_gelu(x):
        return torch.nn.functional.gelu(norm(x) * 2.0 + 1.0)

    def softmax(x):
        return torch.softmax(x * 0.5, dim=-1) + x.amax(dim=-1, keepdim=True)

    def cumsum(x):
        return torch.cumsum(x, dim=1) - x.mean(dim=1, keepdim=True)

    def cross_entropy(logits, target):
        return torch.nn.functional.cross_entropy(logits, target, reduction="none")

    def attention(q, k, v):
        scores = 5.0 * torch.tanh(q @ k.transpose(-1, -2) / 40.0)
        return torch.softmax(scores, dim=-1) @ v

    return {
        "mlp 256x512": (mlp, (torch.randn(256, 512), )),
        "layer_norm_gelu 4096x1024": (layer_norm_gelu, (torch.randn(4096, 1024), )),
        "softmax 4096x1024": (softmax, (torch.randn(4096, 1024), )),
        "cumsum 1024x1024": (cumsum, (torch.randn(1024, 1024), )),
        "cross_entropy 4096x1000": (cross_entropy, (torch.randn(4096, 1000),
                                                    torch.randint(0, 1000, (4096, )))),
        "attention 8x8x256x64": (attention, tuple(torch.randn(8, 8, 256, 64) for _ in range(3))),
    }


def compiled(fn, args, backend):
    """fn compiled by Inductor with the given CPU backend, after checking
    that it generated code of that kind."""
    compiled_fn = torch.compile(fn, options={"cpu_backend": backend})
    _, sources = run_and_get_code(compiled_fn, *args)
    made_triton = any("@triton.jit" in s for s in sources)
    if made_triton != (backend == "triton"):
        raise RuntimeError(f"{backend} backend generated unexpected code")
    return compiled_fn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    os.environ["REFCPU_NUM_THREADS"] = str(args.threads)
    refcpu.triton_backend.activate()
    inductor_config.compile_threads = 1
    print(f"torch {torch.__version__}, {args.threads} threads, best of {args.repeat}")
    print(f"{'model':28} {'eager ms':>9} {'cpp ms':>9} {'refcpu ms':>10} "
          f"{'cpp/refcpu':>11} {'eager/refcpu':>13}")
    with torch.no_grad():
        for name, (fn, inputs) in models().items():
            expected = fn(*inputs)
            cpp = compiled(fn, inputs, "cpp")
            on_refcpu = compiled(fn, inputs, "triton")
            torch.testing.assert_close(on_refcpu(*inputs), expected, rtol=1e-3, atol=1e-3)
            t_eager, t_cpp, t_refcpu = best_of(
                [lambda: fn(*inputs), lambda: cpp(*inputs), lambda: on_refcpu(*inputs)],
                args.repeat)
            print(f"{name:28} {t_eager * 1e3:9.3f} {t_cpp * 1e3:9.3f} {t_refcpu * 1e3:10.3f} "
                  f"{t_cpp / t_refcpu:11.2f} {t_eager / t_refcpu:13.2f}", flush=True)


if __name__ == "__main__":
    main()
