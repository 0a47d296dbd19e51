//===- HalfFloatTest.cpp - Tests of f16/bf16 conversions and builtins -----===//
//
// The conversions are checked against llvm::APFloat, which implements IEEE
// rounding exactly.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/HalfFloat.h"

#include "Builtins.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace refcpu::runtime;

namespace {
uint16_t apfloatBits(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat converted(value);
  bool losesInfo;
  converted.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(converted.bitcastToAPInt().getZExtValue());
}

double fromBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

void expectMatchesAPFloat(double value) {
  uint16_t half = roundToHalfBits(value);
  uint16_t bf16 = roundToBFloat16Bits(value);
  if (std::isnan(value)) {
    EXPECT_EQ(half & 0x7e00, 0x7e00) << value;
    EXPECT_EQ(bf16 & 0x7fc0, 0x7fc0) << value;
    return;
  }
  EXPECT_EQ(half, apfloatBits(value, llvm::APFloat::IEEEhalf())) << value;
  EXPECT_EQ(bf16, apfloatBits(value, llvm::APFloat::BFloat())) << value;
}

TEST(HalfFloatTest, SpecialValues) {
  const double values[] = {0.0,
                           -0.0,
                           1.0,
                           -1.5,
                           65504.0,        // Largest half.
                           65519.99,       // Rounds down to it.
                           65520.0,        // Halfway: rounds to infinity.
                           0x1p-24,        // Smallest half subnormal.
                           0x1p-25,        // Halfway to zero: ties to even.
                           0x1.8p-25,      // Above halfway: rounds up.
                           0x1.ff8p-15,    // Subnormal rounding to normal.
                           1.0 + 0x1p-11,  // Tie between 1 and 1+2^-10.
                           1.0 + 0x3p-11,  // Tie rounding up to even.
                           3.0e38,         // bf16 overflow boundary area.
                           3.4028235e38,
                           1e-40,          // Float subnormal.
                           1e300,
                           1e-300,
                           INFINITY,
                           -INFINITY,
                           NAN};
  for (double value : values)
    expectMatchesAPFloat(value);
}

TEST(HalfFloatTest, RandomValuesMatchAPFloat) {
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int> exponent(-40, 40);
  std::uniform_int_distribution<uint64_t> bits;
  for (int i = 0; i < 200000; ++i) {
    // Values spread over the exponents that matter, with random mantissas.
    double value = std::ldexp(fromBits((bits(random) & 0x800fffffffffffffull) |
                                       0x3ff0000000000000ull),
                              exponent(random));
    expectMatchesAPFloat(value);
  }
}

TEST(HalfFloatTest, DecodesEveryHalf) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    float value = halfBitsToFloat(static_cast<uint16_t>(bits));
    llvm::APFloat expected(llvm::APFloat::IEEEhalf(),
                           llvm::APInt(16, bits));
    if (expected.isNaN()) {
      EXPECT_TRUE(std::isnan(value)) << bits;
      continue;
    }
    EXPECT_EQ(value, expected.convertToDouble()) << bits;
    EXPECT_EQ(roundToHalfBits(value), bits) << bits;
  }
  EXPECT_EQ(bfloat16BitsToFloat(0x3f80), 1.0f);
  EXPECT_EQ(bfloat16BitsToFloat(0xc040), -3.0f);
}

void *findBuiltin(llvm::StringRef name) {
  for (const BuiltinSymbol &symbol : getBuiltinSymbols())
    if (name == symbol.name)
      return symbol.address;
  return nullptr;
}

TEST(BuiltinsTest, ConversionHelpers) {
  auto truncSFHF2 =
      reinterpret_cast<_Float16 (*)(float)>(findBuiltin("__truncsfhf2"));
  auto extendHFSF2 =
      reinterpret_cast<float (*)(_Float16)>(findBuiltin("__extendhfsf2"));
  auto truncDFBF2 =
      reinterpret_cast<__bf16 (*)(double)>(findBuiltin("__truncdfbf2"));
  ASSERT_TRUE(truncSFHF2 && extendHFSF2 && truncDFBF2);
  _Float16 half = truncSFHF2(0.333333f);
  uint16_t halfBits;
  std::memcpy(&halfBits, &half, sizeof(halfBits));
  EXPECT_EQ(halfBits, roundToHalfBits(0.333333f));
  EXPECT_EQ(extendHFSF2(half), halfBitsToFloat(halfBits));
  __bf16 bf16 = truncDFBF2(1.0 / 3.0);
  uint16_t bf16Bits;
  std::memcpy(&bf16Bits, &bf16, sizeof(bf16Bits));
  EXPECT_EQ(bf16Bits, roundToBFloat16Bits(1.0 / 3.0));
  EXPECT_NE(findBuiltin("refcpu_rt_assert_fail"), nullptr);
}

/// A ranked memref descriptor as MLIR lays it out.
template <int Rank> struct Descriptor {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};

TEST(BuiltinsTest, MemrefCopyHandlesStrides) {
  auto memrefCopy = reinterpret_cast<void (*)(
      int64_t, UnrankedMemRef *, UnrankedMemRef *)>(
      findBuiltin("memrefCopy"));
  ASSERT_NE(memrefCopy, nullptr);

  // Copy the 3x2 column block starting at (1, 1) of a 4x5 row-major matrix
  // into a transposed (column-major) 3x2 buffer.
  float source[20];
  for (int i = 0; i < 20; ++i)
    source[i] = static_cast<float>(i);
  float dest[6] = {};
  Descriptor<2> from{source, source, 1 * 5 + 1, {3, 2}, {5, 1}};
  Descriptor<2> to{dest, dest, 0, {3, 2}, {1, 3}};
  UnrankedMemRef fromRef{2, &from}, toRef{2, &to};
  memrefCopy(sizeof(float), &fromRef, &toRef);
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 2; ++col)
      EXPECT_EQ(dest[col * 3 + row], source[(1 + row) * 5 + 1 + col])
          << row << ", " << col;

  // Contiguous rows take the memcpy path.
  float rows[6] = {};
  Descriptor<2> contiguous{rows, rows, 0, {3, 2}, {2, 1}};
  UnrankedMemRef contiguousRef{2, &contiguous};
  memrefCopy(sizeof(float), &fromRef, &contiguousRef);
  EXPECT_EQ(rows[0], 6.0f);
  EXPECT_EQ(rows[5], 17.0f);

  // Rank 0 copies one element; empty shapes copy nothing.
  Descriptor<1> scalarFrom{source, source, 7, {1}, {1}};
  float one = 0;
  Descriptor<1> scalarTo{&one, &one, 0, {1}, {1}};
  UnrankedMemRef rank0From{0, &scalarFrom}, rank0To{0, &scalarTo};
  memrefCopy(sizeof(float), &rank0From, &rank0To);
  EXPECT_EQ(one, 7.0f);
  Descriptor<2> empty{source, source, 0, {0, 4}, {4, 1}};
  UnrankedMemRef emptyRef{2, &empty};
  memrefCopy(sizeof(float), &emptyRef, &toRef);
}
} // namespace
