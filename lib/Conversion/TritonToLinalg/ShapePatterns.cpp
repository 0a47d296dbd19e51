//===- ShapePatterns.cpp - tt tensor creation and shape ops ---------------===//
//
// Shape ops become tensor / linalg ops on static shapes, for example
//
//   %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
//     -> linalg.generic (linalg.index 0 + start)
//   %b = tt.broadcast %x : tensor<4x1xf32> -> tensor<4x8xf32>
//     -> tensor.collapse_shape to tensor<4xf32>, then linalg.broadcast
//
//===----------------------------------------------------------------------===//

#include "Shapes.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace refcpu;

namespace {

Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
}

RankedTensorType convertTensorType(const TypeConverter *converter, Type type) {
  return cast<RankedTensorType>(converter->convertType(type));
}

/// Goes through a 1-D tensor: collapse, then expand.
} // namespace

Value refcpu::reshapeRowMajor(OpBuilder &b, Location loc, Value src,
                      RankedTensorType type) {
  auto srcType = cast<RankedTensorType>(src.getType());
  if (srcType.getShape() == type.getShape())
    return src;
  auto flatType = RankedTensorType::get({srcType.getNumElements()},
                                        srcType.getElementType());
  Value flat = src;
  if (srcType.getRank() != 1) {
    ReassociationIndices all = llvm::to_vector(
        llvm::seq<int64_t>(0, srcType.getRank()));
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, src,
                                           ArrayRef<ReassociationIndices>{all});
  }
  if (type.getRank() == 1)
    return flat;
  ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       ArrayRef<ReassociationIndices>{all});
}

Value refcpu::sliceAlong(OpBuilder &b, Location loc, Value src, int64_t axis,
                 OpFoldResult offset, int64_t size, bool dropAxis) {
  auto type = cast<RankedTensorType>(src.getType());
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    offsets.push_back(d == axis ? offset : b.getIndexAttr(0));
    int64_t extent = d == axis ? size : type.getDimSize(d);
    sizes.push_back(b.getIndexAttr(extent));
    strides.push_back(b.getIndexAttr(1));
    if (d != axis || !dropAxis)
      shape.push_back(extent);
  }
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, resultType, src, offsets, sizes,
                                        strides);
}

Value refcpu::insertAlong(OpBuilder &b, Location loc, Value part, Value dest,
                          int64_t axis, OpFoldResult offset) {
  auto destType = cast<RankedTensorType>(dest.getType());
  auto partType = cast<RankedTensorType>(part.getType());
  bool dropped = partType.getRank() < destType.getRank();
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (int64_t d = 0; d < destType.getRank(); ++d) {
    offsets.push_back(d == axis ? offset : b.getIndexAttr(0));
    int64_t extent = d != axis ? destType.getDimSize(d)
                     : dropped ? 1
                               : partType.getDimSize(d);
    sizes.push_back(b.getIndexAttr(extent));
    strides.push_back(b.getIndexAttr(1));
  }
  return tensor::InsertSliceOp::create(b, loc, part, dest, offsets, sizes,
                                       strides);
}

namespace {

struct MakeRangeConversion : OpConversionPattern<triton::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int32_t start = op.getStart();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, ValueRange{createEmpty(rewriter, loc, type)},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(1)},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value index = linalg::IndexOp::create(b, loc, 0);
          Value value = arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
          Value offset = arith::ConstantIntOp::create(b, loc, start, 32);
          linalg::YieldOp::create(b, loc,
                                  ValueRange{arith::AddIOp::create(b, loc, value, offset)});
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct SplatConversion : OpConversionPattern<triton::SplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertTensorType(getTypeConverter(), op.getType());
    Value scalar = adaptor.getSrc();
    if (auto tensorType = dyn_cast<RankedTensorType>(scalar.getType()))
      scalar = tensor::ExtractOp::create(
          rewriter, loc, scalar,
          SmallVector<Value>(tensorType.getRank(),
                             arith::ConstantIndexOp::create(rewriter, loc, 0)));
    rewriter.replaceOpWithNewOp<linalg::FillOp>(
        op, ValueRange{scalar}, ValueRange{createEmpty(rewriter, loc, type)});
    return success();
  }
};

struct UnsplatConversion : OpConversionPattern<triton::UnsplatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::UnsplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    Value zero = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0);
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(
        op, adaptor.getSrc(), SmallVector<Value>(srcType.getRank(), zero));
    return success();
  }
};

struct BroadcastConversion : OpConversionPattern<triton::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value src = adaptor.getSrc();
    auto srcType = cast<RankedTensorType>(src.getType());
    auto type = convertTensorType(getTypeConverter(), op.getType());
    if (srcType == type) {
      rewriter.replaceOp(op, src);
      return success();
    }
    // Drop the broadcast (size-1) dimensions, then let linalg.broadcast add
    // them back at full size. Each dropped dimension joins the group of the
    // kept dimension before it (or after it, for leading ones).
    SmallVector<int64_t> broadcastDims, keptShape;
    SmallVector<ReassociationIndices> reassociation;
    ReassociationIndices leading;
    for (int64_t d = 0; d < srcType.getRank(); ++d) {
      if (srcType.getDimSize(d) != type.getDimSize(d)) {
        broadcastDims.push_back(d);
        (reassociation.empty() ? leading : reassociation.back()).push_back(d);
        continue;
      }
      keptShape.push_back(srcType.getDimSize(d));
      leading.push_back(d);
      reassociation.push_back(leading);
      leading.clear();
    }
    auto keptType = RankedTensorType::get(keptShape, srcType.getElementType());
    Value kept = tensor::CollapseShapeOp::create(rewriter, loc, keptType, src,
                                                 reassociation);
    auto broadcast = linalg::BroadcastOp::create(
        rewriter, loc, kept, createEmpty(rewriter, loc, type), broadcastDims);
    rewriter.replaceOp(op, broadcast.getResults());
    return success();
  }
};

/// expand_dims and reshape are both row-major reinterpretations.
template <typename OpTy>
struct RowMajorReshapeConversion : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = convertTensorType(this->getTypeConverter(), op.getType());
    rewriter.replaceOp(op, reshapeRowMajor(rewriter, op.getLoc(),
                                           adaptor.getSrc(), type));
    return success();
  }
};

struct TransConversion : OpConversionPattern<triton::TransOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = convertTensorType(getTypeConverter(), op.getType());
    SmallVector<int64_t> permutation(op.getOrder().begin(), op.getOrder().end());
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getSrc(),
        createEmpty(rewriter, op.getLoc(), type), permutation);
    rewriter.replaceOp(op, transpose.getResults());
    return success();
  }
};

struct JoinConversion : OpConversionPattern<triton::JoinOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertTensorType(getTypeConverter(), op.getType());
    Value result = createEmpty(rewriter, loc, type);
    for (auto [i, part] : llvm::enumerate(adaptor.getOperands()))
      result = insertAlong(rewriter, loc, part, result, type.getRank() - 1,
                           rewriter.getIndexAttr(i));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplitConversion : OpConversionPattern<triton::SplitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t minor = cast<RankedTensorType>(adaptor.getSrc().getType()).getRank() - 1;
    SmallVector<Value> results;
    for (int64_t i = 0; i < 2; ++i)
      results.push_back(sliceAlong(rewriter, loc, adaptor.getSrc(), minor,
                                   rewriter.getIndexAttr(i), 1,
                                   /*dropAxis=*/true));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Plain concatenation along dimension 0; Triton leaves the order open.
struct CatConversion : OpConversionPattern<triton::CatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertTensorType(getTypeConverter(), op.getType());
    auto partType = cast<RankedTensorType>(adaptor.getLhs().getType());
    if (partType.getRank() != type.getRank() ||
        partType.getDimSize(0) * 2 != type.getDimSize(0) ||
        partType.getShape().drop_front() != type.getShape().drop_front())
      return op.emitOpError("result must concatenate the operands along "
                            "dimension 0");
    Value result = createEmpty(rewriter, loc, type);
    for (auto [i, part] : llvm::enumerate(adaptor.getOperands()))
      result = insertAlong(rewriter, loc, part, result, 0,
                           rewriter.getIndexAttr(i * partType.getDimSize(0)));
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// out[i] = src[i with i[axis] replaced by idx[i]].
struct GatherConversion : OpConversionPattern<triton::GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = convertTensorType(getTypeConverter(), op.getType());
    Value src = adaptor.getSrc();
    unsigned axis = op.getAxis();
    int64_t rank = type.getRank();
    auto identity = rewriter.getMultiDimIdentityMap(rank);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{adaptor.getIndices()},
        ValueRange{createEmpty(rewriter, loc, type)},
        ArrayRef<AffineMap>{identity, identity},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d)
            indices.push_back(
                d == axis ? arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0])
                                .getResult()
                          : linalg::IndexOp::create(b, loc, d).getResult());
          Value value = tensor::ExtractOp::create(b, loc, src, indices);
          linalg::YieldOp::create(b, loc, value);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// out[b] = #{i : mask[i] && src[i] == b}; values outside [0, bins) are
/// ignored.
struct HistogramConversion : OpConversionPattern<triton::HistogramOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type srcElt = cast<RankedTensorType>(adaptor.getSrc().getType()).getElementType();
    Value zeroBins = arith::ConstantOp::create(
        rewriter, loc, type, rewriter.getZeroAttr(type));
    int64_t bins = type.getDimSize(0);
    int64_t n = cast<RankedTensorType>(adaptor.getSrc().getType()).getDimSize(0);
    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value ub = arith::ConstantIndexOp::create(rewriter, loc, n);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto forOp = scf::ForOp::create(
        rewriter, loc, lb, ub, step, ValueRange{zeroBins},
        [&](OpBuilder &b, Location loc, Value iv, ValueRange iterArgs) {
          Value acc = iterArgs[0];
          Value value = tensor::ExtractOp::create(b, loc, adaptor.getSrc(), iv);
          Value zero = arith::ConstantIntOp::create(b, loc, srcElt, 0);
          Value limit = arith::ConstantIntOp::create(b, loc, srcElt, bins);
          Value inRange = arith::AndIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, value, zero),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value, limit));
          if (adaptor.getMask())
            inRange = arith::AndIOp::create(
                b, loc, inRange,
                tensor::ExtractOp::create(b, loc, adaptor.getMask(), iv));
          auto ifOp = scf::IfOp::create(
              b, loc, inRange,
              [&](OpBuilder &b, Location loc) {
                Value bin = arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
                Value count = tensor::ExtractOp::create(b, loc, acc, bin);
                Value one = arith::ConstantIntOp::create(b, loc, type.getElementType(), 1);
                Value next = arith::AddIOp::create(b, loc, count, one);
                scf::YieldOp::create(
                    b, loc, ValueRange{tensor::InsertOp::create(b, loc, next, acc, bin)});
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, acc);
              });
          scf::YieldOp::create(b, loc, ifOp.getResults());
        });
    rewriter.replaceOp(op, forOp.getResults());
    return success();
  }
};

} // namespace

void refcpu::populateShapeConversionPatterns(const TritonTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<MakeRangeConversion, SplatConversion, UnsplatConversion,
               BroadcastConversion, RowMajorReshapeConversion<triton::ExpandDimsOp>,
               RowMajorReshapeConversion<triton::ReshapeOp>,
               TransConversion, JoinConversion, SplitConversion, CatConversion,
               GatherConversion, HistogramConversion>(converter,
                                                      patterns.getContext());
}
