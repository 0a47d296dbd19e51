#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of dot_scaled_subbyte.

Expected values decode every code with numpy by the OCP microscaling rules
(sign, exponent with bias 2^(e-1) - 1, mantissa; exponent 0 is subnormal;
no infinities or NaNs), scale by 2^(s - 127) per group of K elements and
multiply in float64, independently of refcpu.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(2025)


def decode(codes, e_bits, m_bits):
    codes = codes.astype(np.int64)
    bias = 2**(e_bits - 1) - 1
    sign = np.where(codes >> (e_bits + m_bits) & 1, -1.0, 1.0)
    e = codes >> m_bits & (2**e_bits - 1)
    m = codes & (2**m_bits - 1)
    normal = 2.0**(e - bias) * (1 + m / 2**m_bits)
    subnormal = 2.0**(1 - bias) * (m / 2**m_bits)
    return sign * np.where(e == 0, subnormal, normal)


def factors(scales, k):
    return np.repeat(2.0**(scales.astype(np.float64) - 127), k // scales.shape[-1], axis=-1)


# D0: e2m3 x e3m2, K = 64, 16 x 16, shared scales [16 x 2].
a6 = rng.integers(0, 64, (16, 64), dtype=np.uint8)
b6 = rng.integers(0, 64, (64, 16), dtype=np.uint8)
s = rng.integers(122, 132, (16, 2), dtype=np.uint8)
d0 = (decode(a6, 2, 3) * factors(s, 64)) @ (decode(b6, 3, 2) * factors(s, 64).T)

# D1: batched e2m1, A packed along M, B along K; only A scaled; C added.
a4 = rng.integers(0, 256, (2, 8, 128), dtype=np.uint8)
b4 = rng.integers(0, 256, (2, 64, 16), dtype=np.uint8)
s4 = rng.integers(122, 132, (2, 16, 4), dtype=np.uint8)
c1 = rng.standard_normal((2, 16, 16)).astype(np.float32)


def unpack(packed, axis):
    lo, hi = decode(packed & 0xF, 2, 1), decode(packed >> 4, 2, 1)
    both = np.stack([lo, hi], axis=axis + 1)
    shape = list(packed.shape)
    shape[axis] *= 2
    return both.reshape(shape)


lhs = unpack(a4, 1) * factors(s4, 128)
d1 = c1 + np.matmul(lhs, unpack(b4, 1))

write_case(HERE, "dot_scaled_subbyte", "dot_scaled_subbyte", (1,),
           [("a6_ptr", a6, None, 0, 0),
            ("b6_ptr", b6, None, 0, 0),
            ("s_ptr", s, None, 0, 0),
            ("d0_ptr", np.zeros((16, 16), np.float32), d0.astype(np.float32), 1e-5, 1e-6),
            ("a4_ptr", a4, None, 0, 0),
            ("b4_ptr", b4, None, 0, 0),
            ("s4_ptr", s4, None, 0, 0),
            ("d1_ptr", c1, d1.astype(np.float32), 1e-4, 1e-6)])
