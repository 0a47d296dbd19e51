//===- Passes.td - refcpu transformation passes ------------*- tablegen -*-===//
//
// Passes that rewrite IR within a level (no dialect conversion).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TRANSFORMS_PASSES_TD
#define REFCPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LoopAnnotations : Pass<"refcpu-loop-annotations", "::mlir::ModuleOp"> {
  let summary = "Turn the loop annotations of Triton's loops into LLVM loop metadata";
  let description = [{
    `tl.range(..., disable_licm=True)` puts `llvm.loop_annotation` on its
    `scf.for`. scf-to-cf copies that discardable attribute onto the loop's
    back edge, and cf-to-llvm keeps it on `llvm.br` as a discardable
    attribute, which the LLVM IR translation ignores. This pass moves it
    into the branch's `loop_annotation`, which becomes `!llvm.loop`
    metadata (`llvm.licm.disable`, ...). Runs on the LLVM dialect.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // REFCPU_TRANSFORMS_PASSES_TD
