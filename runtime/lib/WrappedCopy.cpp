//===- WrappedCopy.cpp - Blocks whose index was taken modulo m ------------===//
//
// refcpu_rt_copy_wrapped (kernel_abi.h): Triton's tutorial matmul takes its
// row (and column) offsets `% M` so that the last programs read rows of A
// from the top again. Where a lane wraps, the block is no strided view, but
// it is a few: the lanes whose index has the same quotient by the modulus
// form one, shifted by that many moduli. The compiler calls this function
// for such a block instead of loading lane by lane; one call, so that no
// copy loops are generated for a path only the edge programs take.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"

#include <algorithm>
#include <cstring>

namespace {

/// The quotient of index / modulus as divsi gives it (truncated), and the
/// first index past the range of indices that share it. `modulus` > 0.
struct Quotient {
  int64_t q, end;
};

Quotient quotientOf(int64_t index, int64_t modulus) {
  int64_t q = index / modulus;
  // Truncation joins (-m, m) into q = 0: indices with q >= 0 run up to
  // (q + 1) * m, those with q < 0 up to q * m + 1.
  return {q, q >= 0 ? (q + 1) * modulus : q * modulus + 1};
}

} // namespace

extern "C" void refcpu_rt_copy_wrapped(
    void *dst, const void *src, int64_t elementSize, int64_t rows, int64_t cols,
    int64_t rowStride, int64_t colStride, int64_t rowLo, int64_t rowHi,
    int64_t colLo, int64_t colHi, int64_t wrapDim, int64_t index, int64_t step,
    int64_t modulus, int64_t scale) {
  rowLo = std::clamp<int64_t>(rowLo, 0, rows);
  rowHi = std::clamp<int64_t>(rowHi, rowLo, rows);
  colLo = std::clamp<int64_t>(colLo, 0, cols);
  colHi = std::clamp<int64_t>(colHi, colLo, cols);
  // x % m and x % -m agree (the remainder takes x's sign); x % 0 is x in
  // refcpu (refcpu-arith-semantics), so nothing wraps then.
  int64_t m = modulus < 0 ? -modulus : modulus;
  auto *out = static_cast<char *>(dst);
  const auto *in = static_cast<const char *>(src);
  // Copies lanes [r0, r1) x [c0, c1) whose source sits `shift` elements
  // from where the unwrapped block places it.
  auto copyBox = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1,
                     int64_t shift) {
    for (int64_t r = r0; r < r1; ++r) {
      char *to = out + (r * cols + c0) * elementSize;
      const char *from =
          in + (r * rowStride + c0 * colStride + shift) * elementSize;
      if (colStride == 1) {
        std::memcpy(to, from, (c1 - c0) * elementSize);
        continue;
      }
      for (int64_t c = c0; c < c1; ++c)
        std::memcpy(to + (c - c0) * elementSize,
                    from + (c - c0) * colStride * elementSize, elementSize);
    }
  };
  int64_t lo = wrapDim == 0 ? rowLo : colLo, hi = wrapDim == 0 ? rowHi : colHi;
  for (int64_t start = lo; start < hi;) {
    int64_t end = hi, shift = 0;
    if (m != 0) {
      Quotient quotient = quotientOf(index + start * step, m);
      // The first lane whose index reaches the quotient's end: past >
      // start * step >= 0, so the piece is never empty.
      int64_t past = quotient.end - index;
      end = std::min(hi, (past + step - 1) / step);
      shift = -quotient.q * m * scale;
    }
    if (wrapDim == 0)
      copyBox(start, end, colLo, colHi, shift);
    else
      copyBox(rowLo, rowHi, start, end, shift);
    start = end;
  }
}
