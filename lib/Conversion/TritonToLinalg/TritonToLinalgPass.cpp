//===- TritonToLinalgPass.cpp - the refcpu-triton-to-linalg pass ----------===//
//
// Drives the tt -> structured MLIR conversion: every tt op is illegal, every
// other op is legal once its types no longer mention tt pointers. An op that
// no pattern lowers makes the pass fail with the op's name and location.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Conversion/Passes.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace refcpu {
#define GEN_PASS_DEF_TRITONTOLINALG
#include "refcpu/Conversion/Passes.h.inc"
} // namespace refcpu

using namespace mlir;
using namespace refcpu;

namespace {

/// gpu.barrier (tl.debug_barrier) orders nothing on a CPU: each program is
/// one thread.
struct EraseBarrier : OpConversionPattern<gpu::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct TritonToLinalgPass
    : public refcpu::impl::TritonToLinalgBase<TritonToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    TritonTypeConverter converter(context);

    ConversionTarget target(*context);
    target.addIllegalDialect<triton::TTDialect>();
    target.addIllegalOp<gpu::BarrierOp>();
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType());
    });

    RewritePatternSet patterns(context);
    populateFuncConversionPatterns(converter, patterns);
    populateShapeConversionPatterns(converter, patterns);
    populateMemoryConversionPatterns(converter, patterns);
    populateBlockPointerConversionPatterns(converter, patterns);
    populateElementwiseConversionPatterns(converter, patterns);
    populateReductionConversionPatterns(converter, patterns);
    populateExternElementwisePatterns(converter, patterns);
    populateDebugConversionPatterns(converter, patterns);
    patterns.add<EraseBarrier>(converter, context);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    cf::populateCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
