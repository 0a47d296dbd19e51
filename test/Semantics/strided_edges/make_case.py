#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of strided_edges.

Expected values are computed here with numpy lane by lane, with Triton's i32
comparisons (Python integers: no wrapping occurs in these), independently of
refcpu (see kernel.ttir for the checks).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(31337)
f32 = np.float32

IMAX, IMIN, NNEG, LO, HI, N9, N64 = 2**31 - 1, -2**31, -5, 10, 4, 9, 5
GRID = 2

x = rng.integers(-500, 500, size=64).astype(f32) + f32(0.125)
names = [f"o{k}" for k in range(1, 11)]
init = {n: (f32(-100.0 * k) - np.arange(64, dtype=f32))
        for k, n in enumerate(names, start=1)}
e = {n: v.copy() for n, v in init.items()}

for pid in range(GRID):
    base = 32 * pid
    for i in range(16):
        r = 4 + i
        e["o1"][base + i] = x[base + r] if r < N9 else f32(-1)
        m2 = i <= IMAX and i >= IMIN and IMIN < IMAX
        e["o2"][base + i] = x[base + i] if m2 else f32(-2)
        e["o3"][base + i] = x[base + i] if i > IMAX else f32(-3)
        m4 = IMAX < IMIN and i < 16
        e["o4"][base + i] = x[base + i] if m4 else f32(-4)
        e["o5"][base + i] = x[base + i] if i < NNEG else f32(-5)
        if LO <= i <= HI:
            e["o5"][base + i] = x[base + i]
        if HI <= i <= LO:
            e["o6"][base + i] = x[base + i]
        e["o8"][base + i] = x[base + i] if i < N64 else f32(-8)
        e["o9"][base + i] = x[base + i] if pid * 16 + i < 16 else f32(-9)
        e["o10"][base + i] = x[base + i] if i != 3 else f32(-10)
    for rr in range(4):
        for c in range(8):
            e["o7"][base + rr * 8 + c] = x[base + c] if rr < 3 else f32(-7)

write_case(HERE, "strided_edges", "strided_edges", (GRID,),
           [("x", x, None, 0, 0)]
           + [(n, init[n], e[n], 0, 0) for n in names],
           [("imax", "i32", IMAX), ("imin", "i32", IMIN),
            ("nneg", "i32", NNEG), ("lo", "i32", LO), ("hi", "i32", HI),
            ("n9", "i32", N9), ("n64", "i64", N64)])
