"""The exceptions refcpu raises. All derive from refcpu.Error.

Argument errors also derive from the matching built-in exception (TypeError
or ValueError) so that generic handlers keep working.
"""


class Error(Exception):
    """Base class of every refcpu error."""


class LibraryError(Error):
    """librefcpu.so could not be found or loaded, or has another ABI."""


class CompileError(Error):
    """The TTIR did not parse, verify or lower. The message carries the
    diagnostics with their source locations."""


class JitError(Error):
    """Code generation or symbol lookup failed after lowering."""


class KernelError(Error):
    """The kernel failed while running (a tt.assert did not hold)."""


class ArgumentError(Error):
    """A launch argument or the grid is not acceptable."""


class ArgumentCountError(ArgumentError, TypeError):
    """The number of arguments differs from the kernel's parameters."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument's Python type or element dtype does not fit the parameter
    (e.g. a float64 array for a !tt.ptr<f32>, a float for an i32)."""


class ArgumentValueError(ArgumentError, ValueError):
    """A scalar does not fit its parameter's type (an out of range integer),
    or the grid is empty or too large."""


class NonContiguousError(ArgumentError, ValueError):
    """A tensor or array passed as a pointer is not contiguous."""


class DeviceError(ArgumentError, ValueError):
    """A tensor lives on a device other than the CPU."""
