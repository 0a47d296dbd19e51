#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of strided_negative.

Expected values are computed here with numpy from flat lane addresses,
independently of refcpu (see kernel.ttir for the checks).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(77)

BOFF, S, SN, R, C, NN, Z, SP = 112, -16, -1, 5, 12, 11, 0, 16
x = (rng.integers(-100, 100, size=(8, 16)).astype(np.float32) * 0.5)
xf = x.reshape(-1)

names = [f"o{k}" for k in range(1, 13)]
init = {name: (-1000.0 * k - np.arange(128, dtype=np.float32)).reshape(8, 16)
        for k, name in enumerate(names, start=1)}
exp = {k: v.copy() for k, v in init.items()}
flat = {k: v.reshape(-1) for k, v in exp.items()}   # views into exp


def load(addr):
    assert 0 <= addr < 128, addr
    return xf[addr]


v0 = x.copy()
for i in range(8):
    for j in range(16):
        o = i * 16 + j                      # where loads are stored
        # (1), (2): x + boff + i * s + j
        a = BOFF + i * S + j
        flat["o1"][o] = load(a)
        flat["o2"][o] = load(a) if (i < R and j < C) else np.float32(9)
        # (3): o3 + boff + i * s + j <- v0[i, j] where i >= 2
        if i >= 2:
            flat["o3"][BOFF + i * S + j] = v0[i, j]
        # (4): x + i * 16 + 15 + j * sn, masked j < 10
        flat["o4"][o] = load(i * 16 + 15 + j * SN) if j < 10 else np.float32(0.5)
        # (5): x + i * 16 + (15 - j), masked 15 - j < n
        flat["o5"][o] = load(i * 16 + 15 - j) if (15 - j) < NN else np.float32(-5)
        # (6)
        m6 = (7 - i) > 1 and (15 - j) >= 4 and (15 - j) <= 13
        flat["o6"][o] = load(o) if m6 else np.float32(-6)
        # (7): o7 + i * 16 + (15 - j) <- v0[i, j] where 15 - j >= 3
        if (15 - j) >= 3:
            flat["o7"][i * 16 + 15 - j] = v0[i, j]
        # (8): x + i * (-16) + j + 112, masked i >= 1
        flat["o8"][o] = load(i * -16 + j + 112) if i >= 1 else np.float32(7)
        # (9): x + i * z + j
        flat["o9"][o] = load(i * Z + j)
        # (10): x + boff + (0 - i) * sp + j, masked (0 - i) > -6
        flat["o10"][o] = load(BOFF + (0 - i) * SP + j) if (0 - i) > -6 else np.float32(4)
        # (11): block pointer base x + boff, strides [s, 1], offsets [0, -3],
        # shape [8, 16]: in bounds when 0 <= i < 8 and 0 <= j - 3 < 16
        ii, jj = 0 + i, -3 + j
        inb = 0 <= ii < 8 and 0 <= jj < 16
        flat["o11"][o] = load(BOFF + ii * S + jj) if inb else np.float32(0)
        # (12): block pointer base o12 + boff, strides [s, 1], offsets [2, 0],
        # row dimension checked: 0 <= 2 + i < 8
        ii, jj = 2 + i, 0 + j
        if 0 <= ii < 8:
            flat["o12"][BOFF + ii * S + jj] = v0[i, j]

write_case(HERE, "strided_negative", "strided_negative", (1,),
           [("x", x, None, 0, 0)]
           + [(name, init[name], exp[name], 0, 0) for name in names],
           [(name, "i32", value) for name, value in
            [("boff", BOFF), ("s", S), ("sn", SN), ("R", R), ("C", C),
             ("n", NN), ("z", Z), ("sp", SP)]])
