"""The names the corpus kernels (test/Corpus/cases/*/source.py) use besides
their parameters, as the corpus generator's module defined them."""

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _absmax(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


def kernel_namespace():
    return {"triton": triton, "tl": tl, "libdevice": libdevice,
            "_absmax": _absmax}
