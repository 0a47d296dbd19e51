//===- MatmulTest.cpp - Tests of the block matrix product kernels ---------===//
//
// Every kernel the host can run is compared with a double-precision product
// on shapes that cover full and edge tiles (rows not a multiple of 8, columns
// not a multiple of 16 or 32, odd k) and on transposed and strided operands.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/Matmul.h"

#include "MatmulKernels.h"
#include "refcpu/Runtime/HalfFloat.h"
#include "refcpu/Runtime/Launcher.h"
#include "refcpu/kernel_abi.h"

#include "gtest/gtest.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

using namespace refcpu::runtime;

namespace {
enum class Layout { RowMajor, ColumnMajor, Padded };

/// A rows x cols matrix stored in `layout` (Padded: row-major, every row and
/// column followed by unused elements that must stay untouched).
template <typename T> struct Matrix {
  std::vector<T> storage;
  MatrixRef<T> ref;

  Matrix(int64_t rows, int64_t cols, Layout layout) {
    int64_t rowStride = cols, colStride = 1;
    if (layout == Layout::ColumnMajor) {
      rowStride = 1;
      colStride = rows;
    } else if (layout == Layout::Padded) {
      rowStride = 2 * cols + 3;
      colStride = 2;
    }
    storage.assign(rows * rowStride + cols * colStride + 1, T(0));
    ref = {storage.data(), rows, cols, rowStride, colStride};
  }
  MatrixRef<const T> view() const {
    return {ref.data, ref.rows, ref.cols, ref.rowStride, ref.colStride};
  }
};

struct Shape {
  int64_t m, n, k;
};

const Shape kShapes[] = {{32, 32, 32}, {8, 32, 16}, {19, 40, 37},
                         {1, 1, 1},    {9, 16, 7},  {64, 48, 64},
                         {3, 17, 2},   {16, 33, 5},
                         // More k than one packed panel of the f32 kernel.
                         {21, 70, 300}};

std::string isaName(MatmulIsa isa) {
  switch (isa) {
  case MatmulIsa::Generic:
    return "generic";
  case MatmulIsa::Avx2:
    return "avx2";
  case MatmulIsa::Avx512:
    return "avx512";
  case MatmulIsa::Avx512Bf16:
    return "avx512bf16";
  case MatmulIsa::Avx512Vnni:
    return "avx512vnni";
  case MatmulIsa::AmxBf16:
    return "amxbf16";
  case MatmulIsa::AmxInt8:
    return "amxint8";
  }
  return "?";
}

/// What a stored product must not read: NaN, or a pattern of bits.
template <typename Acc> Acc poison() {
  if constexpr (std::is_floating_point_v<Acc>)
    return NAN;
  else
    return Acc(0x5a5a5a5a);
}

/// A packed entry whose only argument is a std::function of the program id.
void runProgram(void **args) {
  auto *program = static_cast<std::function<void(int32_t)> *>(args[0]);
  // After the arguments: the grid size, then the program id (x, y, z).
  (*program)(*static_cast<int32_t *>(args[4]));
}

/// Runs C += A * B with element type T (values drawn from `draw`, read back
/// with `toFloat`) and accumulator type Acc on every host ISA, shape and
/// layout, and compares with a double product of the same inputs, relative
/// to 1 + |expected| (0: exactly); then again as two programs of a launch
/// that share A and B (packed once, then read from the launch's cache), and
/// as a stored product (REFCPU_RT_ZERO_C) into a C of poison values.
template <typename T, typename Acc = float, typename Draw, typename ToFloat,
          typename Kernel>
void checkKernel(Draw draw, ToFloat toFloat, Kernel kernel, double tolerance) {
  std::mt19937 rng(7);
  const Layout layouts[] = {Layout::RowMajor, Layout::ColumnMajor,
                            Layout::Padded};
  for (MatmulIsa isa : {MatmulIsa::Generic, MatmulIsa::Avx2, MatmulIsa::Avx512,
                        MatmulIsa::Avx512Bf16, MatmulIsa::Avx512Vnni,
                        MatmulIsa::AmxBf16, MatmulIsa::AmxInt8}) {
    if (!hostSupports(isa))
      continue;
    // Which kernels a host checked is part of the result (the log shows it).
    std::printf("checking the %s kernels\n", isaName(isa).c_str());
    for (const Shape &shape : kShapes)
      for (Layout layoutA : layouts)
        for (Layout layoutB : layouts)
          for (Layout layoutC : {Layout::RowMajor, Layout::Padded}) {
            Matrix<T> a(shape.m, shape.k, layoutA), b(shape.k, shape.n, layoutB);
            Matrix<Acc> c(shape.m, shape.n, layoutC);
            std::vector<Acc> before = c.storage;
            for (int64_t i = 0; i < shape.m; ++i)
              for (int64_t p = 0; p < shape.k; ++p)
                a.ref.at(i, p) = draw(rng);
            for (int64_t p = 0; p < shape.k; ++p)
              for (int64_t j = 0; j < shape.n; ++j)
                b.ref.at(p, j) = draw(rng);
            std::uniform_int_distribution<int> initial(-1000, 1000);
            for (int64_t i = 0; i < shape.m; ++i)
              for (int64_t j = 0; j < shape.n; ++j)
                before[&c.ref.at(i, j) - c.storage.data()] =
                    c.ref.at(i, j) = Acc(initial(rng)) / Acc(1000);

            kernel(a.view(), b.view(), c.ref, isa, 0);
            // Two programs of one launch with both operands shared: the
            // first packs them into the launch's cache, the second reads
            // them there; each adds to its own copy of C.
            Matrix<Acc> cached[2] = {c, c};
            for (Matrix<Acc> &copy : cached) {
              copy.storage = before;
              copy.ref.data = copy.storage.data();
            }
            std::function<void(int32_t)> program = [&](int32_t pid) {
              kernel(a.view(), b.view(), cached[pid].ref, isa,
                     REFCPU_RT_SHARED_A | REFCPU_RT_SHARED_B);
            };
            void *params[] = {&program};
            ASSERT_TRUE(launchGrid(runProgram, params, 1, {2, 1, 1}, 1).ok());
            Matrix<Acc> stored = c;
            stored.storage = before;
            stored.ref.data = stored.storage.data();
            for (int64_t i = 0; i < shape.m; ++i)
              for (int64_t j = 0; j < shape.n; ++j)
                stored.ref.at(i, j) = poison<Acc>();
            kernel(a.view(), b.view(), stored.ref, isa, REFCPU_RT_ZERO_C);

            std::vector<Acc> expected = before, expectedStored = before;
            for (int64_t i = 0; i < shape.m; ++i)
              for (int64_t j = 0; j < shape.n; ++j) {
                double sum = 0;
                for (int64_t p = 0; p < shape.k; ++p)
                  sum += double(toFloat(a.ref.at(i, p))) *
                         double(toFloat(b.ref.at(p, j)));
                size_t e = &c.ref.at(i, j) - c.storage.data();
                expectedStored[e] = Acc(sum);
                expected[e] = Acc(before[e] + sum);
              }
            // Rounding errors of a float sum grow with its length.
            double scaled = tolerance * std::max(1.0, shape.k / 64.0);
            for (const Matrix<Acc> *result :
                 {&c, &cached[0], &cached[1], &stored}) {
              const std::vector<Acc> &want =
                  result == &stored ? expectedStored : expected;
              for (size_t e = 0; e < want.size(); ++e)
                ASSERT_NEAR(result->storage[e], want[e],
                            scaled * (1 + std::fabs(want[e])))
                    << isaName(isa) << " " << shape.m << "x" << shape.n << "x"
                    << shape.k << " layouts " << int(layoutA) << int(layoutB)
                    << int(layoutC) << " storage element " << e << " of "
                    << (result == &c        ? "C"
                        : result == &stored ? "a stored product's C"
                                            : "a C of the launch");
            }
          }
  }
}

TEST(MatmulTest, F32MatchesADoubleProduct) {
  std::uniform_real_distribution<float> values(-2, 2);
  checkKernel<float>([&](std::mt19937 &rng) { return values(rng); },
                     [](float v) { return v; }, matmulF32, 1e-5);
}

TEST(MatmulTest, BF16MatchesADoubleProduct) {
  std::uniform_real_distribution<float> values(-2, 2);
  checkKernel<uint16_t>(
      [&](std::mt19937 &rng) { return roundToBFloat16Bits(values(rng)); },
      bfloat16BitsToFloat, matmulBF16, 1e-5);
}

TEST(MatmulTest, F16MatchesADoubleProduct) {
  std::uniform_real_distribution<float> values(-2, 2);
  checkKernel<uint16_t>(
      [&](std::mt19937 &rng) { return roundToHalfBits(values(rng)); },
      halfBitsToFloat, matmulF16, 1e-5);
}

TEST(MatmulTest, I8IsExact) {
  // The full int8 range, -128 included (the kernel flips A's bytes to
  // unsigned and corrects with B's column sums).
  std::uniform_int_distribution<int> values(-128, 127);
  checkKernel<int8_t, int32_t>(
      [&](std::mt19937 &rng) { return int8_t(values(rng)); },
      [](int8_t v) { return double(v); }, matmulI8, 0);
}

TEST(MatmulTest, I8SumsWrapAround) {
  // 2^17 products of -128 * -128 sum to 2^31, one past INT32_MAX: the GPU's
  // i32 accumulator wraps to INT32_MIN.
  const int64_t k = 1 << 17;
  std::vector<int8_t> a(k, -128), b(k, -128);
  for (MatmulIsa isa :
       {MatmulIsa::Generic, MatmulIsa::Avx512Vnni, MatmulIsa::AmxInt8}) {
    if (!hostSupports(isa))
      continue;
    int32_t c = 0;
    matmulI8({a.data(), 1, k, k, 1}, {b.data(), k, 1, 1, 1}, {&c, 1, 1, 1, 1},
             isa, 0);
    EXPECT_EQ(c, INT32_MIN) << isaName(isa);
  }
}

// With no k, a stored product is all zeros and one that adds leaves C as it
// was (decided before any kernel is chosen).
TEST(MatmulTest, EmptyK) {
  float a = 1, b = 2, c[2] = {NAN, 5};
  matmulF32({&a, 1, 0, 1, 1}, {&b, 0, 1, 1, 1}, {c, 1, 1, 1, 1},
            MatmulIsa::Generic, REFCPU_RT_ZERO_C);
  matmulF32({&a, 1, 0, 1, 1}, {&b, 0, 1, 1, 1}, {c + 1, 1, 1, 1, 1},
            MatmulIsa::Generic, 0);
  EXPECT_EQ(c[0], 0.0f);
  EXPECT_EQ(c[1], 5.0f);
  int8_t ai = 1, bi = 2;
  int32_t ci = 0x5a5a5a5a;
  matmulI8({&ai, 1, 0, 1, 1}, {&bi, 0, 1, 1, 1}, {&ci, 1, 1, 1, 1},
           MatmulIsa::Generic, REFCPU_RT_ZERO_C);
  EXPECT_EQ(ci, 0);
}

// Packed 64-byte rows must not straddle cache lines, whatever malloc gives.
TEST(MatmulTest, ScratchIsOnCacheLines) {
  detail::Scratch<uint16_t> scratch;
  for (int64_t count : {1, 7, 1000, 100000, 3}) {
    uint16_t *data = detail::reserve(scratch, count);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % kPackAlignment, 0u) << count;
  }
  detail::Scratch<float> other(5);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(other.data()) % kPackAlignment, 0u);
}

TEST(MatmulTest, GenericRunsEverywhere) {
  EXPECT_TRUE(hostSupports(MatmulIsa::Generic));
}
} // namespace
