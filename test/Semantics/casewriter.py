"""Writes the argN.npy, argN.expected.npy and case.json files of a case.

Shared by the make_case.py scripts of test/Semantics; each script computes
its expected outputs with numpy and hands them here.
"""
import json
import os

import numpy as np


def _dtype_name(arr):
    return "bool" if arr.dtype == np.bool_ else str(arr.dtype)


def write_case(here, name, kernel, grid, ptrs, scalars=()):
    """Writes the case into the folder `here`.

    grid: up to three program counts (missing ones are 1).
    ptrs: ordered (param name, initial array, expected array or None, atol,
    rtol); parameter k is saved as argk.npy, its expected value (when not
    None) as argk.expected.npy.
    scalars: ordered (param name, dtype such as "i32", "i64", "i1", value),
    after the pointers.
    """
    params, outputs = [], []
    for k, (pname, arr, expected, atol, rtol) in enumerate(ptrs):
        np.save(os.path.join(here, f"arg{k}.npy"), arr)
        params.append({"name": pname, "kind": "ptr", "dtype": _dtype_name(arr),
                       "shape": list(arr.shape), "input": f"arg{k}.npy"})
        if expected is not None:
            np.save(os.path.join(here, f"arg{k}.expected.npy"), expected)
            outputs.append({"param": k, "expected": f"arg{k}.expected.npy",
                            "atol": atol, "rtol": rtol})
    for pname, dtype, value in scalars:
        params.append({"name": pname, "kind": "scalar", "dtype": dtype,
                       "value": value})
    grid = list(grid) + [1] * (3 - len(grid))
    case = {"name": name, "kernel": kernel, "grid": grid, "params": params,
            "outputs": outputs}
    with open(os.path.join(here, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
        f.write("\n")
