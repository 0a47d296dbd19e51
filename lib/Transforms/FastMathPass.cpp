//===- FastMathPass.cpp - the refcpu-fast-math pass -----------------------===//
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
// The approximation keeps exp's special values (exp(-inf) = 0,
// exp(+inf) = +inf, NaN stays NaN, overflow to +inf, underflow to 0).
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace refcpu {
#define GEN_PASS_DEF_FASTMATH
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

struct FastMathPass : refcpu::impl::FastMathBase<FastMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(
        patterns, [](StringRef name) { return name == math::ExpOp::getOperationName(); });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
