"""The kernels this process compiled, by TTIR text.

Triton's cache keeps the TTIR (the backend's binary); refcpu's JIT output
lives in memory only. The compile stage and the driver's load_binary share
this table so a kernel is JIT-compiled once per process.
"""

import hashlib
import threading

import refcpu

_lock = threading.Lock()
_compiled = {}


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
