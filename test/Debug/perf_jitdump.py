#!/usr/bin/env python3
"""Runs refcpu-run --debug on a corpus case with REFCPU_PERF_JITDUMP=1 and
checks the jitdump it writes (the format of the Linux kernel's
tools/perf/Documentation/jitdump-specification.txt, which `perf inject
--jit` reads): its header, a code-load record of the kernel and, just
before it, a debug-info record that maps the kernel's code to the Python
lines of the TTIR's locations. Then runs the case again without the
variable and checks that no dump is written.

    perf_jitdump.py REFCPU_RUN CASE_DIR KERNEL SOURCE_FILE

The dump goes under $JITDUMPDIR (perf's convention: else the home
directory), in .debug/jit/<name>-jit-<date>-<unique>/jit-<pid>.dump; both
point to a directory of the test's own here, so that nothing is written
elsewhere. perf itself is not needed.
"""

import glob
import os
import re
import struct
import subprocess
import sys
import tempfile

MAGIC = 0x4A695444  # "JiTD", written in the host's byte order
JIT_CODE_LOAD = 0
JIT_CODE_DEBUG_INFO = 2
ELF_MACHINES = {"x86_64": 62, "aarch64": 183}


def read_string(data, offset):
    end = data.index(b"\0", offset)
    return data[offset:end].decode(), end + 1


def parse_dump(data):
    """Returns the header's fields and the records, in file order, as
    (id, fields) pairs."""
    magic, version, header_size, machine, _, pid, _, _ = struct.unpack_from(
        "<IIIIIIQQ", data, 0)
    header = dict(magic=magic, version=version, machine=machine, pid=pid)
    records = []
    offset = header_size
    while offset < len(data):
        record_id, size, _ = struct.unpack_from("<IIQ", data, offset)
        if size < 16 or offset + size > len(data):
            raise ValueError(f"record at {offset} has a bad size {size}")
        body = offset + 16
        if record_id == JIT_CODE_LOAD:
            _, _, vma, code_addr, code_size, index = struct.unpack_from(
                "<IIQQQQ", data, body)
            name, code = read_string(data, body + 40)
            if code + code_size != offset + size:
                raise ValueError(f"code load of {name} has a bad size")
            records.append((record_id, dict(name=name, vma=vma,
                                            code_addr=code_addr,
                                            code_size=code_size)))
        elif record_id == JIT_CODE_DEBUG_INFO:
            code_addr, count = struct.unpack_from("<QQ", data, body)
            entries = []
            entry = body + 16
            for _ in range(count):
                address, line, _ = struct.unpack_from("<QII", data, entry)
                name, entry = read_string(data, entry + 16)
                entries.append((address, line, name))
            if entry != offset + size:
                raise ValueError("debug info record has a bad size")
            records.append((record_id, dict(code_addr=code_addr,
                                            entries=entries)))
        else:
            records.append((record_id, {}))
        offset += size
    return header, records


def run_case(refcpu_run, case_dir, directory, jitdump):
    env = dict(os.environ, JITDUMPDIR=directory, HOME=directory)
    env.pop("REFCPU_PERF_JITDUMP", None)
    if jitdump:
        env["REFCPU_PERF_JITDUMP"] = "1"
    # Run in the directory too: a dump in the current directory is found.
    process = subprocess.run([refcpu_run, "--debug", case_dir], env=env,
                             cwd=directory, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=240)
    print(process.stdout)
    dumps = glob.glob(os.path.join(directory, "**", "jit-*.dump"),
                      recursive=True, include_hidden=True)
    return process.returncode, dumps


def check_dump(path, kernel, source_file, source_lines):
    failures = []
    with open(path, "rb") as dump:
        data = dump.read()
    header, records = parse_dump(data)
    if header["magic"] != MAGIC or header["version"] != 1:
        failures.append(f"bad header {header}")
    machine = ELF_MACHINES.get(os.uname().machine)
    if machine and header["machine"] != machine:
        failures.append(f"ELF machine {header['machine']}, not {machine}")
    if not path.endswith(f"jit-{header['pid']}.dump"):
        failures.append(f"the header's pid {header['pid']} is not the file's")

    loads = [(i, fields) for i, (record_id, fields) in enumerate(records)
             if record_id == JIT_CODE_LOAD and fields["name"] == kernel]
    if len(loads) != 1:
        return failures + [f"{len(loads)} code load records of {kernel}"]
    load_index, load = loads[0]
    print(f"{kernel}: {load['code_size']} bytes at {load['code_addr']:#x}")
    if load["code_size"] == 0 or load["vma"] != load["code_addr"]:
        failures.append(f"implausible code load record {load}")
    # `perf inject` gives a function the lines of the debug info record just
    # before its code load record.
    record_id, info = records[load_index - 1] if load_index else (None, {})
    if (record_id != JIT_CODE_DEBUG_INFO
            or info["code_addr"] != load["code_addr"]):
        return failures + [f"no debug info record of {kernel} just before "
                           "its code"]
    entries = info["entries"]
    # Line 0 is DWARF's "no line": code that the compiler made, e.g. for a
    # loop's induction variable.
    lines = sorted({line for _, line, name in entries
                    if os.path.basename(name) == source_file and line != 0})
    print(f"lines of {source_file}: {lines}")
    if not lines:
        failures.append(f"no line entry names {source_file}: {entries[:5]}")
    if not set(lines) <= source_lines:
        failures.append(f"lines {sorted(set(lines) - source_lines)} are not "
                        f"in the TTIR's locations {sorted(source_lines)}")
    end = load["code_addr"] + load["code_size"]
    outside = [hex(address) for address, _, _ in entries
               if not load["code_addr"] <= address < end]
    if outside:
        failures.append(f"line entries outside the code: {outside[:5]}")
    return failures


def main():
    refcpu_run, case_dir = map(os.path.abspath, sys.argv[1:3])
    kernel, source_file = sys.argv[3:]
    with open(os.path.join(case_dir, "kernel.ttir")) as ttir:
        source_lines = {int(line) for line in re.findall(
            rf'loc\("(?:[^"]*/)?{re.escape(source_file)}":(\d+)', ttir.read())}
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        status, dumps = run_case(refcpu_run, case_dir, directory, True)
        if status != 0:
            failures.append(f"refcpu-run exited with {status}")
        if len(dumps) != 1:
            failures.append(f"{len(dumps)} jitdump files, not one: {dumps}")
        else:
            failures += check_dump(dumps[0], kernel, source_file,
                                   source_lines)
    with tempfile.TemporaryDirectory() as directory:
        status, dumps = run_case(refcpu_run, case_dir, directory, False)
        if status != 0:
            failures.append(f"refcpu-run without a jitdump exited with "
                            f"{status}")
        if dumps:
            failures.append(f"a jitdump without REFCPU_PERF_JITDUMP: {dumps}")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
