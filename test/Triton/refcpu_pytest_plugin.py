"""pytest plugin that makes refcpu the active Triton backend.

Loaded with `-p refcpu_pytest_plugin` (run_unit_tests.py puts this folder on
PYTHONPATH). pytest-xdist passes `-p` on to its workers, so pytest_configure
runs in every worker process too, before any test module imports Triton
kernels.
"""


def pytest_configure(config):
    import refcpu.triton_backend

    refcpu.triton_backend.activate()
