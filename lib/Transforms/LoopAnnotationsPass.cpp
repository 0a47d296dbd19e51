//===- LoopAnnotationsPass.cpp - the refcpu-loop-annotations pass ---------===//
//
// Triton marks loops for LLVM with a discardable attribute on scf.for:
//
//   scf.for ... { ... } {llvm.loop_annotation = #llvm.loop_annotation<
//                            licm = #llvm.loop_licm<disable = true>>}
//
// After scf-to-cf and cf-to-llvm it sits, still discardable, on the loop's
// back edge; the translation to LLVM IR reads only the branch's inherent
// `loop_annotation`. Moving it there gives the loop its `!llvm.loop`
// metadata, so that LLVM's LICM leaves a loop alone as Triton asked:
//
//   llvm.br ^bb1(...) {llvm.loop_annotation = #a}
//     -> llvm.br ^bb1(...) {loop_annotation = #a}
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

namespace refcpu {
#define GEN_PASS_DEF_LOOPANNOTATIONS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// The name Triton (and scf-to-cf, which copies it) gives the attribute.
constexpr llvm::StringLiteral kTritonLoopAnnotation = "llvm.loop_annotation";

template <typename BranchOp>
void moveAnnotation(BranchOp branch) {
  auto annotation = dyn_cast_or_null<LLVM::LoopAnnotationAttr>(
      branch->getDiscardableAttr(kTritonLoopAnnotation));
  if (!annotation)
    return;
  branch->removeDiscardableAttr(kTritonLoopAnnotation);
  // A loop annotation the branch already carries (from MLIR's own passes)
  // is more specific; keep it.
  if (!branch.getLoopAnnotationAttr())
    branch.setLoopAnnotationAttr(annotation);
}

struct LoopAnnotationsPass
    : refcpu::impl::LoopAnnotationsBase<LoopAnnotationsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        moveAnnotation(br);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        moveAnnotation(condBr);
    });
  }
};

} // namespace
