#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of strided_edges.

Expected values are computed here with numpy lane by lane, with Triton's i32
comparisons (Python integers: no wrapping occurs in these), independently of
refcpu (see kernel.ttir for the checks).
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
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

params = [{"name": "x", "kind": "ptr", "dtype": "float32", "shape": [64],
           "input": "arg0.npy"}]
np.save(os.path.join(HERE, "arg0.npy"), x)
outputs = []
for k, n in enumerate(names, start=1):
    np.save(os.path.join(HERE, f"arg{k}.npy"), init[n])
    np.save(os.path.join(HERE, f"arg{k}.expected.npy"), e[n])
    params.append({"name": n, "kind": "ptr", "dtype": "float32", "shape": [64],
                   "input": f"arg{k}.npy"})
    outputs.append({"param": k, "expected": f"arg{k}.expected.npy",
                    "atol": 0, "rtol": 0})
for name, dtype, value in [("imax", "i32", IMAX), ("imin", "i32", IMIN),
                           ("nneg", "i32", NNEG), ("lo", "i32", LO),
                           ("hi", "i32", HI), ("n9", "i32", N9),
                           ("n64", "i64", N64)]:
    params.append({"name": name, "kind": "scalar", "dtype": dtype, "value": value})
case = {"name": "strided_edges", "kernel": "strided_edges", "grid": [GRID, 1, 1],
        "params": params, "outputs": outputs}
with open(os.path.join(HERE, "case.json"), "w") as f:
    json.dump(case, f, indent=1)
    f.write("\n")
