//===- BlockPointerPatterns.cpp - block pointers and tensor descriptors ---===//
//
// A block pointer or tensor descriptor is carried as its parts (see
// TypeConverter.cpp), through loops too. An access computes, per element of
// the block, its address and whether it is in bounds, exactly as Triton's
// rewrite-tensor-pointer defines it:
//
//   element (i_0..i_{r-1}) lives at base + sum_d (offset_d + i_d) * stride_d
//   in bounds when 0 <= offset_d + i_d < shape_d on every checked dimension
//
// Loads, stores and descriptor loads and stores access the block as a strided
// block (StridedAccess.cpp): the offsets fold into the base address and the
// checked dimensions become bounds. Gathers, scatters and reductions compute
// the address of every element and take the general masked path. With
// check_bounds, a block takes its view only when it lies inside its
// argument and the checked per-lane path otherwise (BoundsCheck.cpp).
//
//   %b = tt.make_tensor_ptr %p, [%M, %N], [%s, %c1], [%o, %c0] : <tensor<16x32xf32>>
//   %x = tt.load %b {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32}
//     -> copy of the in-bounds part of a memref<16x32xf32, strided<[?, 1]>>
//        view into a zero-filled buffer
//
//===----------------------------------------------------------------------===//

#include "BoundsCheck.h"
#include "MemoryAccess.h"
#include "Shapes.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace refcpu;

namespace {

/// The converted parts of a block pointer or a tensor descriptor.
struct BlockParts {
  Value base;
  SmallVector<Value> shape, strides;
  /// Block pointers: the i32 offsets. Descriptors: whether padding is NaN.
  SmallVector<Value> rest;

  BlockParts(ValueRange parts, int64_t rank)
      : base(parts[0]), shape(parts.slice(1, rank)),
        strides(parts.slice(1 + rank, rank)),
        rest(parts.drop_front(1 + 2 * rank)) {}

  SmallVector<Value> flatten() const {
    SmallVector<Value> parts{base};
    parts.append(shape);
    parts.append(strides);
    parts.append(rest);
    return parts;
  }
};

RankedTensorType blockTypeOf(Type type) {
  if (auto desc = dyn_cast<triton::TensorDescType>(type))
    return desc.getBlockType();
  return cast<RankedTensorType>(cast<triton::PointerType>(type).getPointeeType());
}

int64_t elementBytes(RankedTensorType type) {
  return std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// The block of `blockType` at `offsets` (i32 per dimension) as a strided
/// block: bounded by 0 <= offset_d + i_d < shape_d on the `checked`
/// dimensions.
StridedBlock stridedBlock(OpBuilder &b, Location loc, RankedTensorType blockType,
                          const BlockParts &parts, ValueRange offsets,
                          ArrayRef<bool> checked) {
  int64_t rank = blockType.getRank();
  int64_t elementSize = elementBytes(blockType);
  StridedBlock block;
  Value first = arith::ConstantIntOp::create(b, loc, 0, 64);
  for (int64_t d = 0; d < rank; ++d) {
    Value offset = arith::ExtSIOp::create(b, loc, b.getI64Type(), offsets[d]);
    first = arith::AddIOp::create(
        b, loc, first, arith::MulIOp::create(b, loc, offset, parts.strides[d]));
    block.strides.push_back(parts.strides[d]);
    block.lo.push_back(checked[d] ? arith::SubIOp::create(
                                        b, loc, arith::ConstantIntOp::create(b, loc, 0, 64),
                                        offset)
                                        .getResult()
                                  : Value());
    block.hi.push_back(
        checked[d] ? arith::SubIOp::create(b, loc, parts.shape[d], offset).getResult()
                   : Value());
  }
  Value bytes = arith::MulIOp::create(
      b, loc, first, arith::ConstantIntOp::create(b, loc, elementSize, 64));
  block.base = arith::AddIOp::create(b, loc, parts.base, bytes);
  return block;
}

/// NaN where `isNaN` (i1) holds, else zero, of the float `type`; null for
/// other types (they pad with zero).
Value paddingValue(OpBuilder &b, Location loc, Type type, Value isNaN) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return Value();
  Value nan = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(floatType, APFloat::getQNaN(floatType.getFloatSemantics())));
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(floatType));
  return arith::SelectOp::create(b, loc, isNaN, nan, zero);
}

/// A tensor of `type` filled with paddingValue.
Value paddingTensor(OpBuilder &b, Location loc, RankedTensorType type,
                    Value isNaN) {
  Value fill = paddingValue(b, loc, type.getElementType(), isNaN);
  if (!fill)
    return Value();
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::FillOp::create(b, loc, ValueRange{fill}, ValueRange{empty})
      .getResult(0);
}

/// Loads `type` from `block` for the access `op`: through the view, or,
/// when bounds checking does not let the view through, lane by lane with
/// every lane checked. `padding` is the scalar out-of-bounds elements read
/// (zero when null).
Value loadBlock(OpBuilder &b, Operation *op, RankedTensorType type,
                StridedBlock block, Value padding, bool isVolatile) {
  Location loc = op->getLoc();
  int64_t bytes = elementBytes(type);
  guardStridedBlock(b, op, block, type.getShape(), bytes);
  auto perLane = [&](OpBuilder &b, Location loc) {
    auto [addresses, inBounds] = stridedAddresses(b, loc, type, block);
    Value mask = emitBoundsCheck(b, op, addresses, inBounds, bytes);
    Value other;
    if (padding)
      other = tensor::SplatOp::create(b, loc, type, padding);
    return emitLoads(b, loc, type, addresses, mask, other, isVolatile);
  };
  return emitStridedLoad(b, loc, type, block, padding, isVolatile,
                         op->hasAttr(kReadInPlaceAttr), perLane);
}

/// Stores `values` to `block` for the access `op`, as loadBlock loads.
void storeBlock(OpBuilder &b, Operation *op, Value values, StridedBlock block) {
  auto type = cast<RankedTensorType>(values.getType());
  int64_t bytes = elementBytes(type);
  guardStridedBlock(b, op, block, type.getShape(), bytes);
  auto perLane = [&](OpBuilder &b, Location loc) {
    auto [addresses, inBounds] = stridedAddresses(b, loc, type, block);
    emitStores(b, loc, values, addresses, emitBoundsCheck(b, op, addresses, inBounds, bytes));
  };
  emitStridedStore(b, op->getLoc(), values, block, perLane);
}

SmallVector<bool> checkedDims(int64_t rank, ArrayRef<int32_t> boundaryCheck) {
  SmallVector<bool> checked(rank, false);
  for (int32_t d : boundaryCheck)
    checked[d] = true;
  return checked;
}

struct MakeTensorPtrConversion : OpConversionPattern<triton::MakeTensorPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::MakeTensorPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts;
    for (ValueRange operand : adaptor.getOperands())
      parts.append(operand.begin(), operand.end());
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

struct AdvanceConversion : OpConversionPattern<triton::AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::AdvanceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = blockTypeOf(op.getType()).getRank();
    BlockParts parts(adaptor.getPtr(), rank);
    for (int64_t d = 0; d < rank; ++d)
      parts.rest[d] = arith::AddIOp::create(rewriter, op.getLoc(), parts.rest[d],
                                            adaptor.getOffsets()[d].front());
    rewriter.replaceOpWithMultiple(op, {parts.flatten()});
    return success();
  }
};

struct BlockLoadConversion : OpConversionPattern<triton::LoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isBlockPointer(op.getPtr()))
      return failure();
    if (op.getMask())
      return op.emitOpError("a mask on a block-pointer load is not supported");
    Location loc = op.getLoc();
    RankedTensorType blockType = blockTypeOf(op.getPtr().getType());
    BlockParts parts(adaptor.getPtr(), blockType.getRank());
    StridedBlock block =
        stridedBlock(rewriter, loc, blockType, parts, parts.rest,
                     checkedDims(blockType.getRank(), op.getBoundaryCheck()));
    Value padding;
    if (op.getPadding() == triton::PaddingOption::PAD_NAN)
      padding = paddingValue(rewriter, loc, blockType.getElementType(),
                             arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    rewriter.replaceOp(op, loadBlock(rewriter, op, blockType, block, padding,
                                     op.getIsVolatile()));
    return success();
  }
};

struct BlockStoreConversion : OpConversionPattern<triton::StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isBlockPointer(op.getPtr()))
      return failure();
    if (op.getMask())
      return op.emitOpError("a mask on a block-pointer store is not supported");
    RankedTensorType blockType = blockTypeOf(op.getPtr().getType());
    BlockParts parts(adaptor.getPtr(), blockType.getRank());
    StridedBlock block =
        stridedBlock(rewriter, op.getLoc(), blockType, parts, parts.rest,
                     checkedDims(blockType.getRank(), op.getBoundaryCheck()));
    storeBlock(rewriter, op, adaptor.getValue().front(), block);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MakeTensorDescConversion : OpConversionPattern<triton::MakeTensorDescOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::MakeTensorDescOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> parts{adaptor.getBase().front()};
    for (ValueRange size : adaptor.getShape())
      parts.push_back(
          arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(), size.front()));
    for (ValueRange stride : adaptor.getStrides())
      parts.push_back(stride.front());
    parts.push_back(arith::ConstantIntOp::create(
        rewriter, loc, op.getPadding() == triton::PaddingOption::PAD_NAN, 1));
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

SmallVector<Value> flatIndices(ArrayRef<ValueRange> indices) {
  SmallVector<Value> flat;
  for (ValueRange index : indices)
    flat.push_back(index.front());
  return flat;
}

struct DescriptorLoadConversion : OpConversionPattern<triton::DescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::DescriptorLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType blockType = blockTypeOf(op.getDesc().getType());
    // Loads are signless even when the descriptor's block says si32.
    auto loadType = RankedTensorType::get(blockType.getShape(),
                                          op.getType().getElementType());
    BlockParts parts(adaptor.getDesc(), blockType.getRank());
    SmallVector<bool> all(blockType.getRank(), true);
    StridedBlock block = stridedBlock(rewriter, loc, loadType, parts,
                                      flatIndices(adaptor.getIndices()), all);
    Value padding =
        paddingValue(rewriter, loc, loadType.getElementType(), parts.rest[0]);
    Value loaded = loadBlock(rewriter, op, loadType, block, padding,
                             /*isVolatile=*/false);
    rewriter.replaceOp(op, reshapeRowMajor(rewriter, loc, loaded, op.getType()));
    return success();
  }
};

/// Addresses (i64) and in-bounds mask of T[x_offsets[r], y_offset + c] over
/// the rows x columns of `type`, for descriptor gathers and scatters: the
/// rows are arbitrary, so every element gets its own address.
template <typename OpTy>
std::pair<Value, Value>
rowAddresses(OpTy op,
             typename OpTy::template GenericAdaptor<ArrayRef<ValueRange>> adaptor,
             RankedTensorType type, OpBuilder &b) {
  Location loc = op.getLoc();
  BlockParts parts(adaptor.getDesc(), 2);
  Value column = adaptor.getYOffset().front();
  Value rows = adaptor.getXOffsets().front();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t elementSize = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  auto map = b.getMultiDimIdentityMap(2);
  auto generic = linalg::GenericOp::create(
      b, loc,
      TypeRange{RankedTensorType::get(shape, b.getI64Type()),
                RankedTensorType::get(shape, b.getI1Type())},
      ValueRange{rows},
      ValueRange{tensor::EmptyOp::create(b, loc, shape, b.getI64Type()),
                 tensor::EmptyOp::create(b, loc, shape, b.getI1Type())},
      {AffineMap::get(2, 0, b.getAffineDimExpr(0)), map, map},
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
        Value index = arith::IndexCastOp::create(
            b, loc, b.getI64Type(), linalg::IndexOp::create(b, loc, 1));
        Value positions[2] = {
            arith::ExtSIOp::create(b, loc, b.getI64Type(), args[0]),
            arith::AddIOp::create(
                b, loc, arith::ExtSIOp::create(b, loc, b.getI64Type(), column),
                index)};
        Value element = zero;
        Value inBounds = arith::ConstantIntOp::create(b, loc, 1, 1);
        for (int64_t d = 0; d < 2; ++d) {
          Value pos = positions[d];
          element = arith::AddIOp::create(
              b, loc, element, arith::MulIOp::create(b, loc, pos, parts.strides[d]));
          Value aboveZero =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, pos, zero);
          Value belowEnd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                                 pos, parts.shape[d]);
          inBounds = arith::AndIOp::create(
              b, loc, inBounds, arith::AndIOp::create(b, loc, aboveZero, belowEnd));
        }
        Value bytes = arith::MulIOp::create(
            b, loc, element, arith::ConstantIntOp::create(b, loc, elementSize, 64));
        Value address = arith::AddIOp::create(b, loc, parts.base, bytes);
        linalg::YieldOp::create(b, loc, ValueRange{address, inBounds});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

/// out[r, c] = T[x_offsets[r], y_offset + c]; rows and columns outside the
/// tensor read the padding value.
struct DescriptorGatherConversion
    : OpConversionPattern<triton::DescriptorGatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::DescriptorGatherOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    auto [addresses, inBounds] = rowAddresses(op, adaptor, type, rewriter);
    Value other = paddingTensor(rewriter, loc, type,
                                BlockParts(adaptor.getDesc(), 2).rest[0]);
    Value mask = emitBoundsCheck(rewriter, op, addresses, inBounds, elementBytes(type));
    rewriter.replaceOp(op, emitLoads(rewriter, loc, type, addresses, mask, other,
                                     /*isVolatile=*/false));
    return success();
  }
};

/// T[x_offsets[r], y_offset + c] = src[r, c] where in bounds.
struct DescriptorScatterConversion
    : OpConversionPattern<triton::DescriptorScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::DescriptorScatterOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getSrc().getType();
    auto [addresses, inBounds] = rowAddresses(op, adaptor, type, rewriter);
    Value mask = emitBoundsCheck(rewriter, op, addresses, inBounds, elementBytes(type));
    emitStores(rewriter, op.getLoc(), adaptor.getSrc().front(), addresses, mask);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The block a descriptor store or reduce writes (every dimension bounded),
/// and the values written, reshaped to the block.
struct DescriptorWrite {
  RankedTensorType valueType;
  StridedBlock block;
  Value values;
};

template <typename OpTy>
DescriptorWrite descriptorWrite(OpTy op, typename OpTy::template GenericAdaptor<
                                             ArrayRef<ValueRange>> adaptor,
                                OpBuilder &b) {
  Location loc = op.getLoc();
  RankedTensorType blockType = blockTypeOf(op.getDesc().getType());
  auto valueType = RankedTensorType::get(blockType.getShape(),
                                         op.getSrc().getType().getElementType());
  BlockParts parts(adaptor.getDesc(), blockType.getRank());
  SmallVector<bool> all(blockType.getRank(), true);
  return {valueType,
          stridedBlock(b, loc, valueType, parts, flatIndices(adaptor.getIndices()),
                       all),
          reshapeRowMajor(b, loc, adaptor.getSrc().front(), valueType)};
}

struct DescriptorStoreConversion
    : OpConversionPattern<triton::DescriptorStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::DescriptorStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DescriptorWrite write = descriptorWrite(op, adaptor, rewriter);
    storeBlock(rewriter, op, write.values, write.block);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Each element is one atomic update of memory; out-of-bounds ones are
/// skipped.
struct DescriptorReduceConversion
    : OpConversionPattern<triton::DescriptorReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::DescriptorReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elt = op.getSrc().getType().getElementType();
    bool isFloat = isa<FloatType>(elt);
    std::optional<LLVM::AtomicBinOp> binOp;
    switch (op.getKind()) {
    case triton::DescriptorReduceKind::ADD:
      binOp = isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
      break;
    case triton::DescriptorReduceKind::MIN:
      binOp = isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
      break;
    case triton::DescriptorReduceKind::MAX:
      binOp = isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
      break;
    case triton::DescriptorReduceKind::AND:
      binOp = LLVM::AtomicBinOp::_and;
      break;
    case triton::DescriptorReduceKind::OR:
      binOp = LLVM::AtomicBinOp::_or;
      break;
    case triton::DescriptorReduceKind::XOR:
      binOp = LLVM::AtomicBinOp::_xor;
      break;
    default:
      return op.emitOpError("reduce kind '")
             << triton::stringifyDescriptorReduceKind(op.getKind())
             << "' is not supported";
    }
    DescriptorWrite write = descriptorWrite(op, adaptor, rewriter);
    auto [addresses, inBounds] =
        stridedAddresses(rewriter, loc, write.valueType, write.block);
    Value mask = emitBoundsCheck(rewriter, op, addresses, inBounds,
                                 elementBytes(write.valueType));
    emitAtomicRMWs(rewriter, loc, *binOp, LLVM::AtomicOrdering::acq_rel,
                   addresses, write.values, mask);
    rewriter.eraseOp(op);
    return success();
  }
};

/// arith.select of two block pointers or descriptors (Triton's canonicalizer
/// turns small scf.ifs into selects) selects each part.
struct SelectPartsConversion : OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::SelectOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<triton::PointerType, triton::TensorDescType>(op.getType()) ||
        adaptor.getTrueValue().size() < 2)
      return failure();
    Value condition = adaptor.getCondition().front();
    SmallVector<Value> parts;
    for (auto [t, f] :
         llvm::zip(adaptor.getTrueValue(), adaptor.getFalseValue()))
      parts.push_back(
          arith::SelectOp::create(rewriter, op.getLoc(), condition, t, f));
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

} // namespace

void refcpu::populateBlockPointerConversionPatterns(
    const TritonTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<MakeTensorPtrConversion, AdvanceConversion, BlockLoadConversion,
               BlockStoreConversion, MakeTensorDescConversion,
               DescriptorLoadConversion, DescriptorStoreConversion,
               DescriptorReduceConversion, DescriptorGatherConversion,
               DescriptorScatterConversion>(converter, patterns.getContext());
  // Before the generic one-to-one rebuild of ops whose types change.
  patterns.add<SelectPartsConversion>(converter, patterns.getContext(),
                                      /*benefit=*/2);
}
