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
    A tt.dot whose operands' masks bound K by one value, both padded with
    zero (refcpu/Analysis/TrimmedK.h), becomes a product over the lanes of K
    below it, and its loads leave the lanes past it unread.
    With read-in-place, a strided load that canReadInPlace accepts
    (refcpu/Analysis/InPlaceReads.h) copies only a block that is partly out of
    bounds in lanes that are read (not those past a dot's K bound); a block
    in bounds is read through its view; and a tt.dot that no
    write of its program can precede (mayRunAfterWrite) becomes a product
    marked `refcpu.shared_operands`, whose operands read in place are the
    same for every program of a launch (refcpu-matmul-to-runtime).
  }];
  let options = [
    Option<"checkBounds", "check-bounds", "bool", /*default=*/"false",
           "Check every access against the extent of its argument">,
    Option<"readInPlace", "read-in-place", "bool", /*default=*/"false",
           "Let loads that nothing overwrites before their last use read "
           "in-bounds blocks without a copy">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"];
}

#endif // REFCPU_CONVERSION_PASSES_TD
