#!/usr/bin/env python3
"""Runs Triton's own language unit tests on refcpu's Triton backend.

Each test file of Triton's python/test/unit/language runs in its own pytest
process, with pytest-xdist workers and a pytest-timeout limit per test, and
with refcpu_pytest_plugin (next to this script) making refcpu the active
backend. The junit XML and the log of each run are then summarized: counts
per file, failures grouped by cause, crashed workers, and the failures that
expected-failures.txt does not list.

    python3 test/Triton/run_unit_tests.py --triton-tests DIR --out OUT [-n N]
        [--timeout S] [--files F ...] [--expected-failures FILE] [-- PYTEST_ARGS]
    python3 test/Triton/run_unit_tests.py --summarize-only OUT

DIR is Triton's python/test folder (or a Triton checkout holding it). OUT
receives <file>.log, <file>.xml, summary.md and summary.json. The exit
status is 0 when every failure is expected and no worker crashed, 1
otherwise, 2 for a usage or input error. Standard library only (Python 3.8+).
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_FILES = [
    "test_core.py", "test_standard.py", "test_random.py", "test_tuple.py", "test_block_pointer.py",
    "test_tensor_descriptor.py", "test_conversions.py", "test_libdevice.py", "test_annotations.py"
]
MAX_UNEXPECTED = 200
EXAMPLES_PER_CAUSE = 3

# pytest-xdist reports a dead worker as "[gw3] node down: ..." and the test it
# was running as "worker 'gw3' crashed while running 'path::test'" (in the log
# and as that test's failure message).
CRASH_RE = re.compile(r"worker '?(gw\d+)'? crashed while running (['\"])(.*)\2")
NODE_DOWN_RE = re.compile(r"\[(gw\d+)\] node down: .*")
# Lines meaning the run stopped early, so the counts are incomplete.
ABORT_RE = re.compile(r"maximum crashed workers reached.*|INTERNALERROR.*")
TRAILER = "[run_unit_tests] pytest exit code {rc} after {secs:.0f} s"
TRAILER_RE = re.compile(r"^\[run_unit_tests\] pytest exit code (-?\d+) after (\d+) s$", re.M)

# Collapse what varies between instances of one cause (addresses, quoted
# values, numbers, tensor shapes) so that the same cause groups together.
# Numbers glued to a letter (float32, i64, sm90) are kept: they name types.
NORMALIZERS = [
    (re.compile(r"0x[0-9a-fA-F]+"), "<hex>"),
    (re.compile(r"'[^']*'|\"[^\"]*\""), "'<q>'"),
    (re.compile(r"(?<![A-Za-z_])\d+(?:x\d+)*x(?=[A-Za-z!])"), "<n>x"),
    (re.compile(r"(?<![A-Za-z_])[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"), "<n>"),
    (re.compile(r"\s+"), " "),
]


# pytest's message for an error outside the test's call phase.
PHASE_RE = re.compile(r'^failed on (\w+) with "(.*)"$')


def normalize(message):
    """Returns the cause key of a failure message's first line."""
    phase = PHASE_RE.match(message)
    if phase:  # keep the reason, which the quote rule would hide
        return "[%s] %s" % (phase.group(1), normalize(phase.group(2)))
    for regex, placeholder in NORMALIZERS:
        message = regex.sub(placeholder, message)
    return message.strip()[:240]


def glob_regex(pattern):
    """Compiles an expected-failures pattern: '*' and '?' are wildcards, and
    unlike fnmatch '[' ']' are literal, since test ids carry [params]."""
    parts = [".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern]
    return re.compile("".join(parts) + r"\Z", re.S)


def die(message):
    """Exits with status 2: a usage or input error, not a test result."""
    print("error: " + message, file=sys.stderr)
    sys.exit(2)


def find_test_root(path):
    """Returns Triton's python/test folder, given it or a checkout above it."""
    for candidate in (path, os.path.join(path, "python", "test")):
        if os.path.isdir(os.path.join(candidate, "unit", "language")):
            return os.path.abspath(candidate)
    die("no unit/language folder in %s or %s/python/test" % (path, path))


def stem(name):
    return name[:-3] if name.endswith(".py") else name


def run_file(root, name, args, extra):
    """Runs one test file under pytest; writes OUT/<stem>.log and .xml."""
    xml_path = os.path.join(args.out, stem(name) + ".xml")
    log_path = os.path.join(args.out, stem(name) + ".log")
    if os.path.exists(xml_path):
        os.remove(xml_path)  # a stale XML would be read as this run's result
    cmd = [sys.executable, "-m", "pytest", "-p", "refcpu_pytest_plugin", "--device", "cpu", "--rootdir", root]
    if args.workers > 0:
        cmd += ["-n", str(args.workers)]
    if args.timeout > 0:
        cmd += ["--timeout", str(args.timeout)]
    cmd += ["-q", "-rN", "--junitxml=" + xml_path, os.path.join("unit", "language", name)] + extra
    env = dict(os.environ)
    # refcpu's Python package and this folder (for the plugin) come first.
    paths = [os.path.join(REPO, "python"), HERE] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    # Some tests write past their tensors (test_index1d's rank-mismatch
    # kernel stores 32^3 elements into 32^2), which a GPU does not notice and
    # a CPU heap does: checked accesses fail those launches instead of
    # corrupting the worker. The xdist workers already fill the cores, so
    # each runs its programs on one thread.
    env.setdefault("REFCPU_CHECK_BOUNDS", "1")
    if args.workers > 1:
        env.setdefault("REFCPU_NUM_THREADS", "1")
    print("running %s ..." % name, flush=True)
    start = time.time()
    with open(log_path, "w") as log:
        log.write("$ cd %s && %s\n" % (shlex.quote(root), " ".join(shlex.quote(c) for c in cmd)))
        log.flush()
        # cwd is Triton's test root: its conftest.py (the --device option and
        # fixtures) applies, and test files import their siblings by name.
        rc = subprocess.call(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        secs = time.time() - start
        log.write("\n" + TRAILER.format(rc=rc, secs=secs) + "\n")
    print("  %s: exit code %d after %.0f s" % (name, rc, secs), flush=True)


def first_line(elem):
    """Returns the first non-empty line of a failure/error/skipped element's
    message, with the next line too when the first is a bare "Error:" (as
    numpy's assert_allclose messages start)."""
    for text in (elem.get("message"), elem.text):
        lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
        if lines:
            return " ".join(lines[:2]) if lines[0].endswith(":") and len(lines) > 1 else lines[0]
    return "(%s without message)" % elem.tag


def test_id(name, case):
    """Returns file::[Class::]test[params] for a junit <testcase>."""
    classname = case.get("classname") or ""
    if not classname:  # how pytest records a collection error
        return "%s::<collection error>" % name
    parts = classname.split(".")
    classes = parts[len(parts) - parts[::-1].index(stem(name)):] if stem(name) in parts else []
    return "::".join([name] + classes + [case.get("name", "")])


def parse_junit(path, name):
    """Returns [{id, outcome, message}] for each testcase of a junit XML."""
    cases = []
    for case in ET.parse(path).getroot().iter("testcase"):
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message = "failed", message or first_line(child)
            elif child.tag == "skipped" and outcome == "passed":
                outcome, message = "skipped", first_line(child)
        cases.append({"id": test_id(name, case), "outcome": outcome, "message": message})
    return cases


def nodeid_to_id(nodeid):
    """unit/language/test_core.py::test_x[a] -> test_core.py::test_x[a]."""
    path, _, rest = nodeid.partition("::")
    return os.path.basename(path) + ("::" + rest if rest else "")


def read_text(path):
    with open(path, errors="replace") as f:
        return f.read()


def load_expected(path):
    """Reads PATTERN  # reason lines; returns [{pattern, reason, line, regex}]."""
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            pattern, sep, reason = (s.strip() for s in line.partition("#"))
            if not sep or not reason:
                die("%s:%d: entry without a reason ('PATTERN  # reason'): %s" % (path, lineno, line))
            entries.append({"pattern": pattern, "reason": reason, "line": lineno, "regex": glob_regex(pattern)})
    return entries


def summarize(out_dir, files, expected_path):
    """Builds the summary dict from OUT/<stem>.xml and .log of each file."""
    expected = load_expected(expected_path)
    used = [False] * len(expected)
    per_file, causes, crashes, problems = [], {}, {}, []
    unexpected, expected_hits, node_down = [], 0, []
    for name in files:
        xml_path = os.path.join(out_dir, stem(name) + ".xml")
        log_path = os.path.join(out_dir, stem(name) + ".log")
        log = read_text(log_path) if os.path.exists(log_path) else ""
        trailer = TRAILER_RE.search(log)
        rc = int(trailer.group(1)) if trailer else None
        cases, broken = [], None
        if not os.path.exists(xml_path):
            broken = "%s: no junit XML (pytest exit code %s), see %s.log" % (name, rc, stem(name))
        else:
            try:
                cases = parse_junit(xml_path, name)
            except ET.ParseError as e:
                broken = "%s: unreadable junit XML (%s)" % (name, e)
        if broken:
            # Count the file as one failure so that it cannot pass unseen.
            problems.append(broken)
            cases = [{"id": "%s::<no results>" % name, "outcome": "failed", "message": broken}]
        for match in CRASH_RE.finditer(log):
            tid = nodeid_to_id(match.group(3))
            crashes.setdefault(tid, {"id": tid, "worker": match.group(1)})
        node_down += ["%s: %s" % (name, m.group(0).strip()) for m in NODE_DOWN_RE.finditer(log)]
        problems += sorted({"%s: %s" % (name, m.group(0).strip()) for m in ABORT_RE.finditer(log)})
        counts = {"file": name, "passed": 0, "failed": 0, "skipped": 0, "exit_code": rc,
                  "seconds": int(trailer.group(2)) if trailer else None}
        for case in cases:
            counts[case["outcome"]] += 1
            if case["outcome"] == "passed":
                continue
            crash = CRASH_RE.search(case["message"])
            if case["outcome"] == "failed" and crash:
                crashes.setdefault(case["id"], {"id": case["id"], "worker": crash.group(1)})
            hits = [i for i, e in enumerate(expected) if e["regex"].match(case["id"])]
            for i in hits:
                used[i] = True
            if case["outcome"] != "failed":
                continue
            cause = "worker crashed" if crash else normalize(case["message"])
            group = causes.setdefault(cause, {"cause": cause, "count": 0, "examples": []})
            group["count"] += 1
            if len(group["examples"]) < EXAMPLES_PER_CAUSE:
                group["examples"].append(case["id"])
            if hits:
                expected_hits += 1
            else:
                unexpected.append({"id": case["id"], "message": case["message"][:300]})
        per_file.append(counts)
    # An entry is stale only if its file part names a file that was run.
    stale = [{"pattern": e["pattern"], "reason": e["reason"], "line": e["line"]}
             for e, hit in zip(expected, used)
             if not hit and any(glob_regex(e["pattern"].split("::")[0]).match(f) for f in files)]
    totals = {k: sum(c[k] for c in per_file) for k in ("passed", "failed", "skipped")}
    return {
        "files": per_file, "totals": totals, "expected_failures_file": expected_path,
        "expected_failures_matched": expected_hits, "unexpected_failure_count": len(unexpected),
        "unexpected_failures": unexpected[:MAX_UNEXPECTED], "stale_expected_entries": stale,
        "crashes": sorted(crashes.values(), key=lambda c: c["id"]), "node_down": node_down,
        "problems": problems, "causes": sorted(causes.values(), key=lambda g: (-g["count"], g["cause"])),
        "ok": not unexpected and not crashes and not node_down and not problems,
    }


def to_markdown(s):
    """Renders the summary dict as markdown."""
    md = ["# Triton unit tests on refcpu", "", "| file | passed | failed | skipped |", "| --- | ---: | ---: | ---: |"]
    for c in s["files"]:
        md.append("| %s | %d | %d | %d |" % (c["file"], c["passed"], c["failed"], c["skipped"]))
    t = s["totals"]
    md += ["| **total** | %d | %d | %d |" % (t["passed"], t["failed"], t["skipped"]), ""]
    for c in s["files"]:
        md.append("%s: %d passed, %d failed, %d skipped" % (c["file"], c["passed"], c["failed"], c["skipped"]))
    md += ["", "Expected failures matched: %d; unexpected failures: %d; crashed tests: %d." %
           (s["expected_failures_matched"], s["unexpected_failure_count"], len(s["crashes"]))]
    if s["problems"]:
        md += ["", "## Problems", ""] + ["- %s" % p for p in s["problems"]]
    if s["crashes"] or s["node_down"]:
        md += ["", "## Crashed workers", ""]
        md += ["- %s (worker %s)" % (c["id"], c["worker"]) for c in s["crashes"]]
        md += ["- %s" % line for line in s["node_down"]]
    if s["causes"]:
        md += ["", "## Failures by cause", ""]
        for g in s["causes"]:
            md.append("- **%d** x `%s`" % (g["count"], g["cause"].replace("`", "'")))
            md += ["  - %s" % e for e in g["examples"]]
    if s["unexpected_failures"]:
        shown = len(s["unexpected_failures"])
        md += ["", "## Unexpected failures (%d%s)" % (s["unexpected_failure_count"],
                                                      ", first %d shown" % shown
                                                      if shown < s["unexpected_failure_count"] else ""), ""]
        md += ["- %s: %s" % (u["id"], u["message"]) for u in s["unexpected_failures"]]
    if s["stale_expected_entries"]:
        md += ["", "## Stale expected-failure entries", ""]
        md += ["- line %d: `%s` (%s)" % (e["line"], e["pattern"], e["reason"]) for e in s["stale_expected_entries"]]
    return "\n".join(md) + "\n"


def discover_files(out_dir):
    """Names of the test files that have an XML or log in out_dir."""
    stems = {os.path.splitext(f)[0] for f in os.listdir(out_dir) if f.endswith((".xml", ".log"))}
    stems.discard("summary")
    names = [f for f in DEFAULT_FILES if stem(f) in stems]
    return names + sorted(s + ".py" for s in stems if s + ".py" not in names)


def parse_args(argv):
    # Everything after "--" goes to pytest unchanged.
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--triton-tests", metavar="DIR", help="Triton's python/test folder (or a checkout holding it)")
    p.add_argument("--files", nargs="+", metavar="FILE", help="test files of unit/language (default: %s)" %
                   " ".join(DEFAULT_FILES))
    p.add_argument("-n", "--workers", type=int, default=os.cpu_count() or 1, help="pytest-xdist workers (0: none)")
    p.add_argument("--timeout", type=float, default=120, help="pytest-timeout seconds per test (0: none)")
    p.add_argument("--out", default="triton-unit-results", help="folder for logs, XML and summary")
    p.add_argument("--expected-failures", default=os.path.join(HERE, "expected-failures.txt"), metavar="FILE")
    p.add_argument("--summarize-only", metavar="DIR", help="skip pytest; summarize DIR/*.xml and DIR/*.log")
    args = p.parse_args(argv)
    if args.summarize_only:
        args.out = args.summarize_only
    elif not args.triton_tests:
        p.error("--triton-tests is required unless --summarize-only is given")
    args.out = os.path.abspath(args.out)  # pytest runs in Triton's test folder
    if args.timeout == int(args.timeout):
        args.timeout = int(args.timeout)
    return args, extra


def main(argv):
    args, extra = parse_args(argv)
    load_expected(args.expected_failures)  # reject a malformed file before a long run
    if args.summarize_only:
        if not os.path.isdir(args.out):
            die("no folder %s" % args.out)
        files = args.files or discover_files(args.out)
    else:
        import importlib.util
        needed = ["pytest"] + (["xdist"] if args.workers > 0 else []) + (["pytest_timeout"] if args.timeout else [])
        missing = [m for m in needed if importlib.util.find_spec(m) is None]
        if missing:
            die("%s lacks %s (pip install pytest pytest-xdist pytest-timeout)" %
                     (sys.executable, ", ".join(missing)))
        root = find_test_root(args.triton_tests)
        files = args.files or DEFAULT_FILES
        os.makedirs(args.out, exist_ok=True)
        for name in files:
            if not os.path.isfile(os.path.join(root, "unit", "language", name)):
                die("no test file %s" % os.path.join(root, "unit", "language", name))
        for name in files:
            run_file(root, name, args, extra)
    summary = summarize(args.out, files, args.expected_failures)
    markdown = to_markdown(summary)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(markdown)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    print(markdown, end="")
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
