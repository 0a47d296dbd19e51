//===- FuseElementwisePass.cpp - the refcpu-fuse-elementwise pass ---------===//
//
// Elementwise fusion for the fast preset. A load lowered to a linalg.generic
// takes its addresses and mask from producers that are elementwise too:
//
//   %addr = linalg.generic (base + offset * 4)
//   %x    = linalg.generic ins(%addr, %mask) { scf.if %m { llvm.load } }
//     -> one linalg.generic computing the address and loading in one loop
//
// Consumers with reduction loops are left alone: fusing a load into a matmul
// would repeat it for every step of K. Loads and math used several times
// are not fused either, since each consumer would recompute them, and a load
// never moves past an op that may write memory.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "refcpu/Analysis/MemoryEffects.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace refcpu {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// Producers of at most two arith / index ops on at most one tensor (splats,
/// ranges, broadcasts, one add of a uniform value) are cheap enough to
/// recompute in every consumer. The bounds keep long chains with shared
/// intermediates (Philox rounds, the compare-and-swap stages of a bitonic
/// sort) from being copied into each of their users: a fused consumer is
/// small again, so it would be copied into its own users in turn, and the IR
/// would grow exponentially.
bool isCheapToRecompute(Operation *producer) {
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!generic || generic.getBody()->getOperations().size() > 3 ||
      generic.getNumDpsInputs() > 1)
    return false;
  return llvm::all_of(generic.getBody()->getOperations(), [](Operation &op) {
    return isa<arith::ArithDialect>(op.getDialect()) ||
           isa<linalg::IndexOp, linalg::YieldOp>(op);
  });
}

/// Whether the body of `producer` reads memory (a per-lane load).
bool readsMemory(Operation *producer) {
  WalkResult result = producer->walk([&](Operation *op) {
    if (op == producer)
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if ((effects && effects.hasEffect<MemoryEffects::Read>()) ||
        (!effects && !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Fusing moves the producer's computation to the consumer. A producer that
/// loads may only move there when nothing in between writes memory: in
/// `x = load(p); store(p, 0); y = x + 1`, the load must stay before the store.
bool canMoveReads(Operation *producer, Operation *consumer) {
  if (!readsMemory(producer))
    return true;
  if (producer->getBlock() != consumer->getBlock())
    return false;
  for (Operation *op = producer->getNextNode(); op && op != consumer;
       op = op->getNextNode())
    if (refcpu::mayWriteMemory(op))
      return false;
  return true;
}

struct FuseElementwisePass
    : public refcpu::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> named;
    module.walk([&](Operation *op) {
      if (isa<linalg::FillOp, linalg::BroadcastOp, linalg::TransposeOp>(op))
        named.push_back(cast<linalg::LinalgOp>(op));
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }

    RewritePatternSet patterns(&getContext());
    linalg::ControlFusionFn control = [](OpOperand *fused) {
      auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
      if (!consumer || consumer.getNumLoops() != consumer.getNumParallelLoops())
        return false;
      // A producer used elsewhere too would run twice once fused.
      Value produced = fused->get();
      Operation *producer = produced.getDefiningOp();
      if (!canMoveReads(producer, consumer))
        return false;
      return produced.hasOneUse() || isCheapToRecompute(producer);
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
