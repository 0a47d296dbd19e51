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

def ReduceLocality : Pass<"refcpu-reduce-locality", "::mlir::ModuleOp"> {
  let summary = "Accumulate loop reductions in SIMD lanes, reduce once after the loop";
  let description = [{
    A loop that folds a reduction of each iteration's block into a carried
    value (`acc = acc + tl.sum(x, axis=-1)`, max, min, ...) pays a
    horizontal reduction across vector lanes every iteration. This pass
    carries one partial result per lane instead: the block's reduced axis
    of size N is split into N/L x L (L elements fill one 512-bit vector),
    each iteration reduces only the N/L part (vertical vector operations)
    into a carried tensor with an L axis, and one reduction over L after
    the loop gives the value. It is the CPU counterpart of TritonGPU's
    thread-locality optimization (partial results per thread, one
    cross-thread reduction at the end). Applies when the reduced axis is the
    innermost one, N is a multiple of L larger than L, and the combiner is
    one associative, commutative arith op with an identity (add, mul, max,
    min, and, or, xor). Floating-point sums are reassociated, as on the GPU.
    Fast preset only.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::triton::TTDialect"];
}

#endif // REFCPU_TRANSFORMS_PASSES_TD
