#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of wrapped_offsets.

Expected values come from numpy indexing with Python's % on non-negative
offsets (the same as arith.remsi there), independently of refcpu.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

GRID, N, M = 4, 40, 5
x = np.random.default_rng(7).standard_normal(N).astype(np.float32)
y = np.zeros(GRID * 16, np.float32)
z = np.zeros((GRID * 4, 8), np.float32)
i = np.arange(GRID * 16)
rows = np.arange(GRID * 4)
write_case(HERE, "wrapped_offsets", "wrapped_offsets", (GRID,),
           [("x", x, None, 0, 0),
            ("y", y, x[i % N], 0, 0),
            ("z", z, x.reshape(M, 8)[rows % M], 0, 0)],
           [("n", "i32", N), ("m", "i32", M)])
