//===- ZeroAccumulators.cpp - buffers that products first fill from zero --===//

#include "refcpu/Analysis/ZeroAccumulators.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>

using namespace mlir;

namespace {

/// Whether `attr` is a zero of its type whose every bit is 0 (+0.0, not
/// -0.0: a product added to -0.0 keeps the sign of a zero sum).
bool isZeroBits(Attribute attr) {
  if (auto value = dyn_cast<FloatAttr>(attr))
    return value.getValue().isPosZero();
  if (auto value = dyn_cast<IntegerAttr>(attr))
    return value.getValue().isZero();
  return false;
}

/// The buffer that `op` sets to zero whole, if it does: a linalg.fill of a
/// zero constant, or a memref.copy from a constant global of zeros (what
/// bufferization makes of a zero tensor constant).
Value getZeroedBuffer(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    Attribute value;
    if (fill.hasPureBufferSemantics() &&
        matchPattern(fill.value(), m_Constant(&value)) && isZeroBits(value))
      return fill.output();
    return {};
  }
  auto copy = dyn_cast<memref::CopyOp>(op);
  if (!copy)
    return {};
  auto source = copy.getSource().getDefiningOp<memref::GetGlobalOp>();
  if (!source)
    return {};
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      source, source.getNameAttr());
  auto init =
      global ? dyn_cast_or_null<SplatElementsAttr>(global.getInitialValueAttr())
             : nullptr;
  if (!global || !global.getConstant() || !init ||
      !isZeroBits(init.getSplatValue<Attribute>()))
    return {};
  return copy.getTarget();
}

/// Whether `buffer` is a statically shaped buffer of the program.
bool isLocalBuffer(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && type.hasStaticShape() &&
         isa_and_nonnull<memref::AllocaOp, memref::AllocOp>(
             buffer.getDefiningOp());
}

/// The uses of `buffer`'s aliases (views, results of the ops that yield it:
/// `aliases`), but for ops whose every result is an alias itself, whose
/// uses are listed instead.
SmallVector<OpOperand *> collectUses(Value buffer,
                                     const BufferViewFlowAnalysis &aliases) {
  BufferViewFlowAnalysis::ValueSetT all = aliases.resolve(buffer);
  SmallVector<OpOperand *> uses;
  for (Value alias : all)
    for (OpOperand &use : alias.getUses()) {
      Operation *user = use.getOwner();
      if (user->getNumResults() &&
          llvm::all_of(user->getResults(),
                       [&](Value result) { return all.contains(result); }))
        continue;
      uses.push_back(&use);
    }
  return uses;
}

/// Whether `use` is `product`'s accumulator: its init operand, `buffer`
/// itself or a subview of it at its origin with unit strides.
bool isAccumulatorUse(OpOperand &use, linalg::LinalgOp product, Value buffer) {
  if (product.getNumDpsInits() != 1 || product.getNumDpsInputs() != 2 ||
      &use != product.getDpsInitOperand(0))
    return false;
  if (use.get() == buffer)
    return true;
  auto view = use.get().getDefiningOp<memref::SubViewOp>();
  return view && view.getSource() == buffer &&
         llvm::all_of(
             view.getMixedOffsets(),
             [](OpFoldResult offset) { return isZeroInteger(offset); }) &&
         llvm::all_of(view.getMixedStrides(),
                      [](OpFoldResult stride) { return isOneInteger(stride); });
}

/// The zero accumulator that `fill` begins, if it does.
std::optional<refcpu::ZeroAccumulator>
analyzeFill(Operation *fill, Value buffer,
            const BufferViewFlowAnalysis &aliases,
            function_ref<bool(linalg::LinalgOp)> isProduct) {
  Block *block = fill->getBlock();
  SmallVector<OpOperand *> uses = collectUses(buffer, aliases);
  refcpu::ZeroAccumulator result{fill, buffer, {}, nullptr};
  SmallVector<Operation *> others;
  for (OpOperand *use : uses) {
    Operation *user = use->getOwner();
    if (user == fill)
      continue;
    auto product = dyn_cast<linalg::LinalgOp>(user);
    if (product && isa<linalg::MatmulOp, linalg::BatchMatmulOp>(user) &&
        isProduct(product) && isAccumulatorUse(*use, product, buffer)) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      // A product before the fill, or outside its block, reads what
      // the buffer held there.
      if (!ancestor || !fill->isBeforeInBlock(ancestor))
        return std::nullopt;
      if (!result.lastProduct || result.lastProduct->isBeforeInBlock(ancestor))
        result.lastProduct = ancestor;
      result.products.push_back(product);
      continue;
    }
    others.push_back(user);
  }
  if (result.products.empty())
    return std::nullopt;
  // Another fill of the buffer, a read, a view that escapes (a pointer): each
  // must run before the fill or after the last product.
  for (Operation *other : others) {
    Operation *ancestor = block->findAncestorOpInBlock(*other);
    if (ancestor && fill->isBeforeInBlock(ancestor) &&
        !result.lastProduct->isBeforeInBlock(ancestor))
      return std::nullopt;
  }
  return result;
}

} // namespace

SmallVector<refcpu::ZeroAccumulator>
refcpu::findZeroAccumulators(Operation *root,
                             function_ref<bool(linalg::LinalgOp)> isProduct) {
  // Buffers with one zero fill each: a second fill starts another use of
  // the buffer that the first one's products must not reach.
  llvm::DenseMap<Value, SmallVector<Operation *>> fills;
  SmallVector<Value> buffers;
  root->walk([&](Operation *op) {
    Value buffer = getZeroedBuffer(op);
    if (!buffer || !isLocalBuffer(buffer))
      return;
    auto &ops = fills[buffer];
    if (ops.empty())
      buffers.push_back(buffer);
    ops.push_back(op);
  });
  SmallVector<ZeroAccumulator> found;
  // The aliases of each function's buffers, analysed once per function.
  llvm::DenseMap<Operation *, std::unique_ptr<BufferViewFlowAnalysis>>
      aliasesOf;
  for (Value buffer : buffers) {
    if (fills[buffer].size() != 1)
      continue;
    Operation *fill = fills[buffer][0];
    auto func = fill->getParentOfType<FunctionOpInterface>();
    if (!func)
      continue;
    auto &aliases = aliasesOf[func];
    if (!aliases)
      aliases = std::make_unique<BufferViewFlowAnalysis>(func);
    if (auto accumulator = analyzeFill(fill, buffer, *aliases, isProduct))
      found.push_back(std::move(*accumulator));
  }
  return found;
}

memref::SubViewOp refcpu::getAccumulatorView(linalg::LinalgOp product,
                                             Value buffer) {
  Value init = product.getDpsInitOperand(0)->get();
  return init == buffer ? nullptr : init.getDefiningOp<memref::SubViewOp>();
}
