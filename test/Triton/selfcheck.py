#!/usr/bin/env python3
"""Self-check of run_unit_tests.py's summary, without Triton or pytest.

Writes hand-made junit XML and logs shaped like pytest/pytest-xdist output
into a temporary folder and runs `run_unit_tests.py --summarize-only` on it:

    python3 test/Triton/selfcheck.py
"""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_unit_tests.py")
CRASHED = "test_dot[64-64-64-4-False-False-none-tf32x3-float32-float32-1-None-1]"

# pytest's xunit2 output: classname is the module path, a crash is what
# pytest-xdist reports for the test a dead worker was running.
CORE_XML = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="2" failures="3" skipped="1" tests="7">
<testcase classname="unit.language.test_core" name="test_bin_op[int8-int8-+-1]" time="0.1"/>
<testcase classname="unit.language.test_core" name="test_cast[float32-int8-False-1024-1]" time="0.1">
 <failure message="AssertionError: &#10;Not equal to tolerance rtol=0, atol=0">trace</failure></testcase>
<testcase classname="unit.language.test_core" name="test_cast[float64-int16-False-1024-1]" time="0.1">
 <failure message="AssertionError: &#10;Not equal to tolerance rtol=1e-05, atol=0.001">trace</failure></testcase>
<testcase classname="unit.language.test_core" name="test_load_cache_modifier[.cg]" time="0.1">
 <failure message="RuntimeError: refcpu: unsupported op 'tt.foo' at 0x7f12ab34">trace</failure></testcase>
<testcase classname="unit.language.test_core.TestClass" name="test_method" time="0.1">
 <error message="failed on setup with &quot;fixture 'fresh_knobs' not found&quot;">trace</error></testcase>
<testcase classname="unit.language.test_core" name="test_scaled_dot[32-32-64-True-True-False-e2m1-e4m3-4-16-1]">
 <skipped type="pytest.skip" message="float8e4nv not supported on CUDA &lt; 8.9">skip</skipped></testcase>
<testcase classname="unit.language.test_core" name="%s">
 <error message="failed on setup with &quot;worker 'gw1' crashed while running 'unit/language/test_core.py::%s'&quot;">
 worker 'gw1' crashed</error></testcase>
</testsuite></testsuites>
""" % (CRASHED, CRASHED)
CORE_LOG = """[gw1] node down: Not properly terminated
worker 'gw1' crashed while running 'unit/language/test_core.py::%s'
[gw1] node down: Not properly terminated
maximum crashed workers reached: 64
[run_unit_tests] pytest exit code 1 after 42 s
""" % CRASHED
TUPLE_XML = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="2">
<testcase classname="unit.language.test_tuple" name="test_index[0]"/>
<testcase classname="unit.language.test_tuple" name="test_index[1]">
 <failure message="AssertionError: assert (1,) == (0,)">trace</failure></testcase>
</testsuite></testsuites>
"""
EXPECTED = """# header comment
test_core.py::test_cast[*]  # casts not done yet

test_core.py::test_dot[*-tf32x3-*]  # GPU-only precision mode
test_core.py::test_scaled_dot[*]  # skipped: fp8 check
test_core.py::test_never_fails  # stale: matches nothing
test_random.py::*  # not run here, so never stale
"""


def write(folder, name, text):
    with open(os.path.join(folder, name), "w") as f:
        f.write(textwrap.dedent(text))


class SummaryTest(unittest.TestCase):

    def run_harness(self, folder, expected_text, *extra):
        write(folder, "expected.txt", expected_text)
        proc = subprocess.run([sys.executable, HARNESS, "--summarize-only", folder, "--expected-failures",
                               os.path.join(folder, "expected.txt")] + list(extra), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
        summary = None
        if os.path.exists(os.path.join(folder, "summary.json")):
            with open(os.path.join(folder, "summary.json")) as f:
                summary = json.load(f)
        return proc.returncode, proc.stdout, summary

    def test_counts_causes_crashes_expected(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "test_core.xml", CORE_XML)
            write(d, "test_core.log", CORE_LOG)
            write(d, "test_tuple.xml", TUPLE_XML)
            rc, out, s = self.run_harness(d, EXPECTED)
            self.assertEqual(rc, 1, out)  # a crash fails the run even when expected
            files = {c["file"]: c for c in s["files"]}
            self.assertEqual(list(files), ["test_core.py", "test_tuple.py"])
            self.assertEqual((files["test_core.py"]["passed"], files["test_core.py"]["failed"],
                              files["test_core.py"]["skipped"]), (1, 5, 1))
            self.assertEqual(files["test_core.py"]["seconds"], 42)
            self.assertIn("test_core.py: 1 passed, 5 failed, 1 skipped", out)
            self.assertIn("| test_tuple.py | 1 | 1 | 0 |", out)
            causes = {g["cause"]: g for g in s["causes"]}
            # The two test_cast failures differ only in numbers: one cause.
            self.assertEqual(causes["AssertionError: Not equal to tolerance rtol=<n>, atol=<n>"]["count"], 2)
            self.assertIn("RuntimeError: refcpu: unsupported op '<q>' at <hex>", causes)
            self.assertIn("worker crashed", causes)
            self.assertIn("[setup] fixture '<q>' not found", causes)
            self.assertEqual([c["id"] for c in s["crashes"]], ["test_core.py::" + CRASHED])
            self.assertEqual(len(s["node_down"]), 2)
            self.assertEqual(s["problems"], ["test_core.py: maximum crashed workers reached: 64"])
            unexpected = sorted(u["id"] for u in s["unexpected_failures"])
            self.assertEqual(unexpected, ["test_core.py::TestClass::test_method",
                                          "test_core.py::test_load_cache_modifier[.cg]",
                                          "test_tuple.py::test_index[1]"])
            self.assertEqual(s["expected_failures_matched"], 3)
            self.assertEqual([e["pattern"] for e in s["stale_expected_entries"]], ["test_core.py::test_never_fails"])
            with open(os.path.join(d, "summary.md")) as f:
                self.assertIn("## Unexpected failures (3)", f.read())

    def test_all_expected_passes(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "test_tuple.xml", TUPLE_XML)
            rc, out, s = self.run_harness(d, "test_tuple.py::test_index[1]  # tuple equality\n")
            self.assertEqual(rc, 0, out)
            self.assertEqual(s["unexpected_failure_count"], 0)

    def test_missing_xml_is_a_failure(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "test_random.log", "ImportError: no scipy\n[run_unit_tests] pytest exit code 4 after 1 s\n")
            rc, out, s = self.run_harness(d, "")
            self.assertEqual(rc, 1, out)
            self.assertEqual(s["unexpected_failures"][0]["id"], "test_random.py::<no results>")
            self.assertIn("exit code 4", s["problems"][0])

    def test_entry_without_reason_is_rejected(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "test_tuple.xml", TUPLE_XML)
            rc, out, s = self.run_harness(d, "test_tuple.py::test_index[1]\n")
            self.assertEqual(rc, 2, out)
            self.assertIn("without a reason", out)
            self.assertIsNone(s)


if __name__ == "__main__":
    unittest.main()
