"""Compiles the kernels of benchmarks/kernels/workloads/source.py with real
Triton at bench_workloads.py's shapes, checks each GPU result against torch,
and writes the TTIR Triton prints as <kernel>.ttir into the output folder.
Needs Triton and a GPU (the accelerator machine). cols is a multiple of 16,
so it carries Triton's divisibility hint, as in a real launch.

usage: python3 gen_workload_ttir.py OUT_DIR
"""
import importlib.util
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "kernels", "workloads", "source.py")
ROWS, COLS = 4096, 1024


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    spec = importlib.util.spec_from_file_location("workloads", SOURCE)
    k = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(k)
    block = triton.next_power_of_2(COLS)
    x = torch.randn(ROWS, COLS, device="cuda")
    w, b = torch.randn(COLS, device="cuda"), torch.randn(COLS, device="cuda")
    target = torch.randint(0, COLS, (ROWS, ), device="cuda", dtype=torch.int32)
    y, per_row = torch.empty_like(x), torch.empty(ROWS, device="cuda")
    runs = {
        "softmax": (lambda: k.softmax[(ROWS, )](x, y, COLS, BLOCK=block),
                    lambda: (y, torch.softmax(x, dim=1))),
        "layer_norm": (lambda: k.layer_norm[(ROWS, )](x, w, b, y, COLS, 1e-5, BLOCK=block),
                       lambda: (y, torch.nn.functional.layer_norm(x, (COLS, ), w, b, 1e-5))),
        "row_sum": (lambda: k.row_sum[(ROWS, )](x, per_row, COLS, BLOCK=block),
                    lambda: (per_row, x.sum(dim=1))),
        "cumsum": (lambda: k.cumsum[(ROWS, )](x, y, COLS, BLOCK=block),
                   lambda: (y, x.cumsum(dim=1))),
        "cross_entropy": (lambda: k.cross_entropy[(ROWS, )](x, target, per_row, COLS, BLOCK=block),
                          lambda: (per_row, torch.nn.functional.cross_entropy(
                              x, target.long(), reduction="none"))),
    }
    for name, (launch, reference) in runs.items():
        compiled = launch()
        got, want = reference()
        err = (got - want).abs().max().item()
        path = os.path.join(out, f"{name}.ttir")
        with open(path, "w") as f:
            f.write(compiled.asm["ttir"])
        print(f"{path}: GPU max error vs torch {err:.3g}")


if __name__ == "__main__":
    main()
