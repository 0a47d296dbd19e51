//===- AccumulateInPlacePass.cpp - the refcpu-accumulate-in-place pass ----===//
//
// A loop-carried block updated elementwise (`acc += x` in a loop over
// column blocks) is lowered to a linalg.generic whose result goes to a
// fresh tensor, so one-shot bufferization gives each iteration a new heap
// buffer for the carried value, freed in the next one. When the carried
// block has no other reader, the update reads and writes it as its
// destination:
//
//   %sum = linalg.generic ins(%acc, %x) outs(tensor.empty()) {
//            ^bb0(%a, %b, %out): addf %a, %b }
//     -> %sum = linalg.generic ins(%x) outs(%acc) {
//            ^bb0(%b, %a): addf %a, %b }
//
// which bufferization keeps in the loop's buffer. (Reading %acc as an input
// while writing it as the destination would make it copy the input first.)
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace refcpu {
#define GEN_PASS_DEF_ACCUMULATEINPLACE
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// The input of the elementwise `op` whose block it may write into: one
/// that an scf.for carries (a region iter_arg of the loop directly around
/// `op`), read by nothing else, with the result's type and indexing map.
OpOperand *carriedInput(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics() ||
      op.getNumReductionLoops() != 0)
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      op.payloadUsesValueFromOperand(init))
    return nullptr;
  AffineMap initMap = op.getMatchingIndexingMap(init);
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!loop)
    return nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto carried = dyn_cast<BlockArgument>(input->get());
    if (!carried || carried.getOwner() != loop.getBody() ||
        carried.getArgNumber() < loop.getNumInductionVars() ||
        carried.getType() != init->get().getType() || !carried.hasOneUse() ||
        op.getMatchingIndexingMap(input) != initMap)
      continue;
    return input;
  }
  return nullptr;
}

/// Rebuilds `op` with `carried` as its destination instead of an input: the
/// body reads it through the output argument.
void accumulateInto(linalg::GenericOp op, OpOperand *carried) {
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    if (input != carried) {
      inputs.push_back(input->get());
      maps.push_back(op.getMatchingIndexingMap(input));
    }
  maps.push_back(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  OpBuilder b(op);
  auto updated = linalg::GenericOp::create(
      b, op.getLoc(), op->getResultTypes(), inputs, ValueRange{carried->get()},
      maps, op.getIteratorTypesArray());
  Region &body = updated.getRegion();
  body.takeBody(op.getRegion());
  Block &block = body.front();
  unsigned index = carried->getOperandNumber();
  block.getArgument(index).replaceAllUsesWith(block.getArguments().back());
  block.eraseArgument(index);
  op->replaceAllUsesWith(updated);
  op->erase();
}

struct AccumulateInPlacePass
    : refcpu::impl::AccumulateInPlaceBase<AccumulateInPlacePass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, OpOperand *>> updates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (OpOperand *input = carriedInput(op))
        updates.emplace_back(op, input);
    });
    for (auto [op, input] : updates)
      accumulateInto(op, input);
  }
};

} // namespace
