//===- MemoryPatterns.cpp - tt.load/store and atomics ---------------------===//
//
// The general memory path: every lane accesses its own i64 address, and a
// masked-off lane touches no memory. It is correct for any pointer tensor,
// whatever produced the addresses:
//
//   %v = tt.load %p, %m, %o : tensor<4x!tt.ptr<f32>>
//     -> linalg.generic ins(%addr, %m, %o) {
//          scf.if %mi { llvm.load (llvm.inttoptr %ai) } else { %oi } }
//   tt.store %p, %v, %m      -> scf.for over the lanes, scf.if + llvm.store
//   tt.atomic_rmw fadd, ...  -> scf.for over the lanes, llvm.atomicrmw
//
//===----------------------------------------------------------------------===//

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
               function_ref<Value(OpBuilder &, Location)> body) {
  if (!mask)
    return body(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, mask,
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, body(b, loc));
      },
      [&](OpBuilder &b, Location loc) { scf::YieldOp::create(b, loc, fallback); });
  return ifOp.getResult(0);
}

Value emitLoad(OpBuilder &b, Location loc, Type type, Value address, Value mask,
               Value other, bool isVolatile) {
  Value fallback = other ? other : zeroOf(b, loc, type);
  return ifMasked(b, loc, mask, fallback, [&](OpBuilder &b, Location loc) {
    return LLVM::LoadOp::create(b, loc, type, toPointer(b, loc, address),
                                byteSize(type), isVolatile)
        .getResult();
  });
}

void emitStore(OpBuilder &b, Location loc, Value value, Value address,
               Value mask) {
  auto store = [&](OpBuilder &b, Location loc) {
    LLVM::StoreOp::create(b, loc, value, toPointer(b, loc, address),
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

/// Visits every lane of `shape` in row-major order, threading `init` (a
/// tensor the body updates, or none) through the loops.
Value forEachLane(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
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

Value extractOrNull(OpBuilder &b, Location loc, Value tensor, ValueRange ivs) {
  if (!tensor)
    return tensor;
  return tensor::ExtractOp::create(b, loc, tensor, ivs);
}

struct LoadConversion : OpConversionPattern<triton::LoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!getTypeConverter()->isLegal(adaptor.getPtr().getType()))
      return rewriter.notifyMatchFailure(op, "block pointer not rewritten");
    bool isVolatile = op.getIsVolatile();
    auto tensorType = dyn_cast<RankedTensorType>(op.getType());
    if (!tensorType) {
      rewriter.replaceOp(op, emitLoad(rewriter, loc, op.getType(),
                                      adaptor.getPtr(), adaptor.getMask(),
                                      adaptor.getOther(), isVolatile));
      return success();
    }
    SmallVector<Value> inputs{adaptor.getPtr()};
    if (adaptor.getMask())
      inputs.push_back(adaptor.getMask());
    if (adaptor.getOther())
      inputs.push_back(adaptor.getOther());
    int64_t rank = tensorType.getRank();
    SmallVector<AffineMap> maps(inputs.size() + 1,
                                rewriter.getMultiDimIdentityMap(rank));
    Value empty = tensor::EmptyOp::create(rewriter, loc, tensorType.getShape(),
                                          tensorType.getElementType());
    bool hasMask = adaptor.getMask() != nullptr;
    bool hasOther = adaptor.getOther() != nullptr;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, tensorType, inputs, ValueRange{empty}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value mask = hasMask ? args[1] : Value();
          Value other = hasOther ? args[2] : Value();
          linalg::YieldOp::create(
              b, loc,
              emitLoad(b, loc, tensorType.getElementType(), args[0], mask,
                       other, isVolatile));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct StoreConversion : OpConversionPattern<triton::StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!getTypeConverter()->isLegal(adaptor.getPtr().getType()))
      return rewriter.notifyMatchFailure(op, "block pointer not rewritten");
    auto tensorType = dyn_cast<RankedTensorType>(adaptor.getValue().getType());
    if (!tensorType) {
      emitStore(rewriter, loc, adaptor.getValue(), adaptor.getPtr(),
                adaptor.getMask());
      rewriter.eraseOp(op);
      return success();
    }
    forEachLane(rewriter, loc, tensorType.getShape(), Value(),
                [&](OpBuilder &b, Location loc, ValueRange ivs, Value) {
                  emitStore(b, loc,
                            extractOrNull(b, loc, adaptor.getValue(), ivs),
                            extractOrNull(b, loc, adaptor.getPtr(), ivs),
                            extractOrNull(b, loc, adaptor.getMask(), ivs));
                  return Value();
                });
    rewriter.eraseOp(op);
    return success();
  }
};

LLVM::AtomicOrdering toOrdering(triton::MemSemantic sem) {
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

/// Applies `lane` to each element (or the scalar) and collects the results.
template <typename LaneFn>
Value mapLanes(ConversionPatternRewriter &rewriter, Location loc,
               Type resultType, LaneFn lane) {
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

struct AtomicRMWConversion : OpConversionPattern<triton::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elt = getElementTypeOrSelf(op.getType());
    LLVM::AtomicBinOp binOp = toBinOp(op.getAtomicRmwOp());
    LLVM::AtomicOrdering ordering = toOrdering(op.getSem());
    auto lane = [&](OpBuilder &b, Location loc, ValueRange ivs) {
      Value address = ivs.empty() ? adaptor.getPtr()
                                  : extractOrNull(b, loc, adaptor.getPtr(), ivs);
      Value value = ivs.empty() ? adaptor.getVal()
                                : extractOrNull(b, loc, adaptor.getVal(), ivs);
      Value mask = ivs.empty() ? adaptor.getMask()
                               : extractOrNull(b, loc, adaptor.getMask(), ivs);
      return ifMasked(b, loc, mask, zeroOf(b, loc, elt),
                      [&](OpBuilder &b, Location loc) {
                        return LLVM::AtomicRMWOp::create(
                                   b, loc, binOp, toPointer(b, loc, address),
                                   value, ordering, StringRef(), byteSize(elt))
                            .getResult();
                      });
    };
    rewriter.replaceOp(op, mapLanes(rewriter, op.getLoc(), op.getType(), lane));
    return success();
  }
};

struct AtomicCASConversion : OpConversionPattern<triton::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elt = getElementTypeOrSelf(op.getType());
    // cmpxchg compares bits: floats are exchanged as integers.
    Type intType = rewriter.getIntegerType(elt.getIntOrFloatBitWidth());
    // The failure ordering of cmpxchg cannot release.
    LLVM::AtomicOrdering onSuccess = toOrdering(op.getSem());
    LLVM::AtomicOrdering onFailure =
        onSuccess == LLVM::AtomicOrdering::release ? LLVM::AtomicOrdering::monotonic
        : onSuccess == LLVM::AtomicOrdering::acq_rel ? LLVM::AtomicOrdering::acquire
                                                     : onSuccess;
    auto lane = [&](OpBuilder &b, Location loc, ValueRange ivs) -> Value {
      auto pick = [&](Value v) {
        return ivs.empty() ? v : extractOrNull(b, loc, v, ivs);
      };
      auto asInt = [&](Value v) -> Value {
        return v.getType() == intType
                   ? v
                   : arith::BitcastOp::create(b, loc, intType, v).getResult();
      };
      auto cas = LLVM::AtomicCmpXchgOp::create(
          b, loc, toPointer(b, loc, pick(adaptor.getPtr())),
          asInt(pick(adaptor.getCmp())), asInt(pick(adaptor.getVal())), onSuccess,
          onFailure, StringRef(), byteSize(elt));
      Value old = LLVM::ExtractValueOp::create(b, loc, cas, 0);
      return old.getType() == elt ? old
                                  : arith::BitcastOp::create(b, loc, elt, old)
                                        .getResult();
    };
    rewriter.replaceOp(op, mapLanes(rewriter, op.getLoc(), op.getType(), lane));
    return success();
  }
};

} // namespace

void refcpu::populateMemoryConversionPatterns(
    const TritonTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LoadConversion, StoreConversion, AtomicRMWConversion,
               AtomicCASConversion>(converter, patterns.getContext());
}
