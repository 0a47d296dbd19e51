"""PyTorch Inductor on refcpu: with torch._inductor.config.cpu_backend =
"triton", Inductor generates Triton kernels for CPU tensors and runs them
through refcpu's Triton backend. Small models are compiled and checked
against eager mode, in process and with Inductor's parallel compile workers
(subprocesses that find refcpu through its `triton.backends` entry point).

Skipped where Triton or a torch with Inductor's Triton CPU path is missing
(the accelerator machine has both). Runs under pytest, or as a script:

    PYTHONPATH=python:test/Python REFCPU_LIBRARY=.../librefcpu.so \\
        python3 test/Python/test_inductor.py

which prints one line per check and ends with "N passed, M failed".
"""

import os
import subprocess
import sys
import textwrap
import traceback
import warnings

from plugin_site import installed_plugin_site

try:
    import torch
    import triton
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code
except ImportError:
    triton = None

if "pytest" in sys.modules:
    import pytest
    if triton is None:
        pytest.skip("Triton or torch._inductor is not installed", allow_module_level=True)
    parametrize_models = pytest.mark.parametrize("name", ["mlp", "layer_norm_gelu", "softmax",
                                                          "embedding_bag", "cumsum", "attention"])
else:

    def parametrize_models(fn):
        return fn

if triton is not None:
    import refcpu.triton_backend
    refcpu.triton_backend.activate()

HERE = os.path.dirname(os.path.abspath(__file__))


def _models():
    """name -> (module or function, example inputs)."""
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.GELU(),
                              torch.nn.Linear(128, 32), torch.nn.Tanh())
    norm = torch.nn.LayerNorm(96)

    def layer_norm_gelu(x):
        return torch.nn.functional.gelu(norm(x) * 2.0 + 1.0)

    def softmax(x):
        return torch.softmax(x * 0.5, dim=-1) + x.amax(dim=-1, keepdim=True)

    table = torch.nn.EmbeddingBag(50, 24, mode="mean")

    def embedding_bag(ids, offsets):
        return table(ids, offsets) * 3.0

    def cumsum(x):
        return torch.cumsum(x, dim=1) - x.mean(dim=1, keepdim=True)

    def attention(q, k, v):
        # Soft-capped scores: Inductor would hand plain attention to its
        # fused SDPA kernel instead of generating Triton code.
        scores = 5.0 * torch.tanh(q @ k.transpose(-1, -2) / 40.0)
        return torch.softmax(scores, dim=-1) @ v

    ids = torch.randint(0, 50, (40, ))
    return {
        "mlp": (mlp, (torch.randn(33, 64), )),
        "layer_norm_gelu": (layer_norm_gelu, (torch.randn(17, 96), )),
        "softmax": (softmax, (torch.randn(29, 300), )),
        "embedding_bag": (embedding_bag, (ids, torch.tensor([0, 7, 19, 30]))),
        "cumsum": (cumsum, (torch.randn(12, 257), )),
        "attention": (attention, tuple(torch.randn(2, 4, 16, 8) for _ in range(3))),
    }


@parametrize_models
def test_model_matches_eager(name):
    fn, args = _models()[name]
    with torch.no_grad():
        expected = fn(*args)
        torch._dynamo.reset()
        inductor_config.cpu_backend = "triton"
        inductor_config.compile_threads = 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got, sources = run_and_get_code(torch.compile(fn), *args)
    messages = [str(w.message) for w in caught]
    assert not any("active CPU backend" in m for m in messages), messages
    # Inductor generated Triton kernels, and they ran on refcpu.
    assert any("@triton.jit" in source for source in sources), sources
    torch.testing.assert_close(got, expected, rtol=1e-4, atol=1e-4)


def test_parallel_compile_workers():
    # Inductor compiles Triton kernels in worker subprocesses; each finds
    # refcpu through the `triton.backends` entry point that
    # `pip install ./python` registers (a dist-info folder on PYTHONPATH
    # stands in for it here).
    with installed_plugin_site() as site:
        code = """
            import torch, refcpu.triton_backend
            import torch._inductor.config as config
            refcpu.triton_backend.activate()
            config.cpu_backend = "triton"
            config.compile_threads = 2
            def f(x, y):
                return torch.relu(x * y + 1.0).sum(dim=1), torch.sigmoid(x - y)
            x, y = torch.randn(64, 130), torch.randn(64, 130)
            got = torch.compile(f)(x, y)
            want = f(x, y)
            for g, w in zip(got, want):
                torch.testing.assert_close(g, w, rtol=1e-4, atol=1e-4)
            print("workers ok")
        """
        env = dict(os.environ)
        python_dir = os.path.dirname(os.path.dirname(refcpu.__file__))
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (site, python_dir, HERE, env.get("PYTHONPATH")) if p)
        env["TORCHINDUCTOR_FX_GRAPH_CACHE"] = "0"
        result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                                capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    assert "workers ok" in result.stdout, result.stdout
    assert "active CPU backend" not in result.stderr, result.stderr[-4000:]


def main():
    checks = [(f"model {n}", lambda n=n: test_model_matches_eager(n)) for n in _models()]
    checks.append(("test_parallel_compile_workers", test_parallel_compile_workers))
    print(f"triton {triton.__version__}, torch {torch.__version__}, {refcpu.version()}")
    passed = failed = 0
    for label, check in checks:
        try:
            check()
            passed += 1
            print(f"PASS {label}")
        except Exception:
            failed += 1
            print(f"FAIL {label}\n{traceback.format_exc()}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if triton is None:
        print("Triton or torch._inductor is not installed")
        sys.exit(0)
    sys.exit(main())
