//===- ElementwisePatterns.cpp - elementwise tt ops to arith/math ---------===//
//
// Elementwise tt ops become arith / math ops on the same (tensor or scalar)
// types; convert-elementwise-to-linalg later turns the tensor ones into
// linalg.generic. For example
//
//   %q = tt.addptr %p, %off : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
//     -> %q = arith.addi %p, (arith.muli (arith.extsi %off), 4) : tensor<4xi64>
//   %c = tt.clampf %x, %lo, %hi, propagateNan = none : f32
//     -> arith.minnumf (arith.maxnumf %x, %lo), %hi
//
// Non-tt ops whose types mention pointers (arith.select on pointers,
// ub.poison) are rebuilt with converted types here as well.
//
//===----------------------------------------------------------------------===//

#include "FloatConversions.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace refcpu;

namespace {

/// An integer or float constant with the shape of `like` (scalar or splat).
Value constantLike(OpBuilder &b, Location loc, Type like, int64_t value) {
  Type elt = getElementTypeOrSelf(like);
  TypedAttr scalar = isa<FloatType>(elt)
                         ? TypedAttr(b.getFloatAttr(elt, value))
                         : TypedAttr(b.getIntegerAttr(elt, value));
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return arith::ConstantOp::create(b, loc, tensor,
                                     SplatElementsAttr::get(tensor, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// `like` with its element type replaced by `elt`.
Type withElementType(Type like, Type elt) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return tensor.clone(elt);
  return elt;
}

struct AddPtrConversion : OpConversionPattern<triton::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = cast<triton::PointerType>(getElementTypeOrSelf(op.getType()))
                       .getPointeeType();
    // Pointers to pointers step over 8-byte addresses.
    int64_t size = isa<triton::PointerType>(pointee)
                       ? 8
                       : std::max(1u, pointee.getIntOrFloatBitWidth() / 8);
    Value base = adaptor.getPtr();
    Value offset = adaptor.getOffset();
    Type i64Like = base.getType();
    if (getElementTypeOrSelf(offset.getType()).getIntOrFloatBitWidth() < 64)
      offset = arith::ExtSIOp::create(rewriter, loc, i64Like, offset);
    if (size != 1)
      offset = arith::MulIOp::create(rewriter, loc, offset,
                                     constantLike(rewriter, loc, i64Like, size));
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, base, offset);
    return success();
  }
};

/// Conversions that are the identity on i64 addresses.
template <typename OpTy>
struct AddressIdentityConversion : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct BitcastConversion : OpConversionPattern<triton::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (type == adaptor.getSrc().getType())
      rewriter.replaceOp(op, adaptor.getSrc());
    else
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, adaptor.getSrc());
    return success();
  }
};

struct FpToFpConversion : OpConversionPattern<triton::FpToFpOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool towardZero = op.getRounding() == triton::RoundingMode::RTZ;
    FailureOr<Value> result = convertFloat(rewriter, op.getLoc(), adaptor.getSrc(),
                                           op.getType(), towardZero);
    if (failed(result))
      return op.emitOpError("conversion from ")
             << getElementTypeOrSelf(op.getSrc().getType()) << " to "
             << getElementTypeOrSelf(op.getType()) << " is not supported";
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct ClampFConversion : OpConversionPattern<triton::ClampFOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::ClampFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX(), lo = adaptor.getMin(), hi = adaptor.getMax();
    if (op.getPropagateNan() == triton::PropagateNan::ALL) {
      Value low = arith::MaximumFOp::create(rewriter, loc, x, lo);
      rewriter.replaceOpWithNewOp<arith::MinimumFOp>(op, low, hi);
    } else {
      Value low = arith::MaxNumFOp::create(rewriter, loc, x, lo);
      rewriter.replaceOpWithNewOp<arith::MinNumFOp>(op, low, hi);
    }
    return success();
  }
};

struct PreciseSqrtConversion : OpConversionPattern<triton::PreciseSqrtOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::PreciseSqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<math::SqrtOp>(op, adaptor.getX());
    return success();
  }
};

struct PreciseDivFConversion : OpConversionPattern<triton::PreciseDivFOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::PreciseDivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, adaptor.getX(), adaptor.getY());
    return success();
  }
};

/// High half of the double-width unsigned product.
struct MulhiUIConversion : OpConversionPattern<triton::MulhiUIOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::MulhiUIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned width = getElementTypeOrSelf(op.getType()).getIntOrFloatBitWidth();
    Type wide = withElementType(op.getType(), rewriter.getIntegerType(2 * width));
    Value x = arith::ExtUIOp::create(rewriter, loc, wide, adaptor.getX());
    Value y = arith::ExtUIOp::create(rewriter, loc, wide, adaptor.getY());
    Value product = arith::MulIOp::create(rewriter, loc, x, y);
    Value high = arith::ShRUIOp::create(rewriter, loc, product,
                                        constantLike(rewriter, loc, wide, width));
    rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, op.getType(), high);
    return success();
  }
};

/// Rebuilds a non-tt op whose operand or result types contain pointers.
struct GenericTypeConversion : ConversionPattern {
  GenericTypeConversion(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<triton::TTDialect>(op->getDialect()) || op->getNumRegions() != 0)
      return failure();
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return failure();
    Operation *clone = rewriter.clone(*op);
    clone->setOperands(operands);
    for (auto [result, type] : llvm::zip(clone->getResults(), types))
      result.setType(type);
    rewriter.replaceOp(op, clone->getResults());
    return success();
  }
};

} // namespace

void refcpu::populateElementwiseConversionPatterns(
    const TritonTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<AddPtrConversion, AddressIdentityConversion<triton::IntToPtrOp>,
               AddressIdentityConversion<triton::PtrToIntOp>, BitcastConversion,
               FpToFpConversion, ClampFConversion, PreciseSqrtConversion,
               PreciseDivFConversion, MulhiUIConversion, GenericTypeConversion>(
      converter, context);
}
