"""The kernels this process compiled, by TTIR text.

Triton's cache keeps the TTIR (the backend's binary); refcpu's JIT output
lives in memory only. The compile stages and the driver's load_binary share
this table so a kernel is JIT-compiled once per process.
"""

import hashlib
import os
import tempfile
import threading

import refcpu

# The file of refcpu's dump_dir output that holds the final LLVM IR.
_LLVM_IR_DUMP = "3-llvm.ll"

_lock = threading.Lock()
_compiled = {}
_llvm_ir = {}


def compile(ttir, name):
    """The refcpu.Kernel for TTIR bytes `ttir` with public kernel `name`."""
    key = (hashlib.sha256(ttir).hexdigest(), name)
    with _lock:
        kernel = _compiled.get(key)
    if kernel is None:
        kernel = refcpu.compile(ttir, kernel_name=name)
        with _lock:
            kernel = _compiled.setdefault(key, kernel)
    return kernel


def compile_with_llvm_ir(ttir, name):
    """Compiles like compile() and returns the optimized LLVM IR the kernel
    runs (compiling again when this process already holds the kernel but not
    its IR, e.g. when Triton loaded it from its cache)."""
    key = (hashlib.sha256(ttir).hexdigest(), name)
    with _lock:
        text = _llvm_ir.get(key)
    if text is not None:
        return text
    with tempfile.TemporaryDirectory(prefix="refcpu-") as stages:
        kernel = refcpu.compile(ttir, kernel_name=name, dump_dir=stages)
        with open(os.path.join(stages, _LLVM_IR_DUMP), encoding="utf-8") as f:
            text = f.read()
    with _lock:
        _compiled.setdefault(key, kernel)
        return _llvm_ir.setdefault(key, text)
