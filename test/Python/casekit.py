"""Reading the corpus cases of test/Corpus/cases from Python.

A case folder holds kernel.ttir, the Triton source of the kernel
(source.py), case.json (grid, parameters in TTIR order, outputs with
tolerances, the constexprs baked into the TTIR, and `specialized_away`: the
Python arguments Triton dropped because they were 1), argN.npy inputs and
argN.expected.npy outputs. bfloat16 data is stored as uint16 bit patterns.

source.py holds only the @triton.jit function; `load_triton_kernel` runs it
in a module that provides what the corpus generator's module provided
(triton_helpers.py).
"""

import importlib.util
import json
import os

import numpy as np

CASES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                         "Corpus", "cases")


def case_names():
    return sorted(
        name for name in os.listdir(CASES_DIR)
        if os.path.exists(os.path.join(CASES_DIR, name, "case.json")))


def _bf16_bits_to_float32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


class Case:

    def __init__(self, name):
        self.name = name
        self.dir = os.path.join(CASES_DIR, name)
        with open(os.path.join(self.dir, "case.json")) as f:
            self.meta = json.load(f)
        self.grid = tuple(self.meta["grid"])
        self.params = self.meta["params"]
        self.kernel_name = self.meta["kernel"]

    def ttir(self, file="kernel.ttir"):
        """The TTIR text of the case (kernel.ttir, or another form of the
        kernel the case folder holds, e.g. kernel.blockptr.ttir)."""
        with open(os.path.join(self.dir, file)) as f:
            return f.read()

    def inputs(self):
        """The TTIR-order arguments: numpy arrays (fresh copies) for
        pointers, Python numbers for scalars."""
        args = []
        for p in self.params:
            if p["kind"] == "ptr":
                args.append(np.load(os.path.join(self.dir, p["input"])))
            elif p["dtype"] == "fp32":
                args.append(float(p["value"]))
            elif p["dtype"] == "i1":
                args.append(bool(p["value"]))
            else:
                args.append(int(p["value"]))
        return args

    def mismatches(self, args):
        """Compares the output arguments (numpy arrays in TTIR order) with
        the expected arrays; returns a list of messages, empty on success."""
        problems = []
        for out in self.meta["outputs"]:
            index = out["param"]
            expected = np.load(os.path.join(self.dir, out["expected"]))
            got = np.asarray(args[index])
            name = self.params[index]["name"]
            if got.shape != expected.shape:
                problems.append(f"{name}: shape {got.shape} != "
                                f"{expected.shape}")
                continue
            if self.params[index]["dtype"] == "bfloat16":
                got = _bf16_bits_to_float32(got.view(np.uint16))
                expected = _bf16_bits_to_float32(expected)
            if expected.dtype.kind in "iub":
                ok = np.array_equal(got, expected)
            else:
                ok = np.allclose(got.astype(np.float64),
                                 expected.astype(np.float64),
                                 atol=out["atol"], rtol=out["rtol"],
                                 equal_nan=True)
            if not ok:
                diff = np.abs(got.astype(np.float64) -
                              expected.astype(np.float64))
                problems.append(f"{name}: max abs diff {np.nanmax(diff)} "
                                f"(atol {out['atol']}, rtol {out['rtol']})")
        return problems

    def triton_kwargs(self, fn, ttir_args):
        """Keyword arguments for `fn[grid](**kwargs)`, given the TTIR-order
        arguments: parameters Triton specialized away get their value 1
        back, constexprs their baked-in values."""
        by_name = {p["name"]: a for p, a in zip(self.params, ttir_args)}
        by_name.update({name: 1 for name in self.meta["specialized_away"]})
        by_name.update(self.meta["constexprs"])
        return {name: by_name[name] for name in fn.arg_names}


def load_triton_kernel(case):
    """The @triton.jit function of `case` (Triton must be installed)."""
    path = os.path.join(case.dir, "source.py")
    spec = importlib.util.spec_from_file_location(
        f"refcpu_corpus_{case.name}", path)
    module = importlib.util.module_from_spec(spec)
    # Imported here: the module needs Triton, the rest of this file not.
    import triton_helpers
    module.__dict__.update(triton_helpers.kernel_namespace())
    spec.loader.exec_module(module)
    return getattr(module, case.kernel_name)
