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
// are not fused either, since each consumer would recompute them.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace refcpu {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "refcpu/Conversion/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// Producers of at most two arith / index ops (splats, ranges, broadcasts,
/// one add) are cheap enough to recompute in every consumer. The bound keeps
/// long chains with shared intermediates (Philox rounds) from being copied
/// into each of their users, which grows the IR exponentially.
bool isCheapToRecompute(Operation *producer) {
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!generic || generic.getBody()->getOperations().size() > 3)
    return false;
  return llvm::all_of(generic.getBody()->getOperations(), [](Operation &op) {
    return isa<arith::ArithDialect>(op.getDialect()) ||
           isa<linalg::IndexOp, linalg::YieldOp>(op);
  });
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
      return produced.hasOneUse() || isCheapToRecompute(produced.getDefiningOp());
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
