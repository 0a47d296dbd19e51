"""f32 -> bf16 rounding in kernels (arith.truncf): bit for bit what torch
gives for every non-NaN f32, on every host. AVX512_BF16's vcvtneps2bf16
flushes subnormals to zero and hosts without it called a helper per
element; refcpu rounds with integer arithmetic instead (round to nearest
even, NaN -> 0x7fc0)."""

import os

import numpy as np
import pytest

import refcpu

torch = pytest.importorskip("torch")

# The kernel (y = x.to(tl.bfloat16), masked) is the one the lit test
# test/Tools/refcpu-compile/bf16-rounding.ttir checks the code of.
TO_BF16 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tools",
                       "refcpu-compile", "bf16-rounding.ttir")

# bf16's smallest subnormal from f32 of either sign, f32's smallest
# subnormal, ties to even among subnormals and around 1.0, the largest
# subnormal (it rounds up into the normal range), the largest finite f32
# (it rounds up to infinity), signed zeros and infinities, NaNs.
SPECIAL_BITS = [0x00010000, 0x80010000, 0x00000001, 0x00008000, 0x00018000,
                0x007fffff, 0x007fff80, 0x3f808000,
                0x3f818000, 0x3f808001, 0x7f7fffff, 0x7f7f7fff, 0x00000000,
                0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
                0x7f800001]


@pytest.mark.parametrize("preset", ["fast", "reference"])
def test_f32_to_bf16_rounds_like_torch(preset):
    rng = np.random.default_rng(0)
    random_bits = rng.integers(0, 1 << 32, 300_000, dtype=np.uint64)
    bits = np.concatenate([np.array(SPECIAL_BITS, np.uint64), random_bits])
    x = torch.from_numpy(bits.astype(np.uint32).view(np.float32))
    n = x.numel()
    y = torch.empty(n, dtype=torch.bfloat16)
    with open(TO_BF16) as f:
        kernel = refcpu.compile(f.read(), preset=preset)
    kernel.launch(((n + 1023) // 1024, 1, 1), x, y, n)

    got = y.view(torch.int16).numpy().view(np.uint16)
    want = x.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
    nan = torch.isnan(x).numpy()
    wrong = np.flatnonzero(~nan & (got != want))
    assert wrong.size == 0, [(hex(int(bits[i])), hex(got[i]), hex(want[i]))
                             for i in wrong[:8]]
    assert (got[nan] == 0x7fc0).all()
    # bf16's smallest subnormal stays itself, not zero.
    assert got[0] == 0x0001 and got[1] == 0x8001
