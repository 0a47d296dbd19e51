//===- LoopOffsetsPass.cpp - the refcpu-loop-offsets pass -----------------===//
//
// Rewrites loop-carried pointer and integer tensors that every iteration
// advances uniformly into a scalar offset from their initial value:
//
//   scf.for ... iter_args(%p = %init) {          scf.for ... iter_args(%o = 0)
//   {
//     ... uses of %p ...                   ->      %p = addptr %init, splat(%o)
//     %q = tt.addptr %p, splat(%d)                 ... uses of %p ...
//     scf.yield %q                                 scf.yield %o + sext(%d)
//   }                                            }
//                                                %r = addptr %init,
//                                                splat(%loop)
//
// so that the pointer analysis of the TTIR lowering sees the same affine
// form of %p in every iteration. The rewritten addptrs sum the same offsets:
// pointer offsets in i64 (every addptr sign-extends its offset), integer
// offsets in their own type, where wrapping is modular either way.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace refcpu {
#define GEN_PASS_DEF_LOOPOFFSETS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// The scalar every lane of `offset` holds, when it is uniform: a splat, or a
/// splat constant (materialized before `before`).
Value uniformScalar(Value offset, Operation *before) {
  if (auto splat = offset.getDefiningOp<triton::SplatOp>())
    return splat.getSrc();
  DenseIntElementsAttr dense;
  if (!matchPattern(offset, m_Constant(&dense)) || !dense.isSplat())
    return Value();
  OpBuilder b(before);
  return arith::ConstantOp::create(
      b, offset.getLoc(),
      b.getIntegerAttr(dense.getElementType(), dense.getSplatValue<APInt>()));
}

/// What iteration `arg` advances by: the scalar step, and whether `arg` is a
/// pointer tensor. Null when the yielded value is not `arg` plus a uniform
/// tensor.
std::pair<Value, bool> uniformStep(BlockArgument arg, Value yielded) {
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type)
    return {Value(), false};
  Operation *def = yielded.getDefiningOp();
  if (auto addptr = dyn_cast_or_null<triton::AddPtrOp>(def)) {
    if (addptr.getPtr() != arg)
      return {Value(), false};
    return {uniformScalar(addptr.getOffset(), addptr), true};
  }
  if (auto add = dyn_cast_or_null<arith::AddIOp>(def)) {
    Value other = add.getLhs() == arg   ? add.getRhs()
                  : add.getRhs() == arg ? add.getLhs()
                                        : Value();
    if (!other)
      return {Value(), false};
    return {uniformScalar(other, add), false};
  }
  return {Value(), false};
}

/// Replaces the uses of the scalar `offset` (but the new ones) by `init`
/// advanced by it, built at `b`'s insertion point.
void replaceByAdvanced(OpBuilder &b, Location loc, Value offset, Value init,
                       bool isPointer) {
  auto type = cast<RankedTensorType>(init.getType());
  auto offsetType = RankedTensorType::get(type.getShape(), offset.getType());
  auto splat = triton::SplatOp::create(b, loc, offsetType, offset);
  Value advanced =
      isPointer
          ? triton::AddPtrOp::create(b, loc, type, init, splat).getResult()
          : arith::AddIOp::create(b, loc, init, splat).getResult();
  offset.replaceAllUsesExcept(advanced, splat);
}

void rewriteIterArg(scf::ForOp loop, unsigned index, Value step,
                    bool isPointer) {
  Location loc = loop.getLoc();
  BlockArgument arg = loop.getRegionIterArg(index);
  OpResult result = loop->getResult(index);
  OpOperand &yielded = loop.getYieldedValuesMutable()->operator[](index);
  Value init = loop.getInitArgs()[index];
  Type offsetType = isPointer ? IntegerType::get(loop.getContext(), 64)
                              : getElementTypeOrSelf(init.getType());

  OpBuilder b(loop);
  loop.getInitArgsMutable()[index].assign(
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(offsetType, 0)));
  arg.setType(offsetType);
  result.setType(offsetType);

  b.setInsertionPointToStart(loop.getBody());
  replaceByAdvanced(b, loc, arg, init, isPointer);
  b.setInsertionPointAfter(loop);
  replaceByAdvanced(b, loc, result, init, isPointer);

  b.setInsertionPoint(yielded.getOwner());
  if (step.getType() != offsetType)
    step = arith::ExtSIOp::create(b, loc, offsetType, step);
  Operation *advanced = yielded.get().getDefiningOp();
  yielded.set(arith::AddIOp::create(b, loc, arg, step));
  // The tensor advance is dead unless the body uses it too.
  if (advanced->use_empty())
    advanced->erase();
}

struct LoopOffsetsPass : public refcpu::impl::LoopOffsetsBase<LoopOffsetsPass> {
  void runOnOperation() override {
    getOperation().walk([](scf::ForOp loop) {
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
        BlockArgument arg = loop.getRegionIterArg(i);
        auto [step, isPointer] = uniformStep(arg, loop.getYieldedValues()[i]);
        if (step)
          rewriteIterArg(loop, i, step, isPointer);
      }
    });
  }
};

} // namespace
