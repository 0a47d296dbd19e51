#!/usr/bin/env python3
"""Writes the inputs, expected outputs and case.json of
map_elementwise_branches: sign(x - y) computed with numpy, independently of
refcpu."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from casewriter import write_case  # noqa: E402

rng = np.random.default_rng(5)
x = rng.integers(-5, 5, 128, dtype=np.int32)
y = rng.integers(-5, 5, 128, dtype=np.int32)
z = (x > y).astype(np.int32) - (y > x).astype(np.int32)
write_case(HERE, "map_elementwise_branches", "cmp", (1,),
           [("X", x, None, 0, 0), ("Y", y, None, 0, 0),
            ("Z", np.zeros(128, np.int32), z, 0, 0)])
