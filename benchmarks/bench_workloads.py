"""The memory-bound workloads of issue 11 on refcpu (fast preset) against
PyTorch and numpy doing the same computation in the same run, on 1, 2 and
all cores: vector_add, softmax, layer norm, a row sum, a row cumsum and
cross-entropy, on 4096 x 1024 f32 rows (vector_add: 16M elements). Best of
interleaved runs; ratios are peer time / refcpu time (> 1: refcpu faster).
numpy runs on one thread whatever the column says. Prints a table, writes it
as markdown and a PNG bar chart (matplotlib). Never run by the test command.

The kernels' TTIR is real Triton 3.6 output (kernels/workloads/*.ttir, from
tools/gen_workload_ttir.py); vector_add is the corpus case.

PyTorch's OpenMP workers spin for a while after each of its parallel ops
(libgomp's default wait policy), on the cores the refcpu run measured next
would use: with all cores, interleaving charges that to refcpu (vector_add
on 2 cores here: 0.74-0.83x torch, 0.94-0.97x with OMP_WAIT_POLICY=passive,
torch's own time unchanged). Run once as is and once with
OMP_WAIT_POLICY=passive in the environment; the markdown records which.

usage: /usr/bin/python3 benchmarks/bench_workloads.py [--repeat N] [--out PREFIX]
"""
import argparse
import importlib.util
import os
import sys
import time

import numpy as np
import torch

from bench_corpus import best_of, ttir

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "python"))
import refcpu  # noqa: E402

WORKLOADS = os.path.join(HERE, "kernels", "workloads")
ROWS, COLS = 4096, 1024


def workload_ttir(name):
    with open(os.path.join(WORKLOADS, f"{name}.ttir")) as f:
        return f.read()


def np_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def np_layer_norm(x, w, b, eps):
    d = x - x.mean(axis=1, keepdims=True)
    return d / np.sqrt((d * d).mean(axis=1, keepdims=True) + eps) * w + b


def np_cross_entropy(x, target):
    m = x.max(axis=1)
    lse = m + np.log(np.exp(x - m[:, None]).sum(axis=1))
    return lse - x[np.arange(x.shape[0]), target]


def workloads():
    """(name, TTIR, grid, refcpu arguments, output, torch fn, numpy fn,
    tolerance); the refcpu output is checked against torch's before timing."""
    rng = np.random.default_rng(0)
    n = 1 << 24
    a, b = rng.random(n, np.float32), rng.random(n, np.float32)
    sum_out = np.empty_like(a)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    # torch writes into preallocated outputs where it takes `out=`, as
    # refcpu does; softmax, layer_norm and cross_entropy allocate theirs.
    tsum_out = torch.empty_like(ta)
    x = rng.standard_normal((ROWS, COLS), np.float32)
    tx = torch.from_numpy(x)
    w, bias = rng.standard_normal(COLS, np.float32), rng.standard_normal(COLS, np.float32)
    tw, tbias = torch.from_numpy(w), torch.from_numpy(bias)
    target = rng.integers(0, COLS, ROWS).astype(np.int32)
    ttarget = torch.from_numpy(target).long()
    y, per_row = np.empty_like(x), np.empty(ROWS, np.float32)
    ty, tper_row = torch.empty_like(tx), torch.empty(ROWS)
    y_np = np.empty_like(x)
    rows = (ROWS, 1, 1)
    yield ("vector_add", ttir("vector_add"), ((n + 1023) // 1024, 1, 1), (a, b, sum_out, n),
           sum_out, lambda: torch.add(ta, tb, out=tsum_out),
           lambda: np.add(a, b, out=sum_out), 1e-6)
    yield ("softmax", workload_ttir("softmax"), rows, (x, y, COLS), y,
           lambda: torch.softmax(tx, dim=1), lambda: np_softmax(x), 1e-5)
    yield ("layer_norm", workload_ttir("layer_norm"), rows, (x, w, bias, y, COLS, 1e-5), y,
           lambda: torch.nn.functional.layer_norm(tx, (COLS, ), tw, tbias, 1e-5),
           lambda: np_layer_norm(x, w, bias, 1e-5), 1e-4)
    yield ("row_sum", workload_ttir("row_sum"), rows, (x, per_row, COLS), per_row,
           lambda: torch.sum(tx, dim=1, out=tper_row), lambda: x.sum(axis=1), 1e-3)
    yield ("cumsum", workload_ttir("cumsum"), rows, (x, y, COLS), y,
           lambda: torch.cumsum(tx, dim=1, out=ty), lambda: np.cumsum(x, axis=1, out=y_np), 1e-3)
    yield ("cross_entropy", workload_ttir("cross_entropy"), rows, (x, target, per_row, COLS),
           per_row,
           lambda: torch.nn.functional.cross_entropy(tx, ttarget, reduction="none"),
           lambda: np_cross_entropy(x, target), 1e-4)


def thread_counts():
    cores = os.cpu_count()
    return sorted({1, min(2, cores), cores})


def write_chart(results, threads, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(dict.fromkeys(r[0] for r in results))
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / (2 * len(threads))
    for i, t in enumerate(threads):
        for j, (peer, col) in enumerate((("torch", 4), ("numpy", 6))):
            ratios = [next(r[col] for r in results if r[0] == n and r[1] == t) for n in names]
            pos = [k + (2 * i + j - len(threads) + 0.5) * width for k in range(len(names))]
            ax.bar(pos, ratios, width, label=f"vs {peer}, {t} thread{'s' * (t > 1)}")
    # numpy is single-threaded: its ratios grow with the cores, so a log scale.
    ax.set_yscale("log")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel("peer time / refcpu time (> 1: refcpu faster)")
    ax.set_title(f"refcpu fast preset vs PyTorch and numpy, {os.cpu_count()} cores")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--out", help="write PREFIX.md and PREFIX.png")
    args = parser.parse_args()
    if args.out and importlib.util.find_spec("matplotlib") is None:
        # Known before minutes of measuring, not after.
        parser.error("--out needs matplotlib for its chart, which this Python does not have")
    threads = thread_counts()
    header = ("| workload | threads | refcpu ms | torch ms | torch/refcpu | numpy ms | "
              "numpy/refcpu | compile ms |")
    lines = [header, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    print(header)
    results = []
    for name, text, grid, kargs, out, torch_fn, numpy_fn, tol in workloads():
        start = time.perf_counter()
        kernel = refcpu.compile(text, preset="fast")
        compile_ms = (time.perf_counter() - start) * 1e3
        kernel.launch(grid, *kargs)
        expected = torch_fn().numpy()
        np.testing.assert_allclose(out, expected, rtol=tol, atol=tol, err_msg=name)
        for t in threads:
            os.environ["REFCPU_NUM_THREADS"] = str(t)
            torch.set_num_threads(t)
            t_ref, t_torch, t_np = best_of(
                [lambda: kernel.launch(grid, *kargs), torch_fn, numpy_fn], args.repeat)
            row = (name, t, t_ref * 1e3, t_torch * 1e3, t_torch / t_ref, t_np * 1e3,
                   t_np / t_ref, compile_ms)
            results.append(row)
            line = ("| {} | {} | {:.3f} | {:.3f} | {:.2f} | {:.3f} | {:.2f} | {:.0f} |"
                    .format(*row))
            lines.append(line)
            print(line, flush=True)
    if args.out:
        with open(args.out + ".md", "w") as f:
            policy = os.environ.get("OMP_WAIT_POLICY", "default (spinning)")
            f.write(f"bench_workloads.py on {os.cpu_count()} cores, best of {args.repeat} "
                    f"interleaved runs, OMP_WAIT_POLICY {policy}\n\n" + "\n".join(lines)
                    + "\n")
        write_chart(results, threads, args.out + ".png")


if __name__ == "__main__":
    main()
