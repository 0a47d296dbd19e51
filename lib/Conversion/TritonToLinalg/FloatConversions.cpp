//===- FloatConversions.cpp - fp8 and explicitly rounded float casts ------===//
//
// LLVM has no fp8 types and arith.truncf only rounds to nearest even, so
// tt.fp_to_fp into and out of fp8, and with rtz rounding, is done on bits.
// The results are Triton 3.6's GPU results (TTIR-REFERENCE section 8):
//
//   - fp8 with rtne is "satfinite": overflow and +-inf clamp to +-max;
//   - e5m2 with rtz is IEEE truncation (inf stays inf, finite overflow
//     clamps to max); f16 / bf16 follow IEEE for both roundings;
//   - NaN becomes 0x7f (fp8) or 0x7fff (16-bit).
//
// Narrowing rounds the f32 value to the target's precision while still in
// f32 (on the mantissa bits for normal numbers, on a fixed quantum for
// subnormals), saturates, then packs sign, exponent and mantissa.
//
//===----------------------------------------------------------------------===//

#include "FloatConversions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {

/// A bit layout of a small float format.
struct FloatFormat {
  unsigned bits, exponentBits, mantissaBits;
  int bias;
  double maxFinite;
  bool hasInfinity;
};

std::optional<FloatFormat> formatOf(Type type) {
  if (type.isF16())
    return FloatFormat{16, 5, 10, 15, 65504.0, true};
  if (type.isBF16())
    return FloatFormat{16, 8, 7, 127, 3.3895313892515355e38, true};
  if (isa<Float8E5M2Type>(type))
    return FloatFormat{8, 5, 2, 15, 57344.0, true};
  if (isa<Float8E4M3FNType>(type))
    return FloatFormat{8, 4, 3, 7, 448.0, false};
  return std::nullopt;
}

/// Builds arith ops on scalars or tensors of one shape.
struct ShapedBuilder {
  OpBuilder &b;
  Location loc;
  Type like;

  Type of(Type elt) const {
    if (auto tensor = dyn_cast<RankedTensorType>(like))
      return tensor.clone(elt);
    return elt;
  }
  Value intC(unsigned width, int64_t value) const {
    Type elt = b.getIntegerType(width);
    TypedAttr attr = b.getIntegerAttr(elt, value);
    if (auto tensor = dyn_cast<RankedTensorType>(of(elt)))
      return arith::ConstantOp::create(b, loc, tensor, SplatElementsAttr::get(tensor, attr));
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value f32C(double value) const {
    TypedAttr attr = b.getF32FloatAttr(value);
    if (auto tensor = dyn_cast<RankedTensorType>(of(b.getF32Type())))
      return arith::ConstantOp::create(b, loc, tensor, SplatElementsAttr::get(tensor, attr));
    return arith::ConstantOp::create(b, loc, attr);
  }
  Value select(Value c, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) const {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value cmpi(arith::CmpIPredicate p, Value x, Value y) const {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
};

/// Packs `x` (f32) into `format`'s bits (an integer of format.bits).
Value narrow(const ShapedBuilder &s, Value x, const FloatFormat &format,
             bool towardZero) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Type i32 = s.of(b.getI32Type());
  unsigned drop = 23 - format.mantissaBits;
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value magnitude = math::AbsFOp::create(b, loc, x);

  // Normal range: round the f32 mantissa to mantissaBits, in the bits.
  Value rounded = bits;
  if (!towardZero) {
    Value lsb = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, s.intC(32, drop)), s.intC(32, 1));
    Value bias = arith::AddIOp::create(b, loc, s.intC(32, (1 << (drop - 1)) - 1), lsb);
    rounded = arith::AddIOp::create(b, loc, bits, bias);
  }
  rounded = arith::AndIOp::create(b, loc, rounded, s.intC(32, ~((1 << drop) - 1)));
  Value normal = arith::BitcastOp::create(b, loc, s.of(b.getF32Type()), rounded);

  // Subnormal range: a fixed quantum; x / quantum is exact in f32.
  int minExponent = 1 - format.bias;
  double quantum = std::ldexp(1.0, minExponent - int(format.mantissaBits));
  Value scaled = arith::DivFOp::create(b, loc, x, s.f32C(quantum));
  Value steps = towardZero ? math::TruncOp::create(b, loc, scaled).getResult()
                           : math::RoundEvenOp::create(b, loc, scaled).getResult();
  Value subnormal = arith::MulFOp::create(b, loc, steps, s.f32C(quantum));
  Value isSub = s.cmpf(arith::CmpFPredicate::OLT, magnitude,
                       s.f32C(std::ldexp(1.0, minExponent)));
  Value value = s.select(isSub, subnormal, normal);

  // Saturation: rtne fp8 is satfinite; IEEE formats round overflow to inf
  // (rtne) or to max (rtz); infinities stay where the format has them.
  Value absValue = math::AbsFOp::create(b, loc, value);
  Value overflow = s.cmpf(arith::CmpFPredicate::OGT, absValue, s.f32C(format.maxFinite));
  Value isInf = s.cmpf(arith::CmpFPredicate::OEQ, magnitude, s.f32C(INFINITY));
  bool saturateAll = format.bits == 8 && !(towardZero && format.hasInfinity);
  Value maxed = math::CopySignOp::create(b, loc, s.f32C(format.maxFinite), x);
  Value inf = math::CopySignOp::create(b, loc, s.f32C(INFINITY), x);
  Value onOverflow = saturateAll || towardZero ? maxed : inf;
  value = s.select(overflow, onOverflow, value);
  if (!saturateAll)
    value = s.select(isInf, inf, value);

  // Pack: sign | biased exponent | mantissa, or the subnormal step count.
  absValue = math::AbsFOp::create(b, loc, value);
  Value vbits = arith::BitcastOp::create(b, loc, i32, value);
  Value sign = arith::ShRUIOp::create(b, loc, vbits, s.intC(32, 31));
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, vbits, s.intC(32, 23)), s.intC(32, 0xFF));
  Value mantissa = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, vbits, s.intC(32, drop)),
      s.intC(32, (1 << format.mantissaBits) - 1));
  Value biased = arith::SubIOp::create(b, loc, exponent, s.intC(32, 127 - format.bias));
  Value infOrMaxExp = s.intC(32, (1 << format.exponentBits) - 1);
  Value isInfValue = s.cmpf(arith::CmpFPredicate::OEQ, absValue, s.f32C(INFINITY));
  biased = s.select(isInfValue, infOrMaxExp, biased);
  mantissa = s.select(isInfValue, s.intC(32, 0), mantissa);
  Value packedNormal = arith::OrIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, biased, s.intC(32, format.mantissaBits)),
      mantissa);
  Value stepCount = arith::FPToSIOp::create(
      b, loc, i32, math::AbsFOp::create(b, loc, steps));
  Value isSubValue = s.cmpf(arith::CmpFPredicate::OLT, absValue,
                            s.f32C(std::ldexp(1.0, minExponent)));
  Value packed = s.select(isSubValue, stepCount, packedNormal);
  packed = arith::OrIOp::create(
      b, loc, packed, arith::ShLIOp::create(b, loc, sign, s.intC(32, format.bits - 1)));
  int64_t nanCode = format.bits == 8 ? 0x7F : 0x7FFF;
  Value isNaN = s.cmpf(arith::CmpFPredicate::UNO, x, x);
  packed = s.select(isNaN, s.intC(32, nanCode), packed);
  return arith::TruncIOp::create(b, loc, s.of(b.getIntegerType(format.bits)), packed);
}

/// Widens fp8 bits (i8) to f32 exactly.
Value widenFp8(const ShapedBuilder &s, Value bits, const FloatFormat &format) {
  OpBuilder &b = s.b;
  Location loc = s.loc;
  Type i32 = s.of(b.getI32Type());
  Type f32 = s.of(b.getF32Type());
  Value word = arith::ExtUIOp::create(b, loc, i32, bits);
  if (format.exponentBits == 5) {
    // e5m2 is the top byte of an f16.
    Value half = arith::ShLIOp::create(b, loc,
                                 arith::ExtUIOp::create(b, loc, s.of(b.getI16Type()), bits),
                                 s.intC(16, 8));
    Value f16 = arith::BitcastOp::create(b, loc, s.of(b.getF16Type()), half);
    return arith::ExtFOp::create(b, loc, f32, f16);
  }
  // e4m3fn: no infinity; 0x7f / 0xff are NaN; exponent 0 is subnormal.
  Value sign = arith::ShLIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, word, s.intC(32, 7)), s.intC(32, 31));
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, word, s.intC(32, 3)), s.intC(32, 0xF));
  Value mantissa = arith::AndIOp::create(b, loc, word, s.intC(32, 7));
  Value normalBits = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc,
                            arith::AddIOp::create(b, loc, exponent, s.intC(32, 127 - 7)),
                            s.intC(32, 23)),
      arith::ShLIOp::create(b, loc, mantissa, s.intC(32, 20)));
  Value normal = arith::BitcastOp::create(b, loc, f32, normalBits);
  Value subnormal = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, f32, mantissa), s.f32C(std::ldexp(1.0, -9)));
  Value isSub = s.cmpi(arith::CmpIPredicate::eq, exponent, s.intC(32, 0));
  Value magnitude = s.select(isSub, subnormal, normal);
  Value value = arith::BitcastOp::create(
      b, loc, f32,
      arith::OrIOp::create(b, loc, arith::BitcastOp::create(b, loc, i32, magnitude), sign));
  Value isNaN = s.cmpi(arith::CmpIPredicate::eq,
                       arith::AndIOp::create(b, loc, word, s.intC(32, 0x7F)),
                       s.intC(32, 0x7F));
  return s.select(isNaN, s.f32C(NAN), value);
}

} // namespace

FailureOr<Value> refcpu::convertFloat(OpBuilder &b, Location loc, Value src,
                                      Type dstType, bool towardZero) {
  Type srcElt = getElementTypeOrSelf(src.getType());
  Type dstElt = getElementTypeOrSelf(dstType);
  ShapedBuilder s{b, loc, src.getType()};
  Type f32 = s.of(b.getF32Type());
  std::optional<FloatFormat> srcFormat = formatOf(srcElt);
  std::optional<FloatFormat> dstFormat = formatOf(dstElt);
  bool srcIsFp8 = srcFormat && srcFormat->bits == 8;
  bool dstIsFp8 = dstFormat && dstFormat->bits == 8;
  if ((srcElt.getIntOrFloatBitWidth() == 8 && !srcIsFp8) ||
      (dstElt.getIntOrFloatBitWidth() == 8 && !dstIsFp8))
    return failure();

  // Widen the source to f32 (exact for every format but f64).
  Value wide = src;
  if (srcIsFp8) {
    Value bits = arith::BitcastOp::create(b, loc, s.of(b.getI8Type()), src);
    wide = widenFp8(s, bits, *srcFormat);
  } else if (!srcElt.isF32()) {
    wide = srcElt.getIntOrFloatBitWidth() < 32
               ? arith::ExtFOp::create(b, loc, f32, src).getResult()
               : arith::TruncFOp::create(b, loc, f32, src).getResult();
  }
  if (dstElt.isF32())
    return wide;
  if (dstElt.isF64())
    return arith::ExtFOp::create(b, loc, dstType, wide).getResult();
  if (!dstIsFp8 && !towardZero)
    return arith::TruncFOp::create(b, loc, dstType, wide).getResult();
  Value packed = narrow(s, wide, *dstFormat, towardZero);
  return arith::BitcastOp::create(b, loc, dstType, packed).getResult();
}
