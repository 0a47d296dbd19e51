"""The corpus through Triton: every case's @triton.jit kernel (source.py) is
launched with kernel[grid](...) on torch CPU tensors through refcpu's Triton
backend, and its outputs are checked against the case's expected arrays.
Plus the backend's integration points: Triton's cache, do_bench timing,
entry-point discovery, signature specialization and argument errors.

Skipped where Triton is not installed. Runs under pytest, or as a script
(the accelerator machine has Triton but maybe not pytest):

    PYTHONPATH=python:test/Python REFCPU_LIBRARY=.../librefcpu.so \\
        python3 test/Python/test_triton_corpus.py [CASE...]

which prints one line per check and ends with "N passed, M failed".
"""

import contextlib
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback

import numpy as np

import casekit
from plugin_site import installed_plugin_site

try:
    import torch
    import triton
except ImportError:
    triton = None

if "pytest" in sys.modules:
    import pytest
    if triton is None:
        pytest.skip("Triton is not installed", allow_module_level=True)
    parametrize_cases = pytest.mark.parametrize("name", casekit.case_names())
else:

    def parametrize_cases(fn):
        return fn


if triton is not None:
    import refcpu
    import refcpu.triton_backend
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor
    refcpu.triton_backend.activate()

    @triton.jit
    def scale_by_descriptors(in_desc, out_desc, alpha, BM: tl.constexpr,
                             BN: tl.constexpr):
        off_m = tl.program_id(0) * BM
        off_n = tl.program_id(1) * BN
        out_desc.store([off_m, off_n], in_desc.load([off_m, off_n]) * alpha)

HERE = os.path.dirname(os.path.abspath(__file__))


def _to_torch(array, dtype_name):
    if dtype_name == "bfloat16":
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def _to_numpy(tensor):
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(np.uint16)
    return tensor.numpy()


def _ttir_param_count(compiled):
    # After a launch, the CompiledKernel's function is the refcpu.Kernel.
    return len(compiled.function.param_kinds)


@parametrize_cases
def test_corpus_case(name):
    case = casekit.Case(name)
    fn = casekit.load_triton_kernel(case)
    args = case.inputs()
    targs = [
        _to_torch(a, p["dtype"]) if p["kind"] == "ptr" else a
        for a, p in zip(args, case.params)
    ]
    compiled = fn[case.grid](**case.triton_kwargs(fn, targs))
    outputs = [_to_numpy(t) if p["kind"] == "ptr" else t
               for t, p in zip(targs, case.params)]
    assert case.mismatches(outputs) == []
    # Triton specialized the signature exactly as when the corpus was made.
    assert _ttir_param_count(compiled) == len(case.params)


def _vector_add():
    return casekit.load_triton_kernel(casekit.Case("vector_add"))


def test_specialization_of_ones_and_multiples_of_16():
    fn = _vector_add()
    for n in (1, 16, 17, 4096):
        x, y = torch.randn(n), torch.randn(n)
        out = torch.empty(n)
        compiled = fn[(triton.cdiv(n, 1024), )](x, y, out, n, BLOCK=1024)
        torch.testing.assert_close(out, x + y)
        # n == 1 is a constexpr in the TTIR; others stay parameters.
        assert _ttir_param_count(compiled) == (3 if n == 1 else 4)
        if n % 16 == 0:
            assert "%n: i32 {tt.divisibility = 16" in compiled.asm["ttir"]


def test_stages():
    # ttgir is the TTIR after refcpu's tt-level optimizations: the loop's
    # row sums become per-lane partial sums and one reduction after it.
    fn = casekit.load_triton_kernel(casekit.Case("row_sums_loop"))
    x = torch.randn(64, 300)
    out = torch.empty(64)
    compiled = fn[(4, )](x, out, 64, 300, BR=16, BC=64)
    torch.testing.assert_close(out, x.sum(dim=1))
    assert compiled.asm["ttir"].count('"tt.reduce"') == 1
    assert compiled.asm["ttgir"].count('"tt.reduce"') == 2
    assert "define void @row_sums_loop" in compiled.asm["llir"]


def test_strided_views():
    # Triton kernels receive views and address them through strides.
    fn = casekit.load_triton_kernel(casekit.Case("softmax_rows"))
    x = torch.randn(40, 300)[:, 50:250]
    out = torch.zeros(40, 400)[:, 100:300]
    fn[(40, )](x, out, x.stride(0), out.stride(0), 200, BLOCK=256)
    torch.testing.assert_close(out, torch.softmax(x, dim=1))


def test_host_tensor_descriptors():
    # Blocks overhang the 40x48 tensors: loads pad, stores are clipped.
    x = torch.randn(40, 48)
    out = torch.zeros(40, 48)
    scale_by_descriptors[(3, 3)](TensorDescriptor.from_tensor(x, [16, 16]),
                                 TensorDescriptor.from_tensor(out, [16, 16]),
                                 1.5, BM=16, BN=16)
    torch.testing.assert_close(out, x * 1.5)


def test_compile_ttir_file():
    # triton.compile on a .ttir file: Triton's IR-source path, whose
    # launches pass exactly the TTIR parameters.
    case = casekit.Case("vector_add")
    compiled = triton.compile(os.path.join(case.dir, "kernel.ttir"))
    x, y, out = torch.randn(5000), torch.randn(5000), torch.empty(5000)
    compiled[(5, 1, 1)](x, y, out, 5000)
    torch.testing.assert_close(out, x + y)


def test_do_bench():
    fn = _vector_add()
    n = 1 << 20
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    ms = triton.testing.do_bench(
        lambda: fn[(n // 1024, )](x, y, out, n, BLOCK=1024), warmup=5,
        rep=20)
    assert 0 < ms < 1000
    print(f"  do_bench vector_add n=2^20: {ms:.3f} ms, "
          f"{3 * 4 * n / ms / 1e6:.1f} GB/s")


@contextlib.contextmanager
def _raises(error):
    """pytest.raises without pytest."""
    try:
        yield
    except error:
        return
    raise AssertionError(f"{error.__name__} not raised")


def test_argument_errors():
    fn = _vector_add()
    x, y = torch.randn(100), torch.randn(100)
    with _raises(TypeError):  # Triton's own check of the call
        fn[(1, )](x, y, torch.empty(100), BLOCK=128)
    if torch.cuda.is_available():
        with _raises(refcpu.DeviceError):
            fn[(1, )](x, y, torch.empty(100, device="cuda"), 100, BLOCK=128)


def _run_python(code, env=None):
    env = dict(os.environ, **(env or {}))
    python_dir = os.path.dirname(os.path.dirname(refcpu.__file__))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (python_dir, HERE, env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          env=env, capture_output=True, text=True,
                          timeout=300)


def test_triton_cache():
    # A second process finds the kernel in Triton's cache: its compile
    # stages must not run.
    code = """
        import os, torch, casekit, refcpu.triton_backend as tb
        from refcpu.triton_backend.compiler import RefcpuBackend
        tb.activate()
        if os.environ["RUN"] == "second":
            def fail(*args):
                raise AssertionError("compiled again despite the cache")
            RefcpuBackend.make_ttir = RefcpuBackend.make_refcpu = fail
        fn = casekit.load_triton_kernel(casekit.Case("vector_add"))
        x, y, out = torch.randn(3000), torch.randn(3000), torch.empty(3000)
        fn[(3, )](x, y, out, 3000, BLOCK=1024)
        torch.testing.assert_close(out, x + y)
        print("ok")
    """
    with tempfile.TemporaryDirectory() as cache:
        for run in ("first", "second"):
            result = _run_python(code, {"TRITON_CACHE_DIR": cache, "RUN": run})
            assert result.returncode == 0 and "ok" in result.stdout, \
                result.stdout + result.stderr
        files = [f for _, _, fs in os.walk(cache) for f in fs]
        assert "vector_add.refcpu" in files, files


def test_entry_point_discovery():
    # What `pip install ./python` registers: a triton.backends entry point.
    # A dist-info folder on sys.path stands in for the installed package.
    with installed_plugin_site() as site:
        # The plugin's module first: Triton's discovery must still find its
        # classes complete (see refcpu/triton_backend/__init__.py).
        code = """
            import refcpu.triton_backend.compiler
            import torch, triton.backends
            from triton.runtime.driver import driver
            print("backends", sorted(triton.backends.backends))
            print("active", type(driver.active).__name__)
            print("cuda", torch.cuda.is_available())
        """
        result = _run_python(code, {"PYTHONPATH": site})
    assert result.returncode == 0, result.stderr
    # Under the key PyTorch Inductor looks CPU backends up by.
    assert "'cpu'" in result.stdout, result.stdout
    # Without a GPU refcpu is the only active driver; with one it stays out
    # of the way (activate() selects it).
    if "cuda False" in result.stdout:
        assert "active RefcpuDriver" in result.stdout, result.stdout
    else:
        assert "active RefcpuDriver" not in result.stdout, result.stdout


def main(names):
    checks = [(f"corpus {n}", lambda n=n: test_corpus_case(n))
              for n in (names or casekit.case_names())]
    if not names:
        checks += [(fn.__name__, fn) for fn in (
            test_specialization_of_ones_and_multiples_of_16,
            test_strided_views, test_host_tensor_descriptors,
            test_compile_ttir_file, test_do_bench, test_argument_errors,
            test_triton_cache, test_entry_point_discovery)]
    print(f"triton {triton.__version__}, {refcpu.version()}, "
          f"{refcpu.library_path()}, torch {torch.__version__}")
    passed = failed = 0
    for label, check in checks:
        start = time.perf_counter()
        try:
            check()
        except Exception:
            failed += 1
            print(f"FAIL {label}\n" +
                  textwrap.indent(traceback.format_exc()[-3000:], "    "))
        else:
            passed += 1
            print(f"PASS {label} ({time.perf_counter() - start:.2f} s)")
        sys.stdout.flush()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if triton is None:
        print("Triton is not installed: skipped")
        sys.exit(0)
    sys.exit(main(sys.argv[1:]))
