//===- ArithSemanticsPass.cpp - the refcpu-arith-semantics pass -----------===//
//
// Rewrites scalar arith ops whose LLVM lowering is undefined (or traps) for
// some inputs into guarded forms with the results Triton produces on the GPU:
//
//   %q = arith.divsi %a, %b : i32
//     -> %bad = (%b == 0) | (%a == INT_MIN & %b == -1)
//        %q0 = arith.divsi %a, (select %bad, 1, %b)
//        %q = select (%b == 0), -1, %q0        // INT_MIN / -1 = INT_MIN
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace refcpu {
#define GEN_PASS_DEF_ARITHSEMANTICS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

Value intConstant(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate pred, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, pred, x, y);
}

/// True when `divisor` is a constant for which the plain op is defined.
bool isSafeDivisor(Value divisor, bool isSigned) {
  APInt value;
  if (!matchPattern(divisor, m_ConstantInt(&value)))
    return false;
  return !value.isZero() && !(isSigned && value.isAllOnes());
}

/// Division and remainder: x / 0 = -1 (all ones), x % 0 = x; signed
/// overflow INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
template <typename OpTy, bool IsSigned, bool IsRem>
void guardDivision(OpTy op) {
  Value a = op.getLhs(), b = op.getRhs();
  if (isSafeDivisor(b, IsSigned))
    return;
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Type type = op.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = intConstant(builder, loc, type, 0);
  Value one = intConstant(builder, loc, type, 1);
  Value isZero = cmp(builder, loc, arith::CmpIPredicate::eq, b, zero);
  Value bad = isZero;
  if (IsSigned) {
    Value minusOne = intConstant(builder, loc, type, -1);
    Value intMin = intConstant(builder, loc, type, APInt::getSignedMinValue(width));
    Value overflow = arith::AndIOp::create(
        builder, loc, cmp(builder, loc, arith::CmpIPredicate::eq, a, intMin),
        cmp(builder, loc, arith::CmpIPredicate::eq, b, minusOne));
    bad = arith::OrIOp::create(builder, loc, isZero, overflow);
  }
  Value safe = arith::SelectOp::create(builder, loc, bad, one, b);
  Value result = OpTy::create(builder, loc, a, safe);
  Value onZero = IsRem ? a : intConstant(builder, loc, type, -1);
  result = arith::SelectOp::create(builder, loc, isZero, onZero, result);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

/// Shifts by the bit width or more (as unsigned): 0, or the sign fill for
/// arithmetic right shifts.
template <typename OpTy>
void guardShift(OpTy op) {
  APInt amount;
  unsigned width = op.getType().getIntOrFloatBitWidth();
  if (matchPattern(op.getRhs(), m_ConstantInt(&amount)) && amount.ult(width))
    return;
  OpBuilder builder(op);
  builder.setInsertionPointAfter(op);
  Location loc = op.getLoc();
  Type type = op.getType();
  Value tooFar = cmp(builder, loc, arith::CmpIPredicate::uge, op.getRhs(),
                     intConstant(builder, loc, type, width));
  Value fill = std::is_same_v<OpTy, arith::ShRSIOp>
                   ? arith::ShRSIOp::create(builder, loc, op.getLhs(),
                                            intConstant(builder, loc, type, width - 1))
                         .getResult()
                   : intConstant(builder, loc, type, 0);
  auto select = arith::SelectOp::create(builder, loc, tooFar, fill, op.getResult());
  op.getResult().replaceAllUsesExcept(select, select);
}

/// Saturating float -> int: NaN -> 0, out of range -> the nearest bound.
/// Narrower than 16 bits: saturate to 16 bits, then truncate (GPU behaviour).
template <typename OpTy, bool IsSigned>
void saturateConversion(OpTy op) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value x = op.getIn();
  auto floatType = cast<FloatType>(x.getType());
  Type resultType = op.getType();
  unsigned width = std::max(16u, resultType.getIntOrFloatBitWidth());
  Type satType = builder.getIntegerType(width);
  auto floatConst = [&](double value) -> Value {
    APFloat f(value);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return arith::ConstantOp::create(builder, loc, builder.getFloatAttr(floatType, f));
  };
  // The bounds are powers of two, exact in every float format or infinite.
  double low = IsSigned ? -std::ldexp(1.0, width - 1) : -1.0;
  double high = std::ldexp(1.0, IsSigned ? width - 1 : width);
  Value lowC = floatConst(low), highC = floatConst(high);
  auto cmpf = [&](arith::CmpFPredicate pred, Value y) {
    return arith::CmpFOp::create(builder, loc, pred, x, y).getResult();
  };
  Value inRange = arith::AndIOp::create(
      builder, loc,
      cmpf(IsSigned ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT, lowC),
      cmpf(arith::CmpFPredicate::OLT, highC));
  Value safe = arith::SelectOp::create(builder, loc, inRange, x, floatConst(0.0));
  Value converted = OpTy::create(builder, loc, satType, safe);
  APInt maxValue = IsSigned ? APInt::getSignedMaxValue(width) : APInt::getMaxValue(width);
  Value result = arith::SelectOp::create(
      builder, loc, cmpf(arith::CmpFPredicate::OGE, highC),
      intConstant(builder, loc, satType, maxValue), converted);
  if (IsSigned)
    result = arith::SelectOp::create(
        builder, loc, cmpf(arith::CmpFPredicate::OLT, lowC),
        intConstant(builder, loc, satType, APInt::getSignedMinValue(width)), result);
  if (resultType != satType)
    result = arith::TruncIOp::create(builder, loc, resultType, result);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

/// |x| of an fp8 value clears its sign bit, as the GPU does; LLVM has no fp8
/// arithmetic to lower math.absf to.
void absOfFp8(math::AbsFOp op) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Type i8 = builder.getI8Type();
  Value bits = arith::BitcastOp::create(builder, loc, i8, op.getOperand());
  Value cleared = arith::AndIOp::create(builder, loc, bits, intConstant(builder, loc, i8, 0x7F));
  Value result = arith::BitcastOp::create(builder, loc, op.getType(), cleared);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

struct ArithSemanticsPass
    : public refcpu::impl::ArithSemanticsBase<ArithSemanticsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
              arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp, arith::FPToSIOp,
              arith::FPToUIOp>(op) &&
          op->getResult(0).getType().isIntOrFloat())
        ops.push_back(op);
      if (auto abs = dyn_cast<math::AbsFOp>(op);
          abs && isa<FloatType>(abs.getType()) && abs.getType().getIntOrFloatBitWidth() == 8)
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      llvm::TypeSwitch<Operation *>(op)
          .Case([](arith::DivSIOp op) { guardDivision<arith::DivSIOp, true, false>(op); })
          .Case([](arith::DivUIOp op) { guardDivision<arith::DivUIOp, false, false>(op); })
          .Case([](arith::RemSIOp op) { guardDivision<arith::RemSIOp, true, true>(op); })
          .Case([](arith::RemUIOp op) { guardDivision<arith::RemUIOp, false, true>(op); })
          .Case([](arith::ShLIOp op) { guardShift(op); })
          .Case([](arith::ShRSIOp op) { guardShift(op); })
          .Case([](arith::ShRUIOp op) { guardShift(op); })
          .Case([](arith::FPToSIOp op) { saturateConversion<arith::FPToSIOp, true>(op); })
          .Case([](arith::FPToUIOp op) { saturateConversion<arith::FPToUIOp, false>(op); })
          .Case([](math::AbsFOp op) { absOfFp8(op); });
    }
  }
};

} // namespace
