"""refcpu as a Triton backend: an unmodified @triton.jit kernel launched on
torch CPU tensors compiles through Triton's frontend and refcpu, and runs on
the CPU.

Triton finds the backend through the `triton.backends` entry point that
python/pyproject.toml declares (`pip install ./python`). On a machine
without a GPU it is then the active driver by itself. Where a GPU driver is
active too, or where refcpu is not installed as a package, call
`refcpu.triton_backend.activate()` before launching kernels.

Import order: Triton discovers its backends while `import triton` runs and
then imports this package's compiler and driver modules. If one of those
modules imported Triton first, Triton would find it half-initialized. So
this package imports Triton before either submodule can start: Triton is
then complete (or, when Triton itself is importing this package, already
underway) by the time they run.
"""

import triton  # noqa: F401  (see above)

# The key of Triton's backend registry (triton.backends.backends) that names
# a CPU backend: PyTorch Inductor's Triton CPU path (cpu_backend = "triton")
# looks the CPU driver up under it. The entry point in pyproject.toml has
# this name too.
_BACKEND_KEY = "cpu"


def activate():
    """Registers the refcpu backend with Triton as its CPU backend if Triton
    has not discovered it, and makes its driver the active one in this
    process."""
    import triton.backends
    from refcpu.triton_backend.compiler import RefcpuBackend
    from refcpu.triton_backend.driver import RefcpuDriver
    from triton.runtime.driver import driver

    registered = triton.backends.backends
    ours = registered.get(_BACKEND_KEY)
    if ours is None or ours.compiler is not RefcpuBackend:
        registered[_BACKEND_KEY] = triton.backends.Backend(
            compiler=RefcpuBackend, driver=RefcpuDriver)
    driver.set_active(RefcpuDriver())
