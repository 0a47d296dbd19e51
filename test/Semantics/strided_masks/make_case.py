#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of strided_masks.

Expected values are computed here with numpy, lane by lane from the
semantics of the kernel (see kernel.ttir), independently of refcpu.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(1234)

M, N, SX, LO, HI, KCOL = 10, 13, 16, 3, 11, 5
FT, FF = True, False
GRID = (3, 2)
BM, BN = 4, 8

x = rng.integers(-50, 50, size=(10, SX)).astype(np.float32) + 0.25


def sentinel(shape, base):
    return (base - np.arange(np.prod(shape), dtype=np.float32)).reshape(shape)


outs = {}
init = {}
for i, name in enumerate(["o1", "o2", "o3", "o4", "o5", "o6", "o7"]):
    init[name] = sentinel((12, 16), -1000.0 * (i + 1))
for i, name in enumerate(["o8", "o9", "o10"]):
    init[name] = sentinel((16, 12), -10000.0 * (i + 1))
init["o11"] = sentinel((3, 16), -50000.0)
exp = {k: v.copy() for k, v in init.items()}


def X(r, c):
    """x[r, c] for an in-bounds lane (flat address r * SX + c)."""
    return x.reshape(-1)[r * SX + c]


for pm in range(GRID[0]):
    for pn in range(GRID[1]):
        for i in range(BM):
            r = pm * BM + i
            for j in range(BN):
                c = pn * BN + j
                m1 = r < M and c < N
                v = X(r, c) if m1 else np.float32(-1.0)
                # (1)
                exp["o1"][r, c] = v
                # (2)
                m2 = r < M and LO <= c <= HI
                if m2:
                    exp["o2"][r, c] = v + np.float32(100)
                # (3)
                if c == KCOL and r > 1:
                    exp["o3"][r, c] = v + v
                # (4)
                m4 = (pm != 1) and m1
                exp["o4"][r, c] = X(r, c) if m4 else np.float32(5.0)
                # (5)
                if FT and r >= 2:
                    exp["o5"][r, c] = v + np.float32(1)
                if FF:
                    exp["o5"][r, c] = v + np.float32(50)
                # (6)
                exp["o6"][r, c] = np.float32(3.0)
                # (7)
                cs = c - LO
                m7 = r < M and cs >= 0 and cs < N
                exp["o7"][r, c] = X(r, cs) if m7 else np.float32(-3.0)
                # (8), (10): lane (j, i) of the 8x4 tile is x[r, c]
                exp["o8"][c, r] = v if m1 else np.float32(-2.0)
                exp["o10"][c, r] = v if m1 else np.float32(-2.0)
                # (9)
                if m2:
                    exp["o9"][c, r] = v
        # (11): one row, 4 * pm + 3
        r = pm * BM + 3
        for j in range(BN):
            c = pn * BN + j
            m = r < M and c < N
            exp["o11"][pm, c] = X(r, c) if m else np.float32(-4.0)

order = ["o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o9", "o10", "o11"]
write_case(HERE, "strided_masks", "strided_masks", GRID,
           [("x", x, None, 0, 0)]
           + [(name, init[name], exp[name], 0, 0) for name in order],
           [(name, "i32", value) for name, value in
            [("M", M), ("N", N), ("sx", SX), ("lo", LO), ("hi", HI),
             ("kcol", KCOL)]]
           + [("fT", "i1", FT), ("fF", "i1", FF)])
