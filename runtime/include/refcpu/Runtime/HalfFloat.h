//===- HalfFloat.h - binary16 and bfloat16 conversions ----------*- C++ -*-===//
//
// Conversions the runtime needs for f16/bf16 scalar arguments and for the
// compiler-rt style helpers (__truncsfhf2, ...) that generated code may call
// when the host has no instruction for a conversion.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_HALFFLOAT_H
#define REFCPU_RUNTIME_HALFFLOAT_H

#include <cstdint>

namespace refcpu::runtime {

/// Rounds `value` to IEEE binary16 (round to nearest, ties to even) and
/// returns its bits. NaNs stay NaNs (quiet), overflow gives infinity.
uint16_t roundToHalfBits(double value);

/// Rounds `value` to bfloat16 (round to nearest, ties to even) and returns
/// its bits.
uint16_t roundToBFloat16Bits(double value);

/// The exact value of binary16 bits.
float halfBitsToFloat(uint16_t bits);

/// The exact value of bfloat16 bits.
float bfloat16BitsToFloat(uint16_t bits);

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_HALFFLOAT_H
