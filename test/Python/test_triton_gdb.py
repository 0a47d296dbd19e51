"""gdb at a Python line of an unmodified @triton.jit kernel launched on CPU
tensors through refcpu's Triton backend in debug mode (REFCPU_DEBUG=1):
the breakpoint on the kernel's line is hit in the requested program, with
the kernel's arguments and program ids visible.

Skipped where Triton or gdb is missing, or gdb may not trace processes.
Runs under pytest (the accelerator machine has Triton).
"""

import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("triton")
GDB = shutil.which("gdb")
if GDB is None:
    pytest.skip("gdb is not installed", allow_module_level=True)

KERNEL = textwrap.dedent("""\
    import torch, triton, triton.language as tl
    import refcpu.triton_backend
    refcpu.triton_backend.activate()

    @triton.jit
    def scale_rows(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        y = x * 2.0 + 1.0
        tl.store(out_ptr + offs, y, mask=offs < n)

    x = torch.arange(64, dtype=torch.float32)
    out = torch.empty_like(x)
    scale_rows[(4,)](x, out, 64, BLOCK=16)
    assert torch.equal(out, x * 2 + 1)
    print("kernel ran")
    """)
# The line of `tl.store(...)` in KERNEL (1-based).
STORE_LINE = KERNEL.splitlines().index(
    "    tl.store(out_ptr + offs, y, mask=offs < n)") + 1


def test_breakpoint_at_kernel_line(tmp_path):
    script = tmp_path / "gdb_kernel.py"
    script.write_text(KERNEL)
    commands = [
        "set breakpoint pending on",
        "set debuginfod enabled off",
        f"break gdb_kernel.py:{STORE_LINE} if pid_x == 2",
        "run",
        "info args",
        "continue",
    ]
    argv = [GDB, "-batch", "-nx"]
    for command in commands:
        argv += ["-ex", command]
    argv += ["--args", sys.executable, str(script)]
    # One worker thread: programs run in order; a fresh cache, so that the
    # kernel is compiled in debug mode in this process.
    env = dict(os.environ, REFCPU_DEBUG="1", REFCPU_NUM_THREADS="1",
               TRITON_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=300)
    output = result.stdout
    if "ptrace: Operation not permitted" in output:
        pytest.skip("gdb may not trace processes here")
    stop = re.search(r"^Breakpoint 1, (\S+) \((.*)\) at (\S+):(\d+)$",
                     output, re.MULTILINE)
    assert stop, output
    function, args, stop_file, stop_line = stop.groups()
    assert function == "scale_rows", output
    assert os.path.basename(stop_file) == "gdb_kernel.py", output
    assert int(stop_line) == STORE_LINE, output
    assert "pid_x=2," in args, output
    assert re.search(r"^n = 64$", output, re.MULTILINE), output
    assert re.search(r"^x_ptr = 0x[0-9a-f]+$", output, re.MULTILINE), output
    # After `continue`, the launch finishes and the script checks its result.
    assert "kernel ran" in output, output
