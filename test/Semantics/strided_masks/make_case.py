#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of strided_masks.

Expected values are computed here with numpy, lane by lane from the
semantics of the kernel (see kernel.ttir), independently of refcpu.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
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
params = [{"name": "x", "kind": "ptr", "dtype": "float32",
           "shape": list(x.shape), "input": "arg0.npy"}]
np.save(os.path.join(HERE, "arg0.npy"), x)
outputs = []
for k, name in enumerate(order, start=1):
    np.save(os.path.join(HERE, f"arg{k}.npy"), init[name])
    np.save(os.path.join(HERE, f"arg{k}.expected.npy"), exp[name])
    params.append({"name": name, "kind": "ptr", "dtype": "float32",
                   "shape": list(init[name].shape), "input": f"arg{k}.npy"})
    outputs.append({"param": k, "expected": f"arg{k}.expected.npy",
                    "atol": 0, "rtol": 0})
for name, value in [("M", M), ("N", N), ("sx", SX), ("lo", LO), ("hi", HI),
                    ("kcol", KCOL)]:
    params.append({"name": name, "kind": "scalar", "dtype": "i32", "value": value})
params.append({"name": "fT", "kind": "scalar", "dtype": "i1", "value": FT})
params.append({"name": "fF", "kind": "scalar", "dtype": "i1", "value": FF})

case = {"name": "strided_masks", "kernel": "strided_masks",
        "grid": [GRID[0], GRID[1], 1], "params": params, "outputs": outputs}
with open(os.path.join(HERE, "case.json"), "w") as f:
    json.dump(case, f, indent=1)
    f.write("\n")
