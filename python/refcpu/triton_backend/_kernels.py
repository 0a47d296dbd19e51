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

# The files of refcpu's dump_dir output that hold the TTIR after refcpu's
# tt-level optimizations and the final LLVM IR.
_TTIR_OPT_DUMP = "1-ttir-opt.mlir"
_LLVM_IR_DUMP = "4-llvm.ll"

_lock = threading.Lock()
_compiled = {}
_stage_ir = {}


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


def compile_with_ir(ttir):
    """Compiles the only public kernel of TTIR bytes `ttir` like compile()
    and returns (its name, optimized TTIR, optimized LLVM IR), compiling
    again when this process already holds the kernel but not its IR (when
    Triton loaded it from its cache)."""
    digest = hashlib.sha256(ttir).hexdigest()
    with _lock:
        texts = _stage_ir.get(digest)
    if texts is not None:
        return texts
    with tempfile.TemporaryDirectory(prefix="refcpu-") as stages:
        kernel = refcpu.compile(ttir, dump_dir=stages)
        texts = [kernel.name]
        for dump in (_TTIR_OPT_DUMP, _LLVM_IR_DUMP):
            with open(os.path.join(stages, dump), encoding="utf-8") as f:
                texts.append(f.read())
    with _lock:
        _compiled.setdefault((digest, kernel.name), kernel)
        return _stage_ir.setdefault(digest, tuple(texts))
