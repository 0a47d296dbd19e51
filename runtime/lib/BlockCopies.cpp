//===- BlockCopies.cpp - Copies of partial and wrapped blocks -------------===//
//
// Two builtins (kernel_abi.h) that copy a loaded block into a kernel's
// buffer, so that the edge cases of a load add a call to the kernel instead
// of copy loops (compile time):
//
// - refcpu_rt_copy_box: a block of rank 1 to 3 partly out of bounds (a
//   masked load at an edge): the in-bounds box is copied and the rest
//   padded, each byte of the buffer written once.
// - refcpu_rt_copy_wrapped (rank 1 or 2): Triton's tutorial matmul takes its
//   row (and column) offsets `% M` so that the last programs read rows of A
//   from the top again. Where a lane wraps, the block is no strided view,
//   but it is a few: the lanes whose index has the same quotient by the
//   modulus form one, shifted by that many moduli. Lanes outside the
//   bounds are padded as copy_box pads them.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"

#include <algorithm>
#include <cstring>

namespace {

/// Copies `count` elements of type T `stride` elements apart.
template <typename T>
void copyStrided(char *to, const char *from, int64_t count, int64_t stride) {
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(to + i * sizeof(T), from + i * stride * sizeof(T), sizeof(T));
}

/// Copies `count` elements of `elementSize` bytes, `stride` elements apart
/// in the source, to consecutive elements at `to`.
void copyLanes(char *to, const char *from, int64_t count, int64_t stride,
               int64_t elementSize) {
  if (stride == 1) {
    std::memcpy(to, from, count * elementSize);
    return;
  }
  switch (elementSize) {
  case 1:
    return copyStrided<uint8_t>(to, from, count, stride);
  case 2:
    return copyStrided<uint16_t>(to, from, count, stride);
  case 4:
    return copyStrided<uint32_t>(to, from, count, stride);
  case 8:
    return copyStrided<uint64_t>(to, from, count, stride);
  default:
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(to + i * elementSize, from + i * stride * elementSize,
                  elementSize);
  }
}

/// Writes `value`, truncated to T, to `count` consecutive elements.
template <typename T> void fillWith(char *to, int64_t count, int64_t value) {
  auto element = static_cast<T>(value);
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(to + i * sizeof(T), &element, sizeof(T));
}

/// Writes the element whose bits are `padding` (zero-extended) to `count`
/// consecutive elements of `elementSize` bytes (1, 2, 4 or 8).
void padLanes(char *to, int64_t count, int64_t elementSize, int64_t padding) {
  if (count <= 0)
    return;
  if (padding == 0) {
    std::memset(to, 0, count * elementSize);
    return;
  }
  switch (elementSize) {
  case 1:
    return fillWith<uint8_t>(to, count, padding);
  case 2:
    return fillWith<uint16_t>(to, count, padding);
  case 4:
    return fillWith<uint32_t>(to, count, padding);
  default:
    return fillWith<uint64_t>(to, count, padding);
  }
}

/// Clamps the lanes [lo, hi) of a dimension of `size` lanes to it; an empty
/// range stays empty (hi >= lo).
void clampRange(int64_t &lo, int64_t &hi, int64_t size) {
  lo = std::clamp<int64_t>(lo, 0, size);
  hi = std::clamp<int64_t>(hi, lo, size);
}

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

/// Writes `padding` to the lanes of the rows x cols buffer at `out` outside
/// [rowLo, rowHi) x [colLo, colHi) (clamped), which a copy then fills.
void padAroundBox(char *out, int64_t elementSize, int64_t rows, int64_t cols,
                  int64_t rowLo, int64_t rowHi, int64_t colLo, int64_t colHi,
                  int64_t padding) {
  int64_t rowBytes = cols * elementSize;
  padLanes(out, rowLo * cols, elementSize, padding);
  if (colLo > 0 || colHi < cols)
    for (int64_t r = rowLo; r < rowHi; ++r) {
      char *row = out + r * rowBytes;
      padLanes(row, colLo, elementSize, padding);
      padLanes(row + colHi * elementSize, cols - colHi, elementSize, padding);
    }
  padLanes(out + rowHi * rowBytes, (rows - rowHi) * cols, elementSize, padding);
}

/// The rows x cols part of refcpu_rt_copy_box: lanes [rowLo, rowHi) x
/// [colLo, colHi), already clamped, copied from `in`, the rest padded.
void copyMatrixBox(char *out, const char *in, int64_t elementSize, int64_t rows,
                   int64_t cols, int64_t rowStride, int64_t colStride,
                   int64_t rowLo, int64_t rowHi, int64_t colLo, int64_t colHi,
                   int64_t padding) {
  padAroundBox(out, elementSize, rows, cols, rowLo, rowHi, colLo, colHi,
               padding);
  for (int64_t r = rowLo; r < rowHi; ++r)
    copyLanes(out + (r * cols + colLo) * elementSize,
              in + (r * rowStride + colLo * colStride) * elementSize,
              colHi - colLo, colStride, elementSize);
}

} // namespace

extern "C" void refcpu_rt_copy_box(
    void *dst, const void *src, int64_t elementSize, int64_t batches,
    int64_t rows, int64_t cols, int64_t batchStride, int64_t rowStride,
    int64_t colStride, int64_t batchLo, int64_t batchHi, int64_t rowLo,
    int64_t rowHi, int64_t colLo, int64_t colHi, int64_t padding) {
  clampRange(batchLo, batchHi, batches);
  clampRange(rowLo, rowHi, rows);
  clampRange(colLo, colHi, cols);
  auto *out = static_cast<char *>(dst);
  const auto *in = static_cast<const char *>(src);
  int64_t matrixLanes = rows * cols;
  padLanes(out, batchLo * matrixLanes, elementSize, padding);
  for (int64_t i = batchLo; i < batchHi; ++i)
    copyMatrixBox(out + i * matrixLanes * elementSize,
                  in + i * batchStride * elementSize, elementSize, rows, cols,
                  rowStride, colStride, rowLo, rowHi, colLo, colHi, padding);
  padLanes(out + batchHi * matrixLanes * elementSize,
           (batches - batchHi) * matrixLanes, elementSize, padding);
}

extern "C" void refcpu_rt_copy_wrapped(
    void *dst, const void *src, int64_t elementSize, int64_t rows, int64_t cols,
    int64_t rowStride, int64_t colStride, int64_t rowLo, int64_t rowHi,
    int64_t colLo, int64_t colHi, int64_t wrapDim, int64_t index, int64_t step,
    int64_t modulus, int64_t scale, int64_t padding) {
  clampRange(rowLo, rowHi, rows);
  clampRange(colLo, colHi, cols);
  // x % m and x % -m agree (the remainder takes x's sign); x % 0 is x in
  // refcpu (refcpu-arith-semantics), so nothing wraps then.
  int64_t m = modulus < 0 ? -modulus : modulus;
  auto *out = static_cast<char *>(dst);
  const auto *in = static_cast<const char *>(src);
  padAroundBox(out, elementSize, rows, cols, rowLo, rowHi, colLo, colHi,
               padding);
  // Copies lanes [r0, r1) x [c0, c1) whose source sits `shift` elements
  // from where the unwrapped block places it.
  auto copyBox = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1,
                     int64_t shift) {
    for (int64_t r = r0; r < r1; ++r)
      copyLanes(out + (r * cols + c0) * elementSize,
                in + (r * rowStride + c0 * colStride + shift) * elementSize,
                c1 - c0, colStride, elementSize);
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
