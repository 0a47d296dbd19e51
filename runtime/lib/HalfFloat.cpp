//===- HalfFloat.cpp - binary16 and bfloat16 conversions ------------------===//

#include "refcpu/Runtime/HalfFloat.h"

#include <cmath>
#include <cstring>

using namespace refcpu::runtime;

namespace {
template <typename To, typename From> To bitCast(From from) {
  static_assert(sizeof(To) == sizeof(From), "size mismatch");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

/// Rounds a double to a binary format with `expBits` exponent bits and
/// `manBits` explicit mantissa bits (at most 16 bits in all), to nearest even.
/// Rounding straight from double (floats widen exactly) avoids the double
/// rounding of a float intermediate.
uint16_t roundDouble(double value, int expBits, int manBits) {
  uint64_t bits = bitCast<uint64_t>(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 63) << (expBits + manBits));
  int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & ((uint64_t(1) << 52) - 1);
  const int maxExponent = (1 << expBits) - 1;
  const uint16_t infinity = static_cast<uint16_t>(maxExponent << manBits);

  if (exponent == 0x7ff) {
    if (mantissa == 0)
      return sign | infinity;
    // Keep the top payload bits and force the quiet bit.
    return sign | infinity | static_cast<uint16_t>(1 << (manBits - 1)) |
           static_cast<uint16_t>(mantissa >> (52 - manBits));
  }
  // Double subnormals are far below the smallest 16-bit subnormal.
  if (exponent == 0)
    return sign;

  const int bias = (1 << (expBits - 1)) - 1;
  int target = exponent - 1023 + bias; // Biased exponent in the target.
  uint64_t significand = mantissa | (uint64_t(1) << 52);
  // Subnormal results keep fewer bits: shift further right.
  int shift = 52 - manBits + (target >= 1 ? 0 : 1 - target);
  if (shift >= 64)
    return sign;
  uint64_t kept = significand >> shift;
  uint64_t remainder = significand & ((uint64_t(1) << shift) - 1);
  uint64_t halfway = uint64_t(1) << (shift - 1);
  if (remainder > halfway || (remainder == halfway && (kept & 1)))
    ++kept;
  if (target < 1) // A carry out of the subnormal range lands on exponent 1.
    return sign | static_cast<uint16_t>(kept);
  // `kept` includes the implicit bit, so adding it to (target - 1) << manBits
  // yields the encoding, a mantissa carry bumping the exponent.
  uint64_t encoded = (uint64_t(target - 1) << manBits) + kept;
  if (encoded >= infinity)
    return sign | infinity;
  return sign | static_cast<uint16_t>(encoded);
}
} // namespace

uint16_t refcpu::runtime::roundToHalfBits(double value) {
  return roundDouble(value, 5, 10);
}

uint16_t refcpu::runtime::roundToBFloat16Bits(double value) {
  return roundDouble(value, 8, 7);
}

float refcpu::runtime::halfBitsToFloat(uint16_t bits) {
  float sign = (bits & 0x8000) ? -1.0f : 1.0f;
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  if (exponent == 0)
    return sign * std::ldexp(static_cast<float>(mantissa), -24);
  if (exponent == 0x1f)
    return mantissa ? std::nanf("") : sign * INFINITY;
  return sign * std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
}

float refcpu::runtime::bfloat16BitsToFloat(uint16_t bits) {
  return bitCast<float>(static_cast<uint32_t>(bits) << 16);
}
