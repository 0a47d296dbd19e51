"""Makes the package under test (python/refcpu of this repository) and the
helpers next to this file importable."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir,
                                           "python"))
for path in (HERE, PYTHON_DIR):
    if path not in sys.path:
        sys.path.insert(0, path)
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (PYTHON_DIR, os.environ.get("PYTHONPATH")) if p)
