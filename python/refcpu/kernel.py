"""refcpu.compile and refcpu.Kernel: compile TTIR text, launch it on numpy
arrays, torch CPU tensors and Python scalars."""

import collections
import ctypes
import numbers
import os
import struct
import sys
import threading

import numpy as np

from . import _capi
from .errors import (ArgumentCountError, ArgumentError, ArgumentTypeError,
                     ArgumentValueError, CompileError, DeviceError, Error,
                     JitError, KernelError, NonContiguousError)

_INT_BITS = {
    _capi.ARG_I1: 1,
    _capi.ARG_I8: 8,
    _capi.ARG_I16: 16,
    _capi.ARG_I32: 32,
    _capi.ARG_I64: 64
}
_FLOAT_KINDS = {_capi.ARG_F16, _capi.ARG_BF16, _capi.ARG_F32, _capi.ARG_F64}

# Element dtypes (numpy / torch names without "torch.") accepted for a
# pointer to each TTIR element type. Integers are signless in TTIR, so both
# signednesses fit; numpy has no bfloat16, so bf16 data travels as 16-bit
# integer bit patterns there, as in the corpus .npy files.
_POINTEE_DTYPES = {
    "f64": {"float64"},
    "f32": {"float32"},
    "f16": {"float16"},
    "bf16": {"bfloat16", "uint16", "int16"},
    "i1": {"bool", "int8", "uint8"},
    "i8": {"int8", "uint8"},
    "i16": {"int16", "uint16"},
    "i32": {"int32", "uint32"},
    "i64": {"int64", "uint64"},
}

_PRESETS = {"fast": _capi.PRESET_FAST, "reference": _capi.PRESET_REFERENCE}

_STATUS_ERRORS = {
    _capi.ERROR_INVALID_ARGUMENT: ArgumentError,
    _capi.ERROR_COMPILE: CompileError,
    _capi.ERROR_JIT: JitError,
    _capi.ERROR_KERNEL: KernelError,
}

_MAX_GRID = 2**31 - 1


def _python_int_range(bits):
    """[low, high) of the Python ints an integer parameter of `bits` takes:
    the signed range (i1: 0 or 1). A Python int has no signedness of its
    own, so this rule gives it its bit pattern; unsigned numpy scalars (and,
    through Triton, non-negative 64-bit ints) take the whole width."""
    return (0, 2) if bits == 1 else (-(1 << (bits - 1)), 1 << (bits - 1))


def _raise_status(status, error, what):
    message = _capi.take_error(error)
    raise _STATUS_ERRORS.get(status, Error)(message or
                                            f"{what} failed ({status})")


AotFiles = collections.namedtuple("AotFiles", ["object", "header"])
AotFiles.__doc__ = """The files of an ahead-of-time compiled kernel."""


def _default_options():
    """refcpu_compile_options as the library initializes them (it reads the
    environment defaults: REFCPU_CHECK_BOUNDS, REFCPU_DEBUG)."""
    options = _capi.CompileOptions()
    _capi.lib().refcpu_compile_options_init(ctypes.byref(options))
    return options


def debug_default():
    """Whether compile() compiles in debug mode when not told: the
    environment variable REFCPU_DEBUG is set and not "0"."""
    return bool(_default_options().debug)


def compile(ttir, kernel_name=None, preset="fast", dump_dir=None,
            source_name=None, check_bounds=None, debug=None, aot=None,
            target_cpu=None):
    """Compiles TTIR text (str or bytes) and returns a Kernel.

    kernel_name selects a public tt.func when the module has several; preset
    is "fast" (default) or "reference"; dump_dir, when set, receives the IR
    after each stage; source_name is the file name diagnostics give the text
    (default "kernel.ttir"); check_bounds checks every access against the
    extent of the array it derives from, failing the launch with KernelError
    before an access outside happens (default: the environment variable
    REFCPU_CHECK_BOUNDS); debug compiles for gdb at the kernel's Python
    lines (a DWARF line table and argument variables, no optimization, the
    code registered through gdb's JIT interface; default: the environment
    variable REFCPU_DEBUG). Raises CompileError with the diagnostics (and
    their locations) when the TTIR does not parse, verify or lower.

    With aot set to a path ("out/add" or "out/add.o"), compiles ahead of
    time instead: writes the object file out/add.o and its C header
    out/add.h (see refcpu-compile) and returns their paths as AotFiles.
    target_cpu (an LLVM CPU name such as "x86-64-v3") applies to aot only.
    """
    if preset not in _PRESETS:
        raise ValueError(f"unknown preset {preset!r}; use one of "
                         f"{sorted(_PRESETS)}")
    text = ttir.encode("utf-8") if isinstance(ttir, str) else bytes(ttir)
    lib = _capi.lib()
    options = _default_options()
    options.preset = _PRESETS[preset]
    if kernel_name is not None:
        options.kernel_name = kernel_name.encode("utf-8")
    if dump_dir is not None:
        options.dump_dir = str(dump_dir).encode("utf-8")
    if source_name is not None:
        options.source_name = str(source_name).encode("utf-8")
    if check_bounds is not None:
        options.check_bounds = int(bool(check_bounds))
    if debug is not None:
        options.debug = int(bool(debug))
    if target_cpu is not None:
        options.target_cpu = str(target_cpu).encode("utf-8")
    error = ctypes.c_void_p()
    if aot is not None:
        stem, extension = os.path.splitext(os.fspath(aot))
        files = AotFiles(stem + (extension or ".o"), stem + ".h")
        status = lib.refcpu_compile_aot(text, len(text), ctypes.byref(options),
                                        os.fsencode(files.object),
                                        os.fsencode(files.header),
                                        ctypes.byref(error))
        if status != _capi.OK:
            _raise_status(status, error, "compile")
        return files
    handle = _capi.KernelHandle()
    status = lib.refcpu_kernel_create(text, len(text), ctypes.byref(options),
                                      ctypes.byref(handle),
                                      ctypes.byref(error))
    if status != _capi.OK:
        _raise_status(status, error, "compile")
    return Kernel(handle)


def _dtype_name(obj):
    """'float32' for a float32 numpy array or torch tensor."""
    return str(obj.dtype).replace("torch.", "")


# Exact types found to be torch tensors (torch.Tensor, nn.Parameter, ...):
# a set lookup instead of _is_torch_tensor's module check per launch.
_TORCH_TENSOR_TYPES = set()


def _is_torch_tensor(obj):
    return type(obj).__module__.startswith("torch") and hasattr(
        obj, "data_ptr")


def _numpy_data_offset():
    """The offset of an ndarray's data pointer in the array object (numpy's
    PyArrayObject: the object header, then `char *data`), where reading it
    there gives what __array_interface__ says for a probe array; else None.
    __array_interface__ builds a dict per call: 0.65 us an array, six times
    the read, and most of a launch's cost on numpy arrays."""
    if sys.implementation.name != "cpython":
        return None
    probe = np.empty(3, np.uint8)
    offset = object.__basicsize__
    read = ctypes.c_void_p.from_address(id(probe) + offset).value
    return offset if read == probe.__array_interface__["data"][0] else None


_NUMPY_DATA_OFFSET = _numpy_data_offset()


def _numpy_address(array):
    if _NUMPY_DATA_OFFSET is None:
        return array.__array_interface__["data"][0]
    return ctypes.c_void_p.from_address(id(array) + _NUMPY_DATA_OFFSET).value or 0


class Kernel:
    """A compiled kernel. Launch it with `kernel.launch(grid, *args)` or
    `kernel[grid](*args)`."""

    def __init__(self, handle):
        lib = _capi.lib()
        self._handle = handle
        self._lib = lib
        # Launches in flight, one entry each; close() from another thread
        # frees the code only when the last of them has returned. A launch
        # takes no lock: list.append and pop are atomic under the GIL, and
        # a launch appends before it reads _closing while close() sets
        # _closing before it reads the list, so one of them sees the other.
        self._state = threading.Lock()
        self._active = []
        self._closing = False
        self.name = lib.refcpu_kernel_name(handle).decode("utf-8")
        count = lib.refcpu_kernel_num_params(handle)
        self.param_kinds = [
            lib.refcpu_kernel_param_kind(handle, i) for i in range(count)
        ]
        self.param_written = [
            lib.refcpu_kernel_param_written(handle, i) == 1
            for i in range(count)
        ]
        # Only a bounds-checked kernel reads its pointers' extents; finding
        # a torch tensor's (its storage's size) is most of a launch's cost.
        self._needs_extents = lib.refcpu_kernel_checks_bounds(handle) == 1
        self.param_names = [
            lib.refcpu_kernel_param_name(handle, i).decode("utf-8")
            for i in range(count)
        ]
        self.param_types = [
            lib.refcpu_kernel_param_type(handle, i).decode("utf-8")
            for i in range(count)
        ]
        # Per parameter, the element dtype names a pointer accepts (None:
        # any), and the (parameter, dtype) pairs already checked: a launch
        # checks each argument's dtype by one dictionary lookup.
        pointees = [
            lib.refcpu_kernel_param_pointee_type(handle, i)
            for i in range(count)
        ]
        self._accepted_dtypes = [
            None if p is None else _POINTEE_DTYPES.get(p.decode("utf-8"))
            for p in pointees
        ]
        self._dtype_checked = set()
        self._plan_launches(count)

    def _plan_launches(self, count):
        """What every launch reuses: the refcpu_arg array's layout as one
        struct (kind, 4 pad bytes, 8-byte value, 8-byte extent per
        argument) with the kinds filled in, the value ranges of integer
        parameters, and a per-thread argument array and error slot, so that
        a launch packs its arguments with one pack_into and makes one call.
        """
        formats = {_capi.ARG_PTR: "Q"}
        formats.update({k: "d" for k in _FLOAT_KINDS})
        self._arg_struct = struct.Struct("<" + "".join(
            "i4x" + formats.get(k, "q") + "Q" for k in self.param_kinds))
        assert self._arg_struct.size == ctypes.sizeof(_capi.Arg) * count
        self._template = []
        for kind in self.param_kinds:
            self._template += [kind, 0, 0]
        # Per integer parameter, the range a Python int takes inline (the
        # rest, and the errors, through _integer).
        self._int_ranges = {
            i: _python_int_range(_INT_BITS[kind])
            for i, kind in enumerate(self.param_kinds) if kind in _INT_BITS
        }
        self._per_thread = threading.local()
        self._launch_fn = _capi.unchecked_launch()
        self._handle_arg = ctypes.c_void_p(self._handle.value)
        self._count_arg = ctypes.c_size_t(count)

    def _thread_buffers(self):
        """This thread's argument array and error slot (a launch on another
        thread runs concurrently with the GIL released)."""
        local = self._per_thread
        try:
            return local.buffers
        except AttributeError:
            local.buffers = ((_capi.Arg * max(len(self.param_kinds), 1))(),
                             ctypes.pointer(ctypes.c_void_p()))
            return local.buffers

    def close(self):
        """Frees the compiled code now instead of at garbage collection (or,
        when launches are running on other threads, once they return);
        later launches raise Error."""
        with self._state:
            self._closing = True
            if not self._active:
                self._destroy()

    def _close_after_launch(self):
        with self._state:
            if not self._active:
                self._destroy()

    def _destroy(self):
        if self._handle:
            self._lib.refcpu_kernel_destroy(self._handle)
            self._handle = None

    def __del__(self):
        if getattr(self, "_state", None) is not None:
            self.close()

    def __repr__(self):
        params = ", ".join(f"{n}: {t}"
                           for n, t in zip(self.param_names, self.param_types))
        return f"<refcpu.Kernel {self.name}({params})>"

    def __getitem__(self, grid):
        grid = self._grid(grid)
        return lambda *args: self._launch(grid, args, strict=True)

    def launch(self, grid, *args):
        """Runs the kernel over `grid` (an int or a tuple of 1 to 3 ints).

        Pointer parameters take C-contiguous numpy arrays or torch CPU
        tensors whose dtype matches the pointee type (bf16 data may be given
        as uint16/int16 numpy arrays), or an int address. Scalar parameters
        take Python or numpy numbers converted to the declared type.
        """
        self._launch(self._grid(grid), args, strict=True)

    # The Triton driver passes `strict=False`: Triton kernels receive
    # strided views and compute their own addresses, and their signatures
    # already match the tensors' dtypes.
    def _launch(self, grid, args, strict):
        active = self._active
        active.append(None)
        try:
            if self._closing or self._handle is None:
                raise Error(f"kernel {self.name} was closed")
            kinds = self.param_kinds
            if len(args) != len(kinds):
                raise ArgumentCountError(
                    f"{self.name} takes {len(kinds)} arguments "
                    f"({', '.join(self.param_names)}), got {len(args)}")
            # `args` keeps every object alive until the call returns.
            values = self._template.copy()
            fast_tensors = not self._needs_extents
            for i, value in enumerate(args):
                kind = kinds[i]
                slot = 3 * i + 1
                if kind == _capi.ARG_PTR:
                    # Inline, the common case: a torch CPU tensor whose
                    # dtype this parameter has accepted before (its extent
                    # is only needed by bounds-checked kernels).
                    if (fast_tensors and type(value) in _TORCH_TENSOR_TYPES
                            and value.is_cpu
                            and (not strict or
                                 ((i, value.dtype) in self._dtype_checked
                                  and value.is_contiguous()))):
                        values[slot] = value.data_ptr()
                    else:
                        values[slot], values[slot + 1] = self._other_pointer(
                            i, value, strict)
                elif kind in _INT_BITS:
                    low, high = self._int_ranges[i]
                    if type(value) is int and low <= value < high:
                        values[slot] = value
                    else:
                        values[slot] = self._integer(i, value, _INT_BITS[kind],
                                                     strict)
                elif kind in _FLOAT_KINDS:
                    values[slot] = (value if type(value) is float else
                                    self._float(i, value))
                else:
                    raise ArgumentError(f"{self._describe(i)} has a kind "
                                        f"({kind}) this package does not know")
            packed, error = self._thread_buffers()
            self._arg_struct.pack_into(packed, 0, *values)
            # Grid dimensions are ints in [1, 2^31 - 1] (_grid), which
            # ctypes passes as C ints: the bits of the uint32 parameters.
            status = self._launch_fn(self._handle_arg, packed,
                                     self._count_arg, *grid, error)
            if status != _capi.OK:
                _raise_status(status, error.contents,
                              f"launch of {self.name}")
        finally:
            active.pop()
            if self._closing:
                self._close_after_launch()

    def _other_pointer(self, i, value, strict):
        """(address, extent) of a pointer argument that _launch does not
        take inline; raises the argument errors."""
        if (type(value) is not np.ndarray
                and type(value) not in _TORCH_TENSOR_TYPES
                and _is_torch_tensor(value)):
            _TORCH_TENSOR_TYPES.add(type(value))
        return self._pointer(i, value, strict)

    @staticmethod
    def _grid(grid):
        # Tuples of ints first, each length unrolled: the generator of
        # all() cost a third of a one-program launch.
        if type(grid) is tuple:
            n = len(grid)
            if n == 1:
                x, = grid
                if type(x) is int and 1 <= x <= _MAX_GRID:
                    return (x, 1, 1)
            elif n == 2:
                x, y = grid
                if (type(x) is int and type(y) is int
                        and 1 <= x <= _MAX_GRID and 1 <= y <= _MAX_GRID):
                    return (x, y, 1)
            elif n == 3:
                x, y, z = grid
                if (type(x) is int and type(y) is int and type(z) is int
                        and 1 <= x <= _MAX_GRID and 1 <= y <= _MAX_GRID
                        and 1 <= z <= _MAX_GRID):
                    return grid
        elif type(grid) is int and 1 <= grid <= _MAX_GRID:
            return (grid, 1, 1)
        dims = (grid, ) if isinstance(grid, numbers.Integral) else tuple(grid)
        if not 1 <= len(dims) <= 3:
            raise ArgumentValueError(
                f"grid must have 1 to 3 dimensions, got {grid!r}")
        for d in dims:
            if not isinstance(d, numbers.Integral) or isinstance(d, bool):
                raise ArgumentTypeError(
                    f"grid dimensions must be ints, got {grid!r}")
            if not 1 <= d <= _MAX_GRID:
                raise ArgumentValueError(
                    f"grid dimensions must be in [1, {_MAX_GRID}], "
                    f"got {grid!r}")
        return tuple(int(d) for d in dims) + (1, ) * (3 - len(dims))

    def _describe(self, i):
        return f"argument {i} ({self.param_names[i]}: {self.param_types[i]})"

    def _float(self, i, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ArgumentTypeError(f"{self._describe(i)} takes a float, "
                                    f"got {type(value).__name__}")
        return float(value)

    def _integer(self, i, value, bits, strict):
        # numpy.bool_ is not a numbers.Integral, but is what a boolean numpy
        # scalar (e.g. an element of a bool array) looks like.
        is_numpy_bool = getattr(getattr(value, "dtype", None), "kind",
                                None) == "b"
        if not isinstance(value, numbers.Integral) and not is_numpy_bool:
            raise ArgumentTypeError(f"{self._describe(i)} takes an integer, "
                                    f"got {type(value).__name__}")
        # TTIR integers are signless: an unsigned numpy value may use the
        # whole width, a Python int must fit _python_int_range.
        # Triton passes ints in [2^63, 2^64) as u64 parameters of i64 type,
        # so through Triton (not strict) a 64-bit parameter takes both.
        unsigned = getattr(getattr(value, "dtype", None), "kind", None) == "u"
        unsigned = unsigned or (not strict and bits == 64 and value >= 0)
        value = int(value)
        low, high = (0, 1 << bits) if unsigned else _python_int_range(bits)
        if not low <= value < high:
            raise ArgumentValueError(
                f"{self._describe(i)}: {value} does not fit in i{bits}")
        if bits == 64 and value >= 1 << 63:
            value -= 1 << 64
        return value

    def _pointer(self, i, value, strict):
        """(address, extent in bytes or 0) of a pointer argument."""
        # Most common first: ABC checks (numbers.Integral) cost a microsecond.
        if isinstance(value, np.ndarray):
            flags = value.flags
            contiguous = flags.c_contiguous
            if strict and not contiguous:
                raise NonContiguousError(
                    f"{self._describe(i)} is not C-contiguous; pass "
                    "numpy.ascontiguousarray(array)")
            self._check_dtype(i, value, strict)
            if self.param_written[i] and not flags.writeable:
                raise ArgumentValueError(
                    f"{self._describe(i)} is a read-only array, and the "
                    "kernel writes through it")
            return _numpy_address(value), value.nbytes if contiguous else 0
        if _is_torch_tensor(value):
            # is_cpu, not device.type: a tenth of the time.
            if not value.is_cpu:
                raise DeviceError(f"{self._describe(i)} is a tensor on "
                                  f"{value.device}; refcpu runs on the CPU")
            if strict and not value.is_contiguous():
                raise NonContiguousError(
                    f"{self._describe(i)} is not contiguous; pass "
                    "tensor.contiguous()")
            self._check_dtype(i, value, strict)
            extent = self._torch_extent(value) if self._needs_extents else 0
            return value.data_ptr(), extent
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            return int(value), 0
        if callable(getattr(value, "data_ptr", None)):
            return self._data_ptr_object(i, value, strict)
        raise ArgumentTypeError(
            f"{self._describe(i)} takes a numpy array, a torch CPU tensor, "
            "an object with data_ptr() or an int address, got "
            f"{type(value).__name__}")

    def _data_ptr_object(self, i, value, strict):
        """(address, extent) of an object that only promises data_ptr(), as
        Triton's launchers accept: triton.TensorWrapper (what
        triton.reinterpret returns, a torch tensor viewed with another
        dtype) and the like. What can be checked is checked on the tensor
        it wraps, when it names one as `base`."""
        base = getattr(value, "base", None)
        if _is_torch_tensor(base):
            if base.device.type != "cpu":
                raise DeviceError(f"{self._describe(i)} wraps a tensor on "
                                  f"{base.device}; refcpu runs on the CPU")
            if strict and not base.is_contiguous():
                raise NonContiguousError(
                    f"{self._describe(i)} wraps a non-contiguous tensor")
        device = getattr(value, "device", None)
        if device is not None and getattr(device, "type", "cpu") != "cpu":
            raise DeviceError(f"{self._describe(i)} is on {device}; refcpu "
                              "runs on the CPU")
        # A Triton dtype prints as its name (uint32, fp8e4nv, ...).
        if getattr(value, "dtype", None) is not None:
            self._check_dtype(i, value, strict)
        extent = (self._torch_extent(base)
                  if self._needs_extents and _is_torch_tensor(base) else 0)
        return int(value.data_ptr()), extent

    @staticmethod
    def _torch_extent(tensor):
        """Bytes from the tensor's first element to the end of its storage:
        what a kernel may address through it, views included."""
        try:
            storage_bytes = tensor.untyped_storage().nbytes()
        except AttributeError:  # torch < 2.0
            storage_bytes = tensor.storage().size() * tensor.element_size()
        return storage_bytes - tensor.storage_offset() * tensor.element_size()

    def _check_dtype(self, i, value, strict):
        if not strict or (i, value.dtype) in self._dtype_checked:
            return
        accepted = self._accepted_dtypes[i]
        if accepted is not None and _dtype_name(value) not in accepted:
            raise ArgumentTypeError(
                f"{self._describe(i)} got elements of dtype "
                f"{_dtype_name(value)}; expected one of {sorted(accepted)}")
        self._dtype_checked.add((i, value.dtype))
