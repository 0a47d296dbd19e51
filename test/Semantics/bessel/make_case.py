#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of bessel: the Bessel
functions j0, j1, y0, y1, i0, i1 of each input, computed with mpmath at 50
digits and rounded to f32 and f64, independently of refcpu. (torch.special,
which Triton's test_libdevice.py compares against, is off by up to 2e-6
relative in f64 near x = -5.7 in Debian's torch 1.13.)"""
import os
import sys

import numpy as np
import mpmath

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(7)
# Normal samples as in test_libdevice.py, plus zeros, negatives (y0/y1 are
# NaN there), NaN, large arguments and i0/i1 overflow in f32 (x = 100).
x = np.concatenate([rng.standard_normal(112) * 3,
                    [0.0, -0.0, -1.0, -7.5, 1e-8, 25.0, -40.0, 88.0, 100.0,
                     -100.0, 300.0, 700.0, np.nan, 2.404825557695773, 0.5, 3.0]])
mpmath.mp.dps = 50
functions = [lambda v: mpmath.besselj(0, v), lambda v: mpmath.besselj(1, v),
             lambda v: mpmath.bessely(0, v), lambda v: mpmath.bessely(1, v),
             lambda v: mpmath.besseli(0, v), lambda v: mpmath.besseli(1, v)]


def exact(f, v):
    """f(v) as a float; NaN where the function is not real (y0, y1 of x < 0)."""
    if np.isnan(v):
        return np.nan
    if v == 0 and f in functions[2:4]:
        return -np.inf
    r = f(mpmath.mpf(float(v)))
    if isinstance(r, mpmath.mpc):
        return np.nan if r.imag != 0 else float(r.real)
    return float(r)


def reference(values):
    # Rounded to the input's type from the 50-digit value (f32 results of
    # i0/i1 overflow to inf for |x| = 100).
    with np.errstate(over="ignore"):
        return np.array([[exact(f, v) for v in values] for f in functions],
                        dtype=values.dtype)


x32 = x.astype(np.float32)
x64 = x.astype(np.float64)
o32, o64 = reference(x32), reference(x64)
write_case(HERE, "bessel", "bessel", (1,),
           [("X32", x32, None, 0, 0), ("X64", x64, None, 0, 0),
            ("O32", np.zeros((6, 128), np.float32), o32, 1e-5, 1.3e-6),
            ("O64", np.zeros((6, 128), np.float64), o64, 1e-14, 1e-12)])
