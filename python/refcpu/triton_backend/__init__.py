"""refcpu as a Triton backend: an unmodified @triton.jit kernel launched on
torch CPU tensors compiles through Triton's frontend and refcpu, and runs on
the CPU.

Triton finds the backend through the `triton.backends` entry point that
python/pyproject.toml declares (`pip install ./python`). On a machine
without a GPU it is then the active driver by itself. Where a GPU driver is
active too, or where refcpu is not installed as a package, call
`refcpu.triton_backend.activate()` before launching kernels.

Nothing here imports Triton at package import time: Triton imports this
package while it is still discovering its backends.
"""

_BACKEND_KEY = "refcpu"


def activate():
    """Registers the refcpu backend with Triton if Triton has not discovered
    it, and makes its driver the active one in this process."""
    import triton.backends
    from refcpu.triton_backend.compiler import BACKEND_NAME, RefcpuBackend
    from refcpu.triton_backend.driver import RefcpuDriver
    from triton.backends.compiler import GPUTarget
    from triton.runtime.driver import driver

    target = GPUTarget(BACKEND_NAME, "", 1)
    registered = triton.backends.backends
    if not any(b.compiler.supports_target(target) for b in registered.values()):
        registered[_BACKEND_KEY] = triton.backends.Backend(
            compiler=RefcpuBackend, driver=RefcpuDriver)
    driver.set_active(RefcpuDriver())
