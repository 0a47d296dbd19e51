"""Matrix products on refcpu's fast preset against numpy (OpenBLAS, as the
environment configures it) and torch.matmul (torch._int_mm for int8 inputs,
where torch has it), measured in the same run (best
of interleaved runs), on 1, 2 and all cores. The kernels are the matmul TTIR
of the project's corpus, Triton's tutorial matmul at the block
configurations of benchmarks/kernels/matmul_tutorial and a batched matmul
(a 3-D tt.dot, 8 matrices per product: dtype "f32x8", peer torch.bmm) at
those of benchmarks/kernels/matmul_batched (gen_matmul_ttir.py), all from
real Triton 3.6: for each input type the best block configuration per size
is reported, as Triton's autotuner would pick it. Never run by the
test command.

PyTorch's OpenMP workers spin for a while after each of its parallel ops
(libgomp's default wait policy) on the cores that the refcpu run measured
next uses: on 2 cores here, bf16 at 2 threads then ran at one core's speed
in most runs (0.49-0.55x torch; 0.88-1.05x with OMP_WAIT_POLICY=passive,
torch's own time unchanged). OpenBLAS's workers spin likewise, for 2^28
cycles (about 0.1 s) after each call, so every refcpu and torch run of an
interleaved round shared the cores with them: on the 16-core host, f32 at
1024 on 16 threads, refcpu / torch / numpy ran at 880 / 503 / 1044 GFLOP/s
with that spin and 1418 / 1112 / 1092 with the shortest, in one call. Run
it as is and with OMP_WAIT_POLICY=passive, which also sets
OPENBLAS_THREAD_TIMEOUT=4 (OpenBLAS's shortest spin) unless the environment
sets it: then every library's idle workers sleep. The table's first lines
say which.

usage: /usr/bin/python3 benchmarks/bench_matmul.py [--sizes 512 1024]
           [--threads 1 2 16] [--repeat N] [--png chart.png]
           [--dtypes f32 bf16 f16 i8]
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "test", "Corpus", "cases")


def cdiv(a, b):
    return (a + b - 1) // b


# name: (input dtype, (BM, BN, BK), launch(kernel, a, b, c, m, n, k)).
# Unit strides were specialized away by Triton; matmul_kloop reads B stored
# as N x K (its k stride is the one that is 1), given as `b` here.
def _row_major(bm, bn):
    return lambda kern, a, b, c, m, n, k: kern.launch(
        (cdiv(m, bm), cdiv(n, bn), 1), a, b, c, m, n, k, k, n, n)


KERNELS = {
    "matmul_f32": ("f32", (32, 32, 32), _row_major(32, 32)),
    "matmul_blockptr": ("f32", (32, 16, 16), _row_major(32, 16)),
    "matmul_kloop": ("f32", (32, 32, 16), lambda kern, a, b, c, m, n, k: kern.launch(
        (cdiv(m, 32), cdiv(n, 32), 1), a, b, c, m, n, k, k, k, n)),
    "matmul_bf16": ("bf16", (32, 32, 32), _row_major(32, 32)),
    "matmul_f16": ("f16", (64, 32, 32), _row_major(64, 32)),
    "matmul_tutorial": ("f16", (32, 32, 32), lambda kern, a, b, c, m, n, k: kern.launch(
        (cdiv(m, 32) * cdiv(n, 32), 1, 1), a, b, c, m, n, k, k, n, n)),
}


TUTORIAL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels",
                        "matmul_tutorial")
BATCHED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels",
                       "matmul_batched")
# Matrices per batched product.
BATCH = 8


def _tutorial(bm, bn):
    return lambda kern, a, b, c, m, n, k: kern.launch(
        (cdiv(m, bm) * cdiv(n, bn), 1, 1), a, b, c, m, n, k, k, n, n)


def _batched(bb, bm, bn):
    """Launches the batched kernel on [BATCH, m, k] x [BATCH, k, n], its
    arguments by parameter name (Triton specialized the unit strides away)."""
    def launch(kern, a, b, c, m, n, k):
        values = {"a_ptr": a, "b_ptr": b, "c_ptr": c, "BATCH": BATCH, "M": m, "N": n,
                  "K": k}
        for prefix, t in (("a", a), ("b", b), ("c", c)):
            dims = "bmk" if prefix == "a" else "bkn" if prefix == "b" else "bmn"
            values.update({f"stride_{prefix}{d}": s for d, s in zip(dims, t.stride())})
        kern.launch((cdiv(m, bm) * cdiv(n, bn), cdiv(BATCH, bb), 1),
                    *[values[p] for p in kern.param_names])
    return launch


def _configurations(folder, prefix, launcher, batch):
    """The kernel.<dtype>.<blocks>.ttir files of `folder`."""
    found = {}
    for file in sorted(os.listdir(folder)):
        parts = file.split(".")
        if len(parts) != 4 or parts[0] != "kernel" or parts[3] != "ttir":
            continue
        blocks = tuple(map(int, parts[2].split("x")))
        # The K block does not shape the grid.
        found[f"{prefix}.{parts[1]}.{parts[2]}"] = (
            parts[1], blocks, launcher(*blocks[:-1]), os.path.join(folder, file), batch)
    return found


def kernels():
    """KERNELS, Triton's tutorial matmul and the batched matmul at every
    block configuration that gen_matmul_ttir.py wrote: name -> (dtype,
    blocks, launch, TTIR path, matrices per product or None)."""
    found = {name: (dtype, blocks, launch, os.path.join(CASES, name, "kernel.ttir"), None)
             for name, (dtype, blocks, launch) in KERNELS.items()}
    found.update(_configurations(TUTORIAL, "tutorial", _tutorial, None))
    found.update(_configurations(BATCHED, "batched", _batched, BATCH))
    return found


def worker(sizes, repeat, dtypes):
    """Measures every kernel and its peers with the thread counts of the
    environment; prints one JSON record per (kernel, size)."""
    import numpy as np
    import torch
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import refcpu
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_corpus import best_of

    torch.set_num_threads(int(os.environ["REFCPU_NUM_THREADS"]))
    torch_types = {"f32": torch.float32, "bf16": torch.bfloat16,
                   "f16": torch.float16, "i8": torch.int8}
    out_types = {"matmul_bf16": torch.float32}
    for name, (dtype, blocks, launch, path, batch) in kernels().items():
        if dtypes and dtype not in dtypes:
            continue
        with open(path) as f:
            kernel = refcpu.compile(f.read(), preset="fast")
        for size in sizes:
            if batch:
                ta = torch.randn(batch, size, size).to(torch_types[dtype])
                tb = torch.randn(batch, size, size).to(torch_types[dtype])
                tc = torch.empty(batch, size, size, dtype=ta.dtype)
                peer = lambda: torch.bmm(ta, tb)
            elif dtype == "i8":
                ta = torch.randint(-128, 128, (size, size), dtype=torch.int8)
                tb = torch.randint(-128, 128, (size, size), dtype=torch.int8)
                tc = torch.empty(size, size, dtype=torch.int32)
                # torch's int8 x int8 -> int32 product (where it has one).
                peer = lambda: torch._int_mm(ta, tb)
            else:
                ta = torch.randn(size, size).to(torch_types[dtype])
                tb = torch.randn(size, size).to(torch_types[dtype])
                tc = torch.empty(size, size, dtype=out_types.get(name, ta.dtype))
                peer = lambda: torch.matmul(ta, tb)
            b_arg = tb.T.contiguous() if name == "matmul_kloop" else tb
            run = lambda: launch(kernel, ta, b_arg, tc, size, size, size)
            fns = [run]
            try:
                peer()
                fns.append(peer)
            except (RuntimeError, AttributeError):  # no f16 / int8 matmul on
                pass                                 # this torch's CPU
            if dtype == "f32":
                na, nb = ta.numpy(), tb.numpy()
                nc = np.empty(ta.shape, np.float32)
                fns.append(lambda: np.matmul(na, nb, out=nc))
            run()
            want = (ta.double() @ (tb.double()))
            err = (tc.double() - want).abs().max().item() / want.abs().max().item()
            times = best_of(fns, repeat)
            flops = 2.0 * size ** 3 * (batch or 1)
            rates = [flops / t / 1e9 for t in times]
            record = {"kernel": name,
                      "dtype": f"{dtype}x{batch}" if batch else dtype, "blocks": blocks,
                      "size": size, "threads": int(os.environ["REFCPU_NUM_THREADS"]),
                      "refcpu": rates[0], "rel_err": err}
            record.update(zip(["torch", "numpy"][:len(rates) - 1], rates[1:]))
            print(json.dumps(record), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[512, 1024])
    parser.add_argument("--threads", type=int, nargs="+",
                        default=sorted({1, 2, os.cpu_count()}))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--png", help="write a chart of the ratios here")
    parser.add_argument("--dtypes", nargs="+", choices=["f32", "bf16", "f16", "i8"],
                        help="only the kernels with these input types (default: all)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.png and importlib.util.find_spec("matplotlib") is None:
        # Known before minutes of measuring, not after.
        parser.error("--png needs matplotlib, which this Python does not have")
    if args.worker:
        worker(args.sizes, args.repeat, args.dtypes)
        return

    idle = {}
    if os.environ.get("OMP_WAIT_POLICY", "").lower() == "passive":
        idle["OPENBLAS_THREAD_TIMEOUT"] = os.environ.get("OPENBLAS_THREAD_TIMEOUT", "4")
    records = []
    for threads in args.threads:
        # OpenBLAS reads its thread count at load time: one process each.
        env = dict(os.environ, REFCPU_NUM_THREADS=str(threads),
                   OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
                   **idle)
        out = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--worker", "--repeat",
             str(args.repeat), "--sizes", *map(str, args.sizes),
             *(["--dtypes", *args.dtypes] if args.dtypes else [])],
            env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
        records += [json.loads(line) for line in out.splitlines()]

    policy = os.environ.get("OMP_WAIT_POLICY", "default (spinning)")
    print(f"OMP_WAIT_POLICY {policy}")
    timeout = idle.get("OPENBLAS_THREAD_TIMEOUT",
                       os.environ.get("OPENBLAS_THREAD_TIMEOUT", "default (2^28 cycles)"))
    print(f"OPENBLAS_THREAD_TIMEOUT {timeout}")
    print(f"{'dtype':5} {'size':>5} {'thr':>3} {'best kernel':26} {'blocks':>10} "
          f"{'refcpu GF/s':>11} {'torch GF/s':>10} {'numpy GF/s':>10} "
          f"{'vs torch':>8} {'vs numpy':>8} {'rel err':>8}")
    best = {}
    for r in records:
        key = (r["dtype"], r["size"], r["threads"])
        if key not in best or r["refcpu"] > best[key]["refcpu"]:
            best[key] = r
    nan = float("nan")
    for (dtype, size, threads), r in sorted(best.items()):
        torch_rate, numpy_rate = r.get("torch", nan), r.get("numpy", nan)
        print(f"{dtype:5} {size:5} {threads:3} {r['kernel']:26} "
              f"{'x'.join(map(str, r['blocks'])):>10} {r['refcpu']:11.1f} "
              f"{torch_rate:10.1f} {numpy_rate:10.1f} "
              f"{r['refcpu'] / torch_rate:8.2f} {r['refcpu'] / numpy_rate:8.2f} "
              f"{r['rel_err']:8.1e}")
    if args.png:
        chart(best, args.png)


def chart(best, path):
    """Bars of refcpu's throughput over its peer's (numpy for f32, torch
    otherwise) per input type, size and thread count."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    keys = [k for k in sorted(best) if "numpy" in best[k] or "torch" in best[k]]
    ratios = [best[k]["refcpu"] / best[k].get("numpy", best[k].get("torch"))
              for k in keys]
    labels = [f"{d} {s}\n{t} thr" for d, s, t in keys]
    fig, ax = plt.subplots(figsize=(max(6, len(keys) * 0.9), 4))
    ax.bar(range(len(keys)), ratios)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(keys)), labels, fontsize=7)
    ax.set_ylabel("refcpu / peer throughput")
    ax.set_title("refcpu matmul vs numpy (f32), torch.matmul (bf16, f16), torch._int_mm (i8)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
