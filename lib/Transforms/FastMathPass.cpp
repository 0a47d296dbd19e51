//===- FastMathPass.cpp - the refcpu-fast-math pass -----------------------===//
//
// Float math that stays in vector registers for every lane (fast preset).
//
// f32 math.exp becomes MLIR's polynomial approximation (range reduction to
// [-ln2/2, ln2/2], a polynomial, then 2^k through the exponent bits), which
// is plain arith that LLVM's loop vectorizer keeps in vector registers for
// every lane. Lowered to libm instead, the vectorizer calls libmvec's
// `_ZGVdN8v_expf`, which falls back to scalar `expf` for the whole vector
// when one lane is outside its fast range: the -inf that masked-out lanes
// of a row softmax hold send every partial row there.
//
//   %e = math.exp %x : f32
//     -> arith.mulf / math.fma / arith.select ... : f32   (no call)
//
// Float max and min become LLVM's intrinsics with the same semantics now,
// before arith-expand would turn them into compare + select: LLVM rewrote
// those selects in a reduction's accumulator row into a compare and a
// branch per element (softmax_rows' row max), where llvm.maxnum is one
// vmaxps and a NaN blend per vector.
//
//   %m = arith.maxnumf %a, %b : f32  ->  %m = llvm.intr.maxnum(%a, %b) : f32
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace refcpu {
#define GEN_PASS_DEF_FASTMATH
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// arith's float max / min as the LLVM intrinsic arith-to-llvm would give
/// it. Only ops without fast-math flags (Triton sets none on them) and of
/// float types LLVM has, so nothing is lost in the translation.
template <typename ArithOp, typename IntrinsicOp>
struct MinMaxToIntrinsic : OpRewritePattern<ArithOp> {
  using OpRewritePattern<ArithOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ArithOp op, PatternRewriter &rewriter) const override {
    if (op.getFastmath() != arith::FastMathFlags::none ||
        !LLVM::isCompatibleFloatingPointType(getElementTypeOrSelf(op.getType())))
      return failure();
    rewriter.replaceOpWithNewOp<IntrinsicOp>(op, op.getLhs(), op.getRhs(),
                                             LLVM::FastmathFlagsAttr{});
    return success();
  }
};

struct FastMathPass : refcpu::impl::FastMathBase<FastMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) { return name == math::ExpOp::getOperationName(); });
    patterns.add<MinMaxToIntrinsic<arith::MaxNumFOp, LLVM::MaxNumOp>,
                 MinMaxToIntrinsic<arith::MinNumFOp, LLVM::MinNumOp>,
                 MinMaxToIntrinsic<arith::MaximumFOp, LLVM::MaximumOp>,
                 MinMaxToIntrinsic<arith::MinimumFOp, LLVM::MinimumOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
