"""ctypes declarations of the C API in runtime/include/refcpu/refcpu.h.

This is the only module that knows C signatures; everything else calls the
functions through `lib()`. The library is located, in order, through the
REFCPU_LIBRARY environment variable, next to this package (an installed or
unpacked copy), and in the build tree (build/lib of the repository that
contains python/refcpu).
"""

import ctypes
import os

from .errors import LibraryError

ABI_VERSION = 4

# refcpu_status
OK = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_COMPILE = 2
ERROR_JIT = 3
ERROR_KERNEL = 4

# refcpu_arg_kind
ARG_PTR = 0
ARG_I1 = 1
ARG_I8 = 2
ARG_I16 = 3
ARG_I32 = 4
ARG_I64 = 5
ARG_F16 = 6
ARG_BF16 = 7
ARG_F32 = 8
ARG_F64 = 9

# refcpu_preset
PRESET_FAST = 0
PRESET_REFERENCE = 1


class ArgValue(ctypes.Union):
    _fields_ = [("ptr", ctypes.c_void_p), ("i", ctypes.c_int64),
                ("f", ctypes.c_double)]


class Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("value", ArgValue),
                ("extent_bytes", ctypes.c_uint64)]


class CompileOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("preset", ctypes.c_int),
                ("kernel_name", ctypes.c_char_p),
                ("dump_dir", ctypes.c_char_p),
                ("source_name", ctypes.c_char_p),
                ("check_bounds", ctypes.c_int), ("debug", ctypes.c_int),
                ("target_cpu", ctypes.c_char_p)]


KernelHandle = ctypes.c_void_p
_status = ctypes.c_int
_error_out = ctypes.POINTER(ctypes.c_void_p)

# name: (restype, argtypes)
_SIGNATURES = {
    "refcpu_abi_version": (ctypes.c_int, []),
    "refcpu_version_string": (ctypes.c_char_p, []),
    "refcpu_compile_options_init": (None, [ctypes.POINTER(CompileOptions)]),
    "refcpu_kernel_create": (_status, [
        ctypes.c_char_p, ctypes.c_size_t,
        ctypes.POINTER(CompileOptions),
        ctypes.POINTER(KernelHandle), _error_out
    ]),
    "refcpu_compile_aot": (_status, [
        ctypes.c_char_p, ctypes.c_size_t,
        ctypes.POINTER(CompileOptions), ctypes.c_char_p, ctypes.c_char_p,
        _error_out
    ]),
    "refcpu_kernel_destroy": (None, [KernelHandle]),
    "refcpu_kernel_name": (ctypes.c_char_p, [KernelHandle]),
    "refcpu_kernel_num_params": (ctypes.c_size_t, [KernelHandle]),
    "refcpu_kernel_param_kind": (ctypes.c_int,
                                 [KernelHandle, ctypes.c_size_t]),
    "refcpu_kernel_param_written": (ctypes.c_int,
                                    [KernelHandle, ctypes.c_size_t]),
    "refcpu_kernel_checks_bounds": (ctypes.c_int, [KernelHandle]),
    "refcpu_kernel_param_name": (ctypes.c_char_p,
                                 [KernelHandle, ctypes.c_size_t]),
    "refcpu_kernel_param_type": (ctypes.c_char_p,
                                 [KernelHandle, ctypes.c_size_t]),
    "refcpu_kernel_param_pointee_type": (ctypes.c_char_p,
                                         [KernelHandle, ctypes.c_size_t]),
    "refcpu_kernel_launch": (_status, [
        KernelHandle, ctypes.POINTER(Arg), ctypes.c_size_t, ctypes.c_uint32,
        ctypes.c_uint32, ctypes.c_uint32, _error_out
    ]),
    # Takes the message as void* so that ctypes hands back the pointer
    # unconverted (a c_char_p result would lose the address to free).
    "refcpu_free_error": (None, [ctypes.c_void_p]),
}

_LIBRARY_NAME = "librefcpu.so"
_lib = None


def candidate_paths():
    """The places searched for librefcpu.so, in order."""
    env = os.environ.get("REFCPU_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    return [
        os.path.join(here, _LIBRARY_NAME),
        os.path.join(repo, "build", "lib", _LIBRARY_NAME),
    ]


def _load():
    tried = []
    for path in candidate_paths():
        if not os.path.exists(path):
            tried.append(f"{path} (missing)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
        version = lib.refcpu_abi_version()
        if version != ABI_VERSION:
            raise LibraryError(f"{path} implements refcpu ABI {version}; this "
                               f"package needs ABI {ABI_VERSION}")
        lib.path = path
        return lib
    raise LibraryError("cannot load librefcpu.so (set REFCPU_LIBRARY to its "
                       "path); tried: " + "; ".join(tried))


def lib():
    """The loaded library (loaded on first use)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def take_error(error):
    """Returns the message in `error` (a c_void_p filled by the library) as a
    str and frees it."""
    if not error.value:
        return ""
    message = ctypes.string_at(error.value).decode("utf-8", "replace")
    lib().refcpu_free_error(error.value)
    return message


def unchecked_launch():
    """refcpu_kernel_launch without ctypes' per-call argument conversion
    (a third of a one-program launch's cost): the caller passes every
    argument as a ctypes object of the declared C type (c_void_p kernel,
    Arg array, c_size_t count, POINTER(c_void_p) error), except the grid
    dimensions: ints below 2^31, which ctypes passes as C ints, the same
    bits as the uint32 parameters."""
    function = lib()["refcpu_kernel_launch"]
    function.restype = _status
    return function
