//===- MemoryPatterns.cpp - tt.load/store and atomics ---------------------===//
//
// Loads and stores whose pointer tensor is a strided block (see
// PointerAnalysis.cpp) copy it through a memref view (StridedAccess.cpp).
// Every other access takes the general memory path: every lane accesses its
// own i64 address, and a masked-off lane touches no memory. It is correct for
// any pointer tensor, whatever produced the addresses:
//
//   %v = tt.load %p, %m, %o : tensor<4x!tt.ptr<f32>>
//     -> linalg.generic ins(%addr, %m, %o) {
//          scf.if %mi { llvm.load (llvm.inttoptr %ai) } else { %oi } }
//   tt.store %p, %v, %m      -> scf.for over the lanes, scf.if + llvm.store
//   tt.atomic_rmw fadd, ...  -> scf.for over the lanes, llvm.atomicrmw
//
//===----------------------------------------------------------------------===//

#include "BoundsCheck.h"
#include "MemoryAccess.h"
#include "Shapes.h"
#include "refcpu/Analysis/TrimmedK.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace refcpu;

namespace {

unsigned byteSize(Type type) {
  return std::max(1u, type.getIntOrFloatBitWidth() / 8);
}

Value toPointer(OpBuilder &b, Location loc, Value address) {
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                                  address);
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
}

/// Runs `body` under `mask` (when there is one); the value of a masked-off
/// lane is `fallback`.
Value ifMasked(OpBuilder &b, Location loc, Value mask, Value fallback,
               BuildFn body) {
  return ifElse(b, loc, mask, body,
                [&](OpBuilder &, Location) { return fallback; });
}

/// The type memory is accessed with: LLVM has no fp8 types, so those are
/// moved as integers of their width.
Type memoryType(OpBuilder &b, Type type) {
  if (LLVM::isCompatibleType(type))
    return type;
  return b.getIntegerType(type.getIntOrFloatBitWidth());
}

Value bitcastTo(OpBuilder &b, Location loc, Type type, Value value) {
  return value.getType() == type
             ? value
             : arith::BitcastOp::create(b, loc, type, value).getResult();
}

Value emitLoad(OpBuilder &b, Location loc, Type type, Value address, Value mask,
               Value other, bool isVolatile) {
  return ifMasked(b, loc, mask, other ? other : zeroOf(b, loc, type),
                  [&](OpBuilder &b, Location loc) -> Value {
                    Value loaded = LLVM::LoadOp::create(
                        b, loc, memoryType(b, type), toPointer(b, loc, address),
                        byteSize(type), isVolatile);
                    return bitcastTo(b, loc, type, loaded);
                  });
}

void emitStore(OpBuilder &b, Location loc, Value value, Value address,
               Value mask) {
  auto store = [&](OpBuilder &b, Location loc) {
    Type raw = memoryType(b, value.getType());
    Value stored = bitcastTo(b, loc, raw, value);
    LLVM::StoreOp::create(b, loc, stored, toPointer(b, loc, address),
                          byteSize(value.getType()));
  };
  if (!mask) {
    store(b, loc);
    return;
  }
  scf::IfOp::create(b, loc, mask, [&](OpBuilder &b, Location loc) {
    store(b, loc);
    scf::YieldOp::create(b, loc);
  });
}

} // namespace

Value refcpu::forEachLane(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Value init,
                  function_ref<Value(OpBuilder &, Location, ValueRange, Value)> body) {
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t size : shape) {
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    ubs.push_back(arith::ConstantIndexOp::create(b, loc, size));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  SmallVector<Value> iterArgs;
  if (init)
    iterArgs.push_back(init);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, iterArgs,
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        Value next = body(b, loc, ivs, args.empty() ? Value() : args[0]);
        if (!next)
          return {};
        return {next};
      });
  return nest.results.empty() ? Value() : nest.results[0];
}

namespace {

Value extractOrNull(OpBuilder &b, Location loc, Value tensor, ValueRange ivs) {
  if (!tensor)
    return tensor;
  return tensor::ExtractOp::create(b, loc, tensor, ivs);
}

/// Applies `lane` to each element (or the scalar) and collects the results.
template <typename LaneFn>
Value mapLanes(OpBuilder &rewriter, Location loc, Type resultType, LaneFn lane) {
  auto tensorType = dyn_cast<RankedTensorType>(resultType);
  if (!tensorType)
    return lane(rewriter, loc, ValueRange{});
  Value init = tensor::EmptyOp::create(rewriter, loc, tensorType.getShape(),
                                       tensorType.getElementType());
  return forEachLane(rewriter, loc, tensorType.getShape(), init,
                     [&](OpBuilder &b, Location loc, ValueRange ivs, Value acc) {
                       Value value = lane(b, loc, ivs);
                       return tensor::InsertOp::create(b, loc, value, acc, ivs)
                           .getResult();
                     });
}

} // namespace

Value refcpu::emitLoads(OpBuilder &b, Location loc, Type resultType,
                        Value addresses, Value mask, Value other,
                        bool isVolatile) {
  auto tensorType = dyn_cast<RankedTensorType>(resultType);
  if (!tensorType)
    return emitLoad(b, loc, resultType, addresses, mask, other, isVolatile);
  SmallVector<Value> inputs{addresses};
  if (mask)
    inputs.push_back(mask);
  if (other)
    inputs.push_back(other);
  int64_t rank = tensorType.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1, b.getMultiDimIdentityMap(rank));
  Value empty = tensor::EmptyOp::create(b, loc, tensorType.getShape(),
                                        tensorType.getElementType());
  bool hasMask = mask != nullptr, hasOther = other != nullptr;
  auto generic = linalg::GenericOp::create(
      b, loc, tensorType, inputs, ValueRange{empty}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value laneMask = hasMask ? args[1] : Value();
        Value laneOther = hasOther ? args[hasMask ? 2 : 1] : Value();
        linalg::YieldOp::create(b, loc,
                                emitLoad(b, loc, tensorType.getElementType(),
                                         args[0], laneMask, laneOther,
                                         isVolatile));
      });
  return generic.getResult(0);
}

void refcpu::emitStores(OpBuilder &b, Location loc, Value values,
                        Value addresses, Value mask) {
  auto tensorType = dyn_cast<RankedTensorType>(values.getType());
  if (!tensorType) {
    emitStore(b, loc, values, addresses, mask);
    return;
  }
  forEachLane(b, loc, tensorType.getShape(), Value(),
              [&](OpBuilder &b, Location loc, ValueRange ivs, Value) {
                emitStore(b, loc, extractOrNull(b, loc, values, ivs),
                          extractOrNull(b, loc, addresses, ivs),
                          extractOrNull(b, loc, mask, ivs));
                return Value();
              });
}

Value refcpu::emitAtomicRMWs(OpBuilder &b, Location loc,
                             LLVM::AtomicBinOp binOp,
                             LLVM::AtomicOrdering ordering, Value addresses,
                             Value values, Value mask) {
  Type elt = getElementTypeOrSelf(values.getType());
  auto lane = [&](OpBuilder &b, Location loc, ValueRange ivs) {
    auto pick = [&](Value v) {
      return ivs.empty() ? v : extractOrNull(b, loc, v, ivs);
    };
    Value address = pick(addresses), value = pick(values);
    return ifMasked(b, loc, pick(mask), zeroOf(b, loc, elt),
                    [&](OpBuilder &b, Location loc) {
                      return LLVM::AtomicRMWOp::create(
                                 b, loc, binOp, toPointer(b, loc, address),
                                 value, ordering, StringRef(), byteSize(elt))
                          .getResult();
                    });
  };
  return mapLanes(b, loc, values.getType(), lane);
}

namespace {

/// The lanes of `load` that the dot reading it never reads, as the
/// conversion pass marked them (refcpu/Analysis/TrimmedK.h) and recorded
/// the keeping store's bounds in `laneBounds`.
UnreadLanes unreadLanesOf(const DotLaneBounds &laneBounds,
                          triton::LoadOp load) {
  UnreadLanes unread;
  if (auto pastMask = load->getAttrOfType<ArrayAttr>(kUnreadPastBoundAttr))
    unread.pastMask = cast<IntegerAttr>(pastMask[0]).getInt();
  auto pastStore = load->getAttrOfType<ArrayAttr>(kUnreadPastStoreAttr);
  if (!pastStore)
    return unread;
  int64_t dim = cast<IntegerAttr>(pastStore[0]).getInt();
  ArrayRef<const pointer_analysis::Expr *> bounds =
      laneBounds.lookupKept(cast<IntegerAttr>(pastStore[1]).getInt());
  // Where no bounds were recorded, all lanes are read.
  if (dim < static_cast<int64_t>(bounds.size()) && bounds[dim]) {
    unread.pastStore = dim;
    unread.storeBound = bounds[dim];
  }
  return unread;
}

/// Pointer tensors and scalar pointers; block pointers have their own
/// patterns (BlockPointerPatterns.cpp).
struct LoadConversion : OpConversionPattern<triton::LoadOp> {
  LoadConversion(const TypeConverter &converter, MLIRContext *context,
                 const DotLaneBounds &laneBounds)
      : OpConversionPattern(converter, context), laneBounds(laneBounds) {}

  LogicalResult
  matchAndRewrite(triton::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isBlockPointer(op.getPtr()))
      return failure();
    // A loaded pointer is an i64 address.
    Type type = getTypeConverter()->convertType(op.getType());
    int64_t bytes = byteSize(getElementTypeOrSelf(type));
    auto perLane = [&](OpBuilder &b, Location loc) {
      Value mask = emitBoundsCheck(b, op, adaptor.getPtr(), adaptor.getMask(), bytes);
      return emitLoads(b, loc, type, adaptor.getPtr(), mask, adaptor.getOther(),
                       op.getIsVolatile());
    };
    if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
      UnreadLanes unread = unreadLanesOf(laneBounds, op);
      if (std::optional<StridedAccess> access = matchStridedAccess(
              rewriter, op.getLoc(), op.getPtr(), op.getMask(), op.getOther(),
              tensorType.getElementType(), unread)) {
        guardStridedBlock(rewriter, op, access->block, tensorType.getShape(),
                          bytes);
        rewriter.replaceOp(op, emitStridedLoad(rewriter, op.getLoc(), tensorType,
                                               access->block, access->padding,
                                               op.getIsVolatile(),
                                               op->hasAttr(kReadInPlaceAttr), perLane));
        return success();
      }
    }
    rewriter.replaceOp(op, perLane(rewriter, op.getLoc()));
    return success();
  }

  const DotLaneBounds &laneBounds;
};

struct StoreConversion : OpConversionPattern<triton::StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isBlockPointer(op.getPtr()))
      return failure();
    Value values = adaptor.getValue();
    int64_t bytes = byteSize(getElementTypeOrSelf(values.getType()));
    auto perLane = [&](OpBuilder &b, Location loc) {
      Value mask = emitBoundsCheck(b, op, adaptor.getPtr(), adaptor.getMask(), bytes);
      emitStores(b, loc, values, adaptor.getPtr(), mask);
    };
    if (auto tensorType = dyn_cast<RankedTensorType>(values.getType())) {
      if (std::optional<StridedAccess> access = matchStridedAccess(
              rewriter, op.getLoc(), op.getPtr(), op.getMask(), Value(),
              tensorType.getElementType())) {
        guardStridedBlock(rewriter, op, access->block, tensorType.getShape(), bytes);
        emitStridedStore(rewriter, op.getLoc(), values, access->block, perLane);
        rewriter.eraseOp(op);
        return success();
      }
    }
    perLane(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

LLVM::AtomicOrdering refcpu::toAtomicOrdering(triton::MemSemantic sem) {
  switch (sem) {
  case triton::MemSemantic::RELAXED:
    return LLVM::AtomicOrdering::monotonic;
  case triton::MemSemantic::ACQUIRE:
    return LLVM::AtomicOrdering::acquire;
  case triton::MemSemantic::RELEASE:
    return LLVM::AtomicOrdering::release;
  case triton::MemSemantic::ACQUIRE_RELEASE:
    return LLVM::AtomicOrdering::acq_rel;
  }
  llvm_unreachable("unknown memory semantic");
}

namespace {

LLVM::AtomicBinOp toBinOp(triton::RMWOp op) {
  switch (op) {
  case triton::RMWOp::AND:
    return LLVM::AtomicBinOp::_and;
  case triton::RMWOp::OR:
    return LLVM::AtomicBinOp::_or;
  case triton::RMWOp::XOR:
    return LLVM::AtomicBinOp::_xor;
  case triton::RMWOp::ADD:
    return LLVM::AtomicBinOp::add;
  case triton::RMWOp::FADD:
    return LLVM::AtomicBinOp::fadd;
  case triton::RMWOp::MAX:
    return LLVM::AtomicBinOp::max;
  case triton::RMWOp::MIN:
    return LLVM::AtomicBinOp::min;
  case triton::RMWOp::UMAX:
    return LLVM::AtomicBinOp::umax;
  case triton::RMWOp::UMIN:
    return LLVM::AtomicBinOp::umin;
  case triton::RMWOp::XCHG:
    return LLVM::AtomicBinOp::xchg;
  }
  llvm_unreachable("unknown RMW op");
}

struct AtomicRMWConversion : OpConversionPattern<triton::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value mask = emitBoundsCheck(
        rewriter, op, adaptor.getPtr(), adaptor.getMask(),
        byteSize(getElementTypeOrSelf(adaptor.getVal().getType())));
    rewriter.replaceOp(op, emitAtomicRMWs(rewriter, op.getLoc(),
                                          toBinOp(op.getAtomicRmwOp()),
                                          toAtomicOrdering(op.getSem()),
                                          adaptor.getPtr(), adaptor.getVal(), mask));
    return success();
  }
};

struct AtomicCASConversion : OpConversionPattern<triton::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Type elt = getElementTypeOrSelf(type);
    // cmpxchg compares bits: floats are exchanged as integers.
    Type intType = rewriter.getIntegerType(elt.getIntOrFloatBitWidth());
    // The failure ordering of cmpxchg cannot release.
    LLVM::AtomicOrdering onSuccess = toAtomicOrdering(op.getSem());
    LLVM::AtomicOrdering onFailure =
        onSuccess == LLVM::AtomicOrdering::release ? LLVM::AtomicOrdering::monotonic
        : onSuccess == LLVM::AtomicOrdering::acq_rel ? LLVM::AtomicOrdering::acquire
                                                     : onSuccess;
    auto exchange = [&](OpBuilder &b, Location loc, auto pick) -> Value {
      auto asInt = [&](Value v) { return bitcastTo(b, loc, intType, v); };
      auto cas = LLVM::AtomicCmpXchgOp::create(
          b, loc, toPointer(b, loc, pick(adaptor.getPtr())),
          asInt(pick(adaptor.getCmp())), asInt(pick(adaptor.getVal())), onSuccess,
          onFailure, StringRef(), byteSize(elt));
      Value old = LLVM::ExtractValueOp::create(b, loc, cas, 0);
      return bitcastTo(b, loc, elt, old);
    };
    // With bounds checking, lanes outside their argument skip the exchange
    // and read zero.
    Value allowed = emitBoundsCheck(rewriter, op, adaptor.getPtr(), Value(), byteSize(elt));
    auto lane = [&](OpBuilder &b, Location loc, ValueRange ivs) -> Value {
      auto pick = [&](Value v) {
        return ivs.empty() ? v : extractOrNull(b, loc, v, ivs);
      };
      if (!allowed)
        return exchange(b, loc, pick);
      auto inside = scf::IfOp::create(b, loc, TypeRange{elt}, pick(allowed),
                                      /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&inside.getThenRegion().front());
      scf::YieldOp::create(b, loc, ValueRange{exchange(b, loc, pick)});
      b.setInsertionPointToStart(&inside.getElseRegion().front());
      Value zero = arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(elt)));
      scf::YieldOp::create(b, loc, ValueRange{zero});
      return inside.getResult(0);
    };
    rewriter.replaceOp(op, mapLanes(rewriter, op.getLoc(), type, lane));
    return success();
  }
};

} // namespace

void refcpu::populateMemoryConversionPatterns(
    const TritonTypeConverter &converter, const DotLaneBounds &laneBounds,
    RewritePatternSet &patterns) {
  patterns.add<LoadConversion>(converter, patterns.getContext(), laneBounds);
  patterns.add<StoreConversion, AtomicRMWConversion, AtomicCASConversion>(
      converter, patterns.getContext());
}
