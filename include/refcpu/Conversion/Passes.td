//===- Passes.td - refcpu conversion passes ----------------*- tablegen -*-===//

#ifndef REFCPU_CONVERSION_PASSES_TD
#define REFCPU_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TritonToLinalg : Pass<"refcpu-triton-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower the tt dialect to func/linalg/tensor/scf/arith/math";
  let description = [{
    Converts every tt.func into a func.func that takes the kernel ABI's six
    trailing i32 grid values, turns pointers into i64 addresses (tensors of
    pointers into tensors of addresses), shape ops into tensor/linalg ops,
    tt.reduce into linalg.reduce with the combiner region inlined, and loads
    and stores into copies through strided memref views where pointer and
    mask analysis describe them as a strided block (block pointers and
    descriptors always), else into masked element accesses. Elementwise tt ops become arith
    and math ops on tensors for convert-elementwise-to-linalg. An op without a
    lowering is reported with its location. With check-bounds, loads, stores
    and atomics take the per-lane path and check every lane against the
    extent of the parameter its pointer derives from (BoundsCheck.cpp).
  }];
  let options = [
    Option<"checkBounds", "check-bounds", "bool", /*default=*/"false",
           "Check every access against the extent of its argument">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"];
}

def LoopOffsets : Pass<"refcpu-loop-offsets", "::mlir::ModuleOp"> {
  let summary = "Carry uniformly advanced pointer and offset tensors of loops as scalars";
  let description = [{
    A tensor of pointers (or integers) that an scf.for advances by the same
    amount in every lane, as in `a_ptrs += BLOCK_K * stride_ak`, becomes a
    scalar the loop carries: the lanes are the loop-invariant initial tensor
    plus that scalar. The access then has one form in every iteration, so
    the TTIR lowering describes it as a strided block (a memref view)
    instead of per-lane addresses. Pointer offsets are summed in i64, as
    the pointers' addresses are; integer offsets wrap as the original adds
    did. Runs on TTIR, before refcpu-triton-to-linalg.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ArithSemantics : Pass<"refcpu-arith-semantics", "::mlir::ModuleOp"> {
  let summary = "Give arith ops that are undefined in LLVM Triton's GPU results";
  let description = [{
    Scalar arith ops whose LLVM lowering is poison or traps for some inputs
    are rewritten to the values Triton 3.6 produces on NVIDIA GPUs (see
    TTIR-REFERENCE section 8), so that kernels never hit SIGFPE or undefined
    behaviour on the CPU:
      - x / 0 = -1 (unsigned: all ones), x % 0 = x, INT_MIN / -1 = INT_MIN,
        INT_MIN % -1 = 0;
      - shifts by the bit width or more give 0 (arithmetic right shifts give
        the sign fill);
      - float -> int conversions saturate (NaN -> 0); to 8-bit integers they
        saturate to 16 bits first, then truncate;
      - math.absf of fp8 clears the sign bit (LLVM has no fp8 arithmetic).
    Runs after convert-elementwise-to-linalg, when every such op is scalar.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FuseElementwise : Pass<"refcpu-fuse-elementwise", "::mlir::ModuleOp"> {
  let summary = "Fuse elementwise linalg ops of a kernel (fast preset)";
  let description = [{
    Generalizes linalg.fill / broadcast / transpose and fuses producers into
    elementwise consumers, so address, mask and value computations run in
    the loop of the load, store or math that uses them instead of going
    through memory. Unlike upstream linalg-fuse-elementwise-ops it never
    fuses into a consumer with reduction loops (a matmul or a reduce), where
    the producer would be recomputed once per reduction step.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CollapseDims : Pass<"refcpu-collapse-dims", "::mlir::ModuleOp"> {
  let summary = "Give every linalg op the fewest loops that describe it";
  let description = [{
    Drops unit dimensions and merges neighbouring loops of the same kind
    that every operand indexes together, reshaping the operands around the
    op. High-rank blocks of small extents (Triton's bitonic sort reshapes to
    2x2x...x2) otherwise become deep nests of two-iteration loops that LLVM
    unrolls completely, so their code and compile time explode.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // REFCPU_CONVERSION_PASSES_TD
