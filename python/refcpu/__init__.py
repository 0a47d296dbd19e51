"""refcpu: run Triton kernels (TTIR) on the CPU.

    import refcpu
    kernel = refcpu.compile(open("kernel.ttir").read())
    kernel.launch((n_blocks,), x, y, out, n)   # numpy arrays / torch tensors

refcpu.triton_backend makes `kernel[grid](...)` of an unmodified
@triton.jit kernel run through refcpu on torch CPU tensors.
"""

from . import _capi
from .errors import (ArgumentCountError, ArgumentError, ArgumentTypeError,
                     ArgumentValueError, CompileError, DeviceError, Error,
                     JitError, KernelError, LibraryError, NonContiguousError)
from .kernel import AotFiles, Kernel, compile, debug_default


def version():
    """The library's version string, e.g. 'refcpu 0.1 (ABI 1, LLVM 22.1.8)'."""
    return _capi.lib().refcpu_version_string().decode("utf-8")


def library_path():
    """The path librefcpu.so was loaded from."""
    return _capi.lib().path


__all__ = [
    "AotFiles", "ArgumentCountError", "ArgumentError", "ArgumentTypeError",
    "ArgumentValueError", "CompileError", "DeviceError", "Error", "JitError",
    "Kernel", "KernelError", "LibraryError", "NonContiguousError", "compile",
    "debug_default", "library_path", "version"
]
