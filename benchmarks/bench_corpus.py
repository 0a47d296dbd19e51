"""Times corpus kernels on refcpu (fast and reference presets, and the fast
preset with bounds checking) against a peer measured in the same run (numpy
or PyTorch doing the same computation), best of interleaved runs, and prints
the ratios; then vector_add through the strided and the per-lane memory
path. Never run by the test command.

usage: /usr/bin/python3 benchmarks/bench_corpus.py [--repeat N]
"""
import argparse
import os
import sys
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import refcpu  # noqa: E402

CASES = os.path.join(ROOT, "test", "Corpus", "cases")


def best_of(fns, repeat):
    """The best time of each of `fns`, run in turn `repeat` times so that
    they share the machine's state (frequency, caches, other load)."""
    for fn in fns:
        fn()  # warm up (first-call costs, caches)
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


def ttir(case):
    with open(os.path.join(CASES, case, "kernel.ttir")) as f:
        return f.read()


def vector_add(n):
    x, y = np.random.rand(n).astype(np.float32), np.random.rand(n).astype(np.float32)
    out = np.empty_like(x)
    grid = ((n + 1023) // 1024, 1, 1)
    return ("vector_add", n * 12, lambda k: k.launch(grid, x, y, out, n),
            "numpy", lambda: np.add(x, y, out=out))


def softmax(rows, cols):
    x = np.random.rand(rows, cols).astype(np.float32)
    out = np.empty_like(x)
    tx = torch.from_numpy(x)
    return ("softmax_rows", rows * cols * 8,
            lambda k: k.launch((rows, 1, 1), x, out, cols, cols, cols),
            "torch", lambda: torch.softmax(tx, dim=1))


def matmul(m, n, k):
    a = np.random.rand(m, k).astype(np.float32)
    b = np.random.rand(k, n).astype(np.float32)
    c = np.empty((m, n), np.float32)
    grid = ((m + 31) // 32, (n + 31) // 32, 1)
    return ("matmul_f32", 2 * m * n * k,
            # Unit strides were specialized away by Triton (equal to 1).
            lambda kern: kern.launch(grid, a, b, c, m, n, k, k, n, n),
            "numpy", lambda: np.matmul(a, b, out=c))


def per_lane_vector_add():
    """vector_add with its offsets built by `|` instead of `+`: the same values
    (pid * 1024 has no bits below 1024), but the pointer analysis does not
    follow arith.ori, so every access takes the general per-lane path."""
    text = ttir("vector_add")
    plus = "%offs_2 = arith.addi %offs_1, %offs_0 : tensor<1024xi32>"
    assert plus in text, "vector_add's TTIR changed; update per_lane_vector_add"
    return text.replace(plus, plus.replace("arith.addi", "arith.ori"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    torch.set_num_threads(os.cpu_count())
    print(f"{'kernel':14} {'work':>10} {'fast ms':>9} {'ref ms':>9} {'checked ms':>10} "
          f"{'peer':>6} {'peer ms':>9} {'peer/fast':>10} {'ref/fast':>9} {'checked/fast':>12}")
    for case, work, run, peer_name, peer in [vector_add(1 << 22), softmax(4096, 781),
                                             matmul(512, 512, 512)]:
        fast = refcpu.compile(ttir(case), preset="fast")
        ref = refcpu.compile(ttir(case), preset="reference")
        checked = refcpu.compile(ttir(case), preset="fast", check_bounds=True)
        t_fast, t_ref, t_checked, t_peer = best_of(
            [lambda: run(fast), lambda: run(ref), lambda: run(checked), peer], args.repeat)
        print(f"{case:14} {work:>10} {t_fast * 1e3:9.3f} {t_ref * 1e3:9.3f} "
              f"{t_checked * 1e3:10.3f} {peer_name:>6} {t_peer * 1e3:9.3f} "
              f"{t_peer / t_fast:10.3f} {t_ref / t_fast:9.3f} {t_checked / t_fast:12.2f}")

    # The two memory paths on the same kernel (fast preset).
    _, _, run, _, _ = vector_add(1 << 22)
    strided = refcpu.compile(ttir("vector_add"), preset="fast")
    per_lane = refcpu.compile(per_lane_vector_add(), preset="fast")
    t_strided, t_lanes = best_of([lambda: run(strided), lambda: run(per_lane)], args.repeat)
    print(f"\nvector_add memory paths: strided {t_strided * 1e3:.3f} ms, "
          f"per-lane {t_lanes * 1e3:.3f} ms, per-lane/strided {t_lanes / t_strided:.2f}")


if __name__ == "__main__":
    main()
