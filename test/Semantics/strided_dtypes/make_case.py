#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of strided_dtypes.

Expected values are computed here with numpy lane by lane (flat addresses),
independently of refcpu (see kernel.ttir for the checks).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(2024)

S64R, LO, O64, S0, S1, LO2 = 32, 5, -123456789012, 40, 8, 2
GRID = 2

xi8 = rng.integers(-128, 128, size=(4, 32)).astype(np.int8)
xf16 = (rng.integers(-1000, 1000, size=(4, 32)) / 8).astype(np.float16)
xi64 = rng.integers(-2**62, 2**62, size=(4, 32), dtype=np.int64)
xb = rng.integers(0, 2, size=(4, 32)).astype(np.bool_)
x3 = rng.integers(-99, 99, size=(3, 5, 8)).astype(np.float32) + np.float32(0.5)

oi8 = np.full((4, 32), 99, np.int8)
of16 = np.full((32, 4), -9.0, np.float16)
oi64 = np.full((4, 32), 7, np.int64)
ob = np.zeros((4, 32), np.bool_)
ob2 = rng.integers(0, 2, size=(4, 32)).astype(np.bool_)
o3 = np.full((GRID, 4, 4, 8), -1.0, np.float32)
o3t = np.full((GRID, 8, 4, 4), -2.0, np.float32)

e = {"oi8": oi8.copy(), "of16": of16.copy(), "oi64": oi64.copy(),
     "ob": ob.copy(), "ob2": ob2.copy(), "o3": o3.copy(), "o3t": o3t.copy()}
x3f = x3.reshape(-1)
xi64f = xi64.reshape(-1)

for pid in range(GRID):
    for r in range(4):
        for j in range(16):
            c = 16 * pid + j
            # i8
            e["oi8"][r, c] = xi8[r, c] if (pid < 1 and c < 27) else np.int8(-3)
            # f16 (lane (j, r) of the 16x4 tile is x[r, c])
            e["of16"][c, r] = xf16[r, c] if r < 3 else np.float16(1.5)
            # i64
            cs = c - LO
            m = cs >= 0 and r <= 3
            e["oi64"][r, c] = xi64f[r * S64R + cs] if m else np.int64(O64)
            # i1
            v = xb[r, c] if c > 2 else True
            e["ob"][r, c] = v
            if r < 2:
                e["ob2"][r, c] = not v
    for d0 in range(4):
        for d1 in range(4):
            for d2 in range(8):
                m = d0 < 3 and d1 <= 2 and d2 >= LO2
                v = x3f[d0 * S0 + d1 * S1 + d2] if m else np.float32(0.75)
                e["o3"][pid, d0, d1, d2] = v
                e["o3t"][pid, d2, d0, d1] = v

params = [("xi8", xi8, None), ("oi8", oi8, "oi8"), ("xf16", xf16, None),
          ("of16", of16, "of16"), ("xi64", xi64, None), ("oi64", oi64, "oi64"),
          ("xb", xb, None), ("ob", ob, "ob"), ("ob2", ob2, "ob2"),
          ("x3", x3, None), ("o3", o3, "o3"), ("o3t", o3t, "o3t")]
write_case(HERE, "strided_dtypes", "strided_dtypes", (GRID,),
           [(name, arr, e[out] if out else None, 0, 0)
            for name, arr, out in params],
           [("s64r", "i32", S64R), ("lo", "i32", LO), ("o64", "i64", O64),
            ("s0", "i32", S0), ("s1", "i32", S1), ("lo2", "i32", LO2)])
