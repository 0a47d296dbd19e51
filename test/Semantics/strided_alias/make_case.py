#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of strided_alias.

Expected values are computed here with numpy, statement by statement in
program order (each load copies the memory at that point), independently of
refcpu (see kernel.ttir for the checks).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(4242)


def rnd(*shape):
    return rng.integers(-64, 64, size=shape).astype(np.float32) + 0.5


params = [
    ("a", rnd(8, 16), True),
    ("q", np.full((8, 16), -11.0, np.float32), True),
    ("r", np.full((8, 16), -12.0, np.float32), True),
    ("b", rnd(32), True),
    ("c", rnd(32), True),
    ("d", rnd(16, 16), True),
    ("e", rnd(16, 16), True),
    ("f", rnd(16), True),
    ("idx", rng.permutation(16).astype(np.int32), False),
    ("h", np.full(16, -13.0, np.float32), True),
    ("k", rnd(16), True),
    ("l", np.full(16, -14.0, np.float32), True),
    ("m", rnd(8, 16), True),
    ("nn", np.full((8, 16), -15.0, np.float32), True),
    ("b2", rnd(16), True),
    ("q2", np.full(16, -16.0, np.float32), True),
    ("p", rnd(16, 16), True),
    ("g2", rnd(16), True),
    ("q3", np.full(16, -17.0, np.float32), True),
    ("g3", rnd(16), True),
    ("q4", np.full(16, -18.0, np.float32), True),
    ("b3", rnd(16), True),
    ("q5", np.full(16, -19.0, np.float32), True),
]
mem = {name: arr.copy() for name, arr, _ in params}
perm = mem["idx"]

# a, q, r
xa = mem["a"].copy()
mem["a"][:, :] = xa + xa
mem["q"][:, :] = xa + np.float32(1)
ya = mem["a"].copy()
mem["r"][:, :] = ya
# b: forward shift
sb = mem["b"][0:16].copy()
mem["b"][1:17] = sb
# c: backward shift
sc = mem["c"][1:17].copy()
mem["c"][0:16] = sc
# d: lane (i, j) loads d[i, j] and stores it to d[j, i]
td = mem["d"].copy()
for i in range(16):
    for j in range(16):
        mem["d"][j, i] = td[i, j]
# e: store trans(e) to e
te = mem["e"].copy()
mem["e"][:, :] = te.T
# f, h
vals = np.arange(16, dtype=np.float32) * np.float32(3)
mem["f"][0:16] = vals
g = mem["f"][perm].copy()
mem["h"][:] = g
# k, l
vals2 = vals + np.float32(7)
for i in range(16):
    mem["k"][perm[i]] = vals2[i]
mem["l"][:] = mem["k"]
# m, nn
mv = xa + np.float32(100)
mem["m"][:, 0:5] = mv[:, 0:5]
ml = np.where(np.arange(16)[None, :] >= 3, mem["m"], np.float32(-1))
mem["nn"][:, :] = ml
# b2, q2
xb2 = mem["b2"].copy()
for i in range(16):
    mem["b2"][15 - i] = xb2[i]
mem["q2"][:] = xb2
# p: lane (i, j) of the 8x8 block loads p[i, j], stores to p[i + 1, j + 1]
tp = mem["p"][0:8, 0:8].copy()
mem["p"][1:9, 1:9] = tp
# g2, q3
xg2 = mem["g2"][perm].copy()
mem["g2"][:] = 0
mem["q3"][:] = xg2 + np.float32(1)
# g3, q4
xg3 = mem["g3"][perm].copy()
mem["g3"][perm] = 0
mem["q4"][:] = xg3 + np.float32(1)
# b3, q5
xb3 = mem["b3"][15 - np.arange(16)].copy()
mem["b3"][0:16] = 0
mem["q5"][:] = xb3 + np.float32(1)

write_case(HERE, "strided_alias", "strided_alias", (1,),
           [(name, arr, mem[name] if is_output else None, 0, 0)
            for name, arr, is_output in params])
