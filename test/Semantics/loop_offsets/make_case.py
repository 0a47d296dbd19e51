#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of loop_offsets.

Expected values are computed here with numpy by stepping through the loops of
each program in order (flat addresses, as the kernel computes them),
independently of refcpu (see kernel.ttir for the checks).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(99)

M, K, SA, N2, S64, L = 13, 40, 64, 6, 8, 41
GRID = 2
f32 = np.float32


def rnd(*shape):
    return rng.integers(-40, 40, size=shape).astype(f32) + f32(0.25)


params = [
    ("a", rnd(16, SA)),
    ("o1", np.full((16, 16), -1.0, f32)),
    ("o2", np.full((16, 16), -2.0, f32)),
    ("b", rnd(128)),
    ("c", np.full(64, -3.0, f32)),
    ("d", np.full(64, -4.0, f32)),
    ("e", rnd(128)),
    ("e2", rnd(128)),
    ("f", rnd(128)),
    ("g", np.full(128, -5.0, f32)),
    ("h", rnd(128)),
    ("s", rnd(128)),
    ("w", rnd(128)),
    ("wo", np.full(128, -6.0, f32)),
    ("u", rnd(128)),
    ("uo", np.full(64, -8.0, f32)),
    ("rv", rnd(128)),
    ("rvo", np.full(128, -10.0, f32)),
]
outputs = ["a", "o1", "o2", "c", "d", "e", "e2", "g", "h", "s", "wo", "uo", "rvo"]
mem = {name: arr.copy().reshape(-1) for name, arr in params}

for pid in range(GRID):
    # a, o1, o2: pointer a + r * SA + j + 16 * kk, offk = j + 16 * kk
    rows = [pid * 8 + i for i in range(8)]
    acc = np.zeros((8, 16), f32)
    nk = (K + 15) // 16
    for kk in range(nk):
        for i, r in enumerate(rows):
            for j in range(16):
                offk = j + 16 * kk
                if r < M and offk < K and j < K - 16 * kk:
                    acc[i, j] += mem["a"][r * SA + j + 16 * kk]
    for i, r in enumerate(rows):
        for j in range(16):
            if r < M:
                mem["o1"][r * 16 + j] = acc[i, j]
    fin = np.full((8, 16), -7.0, f32)
    for i, r in enumerate(rows):
        for j in range(16):
            if r < M:
                fin[i, j] = mem["a"][r * SA + j + 16 * nk]
    for i, r in enumerate(rows):
        for j in range(16):
            mem["o2"][r * 16 + j] = fin[i, j]
    for i, r in enumerate(rows):
        for j in range(16):
            if r < M:
                mem["a"][r * SA + j + 16 * nk] = acc[i, j]

    # b, c: for k = 1 to N2 step 2, both advanced by k
    off = 0
    acc = np.zeros(8, f32)
    for k in range(1, N2, 2):
        for j in range(8):
            if j < k + 4:
                acc[j] += mem["b"][pid * 64 + off + j]
        off += k
    for j in range(8):
        mem["c"][pid * 32 + off + j] = acc[j]

    # d: 2 * pid iterations, step S64
    off = 0
    for _ in range(2 * pid):
        for j in range(8):
            mem["d"][pid * 32 + off + j] = f32(-1)
        off += S64
    for j in range(8):
        mem["d"][pid * 32 + off + j] = f32(j) + f32(pid * 10)

    # e: nest A
    off = 0
    acc = np.zeros(4, f32)
    for i in range(3):
        for jj in range(2):
            for t in range(4):
                if t < i + jj + 1:
                    acc[t] += mem["e"][pid * 64 + off + t]
            off += 5
    for t in range(4):
        mem["e"][pid * 64 + off + t] = acc[t]

    # e2: nest B
    off = 0
    acc = np.zeros(4, f32)
    for i in range(2):
        for jj in range(0, 4, 2):
            for t in range(4):
                acc[t] += mem["e2"][pid * 64 + off + t]
            off += i + 1
        off += 7
    for t in range(4):
        mem["e2"][pid * 64 + off + t] = acc[t]

    # f, g
    offs = list(range(16))
    for _ in range(3):
        for t in range(16):
            if offs[t] < L:
                mem["g"][pid * 64 + offs[t]] = mem["f"][pid * 64 + offs[t]] * f32(3)
        offs = [o + 16 for o in offs]
    for t in range(16):
        if offs[t] < 64:
            mem["g"][pid * 64 + offs[t]] = f32(-9)

    # h
    off = 0
    for _ in range(5):
        x = mem["h"][pid * 64 + off: pid * 64 + off + 8].copy()
        mem["h"][pid * 64 + off + 8: pid * 64 + off + 16] = x + f32(1)
        off += 8
    y = mem["h"][pid * 64 + off: pid * 64 + off + 8].copy()
    mem["h"][pid * 64 + off + 8: pid * 64 + off + 16] = y * f32(10)

    # s: sequential loops
    base = pid * 64
    off = 0
    acc = np.zeros(8, f32)
    for _ in range(2):
        acc += mem["s"][base + off: base + off + 8]
        off += 8
    for _ in range(2):
        mem["s"][base + off: base + off + 8] = acc
        off += 4
    mem["s"][base + off: base + off + 8] = -acc

    # w, wo
    p, q, ro = 0, 0, 0
    for _ in range(3):
        x = mem["w"][base + p: base + p + 8].copy()
        y = mem["w"][base + q: base + q + 8].copy()
        mem["wo"][base + ro: base + ro + 8] = x * f32(100) + y
        p, q, ro = p + 8, p, ro + 8

    # u, uo
    up = pid * 64
    for it in range(3):
        for j in range(8):
            v = mem["u"][up + j] if j < 6 else f32(-1)
            mem["uo"][pid * 32 + it * 8 + j] = v
        up += 5

    # rv, rvo: p walks backwards from 56 by 8, ro forwards from 0
    p, ro = 56, 0
    for it in range(7):
        for j in range(8):
            v = mem["rv"][base + p + j] if j < 8 - it else f32(-1)
            mem["rvo"][base + ro + j] = v
        p -= 8
        ro += 8
    mem["rvo"][base + ro: base + ro + 8] = mem["rv"][base + p: base + p + 8]

write_case(HERE, "loop_offsets", "loop_offsets", (GRID,),
           [(name, arr,
             mem[name].reshape(arr.shape) if name in outputs else None, 0, 0)
            for name, arr in params],
           [("M", "i32", M), ("K", "i32", K), ("sa", "i32", SA),
            ("n2", "i32", N2), ("s64", "i64", S64), ("L", "i32", L)])
