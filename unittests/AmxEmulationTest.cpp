//===- AmxEmulationTest.cpp - The AMX kernels with emulated tiles ---------===//
//
// The AMX block products (runtime/lib/MatmulAmx.cpp) run only on hosts with
// AMX, which CI machines lack. This test compiles that file with the tile
// instructions replaced by a software model of them (eight 16 x 64-byte
// tiles; tdpbf16ps and tdpbssd as their documented sums), so that what the
// kernels themselves decide - which blocks of A and C are read in place,
// the zero-padded edge blocks, B's packing, the k steps - is checked on any
// x86 host against a plain product. It links MatmulAmx.cpp's definitions
// from this translation unit instead of the runtime's object file, so it is
// an executable of its own.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>

namespace tile_model {
alignas(64) uint8_t tiles[8][16][64];

void load(int t, const void *p, int64_t stride) {
  for (int r = 0; r < 16; ++r)
    std::memcpy(tiles[t][r], static_cast<const char *>(p) + r * stride, 64);
}

void store(int t, void *p, int64_t stride) {
  for (int r = 0; r < 16; ++r)
    std::memcpy(static_cast<char *>(p) + r * stride, tiles[t][r], 64);
}

float bf16(const uint8_t *bytes) {
  uint16_t half;
  std::memcpy(&half, bytes, 2);
  uint32_t bits = uint32_t(half) << 16;
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// Tile c (16 x 16 accumulators of type Acc) += tile a (16 rows of 16
/// four-byte groups of k) * tile b (16 groups x 16 columns): `addGroup(acc,
/// x, y)` adds the products of one group of a's row (x) and b's column (y).
template <typename Acc, typename AddGroup>
void tileProduct(int c, int a, int b, AddGroup addGroup) {
  for (int r = 0; r < 16; ++r)
    for (int n = 0; n < 16; ++n) {
      Acc acc;
      std::memcpy(&acc, &tiles[c][r][4 * n], 4);
      for (int g = 0; g < 16; ++g)
        addGroup(acc, &tiles[a][r][4 * g], &tiles[b][g][4 * n]);
      std::memcpy(&tiles[c][r][4 * n], &acc, 4);
    }
}

/// f32 C += bf16 pairs of A times bf16 pairs of B, one product at a time.
void dpbf16ps(int c, int a, int b) {
  tileProduct<float>(c, a, b,
                     [](float &acc, const uint8_t *x, const uint8_t *y) {
                       for (int t = 0; t < 2; ++t)
                         acc += bf16(x + 2 * t) * bf16(y + 2 * t);
                     });
}

/// i32 C += signed int8 quads of A times signed int8 quads of B.
void dpbssd(int c, int a, int b) {
  tileProduct<int32_t>(c, a, b,
                       [](int32_t &acc, const uint8_t *x, const uint8_t *y) {
                         for (int t = 0; t < 4; ++t)
                           acc += int32_t(int8_t(x[t])) * int32_t(int8_t(y[t]));
                       });
}
} // namespace tile_model

// immintrin.h has its include guard set: MatmulAmx.cpp's own include of it
// keeps these.
#undef _tile_loadd
#undef _tile_stream_loadd
#undef _tile_stored
#undef _tile_dpbf16ps
#undef _tile_dpbssd
#undef _tile_loadconfig
#undef _tile_zero
#define _tile_loadd(t, p, stride) tile_model::load(t, p, stride)
#define _tile_stream_loadd(t, p, stride) tile_model::load(t, p, stride)
#define _tile_stored(t, p, stride) tile_model::store(t, p, stride)
#define _tile_dpbf16ps(c, a, b) tile_model::dpbf16ps(c, a, b)
#define _tile_dpbssd(c, a, b) tile_model::dpbssd(c, a, b)
#define _tile_loadconfig(config) (void)(config)
#define _tile_zero(t)                                                          \
  std::memset(tile_model::tiles[t], 0, sizeof(tile_model::tiles[t]))

#include "MatmulAmx.cpp"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <tuple>
#include <vector>

namespace {

using namespace refcpu::runtime;

/// M x N x K, with extra elements per row of A and C (strided views).
struct Shape {
  int64_t m, n, k, padA, padC;
};

/// A shape; whether the operands are shared, as in a launch whose product
/// no write precedes (the kernels then pack B into a PackCache); and whether
/// the product is stored (REFCPU_RT_ZERO_C) rather than added to C.
class AmxEmulationTest
    : public ::testing::TestWithParam<std::tuple<Shape, bool, bool>> {
protected:
  SharedPacks packs() {
    if (!std::get<1>(GetParam()))
      return {};
    return {&cache, REFCPU_RT_SHARED_A | REFCPU_RT_SHARED_B};
  }
  bool stored() { return std::get<2>(GetParam()); }
  /// Whether element `index` of C (row stride ldc) is in the product.
  static bool inProduct(const Shape &s, int64_t ldc, size_t index) {
    return int64_t(index) / ldc < s.m && int64_t(index) % ldc < s.n;
  }
  PackCache cache;
};

TEST_P(AmxEmulationTest, Bf16MatchesAPlainProduct) {
  if (!__builtin_cpu_supports("avx512bf16"))
    GTEST_SKIP() << "B's packing needs AVX512_BF16";
  Shape s = std::get<0>(GetParam());
  int64_t lda = s.k + s.padA, ldb = s.n + 7, ldc = s.n + s.padC;
  std::mt19937 rng(s.m * 1000 + s.n * 10 + s.k);
  // bf16 values in [1, 4): exact products, sums well within f32.
  std::vector<uint16_t> a(s.m * lda), b(s.k * ldb);
  for (uint16_t &x : a)
    x = 0x3f80 | (rng() & 0x7f) | (rng() & 1) << 7;
  for (uint16_t &x : b)
    x = 0x3f80 | (rng() & 0x7f) | (rng() & 1) << 7;
  // A stored product reads none of C: its lanes start as NaN.
  std::vector<float> c(s.m * ldc), want(s.m * ldc);
  for (size_t i = 0; i < c.size(); ++i) {
    bool unread = stored() && inProduct(s, ldc, i);
    c[i] = unread ? NAN : float(i % 7);
    want[i] = unread ? 0.0f : c[i];
  }
  for (int64_t i = 0; i < s.m; ++i)
    for (int64_t j = 0; j < s.n; ++j) {
      double sum = want[i * ldc + j];
      for (int64_t p = 0; p < s.k; ++p)
        sum += double(tile_model::bf16(
                   reinterpret_cast<const uint8_t *>(&a[i * lda + p]))) *
               tile_model::bf16(
                   reinterpret_cast<const uint8_t *>(&b[p * ldb + j]));
      want[i * ldc + j] = float(sum);
    }
  detail::matmulAmxBf16({a.data(), s.m, s.k, lda, 1},
                        {b.data(), s.k, s.n, ldb, 1},
                        {c.data(), s.m, s.n, ldc, 1}, packs(), stored());
  // Lanes between rows of C (padC) keep their values.
  for (size_t i = 0; i < c.size(); ++i)
    ASSERT_NEAR(c[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
}

TEST_P(AmxEmulationTest, Int8IsExact) {
  if (!__builtin_cpu_supports("avx512vbmi"))
    GTEST_SKIP() << "B's packing needs AVX512_VBMI";
  Shape s = std::get<0>(GetParam());
  int64_t lda = s.k + s.padA, ldb = s.n + 7, ldc = s.n + s.padC;
  std::mt19937 rng(s.m * 1000 + s.n * 10 + s.k + 1);
  std::vector<int8_t> a(s.m * lda), b(s.k * ldb);
  for (int8_t &x : a)
    x = int8_t(rng());
  for (int8_t &x : b)
    x = int8_t(rng());
  std::vector<int32_t> c(s.m * ldc), want(s.m * ldc);
  for (size_t i = 0; i < c.size(); ++i) {
    bool unread = stored() && inProduct(s, ldc, i);
    c[i] = unread ? 0x5a5a5a5a : int32_t(i % 11);
    want[i] = unread ? 0 : c[i];
  }
  for (int64_t i = 0; i < s.m; ++i)
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t p = 0; p < s.k; ++p)
        want[i * ldc + j] += int32_t(a[i * lda + p]) * b[p * ldb + j];
  detail::matmulAmxI8({a.data(), s.m, s.k, lda, 1},
                      {b.data(), s.k, s.n, ldb, 1},
                      {c.data(), s.m, s.n, ldc, 1}, packs(), stored());
  EXPECT_EQ(c, want);
}

// A C whose columns are not contiguous (its transpose stored row-major):
// every block of it is copied, element by element, and written back.
TEST(AmxEmulationTest, Bf16IntoColumnMajorC) {
  if (!__builtin_cpu_supports("avx512bf16"))
    GTEST_SKIP() << "B's packing needs AVX512_BF16";
  const int64_t m = 40, n = 36, k = 64, ldt = m + 3;
  std::vector<uint16_t> a(m * k), b(k * n);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = 0x3f80 | (i * 5 % 128);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = 0x3f80 | (i * 3 % 128);
  // C(i, j) is at j * ldt + i; the lanes past m in each column stay 1.
  std::vector<float> c(n * ldt, 1.0f), want(c);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = want[j * ldt + i];
      for (int64_t p = 0; p < k; ++p)
        sum +=
            double(tile_model::bf16(
                reinterpret_cast<const uint8_t *>(&a[i * k + p]))) *
            tile_model::bf16(reinterpret_cast<const uint8_t *>(&b[p * n + j]));
      want[j * ldt + i] = float(sum);
    }
  detail::matmulAmxBf16({a.data(), m, k, k, 1}, {b.data(), k, n, n, 1},
                        {c.data(), m, n, 1, ldt}, {}, false);
  for (size_t i = 0; i < c.size(); ++i)
    ASSERT_NEAR(c[i], want[i], 1e-5 * (1 + std::fabs(want[i]))) << i;
}

// Whole blocks, edge rows and columns (a dot that computes only the lanes
// its store keeps), K that is no whole number of tiles, and strided rows.
INSTANTIATE_TEST_SUITE_P(
    Shapes, AmxEmulationTest,
    ::testing::Combine(
        ::testing::Values(Shape{64, 64, 64, 0, 0}, Shape{116, 128, 256, 0, 0},
                          Shape{128, 116, 256, 0, 5}, Shape{116, 116, 52, 3, 0},
                          Shape{1, 1, 1, 0, 0}, Shape{5, 130, 16, 3, 5},
                          Shape{33, 70, 48, 0, 0}, Shape{31, 33, 65, 3, 5}),
        ::testing::Bool(), ::testing::Bool()));

} // namespace
#endif
