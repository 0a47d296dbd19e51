"""The fast preset's float math (refcpu-fast-math) against numpy and the
reference preset: f32 exp as a polynomial and float max / min as LLVM's
intrinsics must keep the results and special values Triton kernels see."""

import numpy as np
import pytest

import casekit
import refcpu

ADD = "%2 = arith.addf %x_5, %y_7 : tensor<1024xf32>"


def _elementwise_kernel(op_text):
    """vector_add's TTIR with `out = op(x, y)` instead of `x + y`."""
    text = casekit.Case("vector_add").ttir()
    assert ADD in text, "vector_add's TTIR changed; update test_fast_math.py"
    return text.replace(ADD, f"%2 = {op_text} : tensor<1024xf32>")


def _run(text, preset, x, y):
    kernel = refcpu.compile(text, preset=preset)
    out = np.full_like(x, 7.0)
    kernel.launch(((x.size + 1023) // 1024, 1, 1), x, y, out, x.size)
    return out


def _exp_inputs():
    # Every 4099th f32 bit pattern (all exponents and signs) and the edges of
    # exp's range: overflow above 88.72, subnormal results below -87.34.
    x = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32).view(np.float32)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.72, 88.73, -87.33, -87.34, -103.9, -104.0]
    return np.concatenate([x, np.array(edges, np.float32)])


def test_exp_f32_accuracy():
    x = _exp_inputs()
    out = _run(_elementwise_kernel("math.exp %x_5"), "fast", x, x)
    with np.errstate(over="ignore", invalid="ignore"):
        exact = np.exp(x.astype(np.float64))
        rounded = exact.astype(np.float32)
    normal = np.isfinite(rounded) & (np.abs(rounded) >= np.finfo(np.float32).tiny)
    ulps = np.abs(out[normal] - exact[normal]) / np.spacing(rounded[normal]).astype(np.float64)
    assert ulps.max() <= 6, x[normal][np.argmax(ulps)]
    # Subnormal results flush towards 0, as the GPU's flush-to-zero exp does.
    subnormal = (rounded < np.finfo(np.float32).tiny) & (rounded > 0)
    assert np.abs(out[subnormal] - exact[subnormal]).max() < 1e-38
    # Special values: overflow and +inf give +inf, -inf gives 0, NaN stays.
    np.testing.assert_array_equal(np.isnan(out), np.isnan(x))
    overflow = np.isinf(rounded) & ~np.isnan(x)
    assert np.all(out[overflow] == np.inf)
    assert np.all(out[x == -np.inf] == 0.0)


MIN_MAX = [
    ("arith.maxnumf %x_5, %y_7", np.fmax),
    ("arith.minnumf %x_5, %y_7", np.fmin),
    ("arith.maximumf %x_5, %y_7", np.maximum),
    ("arith.minimumf %x_5, %y_7", np.minimum),
]


@pytest.mark.parametrize("op_text,expected", MIN_MAX, ids=[m[1].__name__ for m in MIN_MAX])
def test_min_max_nan_semantics(op_text, expected):
    # maxnum / minnum return the number when one operand is NaN; maximum /
    # minimum propagate NaN. Both presets must agree with numpy.
    rng = np.random.default_rng(1)
    x = rng.standard_normal(3000).astype(np.float32)
    y = rng.standard_normal(3000).astype(np.float32)
    x[::7], y[::11] = np.nan, np.nan
    x[::13], y[::17] = np.inf, -np.inf
    for preset in ("fast", "reference"):
        np.testing.assert_array_equal(_run(_elementwise_kernel(op_text), preset, x, y),
                                      expected(x, y), err_msg=preset)
