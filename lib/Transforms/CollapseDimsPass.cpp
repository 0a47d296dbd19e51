//===- CollapseDimsPass.cpp - the refcpu-collapse-dims pass ---------------===//
//
// Kernels reshape blocks into high-rank tensors of small extents: Triton's
// bitonic sort works on 2x2x...x2 (rank 9 for 512 elements). Lowered as they
// are, each op becomes a loop nest nine deep with trip count 2, which LLVM
// unrolls completely: one sort kernel became 6 MB of LLVM IR and a minute
// of compile time. Here every linalg op gets the fewest loops that describe
// it: unit dimensions are dropped, and neighbouring loops of the same kind
// that every operand indexes together (or not at all) are merged into one,
// with tensor.collapse_shape / expand_shape around the op.
//
//   linalg.generic {iterator_types = [parallel x 7, reduction, parallel]}
//       ins(tensor<2x2x2x2x2x2x2x2x2xi32>)
//     -> linalg.generic {iterator_types = [parallel, reduction, parallel]}
//            ins(tensor<128x2x2xi32>)
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace refcpu {
#define GEN_PASS_DEF_COLLAPSEDIMS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// Whether loops `outer` and `outer + 1` are indexed together by `map`:
/// both absent, or adjacent results in that order. Only maps of plain loop
/// indices qualify.
bool indexedTogether(AffineMap map, unsigned outer) {
  std::optional<unsigned> outerPos = map.getResultPosition(getAffineDimExpr(outer, map.getContext()));
  std::optional<unsigned> innerPos =
      map.getResultPosition(getAffineDimExpr(outer + 1, map.getContext()));
  if (!outerPos && !innerPos)
    return true;
  return outerPos && innerPos && *innerPos == *outerPos + 1;
}

/// The runs of neighbouring loops of `op` that can become one loop.
SmallVector<ReassociationIndices> collapsibleLoops(linalg::LinalgOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap map) { return map.isProjectedPermutation(); }))
    return {};
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<ReassociationIndices> runs;
  ReassociationIndices run{0};
  auto flush = [&] {
    if (run.size() > 1)
      runs.push_back(run);
  };
  for (unsigned loop = 1; loop < op.getNumLoops(); ++loop) {
    bool merge = iterators[loop] == iterators[loop - 1] &&
                 llvm::all_of(maps, [&](AffineMap map) {
                   return indexedTogether(map, loop - 1);
                 });
    if (!merge) {
      flush();
      run.clear();
    }
    run.push_back(loop);
  }
  flush();
  return runs;
}

struct CollapseDimsPass
    : public refcpu::impl::CollapseDimsBase<CollapseDimsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Named ops become generics so that one rule collapses all of them;
    // matmuls keep their form (no loops of theirs can merge).
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> named;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::FillOp, linalg::BroadcastOp, linalg::TransposeOp,
              linalg::ReduceOp, linalg::CopyOp, linalg::MapOp>(op) &&
          op.hasPureTensorSemantics())
        named.push_back(op);
    });
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }

    RewritePatternSet patterns(&getContext());
    linalg::ControlDropUnitDims unitDims;
    linalg::populateFoldUnitExtentDimsPatterns(patterns, unitDims);
    linalg::populateCollapseDimensions(patterns, collapsibleLoops);
    tensor::populateReassociativeReshapeFoldingPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
