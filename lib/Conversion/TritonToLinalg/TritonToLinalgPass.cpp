//===- TritonToLinalgPass.cpp - the refcpu-triton-to-linalg pass ----------===//
//
// Drives the tt -> structured MLIR conversion: every tt op is illegal, every
// other op is legal once its types no longer mention tt pointers. An op that
// no pattern lowers makes the pass fail with the op's name and location.
//
//===----------------------------------------------------------------------===//

#include "BoundsCheck.h"
#include "MemoryAccess.h"
#include "refcpu/Analysis/InPlaceReads.h"
#include "refcpu/Analysis/TrimmedK.h"
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

/// Ops with no CPU lowering get a message saying why, at their location.
template <typename OpTy>
struct Unsupported : OpConversionPattern<OpTy> {
  Unsupported(const TypeConverter &converter, MLIRContext *context,
              StringRef reason)
      : OpConversionPattern<OpTy>(converter, context), reason(reason.str()) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return op.emitOpError("is not supported by refcpu: ") << reason;
  }

  std::string reason;
};

/// A kernel's host TensorDescriptor parameter `%D: !tt.tensordesc<...>` is
/// followed by its shape (i32 per dimension) and strides (i64 per dimension)
/// as parameters of their own. At the kernel ABI the descriptor itself is its
/// base pointer; this rebuilds the descriptor from the three at entry.
LogicalResult materializeDescriptorParameters(triton::FuncOp func) {
  Block &entry = func.getBody().front();
  OpBuilder builder(func.getContext());
  builder.setInsertionPointToStart(&entry);
  SmallVector<Type> inputs(func.getArgumentTypes());
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    BlockArgument arg = entry.getArgument(i);
    auto desc = dyn_cast<triton::TensorDescType>(arg.getType());
    if (!desc)
      continue;
    RankedTensorType block = desc.getBlockType();
    unsigned rank = block.getRank();
    if (i + 2 * rank >= entry.getNumArguments())
      return func.emitOpError("tensor descriptor parameter ")
             << i << " must be followed by its shape and strides";
    SmallVector<Value> shape, strides;
    for (unsigned d = 0; d < rank; ++d) {
      shape.push_back(entry.getArgument(i + 1 + d));
      strides.push_back(entry.getArgument(i + 1 + rank + d));
    }
    if (llvm::any_of(shape, [](Value v) { return !v.getType().isInteger(32); }) ||
        llvm::any_of(strides, [](Value v) { return !v.getType().isInteger(64); }))
      return func.emitOpError("tensor descriptor parameter ")
             << i << " must be followed by i32 shape and i64 stride parameters";
    Type element = builder.getIntegerType(block.getElementTypeBitWidth());
    if (isa<FloatType>(block.getElementType()))
      element = block.getElementType();
    auto ptrType = triton::PointerType::get(element, 1);
    arg.setType(ptrType);
    inputs[i] = ptrType;
    auto made = triton::MakeTensorDescOp::create(builder, arg.getLoc(), desc, arg,
                                                 shape, strides);
    arg.replaceAllUsesExcept(made.getResult(), made);
  }
  func.setFunctionType(builder.getFunctionType(inputs, func.getResultTypes()));
  return success();
}

struct TritonToLinalgPass
    : public refcpu::impl::TritonToLinalgBase<TritonToLinalgPass> {
  using TritonToLinalgBase::TritonToLinalgBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    for (auto func : module.getOps<triton::FuncOp>())
      if (failed(materializeDescriptorParameters(func)))
        return signalPassFailure();
    if (checkBounds)
      for (auto func : module.getOps<triton::FuncOp>())
        if (func.isPublic())
          markCheckedAccesses(func);
    if (readInPlace)
      module.walk([](Operation *op) {
        if (isa<triton::LoadOp, triton::DescriptorLoadOp>(op) && canReadInPlace(op))
          op->setAttr(kReadInPlaceAttr, UnitAttr::get(op->getContext()));
        else if (isa<triton::DotOp>(op) && !mayRunAfterWrite(op))
          op->setAttr(kSharedOperandsAttr, UnitAttr::get(op->getContext()));
      });
    // Dots that stop at their operands' shared K bound (their loads leave
    // the lanes past it unread) and compute only the lanes a store keeps.
    // The markers are this pass's own, with ids into laneBounds: any that
    // the input carried go first.
    module.walk([](Operation *op) {
      for (StringRef marker :
           {kKeptByStoreAttr, kUnreadPastStoreAttr, kUnreadPastBoundAttr})
        op->removeAttr(marker);
    });
    DominanceInfo dominance(module);
    DotLaneBounds laneBounds;
    module.walk([&](triton::DotOp dot) {
      Builder builder(dot);
      int64_t rank = dot.getType().getRank();
      if (std::optional<TrimmedK> trimmed =
              analyzeTrimmedK(laneBounds.getPool(), dot)) {
        int64_t id = laneBounds.recordTrimmedK(*trimmed);
        trimmed->a->setAttr(kUnreadPastBoundAttr,
                            builder.getI64ArrayAttr({rank - 1, id}));
        trimmed->b->setAttr(kUnreadPastBoundAttr,
                            builder.getI64ArrayAttr({rank - 2, id}));
      }
      if (std::optional<KeptLanes> kept =
              analyzeKeptLanes(laneBounds.getPool(), dot, dominance)) {
        int64_t id = laneBounds.recordKept(*kept);
        dot->setAttr(kKeptByStoreAttr, builder.getI64IntegerAttr(id));
        for (auto [load, dim] :
             {std::pair(kept->a, rank - 2), std::pair(kept->b, rank - 1)})
          if (load)
            load->setAttr(kUnreadPastStoreAttr,
                          builder.getI64ArrayAttr({dim, id}));
      }
    });
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
    populateMemoryConversionPatterns(converter, laneBounds, patterns);
    populateBlockPointerConversionPatterns(converter, patterns);
    populateElementwiseConversionPatterns(converter, patterns);
    populateReductionConversionPatterns(converter, laneBounds, patterns);
    populateDotScaledConversionPatterns(converter, patterns);
    populateExternElementwisePatterns(converter, patterns);
    populateDebugConversionPatterns(converter, patterns);
    patterns.add<EraseBarrier>(converter, context);
    patterns.add<Unsupported<triton::ElementwiseInlineAsmOp>>(
        converter, context, "its body is PTX assembly, which a CPU cannot run");
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    cf::populateCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
