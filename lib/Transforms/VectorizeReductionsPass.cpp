//===- VectorizeReductionsPass.cpp - the refcpu-vectorize-reductions pass -===//
//
// The TTIR conversion folds a long reduction into a block of partial results
// (ReductionPatterns.cpp), e.g. a row of 1024 floats as
//
//   linalg.generic {iterator_types = ["reduction", "parallel"]}
//       ins(%rows : memref<63x16xf32, ...>) outs(%partial : memref<16xf32>)
//       { arith.addf }
//
// Lowered to loops, LLVM fully unrolls the 16-lane inner loop before its
// vectorizers run and then fails to vectorize the 16 scalar accumulators it
// made: the row sum ran 1024 scalar adds per row, at half of torch's speed. Vectorized here with upstream linalg vectorization instead,
// the reduction is a vector.multi_reduction that
// `lower-vector-multi-reduction` turns into one vector add per row of
// partial results, and the final fold of the lanes into a vector.reduction.
//
// Any linalg op with a reduction dimension qualifies (fusion has made
// linalg.reduce a linalg.generic by now), block products excepted. Only
// statically shaped reductions up to `max-elements` input elements are
// vectorized: the vectors are unrolled completely, so their size is the size
// of the code. Combiners the vectorizer does not recognize as a reduction
// kind (argmax's pair of operands, any other region) stay on loops.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace refcpu {
#define GEN_PASS_DEF_VECTORIZEREDUCTIONS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// Whether `op` reduces its leading dimensions (or a 1-D block), on memrefs
/// of static shape whose inputs hold at most `maxElements` elements each.
bool isSmallStaticReduction(linalg::LinalgOp op, int64_t maxElements) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0)
    return false;
  // Rows folded into one row (reduced dimensions before all parallel ones),
  // or a whole 1-D block folded into a scalar. Any other order is lowered
  // through vector transposes into shuffles (reduce_2d's 32x3x16 and 32x15
  // blocks: 290 shufflevectors, 3x the compile time); it stays on loops.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto firstParallel = llvm::find(iterators, utils::IteratorType::parallel);
  if (iterators.size() > 1 &&
      (firstParallel == iterators.end() ||
       llvm::is_contained(llvm::make_range(firstParallel, iterators.end()),
                          utils::IteratorType::reduction)))
    return false;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !type.hasStaticShape())
      return false;
    // A memref keeps an i1 per byte, a vector<Nxi1> in memory is bit-packed:
    // a vector load of bools would read the wrong bits (tl.sum of a bool
    // block went wrong this way).
    Type element = type.getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      return false;
  }
  for (Value input : op.getDpsInputs())
    if (cast<MemRefType>(input.getType()).getNumElements() > maxElements)
      return false;
  return true;
}

struct VectorizeReductionsPass
    : refcpu::impl::VectorizeReductionsBase<VectorizeReductionsPass> {
  using VectorizeReductionsBase::VectorizeReductionsBase;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> reductions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      // Block products have their own lowering (refcpu-matmul-to-runtime).
      if (!linalg::isaContractionOpInterface(op) &&
          isSmallStaticReduction(op, maxElements) &&
          succeeded(linalg::vectorizeOpPrecondition(op)))
        reductions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp reduce : reductions) {
      rewriter.setInsertionPoint(reduce);
      // On memrefs the vectorized form writes its results through
      // vector.transfer_write and replaces no value.
      if (succeeded(linalg::vectorize(rewriter, reduce)))
        rewriter.eraseOp(reduce);
    }
    // A whole 1-D vector folded into a scalar (the lanes of partial
    // results) becomes vector.reduction, which LLVM folds as a tree of
    // shuffles. lower-vector-multi-reduction, whose strategy suits the
    // reductions across rows, would make it a chain of scalar ops.
    getOperation()->walk([&](vector::MultiDimReductionOp reduction) {
      if (reduction.getSourceVectorType().getRank() != 1)
        return;
      rewriter.setInsertionPoint(reduction);
      // Triton treats combiners as associative: the lanes are folded in
      // any order (tt.reduce on the GPU is a tree too).
      rewriter.replaceOpWithNewOp<vector::ReductionOp>(
          reduction, reduction.getKind(), reduction.getSource(),
          reduction.getAcc(), arith::FastMathFlags::reassoc);
    });
  }
};

} // namespace
