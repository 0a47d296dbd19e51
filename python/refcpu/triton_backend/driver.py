"""Triton driver for refcpu (triton.backends.driver.DriverBase): the CPU as
Triton's device. Kernels launch synchronously on refcpu's thread pool, so
streams and events reduce to host timestamps."""

import os
import platform
import time

from refcpu.triton_backend import _kernels
from refcpu.triton_backend.compiler import BACKEND_NAME
# Module imports, not class imports: Triton picks the driver class as the
# only concrete DriverBase subclass among this module's attributes.
from triton.backends import compiler as triton_compiler
from triton.backends import driver as triton_driver

# Bytes written by clear_cache between benchmark runs: more than the
# last-level cache of common CPUs, so every timed run starts cold.
_BENCHMARK_CACHE_BYTES = 64 * 1024 * 1024


_CPP_TYPES = {
    "i1": "bool",
    "i8": "int8_t",
    "i16": "int16_t",
    "i32": "int32_t",
    "i64": "int64_t",
    "u1": "bool",
    "u8": "uint8_t",
    "u16": "uint16_t",
    "u32": "uint32_t",
    "u64": "uint64_t",
    "fp16": "uint16_t",
    "bf16": "uint16_t",
    "fp32": "float",
    "fp64": "double",
}


class RefcpuUtils:
    """The `driver.active.utils` object Triton's CompiledKernel uses."""

    @staticmethod
    def load_binary(name, kernel, shared, device):
        # (module, function, n_regs, n_spills, n_max_threads): the refcpu
        # kernel is both the module and the function; a CPU "program" has no
        # thread limit that num_warps could exceed.
        compiled = _kernels.compile(kernel, name)
        return compiled, compiled, 0, 0, 1 << 30

    @staticmethod
    def unload_module(module):
        # Kernels stay in _kernels for the life of the process: another
        # CompiledKernel of the same TTIR may still use this one.
        pass

    @staticmethod
    def get_device_properties(device):
        return {
            "max_shared_mem": 1 << 30,
            "multiprocessor_count": os.cpu_count() or 1,
            "max_num_regs": 0,
            "warpSize": 1,
            "sm_clock_rate": 0,
            "mem_clock_rate": 0,
            "mem_bus_width": 0,
        }


def _flatten(signature_types, args, out):
    """Appends to `out` the values of `args` that are kernel parameters, in
    TTIR order: constexprs (including ints equal to 1 that Triton
    specialized away) are not parameters, tuples are flattened, and a host
    TensorDescriptor becomes the parameters that the frontend and
    Triton's rewrite of descriptors into pointers give it: base pointer,
    shape, strides, whether padding is NaN, then shape and strides again
    (the frontend's own decomposition)."""
    for ty, arg in zip(signature_types, args):
        if isinstance(ty, tuple):
            _flatten(ty, arg, out)
        elif ty == "constexpr":
            continue
        elif ty.startswith("tensordesc"):
            shape, strides = list(arg.shape), list(arg.strides)
            out += [arg.base, *shape, *strides, arg.padding == "nan"]
            out += [*shape, *strides]
        else:
            out.append(arg)


class RefcpuLauncher:
    """Called by Triton as launcher(gridX, gridY, gridZ, stream, function,
    packed_metadata, launch_metadata, enter_hook, exit_hook, *args), where
    args are all the kernel's Python arguments (constexprs included) when it
    was compiled from Python, or its TTIR parameters when compiled from a
    .ttir file; src.signature describes them either way."""

    def __init__(self, src, metadata):
        self.signature_types = list(src.signature.values())
        # A flat signature (no tuples, no tensor descriptors), the common
        # case, maps to parameters by position: no per-launch walk of it.
        flat = all(
            isinstance(ty, str) and not ty.startswith("tensordesc")
            for ty in self.signature_types)
        self.param_positions = [
            i for i, ty in enumerate(self.signature_types) if ty != "constexpr"
        ] if flat else None

    def __call__(self, grid_x, grid_y, grid_z, stream, function,
                 packed_metadata, launch_metadata, enter_hook, exit_hook,
                 *args):
        if self.param_positions is not None:
            values = [args[i] for i in self.param_positions]
        else:
            values = []
            _flatten(self.signature_types, args, values)
        if enter_hook is not None:
            enter_hook(launch_metadata)
        # Triton launches nothing for an empty grid; refcpu would refuse it.
        if grid_x * grid_y * grid_z > 0:
            function._launch((grid_x, grid_y, grid_z), values, strict=False)
        if exit_hook is not None:
            exit_hook(launch_metadata)


class _Event:
    """torch.cuda.Event's timing subset, on the host clock."""

    def __init__(self, enable_timing=True):
        self.time = None

    def record(self, stream=None):
        self.time = time.perf_counter()

    def elapsed_time(self, end_event):
        """Milliseconds from this event to `end_event`."""
        return (end_event.time - self.time) * 1000.0

    def synchronize(self):
        pass

    def query(self):
        return True


class CpuDeviceInterface:
    """What triton.testing.do_bench needs from a device module."""

    Event = _Event

    @staticmethod
    def synchronize(device=None):
        # refcpu_kernel_launch returns when every program has run.
        pass

    @staticmethod
    def current_device():
        return RefcpuDriver.DEVICE

    @staticmethod
    def device_count():
        return 1


class RefcpuDriver(triton_driver.DriverBase):
    # Triton keeps its per-device kernel caches under this key; a name
    # distinct from GPU ordinals keeps CPU and GPU kernels apart when a
    # process switches drivers.
    DEVICE = "cpu"

    def __init__(self):
        super().__init__()
        self.utils = RefcpuUtils()
        self.launcher_cls = RefcpuLauncher

    @classmethod
    def is_active(cls):
        # Active by itself only where no GPU driver is: with a GPU, select it
        # with refcpu.triton_backend.activate().
        try:
            import torch
        except ImportError:
            return True
        return not torch.cuda.is_available()

    def map_python_to_cpp_type(self, ty):
        """The C type of a Triton signature type (e.g. for generated launch
        code): how refcpu's packed kernel entry reads that parameter."""
        if ty.startswith("*"):
            return "void*"
        return _CPP_TYPES[ty]

    def get_current_target(self):
        return triton_compiler.GPUTarget(BACKEND_NAME, platform.machine(), 1)

    def get_current_device(self):
        return self.DEVICE

    def set_current_device(self, device):
        pass

    def get_current_stream(self, device=None):
        return 0

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")

    def get_device_interface(self):
        return CpuDeviceInterface

    def get_benchmarker(self):
        from triton.testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        import torch
        return torch.empty(_BENCHMARK_CACHE_BYTES // 4, dtype=torch.int32)

    def clear_cache(self, cache):
        cache.zero_()
