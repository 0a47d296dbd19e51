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
  // Lanes outside the bounds get the padding, 7's bits.
  const int32_t padding = 7;
  std::vector<int32_t> got(c.rows * c.cols, -1), want(got.size(), padding);
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
                         c.modulus, c.scale, padding);
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

TEST(WrappedCopyTest, OnlyTheBoxIsCopiedTheRestPadded) {
  // Lanes outside rows [1, 6) x columns [2, 9) are padded.
  checkCase({8, 16, 0, 5, 3, 10, 100, 1, 6, 2, 9});
}

/// The bounds and strides of one dimension of a box copy.
struct Dim {
  int64_t size, stride, lo, hi;
};

/// A box copy of T elements: source element (i, r, c) at i * batch.stride +
/// r * row.stride + c * col.stride holds a value derived from its index;
/// lanes outside the clamped box must hold `padding`.
template <typename T> void checkBox(Dim batch, Dim row, Dim col, T padding) {
  std::vector<T> source(8192);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<T>(i * 7 + 3);
  int64_t lanes = batch.size * row.size * col.size;
  std::vector<T> got(lanes, static_cast<T>(-1)), want(lanes);
  auto inside = [](const Dim &d, int64_t i) { return i >= d.lo && i < d.hi; };
  for (int64_t i = 0; i < batch.size; ++i)
    for (int64_t r = 0; r < row.size; ++r)
      for (int64_t c = 0; c < col.size; ++c)
        want[(i * row.size + r) * col.size + c] =
            inside(batch, i) && inside(row, r) && inside(col, c)
                ? source[i * batch.stride + r * row.stride + c * col.stride]
                : padding;
  int64_t bits = 0;
  std::memcpy(&bits, &padding, sizeof(T));
  refcpu_rt_copy_box(got.data(), source.data(), sizeof(T), batch.size, row.size,
                     col.size, batch.stride, row.stride, col.stride, batch.lo,
                     batch.hi, row.lo, row.hi, col.lo, col.hi, bits);
  EXPECT_EQ(got, want);
}

/// A block of rank 2: one matrix.
constexpr Dim kOneMatrix{1, 0, 0, 1};

TEST(CopyBoxTest, LastKBlockOfAMatmul) {
  // Rows of a 256-wide K block of which 232 columns are in bounds.
  checkBox<uint16_t>(kOneMatrix, {8, 1000 / 8, 0, 8}, {256, 1, 0, 232}, 0);
}

TEST(CopyBoxTest, EdgeRowsAndColumnsArePadded) {
  checkBox<float>(kOneMatrix, {8, 40, 2, 5}, {16, 1, 3, 11}, 1.5f);
}

TEST(CopyBoxTest, OneRowBlock) {
  // A rank-1 block is one row: lanes [lo, hi) of it.
  checkBox<int32_t>(kOneMatrix, {1, 0, 0, 1}, {64, 1, 5, 40}, -7);
}

TEST(CopyBoxTest, StridedColumnsOfEveryWidth) {
  checkBox<uint8_t>(kOneMatrix, {4, 64, 0, 3}, {8, 3, 1, 8}, 0xab);
  checkBox<uint16_t>(kOneMatrix, {4, 64, 1, 4}, {8, 5, 0, 6}, 0x7e00);
  checkBox<double>(kOneMatrix, {4, 64, 0, 4}, {8, 2, 2, 7}, -0.0);
  checkBox<int64_t>(kOneMatrix, {4, 0, 0, 4}, {8, 9, 0, 8}, int64_t(1) << 40);
}

TEST(CopyBoxTest, ContiguousRowsOfEveryWidth) {
  // Rows whose bytes are no multiple of a vector's and boxes that start and
  // end within one.
  checkBox<uint8_t>(kOneMatrix, {3, 100, 1, 3}, {100, 1, 3, 97}, 0xab);
  checkBox<uint16_t>(kOneMatrix, {4, 40, 0, 4}, {40, 1, 33, 35}, 0x7e00);
  checkBox<double>(kOneMatrix, {2, 9, 0, 2}, {9, 1, 1, 9}, -0.0);
  checkBox<int64_t>(kOneMatrix, {2, 70, 0, 1}, {70, 1, 0, 70}, -1);
}

TEST(CopyBoxTest, BoundsAreClampedToTheBlock) {
  // Bounds past either end, and empty boxes (lo >= hi), copy nothing past
  // the block: every lane of an empty box is padding.
  checkBox<float>(kOneMatrix, {4, 8, -3, 10}, {8, 1, -1, 100}, 2.0f);
  checkBox<float>(kOneMatrix, {4, 8, 3, 1}, {8, 1, 0, 8}, 2.0f);
  checkBox<float>(kOneMatrix, {4, 8, 0, 4}, {8, 1, 9, 20}, 2.0f);
}

TEST(CopyBoxTest, BatchesOutsideTheBoxArePadding) {
  // A batched matmul's last batch block: matrices 0 and 1 of 4 in bounds,
  // the last rows of each cut.
  checkBox<uint16_t>({4, 1000, 0, 2}, {8, 64, 0, 5}, {16, 1, 0, 16}, 0);
  checkBox<float>({3, 512, -1, 9}, {4, 32, 1, 4}, {8, 2, 2, 7}, 0.5f);
}

} // namespace
