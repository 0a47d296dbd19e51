#!/usr/bin/env python3
"""Runs refcpu-run --debug on a corpus case under gdb with a breakpoint at a
Python line of the kernel and checks that gdb stopped there, in the right
program, with the kernel's arguments readable.

    gdb_breakpoint.py GDB REFCPU_RUN CASE_DIR FILE:LINE KERNEL PID_X

The TTIR names the Python file as Triton saw it (a path on the machine that
ran Triton): gdb matches `break FILE:LINE` by the file's base name, before
the JIT has registered any code (a pending breakpoint). Exits 77, which
ctest reports as skipped, where gdb may not trace processes.
"""

import os
import re
import subprocess
import sys

SKIP = 77


def main():
    gdb, refcpu_run, case_dir, location, kernel, pid_x = sys.argv[1:]
    file_name, line = location.rsplit(":", 1)
    commands = [
        "set breakpoint pending on",
        "set debuginfod enabled off",
        f"break {location} if pid_x == {pid_x}",
        "run",
        "bt 2",
        "info args",
    ]
    argv = [gdb, "-batch", "-nx"]
    for command in commands:
        argv += ["-ex", command]
    argv += ["--args", refcpu_run, "--debug", case_dir]
    # One worker thread: programs run in order, the breakpoint's condition
    # is met once.
    env = dict(os.environ, REFCPU_NUM_THREADS="1")
    result = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, timeout=240)
    output = result.stdout
    print(output)
    if "ptrace: Operation not permitted" in output:
        print("SKIP: gdb may not trace processes here")
        return SKIP

    failures = []
    stop = re.search(r"^Breakpoint 1, (\S+) \((.*)\) at (\S+):(\d+)$",
                     output, re.MULTILINE)
    if not stop:
        failures.append("gdb did not stop at breakpoint 1")
    else:
        function, args, stop_file, stop_line = stop.groups()
        if function != kernel:
            failures.append(f"stopped in {function}, not {kernel}")
        if os.path.basename(stop_file) != file_name or stop_line != line:
            failures.append(f"stopped at {stop_file}:{stop_line}, "
                            f"not {location}")
        if f"pid_x={pid_x}," not in args:
            failures.append(f"the frame's arguments lack pid_x={pid_x}")
    # `info args`: the grid arguments by name and the pointers as pointers.
    for pattern in (rf"^pid_x = {pid_x}$", r"^pid_y = 0$",
                    r"^num_programs_x = \d+$", r"^\w+_ptr = 0x[0-9a-f]+$"):
        if not re.search(pattern, output, re.MULTILINE):
            failures.append(f"`info args` shows no line matching {pattern}")
    # The caller is the packed entry, the runtime's way into the kernel.
    if not re.search(rf"^#1 .* in {re.escape(kernel)}\.refcpu_packed ",
                     output, re.MULTILINE):
        failures.append("frame #1 is not the packed entry")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
