//===- Pipelines.h - refcpu pass pipelines ----------------------*- C++ -*-===//
//
// The two halves of the compiler (DESIGN.md): TTIR -> structured MLIR
// (linalg/tensor/scf/arith/math) and structured MLIR -> LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_PIPELINES_PIPELINES_H
#define REFCPU_PIPELINES_PIPELINES_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

namespace refcpu {

/// Code generation presets (DESIGN.md): `Reference` is the plain
/// linalg -> loops pipeline kept for validation, `Fast` adds optimization
/// (tt-level reduce locality, elementwise fusion).
enum class Preset { Fast, Reference };

/// What the pipelines are built for; the one owner of the pipeline options
/// (compileTTIR, the C API and refcpu-opt's registered pipelines fill it).
struct PipelineOptions {
  Preset preset = Preset::Fast;
  /// Check every access against its argument's extent (refcpu/kernel_abi.h).
  bool checkBounds = false;
  /// Debug mode (DESIGN.md): the LLVM-dialect functions get a DWARF scope
  /// (DISubprogram), so that the op locations of the TTIR, Python file:line
  /// for Triton's output, reach LLVM IR as a line table. compileTTIR then
  /// also leaves the LLVM IR unoptimized and the JIT generates code at
  /// optimization level none and registers it with the debugger.
  bool debug = false;
};

/// Registers the tt dialect, the dialects refcpu lowers to and their
/// interface models (not every upstream dialect: that would pull all of them,
/// GPU code generators included, into the self-contained library).
void registerDialects(mlir::DialectRegistry &registry);

/// Declares the memory effects of llvm.atomicrmw, llvm.cmpxchg and
/// llvm.intr.assume, which buffer deallocation needs to see in kernels.
void registerLLVMOpEffects(mlir::DialectRegistry &registry);

/// Registers refcpu's passes and the pipelines `refcpu-ttir-to-linalg` and
/// `refcpu-linalg-to-llvm` with the pass registry (for refcpu-opt), each
/// taking the options `preset=fast|reference` (default: reference, the plain
/// path), `debug` (read by the second) and, for the first, `check-bounds`.
void registerPassesAndPipelines();

/// TTIR -> TTIR: refcpu's tt-level optimizations (loop offsets; in the
/// fast preset also per-lane loop reductions). Its output is what the
/// Triton plugin shows as the `ttgir` stage.
void buildTTIROptimization(mlir::OpPassManager &pm, const PipelineOptions &options);

/// TTIR (tt.func) -> func.func on tensors with linalg/tensor/scf/arith/math.
void buildTTIRToLinalg(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Structured tensor IR -> LLVM dialect, ready for translation. In debug
/// mode every op ends with one file:line location and every llvm.func with
/// a DISubprogram scope.
void buildLinalgToLLVM(mlir::OpPassManager &pm, const PipelineOptions &options);

} // namespace refcpu

#endif // REFCPU_PIPELINES_PIPELINES_H
