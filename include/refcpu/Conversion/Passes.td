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
    and stores into masked element accesses. Elementwise tt ops become arith
    and math ops on tensors for convert-elementwise-to-linalg. An op without a
    lowering is reported with its location.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"];
}

#endif // REFCPU_CONVERSION_PASSES_TD
