//===- BlockCopiesTest.cpp - Tests of the runtime's block copies ----------===//
//
// refcpu_rt_copy_box against the lane-by-lane definition of a masked load:
// lanes in the box read the source, the others the padding. And
// refcpu_rt_copy_wrapped, the copy of a block whose index along one
// dimension was taken % modulus: lane l's index is index + l * step,
// wrapped as remsi wraps it (x % 0 = x, as refcpu-arith-semantics gives),
// and its element sits where the wrapped index puts it.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

namespace {

struct Case {
  int64_t rows, cols, wrapDim, index, step, modulus, scale;
  int64_t rowLo, rowHi, colLo, colHi;
};

/// remsi with refcpu's x % 0 = x.
int64_t wrapped(int64_t x, int64_t m) { return m == 0 ? x : x % m; }

void checkCase(const Case &c) {
  // Source rows are 100 elements apart, columns 1; `origin` leaves room for
  // indices that wrap below the block's base.
  const int64_t rowStride = 100, origin = 20000;
  std::vector<int32_t> source(40000);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = int32_t(i);
  std::vector<int32_t> got(c.rows * c.cols, -1), want = got;
  // The block's base places lane (r, c) at r * rowStride + c + l * scale
  // unwrapped, l the lane along the wrapped dimension; the kernel's
  // addresses use the wrapped index instead.
  for (int64_t r = c.rowLo; r < c.rowHi; ++r)
    for (int64_t col = c.colLo; col < c.colHi; ++col) {
      int64_t lane = c.wrapDim == 0 ? r : col;
      int64_t x = c.index + lane * c.step;
      int64_t other = c.wrapDim == 0 ? col : r * rowStride;
      int64_t element = origin + other + wrapped(x, c.modulus) * c.scale;
      want[r * c.cols + col] = source[element];
    }
  // The unwrapped block: lane l along the wrapped dimension at
  // (index + l * step) * scale, the other dimension as above.
  int64_t wrappedStride = c.step * c.scale;
  int64_t base = origin + c.index * c.scale;
  int64_t rowStep = c.wrapDim == 0 ? wrappedStride : rowStride;
  int64_t colStep = c.wrapDim == 0 ? 1 : wrappedStride;
  refcpu_rt_copy_wrapped(got.data(), source.data() + base, sizeof(int32_t),
                         c.rows, c.cols, rowStep, colStep, c.rowLo, c.rowHi,
                         c.colLo, c.colHi, c.wrapDim, c.index, c.step,
                         c.modulus, c.scale);
  EXPECT_EQ(got, want);
}

TEST(WrappedCopyTest, RowsWrapLikeTheTutorialMatmul) {
  // Rows 96..127 of a 100-row matrix (row stride 100): rows 100.. are 0..
  checkCase({32, 8, 0, 96, 1, 100, 100, 0, 32, 0, 8});
}

TEST(WrappedCopyTest, ColumnsWrapSeveralTimes) {
  checkCase({4, 32, 1, 30, 1, 7, 1, 0, 4, 0, 32});
}

TEST(WrappedCopyTest, NegativeIndicesKeepTheirSign) {
  // remsi truncates: -20 .. -5 % 6 are -2, -1, 0, -5, ... (q joins (-6, 6)).
  checkCase({4, 16, 1, -20, 1, 6, 1, 0, 4, 0, 16});
}

TEST(WrappedCopyTest, NegativeModulusWrapsLikeItsMagnitude) {
  checkCase({4, 16, 1, 3, 2, -5, 1, 0, 4, 0, 16});
}

TEST(WrappedCopyTest, ZeroModulusLeavesTheIndex) {
  checkCase({4, 16, 1, 3, 1, 0, 1, 0, 4, 0, 16});
}

TEST(WrappedCopyTest, OnlyTheBoxIsCopied) {
  // Lanes outside rows [1, 6) x columns [2, 9) keep the buffer's value.
  checkCase({8, 16, 0, 5, 3, 10, 100, 1, 6, 2, 9});
}

/// A box copy of T elements: source element (r, c) at r * rowStride +
/// c * colStride holds a value derived from its index; lanes outside the
/// clamped box must hold `padding`.
template <typename T>
void checkBox(int64_t rows, int64_t cols, int64_t rowStride, int64_t colStride,
              int64_t rowLo, int64_t rowHi, int64_t colLo, int64_t colHi,
              T padding) {
  std::vector<T> source(4096);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<T>(i * 7 + 3);
  std::vector<T> got(rows * cols, static_cast<T>(-1)), want(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      bool inside = r >= rowLo && r < rowHi && c >= colLo && c < colHi;
      want[r * cols + c] =
          inside ? source[r * rowStride + c * colStride] : padding;
    }
  int64_t bits = 0;
  std::memcpy(&bits, &padding, sizeof(T));
  refcpu_rt_copy_box(got.data(), source.data(), sizeof(T), rows, cols,
                     rowStride, colStride, rowLo, rowHi, colLo, colHi, bits);
  EXPECT_EQ(got, want);
}

TEST(CopyBoxTest, LastKBlockOfAMatmul) {
  // Rows of a 256-wide K block of which 232 columns are in bounds.
  checkBox<uint16_t>(8, 256, 1000 / 8, 1, 0, 8, 0, 232, 0);
}

TEST(CopyBoxTest, EdgeRowsAndColumnsArePadded) {
  checkBox<float>(8, 16, 40, 1, 2, 5, 3, 11, 1.5f);
}

TEST(CopyBoxTest, OneRowBlock) {
  // A rank-1 block is one row: lanes [lo, hi) of it.
  checkBox<int32_t>(1, 64, 0, 1, 0, 1, 5, 40, -7);
}

TEST(CopyBoxTest, StridedColumnsOfEveryWidth) {
  checkBox<uint8_t>(4, 8, 64, 3, 0, 3, 1, 8, 0xab);
  checkBox<uint16_t>(4, 8, 64, 5, 1, 4, 0, 6, 0x7e00);
  checkBox<double>(4, 8, 64, 2, 0, 4, 2, 7, -0.0);
  checkBox<int64_t>(4, 8, 0, 9, 0, 4, 0, 8, int64_t(1) << 40);
}

TEST(CopyBoxTest, BoundsAreClampedToTheBlock) {
  // Bounds past either end, and empty boxes (lo >= hi), copy nothing past
  // the block: every lane of an empty box is padding.
  checkBox<float>(4, 8, 8, 1, -3, 10, -1, 100, 2.0f);
  checkBox<float>(4, 8, 8, 1, 3, 1, 0, 8, 2.0f);
  checkBox<float>(4, 8, 8, 1, 0, 4, 9, 20, 2.0f);
}

} // namespace
