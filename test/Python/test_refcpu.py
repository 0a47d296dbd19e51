"""Tests of the refcpu Python package (the ctypes binding): compile corpus
TTIR, launch on numpy arrays and torch CPU tensors, and the errors."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import casekit
import refcpu

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def vector_add():
    return refcpu.compile(casekit.Case("vector_add").ttir())


def _vector_add_inputs(n=1000):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    return x, y, np.zeros(n, np.float32)


# Cases that exercise the binding: pointer dtypes (f64, bf16 as uint16, i8,
# f16), scalar kinds (i32, f32), 3-D grids, atomics. The whole corpus runs
# under refcpu-run (test/Corpus) and through Triton (triton_corpus.py).
BINDING_CASES = [
    "vector_add", "softmax_rows", "axpby_i64", "mixed_dtypes", "matmul_f16",
    "grid_ids_3d", "atomic_hist", "dropout_philox", "reduce_custom_combine"
]


@pytest.mark.parametrize("name", BINDING_CASES)
def test_corpus_case_numpy(name):
    case = casekit.Case(name)
    kernel = refcpu.compile(case.ttir())
    args = case.inputs()
    kernel.launch(case.grid, *args)
    assert case.mismatches(args) == []


def test_vector_add_torch(vector_add):
    x, y = torch.randn(5000), torch.randn(5000)
    out = torch.empty(5000)
    vector_add[(5, )](x, y, out, 5000)
    torch.testing.assert_close(out, x + y)


@pytest.mark.parametrize("preset", ["fast", "reference"])
@pytest.mark.parametrize("shift", [1, 0, -1, 2000])
@pytest.mark.parametrize("n", [1024, 1000])
def test_store_over_an_input(preset, shift, n):
    # out is x shifted by `shift` elements in one buffer (0: out is x).
    # Triton stores after the whole block is computed, so every lane adds
    # the old x; the fast preset writes out directly only where no input
    # overlaps it (or is it), which a run-time check decides.
    kernel = refcpu.compile(casekit.Case("vector_add").ttir(), preset=preset)
    buf = np.arange(4096, dtype=np.float32)
    x = buf[1024:1024 + n]
    out = buf[1024 + shift:1024 + shift + n]
    y = np.full(n, 0.5, np.float32)
    want = buf.copy()
    want[1024 + shift:1024 + shift + n] = x + y
    kernel.launch(1, x, y, out, n)
    np.testing.assert_array_equal(buf, want)


@pytest.mark.parametrize("preset", ["fast", "reference"])
@pytest.mark.parametrize("stride_sign", [1, -1])
def test_tutorial_matmul_store_either_row_order(preset, stride_sign):
    # The tutorial's masked store of its converted f16 block has a strided
    # branch (row stride >= 0: refcpu-direct-stores converts straight into
    # C there) and a per-lane one; a negative stride_cm (C's rows stored
    # bottom up from a pointer to its last row) takes the second.
    case = casekit.Case("matmul_tutorial")
    kernel = refcpu.compile(case.ttir(), preset=preset)
    a, b = case.inputs()[:2]
    m, n, k = 100, 72, 80
    buf = np.full(m * n + 16, 7, np.float16)
    c = buf if stride_sign > 0 else buf[(m - 1) * n:]
    kernel.launch(case.grid, a, b, c, m, n, k, k, n, stride_sign * n)
    rows = buf[:m * n].reshape(m, n)[::stride_sign]
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(rows.astype(np.float64), want, atol=0.02, rtol=0.01)
    assert (buf[m * n:] == 7).all()


@pytest.mark.parametrize("preset", ["fast", "reference"])
def test_tutorial_matmul_loads_rows_bottom_up(preset):
    # A negative stride_am (A's rows read bottom up from a pointer to its
    # last row) fails the run-time check of the loads' strided views: they
    # take their per-lane fallbacks, which refcpu-cold-loops compiles
    # without unrolling or vectorization, with the address and mask blocks
    # that control-flow-sink moved into them.
    case = casekit.Case("matmul_tutorial")
    kernel = refcpu.compile(case.ttir(), preset=preset)
    m, n, k = 100, 72, 80
    rng = np.random.default_rng(7)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)
    a_last_row = a[::-1].copy().reshape(-1)[(m - 1) * k:]
    kernel.launch(case.grid, a_last_row, b, c, m, n, k, -k, n, n)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), want, atol=0.02, rtol=0.01)


@pytest.mark.parametrize("preset", ["fast", "reference"])
@pytest.mark.parametrize("m,n", [(1, 1), (5, 3), (33, 70), (100, 72)])
def test_tutorial_matmul_wrapped_rows_and_columns(preset, m, n, tmp_path):
    # The last programs' rows of A and columns of B wrap (`% M`, `% N`); such
    # a load is copied by the runtime in pieces, one per range of lanes that
    # wrapped equally often (refcpu_rt_copy_wrapped). M or N below the block
    # size (32) wrap several times within one block.
    case = casekit.Case("matmul_tutorial")
    kernel = refcpu.compile(case.ttir(), preset=preset, dump_dir=tmp_path)
    with open(tmp_path / "2-linalg.mlir") as f:
        assert "llvm.call @refcpu_rt_copy_wrapped" in f.read()
    k = 48
    rng = np.random.default_rng(m * 1000 + n)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)
    grid = (-(-m // 32) * -(-n // 32), 1, 1)
    kernel.launch(grid, a, b, c, m, n, k, k, n, n)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), want, atol=0.02, rtol=0.01)


BATCHED_MATMULS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                               os.pardir, "benchmarks", "kernels", "matmul_batched")


@pytest.mark.parametrize("preset", ["fast", "reference"])
@pytest.mark.parametrize("batch,m,n,k", [(3, 70, 50, 100), (1, 64, 64, 64), (5, 9, 130, 3)])
@pytest.mark.parametrize("blocks", ["2x64x64x64", "1x64x64x64"])
def test_batched_matmul_partial_blocks(preset, batch, m, n, k, blocks, tmp_path):
    # The batched matmul (real Triton TTIR, BB x 64 x 64 x 64 blocks) masks
    # its rank-3 loads by batch, row or column, and K: where a mask cuts the
    # block, the runtime copies the in-bounds box and pads the rest
    # (refcpu_rt_copy_box), so every matrix of the batch must read its own
    # rows; the product stops at K (refcpu/Analysis/TrimmedK.h). With one
    # matrix per block (BB = 1), `offs_b < BATCH` is a uniform condition of
    # both masks.
    with open(os.path.join(BATCHED_MATMULS, f"kernel.f32.{blocks}.ttir")) as f:
        kernel = refcpu.compile(f.read(), preset=preset, dump_dir=tmp_path)
    with open(tmp_path / "2-linalg.mlir") as f:
        assert "llvm.call @refcpu_rt_copy_box" in f.read()
    rng = np.random.default_rng(batch * m + n * k)
    a = rng.standard_normal((batch, m, k)).astype(np.float32)
    b = rng.standard_normal((batch, k, n)).astype(np.float32)
    c = np.full((batch, m, n), np.nan, np.float32)
    values = {"a_ptr": a, "b_ptr": b, "c_ptr": c, "BATCH": batch, "M": m, "N": n, "K": k}
    for prefix, array, dims in (("a", a, "bmk"), ("b", b, "bkn"), ("c", c, "bmn")):
        values.update({f"stride_{prefix}{d}": s // array.itemsize
                       for d, s in zip(dims, array.strides)})
    grid = (-(-m // 64) * -(-n // 64), -(-batch // int(blocks[0])), 1)
    kernel.launch(grid, *[values[name] for name in kernel.param_names])
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, want, atol=1e-4, rtol=1e-4)


TUTORIAL_I8 = os.path.join(BATCHED_MATMULS, os.pardir, "matmul_tutorial",
                           "kernel.i8.64x64x64.ttir")


@pytest.mark.parametrize("k", [208, 64, 16, 272])
def test_tutorial_matmul_int8_is_exact(k):
    # Triton's tutorial matmul on int8 (i32 sums; real Triton TTIR, 64 x 64 x
    # 64 blocks, M, N and K multiples of 16 as its divisibility hints ask):
    # the last K block is masked in A and B by one bound, so the product
    # stops there (refcpu/Analysis/TrimmedK.h) on the VNNI or AMX kernel.
    with open(TUTORIAL_I8) as f:
        kernel = refcpu.compile(f.read())
    m, n = 96, 80
    rng = np.random.default_rng(k)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    c = np.full((m, n), -1, np.int32)
    grid = (-(-m // 64) * -(-n // 64), 1, 1)
    kernel.launch(grid, a, b, c, m, n, k, k, n, n)
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


@pytest.mark.parametrize("dtype,blocks,m,n,k", [
    ("i8", "64x64x64", 100, 70, 80), ("i8", "64x64x64", 5, 130, 16),
    ("bf16", "128x128x64", 200, 130, 96), ("bf16", "128x128x64", 129, 1, 64)])
def test_tutorial_matmul_computes_only_stored_lanes(dtype, blocks, m, n, k, tmp_path):
    # The tutorial stores its product where offs_cm < M and offs_cn < N:
    # the dot computes only those rows and columns (KeptLanes,
    # refcpu/Analysis/TrimmedK.h), so its kernel call gets a C that is not a
    # whole number of tiles, and the edge programs' wrapped rows of A and
    # columns of B (`% M`, `% N`) past them are left unread, their loads in
    # place. int8 is exact: a wrong lane anywhere shows.
    path = os.path.join(BATCHED_MATMULS, os.pardir, "matmul_tutorial",
                        f"kernel.{dtype}.{blocks}.ttir")
    with open(path) as f:
        kernel = refcpu.compile(f.read(), dump_dir=tmp_path)
    with open(tmp_path / "2-linalg.mlir") as f:
        assert re.search(r"linalg\.matmul .*tensor<\?x\?x", f.read())
    rng = np.random.default_rng(m * n + k)
    if dtype == "i8":
        a = torch.from_numpy(rng.integers(-128, 128, (m, k), dtype=np.int8))
        b = torch.from_numpy(rng.integers(-128, 128, (k, n), dtype=np.int8))
        c = torch.full((m, n), -1, dtype=torch.int32)
        want = a.to(torch.int64) @ b.to(torch.int64)
    else:
        a = torch.randn(m, k, generator=torch.Generator().manual_seed(k)).to(torch.bfloat16)
        b = torch.randn(k, n, generator=torch.Generator().manual_seed(n)).to(torch.bfloat16)
        c = torch.full((m, n), float("nan"), dtype=torch.bfloat16)
        want = a.double() @ b.double()
    bm, bn = map(int, blocks.split("x")[:2])
    grid = (-(-m // bm) * -(-n // bn), 1, 1)
    kernel.launch(grid, a, b, c, m, n, k, k, n, n)
    if dtype == "i8":
        assert torch.equal(c.to(torch.int64), want)
    else:
        torch.testing.assert_close(c.double(), want, atol=0.05, rtol=0.02)


@pytest.mark.parametrize("k", [80, 48, 112])
def test_tutorial_matmul_reads_its_last_k_block_in_place(k, tmp_path):
    # The tutorial's K loop masks the last K block of A and B by one bound
    # (`offs_k < K - k * BLOCK_K`, other=0): the product stops there
    # (refcpu/Analysis/TrimmedK.h) and neither load copies or pads that block.
    # A library that pads it calls refcpu_rt_copy_box for both. K stays a
    # multiple of 16, as the kernel's divisibility hint asks.
    case = casekit.Case("matmul_tutorial")
    kernel = refcpu.compile(case.ttir(), dump_dir=tmp_path)
    with open(tmp_path / "2-linalg.mlir") as f:
        assert "llvm.call @refcpu_rt_copy_box" not in f.read()
    m, n = 64, 96
    rng = np.random.default_rng(k)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float16)
    kernel.launch((2 * 3, 1, 1), a, b, c, m, n, k, k, n, n)
    want = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), want, atol=0.02, rtol=0.01)


def test_numpy_addresses_read_from_the_array_object():
    # The launch reads an array's data pointer from the ndarray object (the
    # offset probed at import) instead of building __array_interface__; it
    # must give the same address for views, offsets, empty, strided and
    # read-only arrays.
    from refcpu import kernel as kernel_module
    assert kernel_module._NUMPY_DATA_OFFSET is not None  # CPython
    base = np.arange(64, dtype=np.float32)
    readonly = base.copy()
    readonly.flags.writeable = False
    for array in (base, base[3:], base[::2], base[5:5], base.reshape(8, 8)[2:, 1:],
                  readonly, np.empty(0, np.int8), np.float64(1.5) * np.ones(3)):
        assert kernel_module._numpy_address(array) == array.__array_interface__["data"][0]


def test_softmax_rows_torch():
    case = casekit.Case("softmax_rows")
    kernel = refcpu.compile(case.ttir())
    x = torch.randn(33, 700)
    out = torch.zeros_like(x)
    kernel.launch(33, x, out, x.stride(0), out.stride(0), x.shape[1])
    torch.testing.assert_close(out, torch.softmax(x, dim=1))


def test_reference_preset_and_dump_dir(tmp_path):
    case = casekit.Case("softmax_rows")
    kernel = refcpu.compile(case.ttir(), preset="reference",
                            dump_dir=tmp_path)
    args = case.inputs()
    kernel.launch(case.grid, *args)
    assert case.mismatches(args) == []
    assert os.listdir(tmp_path)


def test_debug_mode(tmp_path, monkeypatch):
    # The library owns the REFCPU_DEBUG default; debug= overrides it.
    monkeypatch.setenv("REFCPU_DEBUG", "1")
    assert refcpu.debug_default()
    monkeypatch.setenv("REFCPU_DEBUG", "0")
    assert not refcpu.debug_default()
    case = casekit.Case("softmax_rows")
    kernel = refcpu.compile(case.ttir(), debug=True, dump_dir=tmp_path)
    args = case.inputs()
    kernel.launch(case.grid, *args)
    assert case.mismatches(args) == []
    llvm_ir = (tmp_path / "4-llvm.ll").read_text()
    assert 'distinct !DISubprogram(name: "softmax_rows"' in llvm_ir
    assert '!DILocalVariable(name: "pid_x"' in llvm_ir


def test_kernel_metadata(vector_add):
    assert vector_add.name == "vector_add"
    assert vector_add.param_names == ["x_ptr", "y_ptr", "out_ptr", "n"]
    assert vector_add.param_types == [
        "!tt.ptr<f32>", "!tt.ptr<f32>", "!tt.ptr<f32>", "i32"
    ]
    assert "vector_add(x_ptr: !tt.ptr<f32>" in repr(vector_add)


def test_scalar_conversions():
    # axpby_i64: f64 pointer, fp32 scalars given as ints and numpy values.
    case = casekit.Case("axpby_i64")
    kernel = refcpu.compile(case.ttir())
    args = case.inputs()
    args[3] = np.float32(args[3])
    args[5] = np.int64(args[5])
    kernel.launch(case.grid, *args)
    assert case.mismatches(args) == []


def test_bf16_torch_tensor():
    case = casekit.Case("mixed_dtypes")
    kernel = refcpu.compile(case.ttir())
    args = case.inputs()
    a = torch.from_numpy(args[0].view(np.int16)).view(torch.bfloat16)
    q = torch.from_numpy(args[1])
    out = torch.zeros(args[2].shape)
    kernel.launch(case.grid, a, q, out, *args[3:])
    assert case.mismatches([a, q, out.numpy()] + args[3:]) == []


def test_wrong_argument_count(vector_add):
    x, y, out = _vector_add_inputs()
    with pytest.raises(refcpu.ArgumentCountError,
                       match=r"takes 4 arguments \(x_ptr, y_ptr, out_ptr, n\)"):
        vector_add.launch(1, x, y, out)
    with pytest.raises(TypeError):
        vector_add.launch(1, x, y, out, 1000, 5)


@pytest.mark.parametrize("make_bad", [
    lambda x: x.astype(np.float64),
    lambda x: x.view(np.int32),
    lambda x: torch.from_numpy(x).double(),
    lambda x: torch.from_numpy(x).half(),
])
def test_wrong_dtype(vector_add, make_bad):
    x, y, out = _vector_add_inputs()
    with pytest.raises(refcpu.ArgumentTypeError,
                       match=r"argument 0 \(x_ptr: !tt.ptr<f32>\).*dtype"):
        vector_add.launch(1, make_bad(x), y, out, 1000)


def test_non_contiguous(vector_add):
    x, y, out = _vector_add_inputs(2000)
    with pytest.raises(refcpu.NonContiguousError, match="argument 1"):
        vector_add.launch(1, x[:1000], y[::2], out[:1000], 1000)
    t = torch.from_numpy(y)
    with pytest.raises(refcpu.NonContiguousError, match="contiguous"):
        vector_add.launch(1, x, t[::2], out, 1000)
    with pytest.raises(ValueError):
        vector_add.launch(1, x, t.view(2, 1000).t(), out, 1000)


def test_non_cpu_tensor(vector_add):
    x, y, out = _vector_add_inputs()
    meta = torch.empty(1000, device="meta")
    with pytest.raises(refcpu.DeviceError, match="on meta"):
        vector_add.launch(1, x, y, meta, 1000)


@pytest.mark.parametrize("bad, error", [
    (2.5, refcpu.ArgumentTypeError),
    ("10", refcpu.ArgumentTypeError),
    (2**31, refcpu.ArgumentValueError),
    (-2**31 - 1, refcpu.ArgumentValueError),
    (np.uint32(2**32 - 1) + np.uint64(1), refcpu.ArgumentValueError),
])
def test_bad_scalar(vector_add, bad, error):
    x, y, out = _vector_add_inputs()
    with pytest.raises(error, match=r"argument 3 \(n: i32\)"):
        vector_add.launch(1, x, y, out, bad)


def test_unsigned_numpy_scalar(vector_add):
    # An unsigned value fills the whole width of a signless TTIR integer.
    x, y, out = _vector_add_inputs()
    vector_add.launch(1, x, y, out, np.uint32(1000))
    np.testing.assert_allclose(out, x + y)


def test_pointer_argument_types(vector_add):
    x, y, out = _vector_add_inputs()
    with pytest.raises(refcpu.ArgumentTypeError, match="numpy array"):
        vector_add.launch(1, x.tolist(), y, out, 1000)
    # A raw address is accepted (extent unknown).
    vector_add.launch(1, x.ctypes.data, y, out, 1000)
    np.testing.assert_allclose(out, x + y)


@pytest.mark.parametrize("grid, error", [
    (0, refcpu.ArgumentValueError),
    ((1, 2, 3, 4), refcpu.ArgumentValueError),
    ((), refcpu.ArgumentValueError),
    ((1.0, ), refcpu.ArgumentTypeError),
    (-1, refcpu.ArgumentValueError),
    (2**31, refcpu.ArgumentValueError),
])
def test_bad_grid(vector_add, grid, error):
    x, y, out = _vector_add_inputs()
    with pytest.raises(error, match="grid"):
        vector_add.launch(grid, x, y, out, 1000)


def test_compile_error_has_location():
    ttir = ("module {\n"
            "  tt.func public @f(%a: i32) {\n"
            "    %0 = arith.addi %a, %b : i32\n"
            "    tt.return\n"
            "  }\n"
            "}\n")
    with pytest.raises(refcpu.CompileError,
                       match=r'"kernel.ttir":3:\d+\): error: use of undeclared'):
        refcpu.compile(ttir)
    # Diagnostics name the file the caller says the text came from.
    with pytest.raises(refcpu.CompileError, match=r'"add\.ttir":3:\d+\): error'):
        refcpu.compile(ttir, source_name="add.ttir")


def test_compile_error_unknown_kernel_name():
    with pytest.raises(refcpu.Error, match="nope"):
        refcpu.compile(casekit.Case("vector_add").ttir(), kernel_name="nope")


def test_unknown_preset():
    with pytest.raises(ValueError, match="preset"):
        refcpu.compile("module {}", preset="turbo")


def test_errors_hierarchy():
    for cls in (refcpu.CompileError, refcpu.JitError, refcpu.KernelError,
                refcpu.ArgumentError, refcpu.LibraryError):
        assert issubclass(cls, refcpu.Error)
    assert issubclass(refcpu.ArgumentCountError, TypeError)
    assert issubclass(refcpu.NonContiguousError, ValueError)


def test_closed_kernel():
    kernel = refcpu.compile(casekit.Case("vector_add").ttir())
    kernel.close()
    kernel.close()
    with pytest.raises(refcpu.Error, match="closed"):
        kernel.launch(1, *_vector_add_inputs(), 1000)


def test_library_lookup():
    assert os.path.exists(refcpu.library_path())
    assert refcpu.version().startswith("refcpu")
    env = dict(os.environ, REFCPU_LIBRARY="/nonexistent/librefcpu.so")
    code = ("import refcpu\n"
            "try:\n"
            "    refcpu.version()\n"
            "except refcpu.LibraryError as e:\n"
            "    print('LibraryError', e)\n")
    result = subprocess.run([sys.executable, "-c", code], env=env,
                            capture_output=True, text=True, check=True)
    assert "LibraryError" in result.stdout
    assert "/nonexistent/librefcpu.so" in result.stdout


class _Wrapper:
    """Duck-types triton.TensorWrapper (what triton.reinterpret returns): a
    torch tensor seen through another dtype, promising only data_ptr()."""

    def __init__(self, base, dtype):
        self.base, self.dtype = base, dtype
        self.device = base.device

    def data_ptr(self):
        return self.base.data_ptr()


def test_data_ptr_objects_through_triton_path(vector_add):
    # The Triton driver launches with strict=False; Triton's own launchers
    # take any object with data_ptr(), and so must refcpu's.
    x, y = torch.randn(1000), torch.randn(1000)
    out = torch.zeros(1000)
    args = [_Wrapper(x, "float32"), _Wrapper(y, "float32"), _Wrapper(out, "float32"), 1000]
    vector_add._launch((1, 1, 1), args, strict=False)
    torch.testing.assert_close(out, x + y)


def test_data_ptr_object_checks(vector_add):
    x, y, out = (torch.randn(1000) for _ in range(3))
    # The dtype a wrapper claims is checked like a tensor's.
    with pytest.raises(refcpu.ArgumentTypeError, match="dtype float64"):
        vector_add.launch(1, _Wrapper(x, "float64"), y, out, 1000)

    class OnMeta(_Wrapper):
        pass

    meta = OnMeta(x, "float32")
    meta.device = torch.device("meta")
    with pytest.raises(refcpu.DeviceError, match="meta"):
        vector_add.launch(1, meta, y, out, 1000)
    with pytest.raises(refcpu.ArgumentTypeError, match="data_ptr"):
        vector_add.launch(1, object(), y, out, 1000)


_STORE_I64 = """
module {
  tt.func public @store_i64(%p: !tt.ptr<i64>, %v: i64) attributes {noinline = false} {
    tt.store %p, %v : !tt.ptr<i64>
    tt.return
  }
}
"""


def test_u64_scalar_through_triton_path():
    # Triton passes ints in [2^63, 2^64) as u64 parameters of TTIR type i64;
    # the strict API keeps Python ints to the signed range.
    kernel = refcpu.compile(_STORE_I64)
    out = np.zeros(1, np.uint64)
    kernel._launch((1, 1, 1), [out, 2**64 - 1], strict=False)
    assert out[0] == 2**64 - 1
    with pytest.raises(refcpu.ArgumentValueError, match="does not fit in i64"):
        kernel.launch(1, out, 2**64 - 1)
    with pytest.raises(refcpu.ArgumentValueError, match="does not fit in i64"):
        kernel._launch((1, 1, 1), [out, 2**64], strict=False)


def _checked_vector_add():
    return refcpu.compile(casekit.Case("vector_add").ttir(), check_bounds=True)


def test_bounds_check_stops_a_store_past_the_end():
    # out is a view of the first 5000 elements of big; a grid for 6000
    # elements would overwrite big[5000:] without the check.
    kernel = _checked_vector_add()
    big = np.zeros(6000, np.float32)
    x = y = np.ones(6000, np.float32)
    with pytest.raises(refcpu.KernelError) as info:
        kernel.launch(6, x, y, big[:5000], 6000)
    message = str(info.value)
    assert "of vector_add: tt.store out of bounds" in message
    assert "byte offset 20000 of argument 2 (out_ptr), whose extent is 20000 bytes" in message
    assert "program (4, 0, 0)" in message and ".py:" in message
    assert (big[5000:] == 0).all()
    # Correct launches of the same kernel are not reported.
    out = np.zeros(5000, np.float32)
    kernel.launch(5, x[:5000], y[:5000], out, 5000)
    assert (out == 2).all()


def test_bounds_check_of_torch_views():
    # A torch view's extent runs to the end of its storage (the Python
    # launch computes it only for bounds-checked kernels): a store past
    # the storage is stopped, one inside it but past the view is not.
    kernel = _checked_vector_add()
    assert kernel._needs_extents and not refcpu.compile(
        casekit.Case("vector_add").ttir())._needs_extents
    big = torch.zeros(6000)
    ones = torch.ones(7000)
    with pytest.raises(refcpu.KernelError, match="whose extent is 4000 bytes"):
        kernel.launch(7, ones, ones, big[5000:], 7000)
    # The lanes inside the storage were stored, the ones past it were not.
    assert (big[:5000] == 0).all() and (big[5000:] == 2).all()
    kernel.launch(6, ones, ones, big[:5000], 6000)
    assert (big == 2).all()


def test_bounds_check_stops_a_load_past_the_end():
    kernel = _checked_vector_add()
    x, y = np.ones(5000, np.float32), np.ones(6000, np.float32)
    with pytest.raises(refcpu.KernelError, match=r"tt.load out of bounds: .* argument 0 \(x_ptr\)"):
        kernel.launch(6, x, y, np.zeros(6000, np.float32), 6000)


def test_bounds_check_of_wrapped_rows():
    # The tutorial matmul at M = 40 with 32-row blocks: the second row of
    # programs reads rows 32..39 and, wrapped (`% M`), rows 0..23. A holds
    # one row too few, so row 39 lies past its end: the check must see it
    # on the path a wrapped block takes.
    kernel = refcpu.compile(casekit.Case("matmul_tutorial").ttir(), check_bounds=True)
    m, n, k = 40, 32, 32
    a = np.ones((m - 1) * k, np.float16)
    b = np.ones((k, n), np.float16)
    c = np.zeros((m, n), np.float16)
    with pytest.raises(refcpu.KernelError, match=r"tt.load out of bounds: .* argument 0 \(a_ptr\)"):
        kernel.launch((2, 1, 1), a, b, c, m, n, k, k, n, n)
    a = np.ones(m * k, np.float16)
    kernel.launch((2, 1, 1), a, b, c, m, n, k, k, n, n)
    assert (c == k).all()


def test_bounds_check_of_block_pointers():
    # The block pointer's shape says 70 rows; the buffers hold 40. Its
    # boundary check keeps stores inside the declared shape, not inside the
    # buffer: the bounds check stops the first store past the buffer.
    kernel = refcpu.compile(casekit.Case("block_ptr_scale").ttir("kernel.blockptr.ttir"),
                            check_bounds=True)
    x = np.ones((70, 90), np.float32)
    y = np.zeros((70, 90), np.float32)
    kernel.launch(5, x, y, 70, 90, 90, 2.0)
    assert (y == 2).all()
    big = np.zeros((70, 90), np.float32)
    with pytest.raises(refcpu.KernelError,
                       match=r"tt.store out of bounds: .*argument 1 \(y_ptr\)"):
        kernel.launch(5, x, big[:40], 70, 90, 90, 2.0)
    assert (big[40:] == 0).all()


def test_bounds_check_of_tensor_descriptors():
    kernel = refcpu.compile(casekit.Case("tensor_desc_scale").ttir(), check_bounds=True)
    x = np.ones((40, 36), np.float32)
    y = np.zeros((40, 36), np.float32)
    kernel.launch((3, 3), x, y, 40, 36, 3.0)
    assert (y == 3).all()
    with pytest.raises(refcpu.KernelError,
                       match=r"tt.descriptor_load out of bounds: .*argument 0 \(x_ptr\)"):
        kernel.launch((3, 3), x[:20], y, 40, 36, 3.0)


# A noinline helper (kept as tt.call) that stores a block through the
# pointer it is given; the kernel passes it two different parameters.
_NOINLINE_STORE = """
module {
  tt.func private @fill(%p: !tt.ptr<f32>, %start: i32, %v: f32) attributes {noinline = true} {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %s = tt.splat %start : i32 -> tensor<64xi32>
    %o = arith.addi %s, %r : tensor<64xi32>
    %b = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %a = tt.addptr %b, %o : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %vv = tt.splat %v : f32 -> tensor<64xf32>
    tt.store %a, %vv : tensor<64x!tt.ptr<f32>>
    tt.return
  }
  tt.func public @two_fills(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) attributes {noinline = false} {
    %pid = tt.get_program_id x : i32
    %c64 = arith.constant 64 : i32
    %start = arith.muli %pid, %c64 : i32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    tt.call @fill(%x, %start, %one) : (!tt.ptr<f32>, i32, f32) -> ()
    tt.call @fill(%y, %start, %two) : (!tt.ptr<f32>, i32, f32) -> ()
    tt.return
  }
}
"""


def test_bounds_check_in_noinline_callees():
    # The helper's pointer is x at one call and y at the other: it is checked
    # against both arguments (it must lie in one of them), with the bases the
    # launch recorded.
    kernel = refcpu.compile(_NOINLINE_STORE, check_bounds=True)
    x, y = np.zeros(128, np.float32), np.zeros(128, np.float32)
    kernel.launch(2, x, y)
    assert (x == 1).all() and (y == 2).all()
    big = np.zeros(256, np.float32)
    with pytest.raises(refcpu.KernelError, match="tt.store out of bounds: .*in no pointer argument"):
        kernel.launch(2, x, big[:100])
    assert (big[100:] == 0).all()


_UNTRACED = """
module {
  tt.func public @untraced(%p: !tt.ptr<i32>, %off: i64) attributes {noinline = false} {
    %a = tt.ptr_to_int %p : !tt.ptr<i32> -> i64
    %b = arith.addi %a, %off : i64
    %q = tt.int_to_ptr %b : i64 -> !tt.ptr<i32>
    %c = arith.constant 7 : i32
    tt.store %q, %c : !tt.ptr<i32>
    %old = tt.atomic_rmw add, relaxed, gpu, %p, %c : (!tt.ptr<i32>, i32) -> i32
    tt.return
  }
}
"""


def test_bounds_check_of_untraced_pointers():
    # A pointer built from an integer derives from no parameter refcpu can
    # trace: it must still lie inside one of them.
    kernel = refcpu.compile(_UNTRACED, check_bounds=True)
    data = np.zeros(8, np.int32)
    kernel.launch(1, data, 4 * 7)
    assert data.tolist() == [7, 0, 0, 0, 0, 0, 0, 7]
    with pytest.raises(refcpu.KernelError, match="in no pointer argument"):
        kernel.launch(1, data, 4 * 8)
    assert data.tolist() == [14, 0, 0, 0, 0, 0, 0, 7]


def test_read_only_arrays_refused_where_the_kernel_writes(vector_add):
    assert vector_add.param_written == [False, False, True, False]
    x, y, out = _vector_add_inputs()
    frozen = out.copy()
    frozen.setflags(write=False)
    with pytest.raises(refcpu.ArgumentValueError, match=r"argument 2 \(out_ptr.*read-only"):
        vector_add.launch(1, x, y, frozen, 1000)
    assert (frozen == 0).all()
    # Inputs may be read-only (np.frombuffer of bytes is).
    vector_add.launch(1, np.frombuffer(x.tobytes(), np.float32), y, out, 1000)
    np.testing.assert_allclose(out, x + y)


def test_close_during_a_launch_on_another_thread():
    import threading
    kernel = refcpu.compile(casekit.Case("vector_add").ttir())
    n = 1 << 22
    x, y, out = (np.ones(n, np.float32) for _ in range(3))
    errors = []

    def run():
        try:
            for _ in range(20):
                kernel.launch(n // 1024, x, y, out, n)
        except refcpu.Error as e:  # closed between two launches
            errors.append(e)

    worker = threading.Thread(target=run)
    worker.start()
    kernel.close()  # must not free the code a running launch executes
    worker.join()
    assert all("was closed" in str(e) for e in errors)
    with pytest.raises(refcpu.Error, match="was closed"):
        kernel.launch(1, x, y, out, 1024)


@pytest.mark.parametrize("text", [
    "module { tt.func public @f() attributes {a = " + "[" * 8000 + "]" * 8000 + "} { tt.return } }",
    "module {\n" + "scf.if %c {\n" * 4000 + "}\n" * 4000 + "}",
    "module { tt.func public @f() { tt.return loc(" + "loc(" * 40000 + "unknown" + ")" * 40001 + " } }",
])
def test_deep_nesting_is_refused_not_a_crash(text):
    with pytest.raises(refcpu.CompileError, match=r"kernel.ttir:\d+:\d+: error: the TTIR nests deeper than 512 levels"):
        refcpu.compile(text)


# A loop of tl.range(..., disable_licm=True), as Triton 3.6 prints it.
_DISABLE_LICM_TTIR = """
#loop_licm = #llvm.loop_licm<disable = true, versioningDisable = true>
#loop_annotation = #llvm.loop_annotation<licm = #loop_licm>
module {
  tt.func public @running_sum(%X: !tt.ptr<f32>, %Out: !tt.ptr<f32>, %N: i32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant 0.0 : f32
    %s = scf.for %i = %c0 to %N step %c1 iter_args(%acc = %z) -> (f32) : i32 {
      %p = tt.addptr %X, %i : !tt.ptr<f32>, i32
      %v = tt.load %p : !tt.ptr<f32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    } {llvm.loop_annotation = #loop_annotation}
    tt.store %Out, %s : !tt.ptr<f32>
    tt.return
  }
}
"""


@pytest.mark.parametrize("preset", ["fast", "reference"])
def test_disable_licm_reaches_llvm_ir(tmp_path, preset):
    kernel = refcpu.compile(_DISABLE_LICM_TTIR, preset=preset,
                            dump_dir=tmp_path)
    with open(tmp_path / "4-llvm.ll", encoding="utf-8") as f:
        assert "llvm.licm.disable" in f.read()
    x = np.arange(10, dtype=np.float32)
    out = np.zeros(1, np.float32)
    kernel.launch(1, x, out, 10)
    assert out[0] == 45.0


# Loop reductions in the shape refcpu-reduce-locality rewrites (fast preset):
# a running sum and a running maxnum of rows of X, folded into values that
# start at %init.
_LOOP_REDUCTIONS = """
module {
  tt.func public @loop_reductions(%X: !tt.ptr<f32>, %S: !tt.ptr<f32>, %M: !tt.ptr<f32>, %n: i32, %init: f32) attributes {noinline = false} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %base = tt.splat %X : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %init, %max = %init) -> (f32, f32) : i32 {
      %row = arith.muli %i, %c64 : i32
      %rows = tt.splat %row : i32 -> tensor<64xi32>
      %offs = arith.addi %rows, %r : tensor<64xi32>
      %p = tt.addptr %base, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
      %x = tt.load %p : tensor<64x!tt.ptr<f32>>
      %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<64xf32>) -> f32
      %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.maxnumf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<64xf32>) -> f32
      %ns = arith.addf %sum, %s : f32
      %nm = arith.maxnumf %max, %m : f32
      scf.yield %ns, %nm : f32, f32
    }
    tt.store %S, %res#0 : !tt.ptr<f32>
    tt.store %M, %res#1 : !tt.ptr<f32>
    tt.return
  }
}
"""


@pytest.mark.parametrize("preset", ["fast", "reference"])
def test_loop_reductions_keep_ieee_identities(tmp_path, preset):
    kernel = refcpu.compile(_LOOP_REDUCTIONS, preset=preset, dump_dir=tmp_path)
    if preset == "fast":
        with open(tmp_path / "1-ttir-opt.mlir", encoding="utf-8") as f:
            assert "tt.reshape" in f.read()  # the per-lane form
    x = np.random.default_rng(3).standard_normal(4 * 64).astype(np.float32)
    s, m = np.zeros(1, np.float32), np.zeros(1, np.float32)
    kernel.launch(1, x, s, m, 4, 0.5)
    np.testing.assert_allclose(s[0], 0.5 + x.sum(), rtol=1e-5)
    assert m[0] == max(0.5, x.max())
    # No iteration: the results are the initial value, -0.0 and NaN included
    # (lanes starting at +0.0 or -inf would give +0.0 and -inf).
    kernel.launch(1, x, s, m, 0, -0.0)
    assert s[0] == 0 and np.signbit(s[0]) and np.signbit(m[0])
    kernel.launch(1, x, s, m, 0, float("nan"))
    assert np.isnan(s[0]) and np.isnan(m[0])


def test_compile_aot(tmp_path):
    ttir = casekit.Case("vector_add").ttir()
    files = refcpu.compile(ttir, aot=tmp_path / "add")
    assert files == refcpu.AotFiles(str(tmp_path / "add.o"),
                                    str(tmp_path / "add.h"))
    with open(files.object, "rb") as f:
        assert f.read(4) == b"\x7fELF"
    with open(files.header) as f:
        header = f.read()
    assert "vector_add_launch(refcpu_grid grid,\n    const float *x_ptr," \
        in header
    # An explicit .o and another CPU.
    files = refcpu.compile(ttir, aot=tmp_path / "v3.o", target_cpu="x86-64-v3")
    assert os.path.getsize(files.object) > 0
    with pytest.raises(refcpu.CompileError, match="unknown target CPU 'nope'"):
        refcpu.compile(ttir, aot=tmp_path / "bad", target_cpu="nope")
    assert not os.path.exists(tmp_path / "bad.o")
    with pytest.raises(refcpu.ArgumentError, match="target_cpu"):
        refcpu.compile(ttir, target_cpu="x86-64-v3")


LINEAR_RECURRENCE_TTIR = """
module {
  tt.func public @recurrence(%a_ptr: !tt.ptr<f32>, %b_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %pa = tt.splat %a_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %pa2 = tt.addptr %pa, %offs : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    %pb = tt.splat %b_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %pb2 = tt.addptr %pb, %offs : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    %a = tt.load %pa2 : tensor<512x!tt.ptr<f32>>
    %b = tt.load %pb2 : tensor<512x!tt.ptr<f32>>
    %s:2 = "tt.scan"(%a, %b) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a1: f32, %b1: f32, %a2: f32, %b2: f32):
      %an = arith.mulf %a1, %a2 : f32
      %t = arith.mulf %b1, %a2 : f32
      %bn = arith.addf %t, %b2 : f32
      tt.scan.return %an, %bn : f32, f32
    }) : (tensor<512xf32>, tensor<512xf32>) -> (tensor<512xf32>, tensor<512xf32>)
    %po = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
    %po2 = tt.addptr %po, %offs : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
    tt.store %po2, %s#1 : tensor<512x!tt.ptr<f32>>
    tt.return
  }
}
"""


@pytest.mark.parametrize("preset", ["fast", "reference"])
def test_long_scan_keeps_the_combiners_order(preset):
    # A scan of 512 elements runs in chunks that are combined afterwards;
    # the linear recurrence y[i] = y[i-1] * a[i] + b[i] is associative but
    # not commutative, so a chunk's carry must stay the left operand.
    kernel = refcpu.compile(LINEAR_RECURRENCE_TTIR, preset=preset)
    rng = np.random.default_rng(3)
    a = rng.uniform(0.5, 1.0, 512).astype(np.float32)
    b = rng.standard_normal(512).astype(np.float32)
    out = np.empty(512, np.float32)
    kernel[(1, )](a, b, out)
    expected = np.empty(512, np.float64)
    y = 0.0
    for i in range(512):
        y = b[i] if i == 0 else y * a[i] + b[i]
        expected[i] = y
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4)


BOOL_PARITY_TTIR = """
module {
  tt.func public @parity(%x_ptr: !tt.ptr<i8>, %out_ptr: !tt.ptr<i32>) {
    %offs = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %px = tt.splat %x_ptr : !tt.ptr<i8> -> tensor<1024x!tt.ptr<i8>>
    %px2 = tt.addptr %px, %offs : tensor<1024x!tt.ptr<i8>>, tensor<1024xi32>
    %x = tt.load %px2 : tensor<1024x!tt.ptr<i8>>
    %zero = arith.constant dense<0> : tensor<1024xi8>
    %bits = arith.cmpi ne, %x, %zero : tensor<1024xi8>
    %p = "tt.reduce"(%bits) <{axis = 0 : i32}> ({
    ^bb0(%a: i1, %b: i1):
      %c = arith.xori %a, %b : i1
      tt.reduce.return %c : i1
    }) : (tensor<1024xi1>) -> i1
    %w = arith.extui %p : i1 to i32
    tt.store %out_ptr, %w : !tt.ptr<i32>
    tt.return
  }
}
"""


@pytest.mark.parametrize("preset", ["fast", "reference"])
def test_bool_reduction(preset):
    # Bools take a byte each in memory; a block of them must not be read
    # as a bit-packed vector.
    kernel = refcpu.compile(BOOL_PARITY_TTIR, preset=preset)
    rng = np.random.default_rng(5)
    for x in (np.ones(1024, np.int8), rng.integers(0, 2, 1024).astype(np.int8),
              np.eye(1, 1024, 1023, dtype=np.int8)[0]):
        out = np.full(1, -1, np.int32)
        kernel[(1, )](x, out)
        assert out[0] == int(x.sum()) % 2


@pytest.mark.parametrize("preset", ["fast", "reference"])
@pytest.mark.parametrize("shift", [-1, 0, 1])
def test_store_over_own_input(vector_add, preset, shift):
    # out overlaps x, shifted by `shift` elements: a program loads its whole
    # block before it stores (Triton's semantics), however the fast preset
    # reads the loaded block in place.
    kernel = refcpu.compile(casekit.Case("vector_add").ttir(), preset=preset)
    n = 1000  # one program
    rng = np.random.default_rng(7)
    buffer = rng.standard_normal(n + 2).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    x = buffer[1:n + 1]
    expected = x + y
    out = buffer[1 + shift:n + 1 + shift]
    kernel[(1, )](x, y, out, n)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("shift", [0, 1, 3, 16])
def test_large_launch_streams_its_stores(tmp_path, shift):
    # 32 MiB and more stored by one launch go through non-temporal vector
    # stores on 64-byte boundaries (refcpu-streaming-stores): the lanes before
    # the first boundary, `shift` floats past a page here, and the partial
    # last block run as before; no byte outside the output changes, and an
    # in-place update (out is x) still reads every lane before writing it.
    kernel = refcpu.compile(casekit.Case("vector_add").ttir(), dump_dir=tmp_path)
    assert "!nontemporal" in (tmp_path / "4-llvm.ll").read_text()
    n = (8 << 20) + 5
    rng = np.random.default_rng(shift)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    buffer = np.full(n + 4096, -7.0, np.float32)
    start = (-buffer.ctypes.data % 4096) // 4 + shift
    out = buffer[start:start + n]
    kernel.launch(((n + 1023) // 1024, ), x, y, out, n)
    np.testing.assert_array_equal(out, x + y)
    assert (buffer[:start] == -7.0).all() and (buffer[start + n:] == -7.0).all()
    want = x + y
    kernel.launch(((n + 1023) // 1024, ), x, y, x, n)
    np.testing.assert_array_equal(x, want)
