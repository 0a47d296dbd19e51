"""A stand-in for `pip install ./python` in subprocess tests: a folder that,
on PYTHONPATH, makes Triton's backend discovery find refcpu through the
`triton.backends` entry point the package declares (pyproject.toml)."""

import contextlib
import os
import tempfile


@contextlib.contextmanager
def installed_plugin_site():
    """Yields a folder holding refcpu's dist-info with its entry point."""
    with tempfile.TemporaryDirectory() as site:
        info = os.path.join(site, "refcpu-0.1.0.dist-info")
        os.makedirs(info)
        with open(os.path.join(info, "METADATA"), "w") as f:
            f.write("Metadata-Version: 2.1\nName: refcpu\nVersion: 0.1.0\n")
        with open(os.path.join(info, "entry_points.txt"), "w") as f:
            f.write("[triton.backends]\ncpu = refcpu.triton_backend\n")
        yield site
