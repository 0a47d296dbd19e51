"""bf16 values in kernels, bit for bit on every host: f32 -> bf16 rounding
(arith.truncf) gives what torch gives for every non-NaN f32 (AVX512_BF16's
vcvtneps2bf16 flushes subnormals to zero, and hosts without it called a
helper per element; refcpu rounds with integer arithmetic instead: to
nearest even, NaN -> 0x7fc0), and values that are only moved (loaded,
stored, selected, carried through loops) keep their bits."""

import os

import numpy as np
import pytest

import refcpu

torch = pytest.importorskip("torch")

# The kernel (y = x.to(tl.bfloat16), masked) is the one the lit test
# test/Tools/refcpu-compile/bf16-rounding.ttir checks the code of.
TOOL_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tools",
                          "refcpu-compile")
TO_BF16 = os.path.join(TOOL_TESTS, "bf16-rounding.ttir")
# y = x where lane < f (else 0), carried through a loop; the lit test checks
# that its code converts nothing back to bf16.
SELECT_AND_CARRY = os.path.join(TOOL_TESTS, "bf16-moves.ttir")

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


# A 16 x 16 bf16 copy whose load masks off one column (cols != n): a lane
# mask that is no prefix, which loads lane by lane.
MASKED_COPY = """
module {
  tt.func public @copy(%x: !tt.ptr<bf16>, %y: !tt.ptr<bf16>, %n: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<16x16xbf16>
    %c16 = arith.constant dense<16> : tensor<16x1xi32>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %rs = arith.muli %rows, %c16 : tensor<16x1xi32>
    %rb = tt.broadcast %rs : tensor<16x1xi32> -> tensor<16x16xi32>
    %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
    %offs = arith.addi %rb, %cb : tensor<16x16xi32>
    %nn = tt.splat %n : i32 -> tensor<1x16xi32>
    %m = arith.cmpi ne, %cols, %nn : tensor<1x16xi32>
    %mask = tt.broadcast %m : tensor<1x16xi1> -> tensor<16x16xi1>
    %xp = tt.splat %x : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
    %xa = tt.addptr %xp, %offs : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    %v = tt.load %xa, %mask, %zero : tensor<16x16x!tt.ptr<bf16>>
    %yp = tt.splat %y : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
    %ya = tt.addptr %yp, %offs : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
    tt.store %ya, %v : tensor<16x16x!tt.ptr<bf16>>
    tt.return
  }
}
"""


@pytest.mark.parametrize("preset", ["fast", "reference"])
def test_masked_bf16_load_keeps_its_bits(preset):
    # Subnormals of either sign, NaNs with payloads, normal values. LLVM's
    # x86 backend passed a masked lane's bf16 through f32 and back (with
    # vcvtneps2bf16 on AVX512_BF16 hosts, flushing the subnormals).
    rng = np.random.default_rng(1)
    bits = rng.choice(np.array([0x0001, 0x8001, 0x007f, 0x807f, 0x7fc1, 0xffc0,
                                0x3f80, 0xc2f7], np.uint16), (16, 16))
    x = torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16)
    kernel = refcpu.compile(MASKED_COPY, preset=preset)
    for masked_column in (5, 15):
        y = torch.full((16, 16), 7.0, dtype=torch.bfloat16)
        kernel.launch((1, 1, 1), x, y, masked_column)
        got = y.view(torch.int16).numpy().view(np.uint16)
        want = bits.copy()
        want[:, masked_column] = 0
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("preset", ["fast", "reference"])
def test_selected_and_carried_bf16_keep_their_bits(preset):
    # tl.where on bf16 and a loop-carried bf16 tensor: LLVM's x86 backend
    # kept these values in f32 registers and rounded them back with
    # vcvtneps2bf16 on AVX512_BF16 hosts, flushing the subnormals.
    bits = np.array([0x0001, 0x8001, 0x007f, 0x807f, 0x7fc1, 0xffc0, 0x3f80,
                     0xc2f7] * 2, np.uint16)
    x = torch.from_numpy(bits.view(np.int16)).view(torch.bfloat16)
    with open(SELECT_AND_CARRY) as f:
        kernel = refcpu.compile(f.read(), preset=preset)
    for below, iterations in ((16, 5), (12, 3), (9, 1)):
        y = torch.full((16,), 7.0, dtype=torch.bfloat16)
        kernel.launch((1, 1, 1), x, y, below, iterations)
        got = y.view(torch.int16).numpy().view(np.uint16)
        want = bits.copy()
        want[below:] = 0
        np.testing.assert_array_equal(got, want)
