//===- Compile.h - TTIR text to an LLVM module with a packed entry -------===//
//
// The compiler's one entry point for the runtime side: parse and verify TTIR,
// lower it through the pipeline of DESIGN.md and translate it to LLVM IR with
// a packed entry `void <entry>(void **args)` following the kernel ABI of
// refcpu/kernel_abi.h.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TARGET_COMPILE_H
#define REFCPU_TARGET_COMPILE_H

#include "refcpu/Pipelines/Pipelines.h"
#include "refcpu/kernel_abi.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace refcpu {

struct CompileOptions {
  /// The preset, bounds checking and debug mode. In debug mode the stage
  /// dumps print op locations, the kernel's arguments get DWARF variables
  /// and the LLVM IR is not optimized.
  PipelineOptions pipeline;
  /// Public tt.func to compile; empty selects the only public one.
  std::string kernelName;
  /// When non-empty, the IR after each stage is written into this directory
  /// (0-ttir.mlir as parsed, 1-ttir-opt.mlir, 2-linalg.mlir,
  /// 3-llvm-dialect.mlir, 4-llvm.ll).
  std::string dumpDir;
  /// The file name diagnostics give the TTIR text.
  std::string sourceName = "kernel.ttir";
  /// The CPU to generate code for, as LLVM names it ("skylake-avx512",
  /// "x86-64-v3"); empty for the host's CPU with every feature it has.
  std::string targetCPU;
  /// The module is for an object file (ahead-of-time compilation):
  /// position-independent code, and every symbol but the packed entry
  /// internal.
  bool objectFile = false;
};

struct CompiledKernel {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  /// Name of the tt.func the kernel was compiled from.
  std::string kernelName;
  /// Symbol of the packed entry `void(void **)` inside `module`.
  std::string packedEntry;
  /// The TTIR parameters in order (the six trailing grid i32s not included).
  std::vector<refcpu_arg_kind> params;
  /// Whether the kernel may write through each parameter.
  std::vector<bool> paramWritten;
  /// Each parameter's name as the TTIR spells it ("x_ptr" for %x_ptr), or
  /// "arg<index>" where the text gave none.
  std::vector<std::string> paramNames;
  /// Each parameter's type as MLIR prints it ("!tt.ptr<f32>", "i32").
  std::vector<std::string> paramTypes;
  /// The pointee type of each !tt.ptr parameter ("f32"); empty for others.
  std::vector<std::string> paramPointeeTypes;
  /// Compiled in debug mode: the JIT is to generate unoptimized code and
  /// register it with the debugger.
  bool debug = false;
  /// The target `module` was optimized for; ahead-of-time compilation
  /// generates its object code with it.
  std::unique_ptr<llvm::TargetMachine> targetMachine;
};

/// Compiles TTIR text. Errors carry every diagnostic with its location.
llvm::Expected<CompiledKernel> compileTTIR(llvm::StringRef ttir,
                                           const CompileOptions &options);

} // namespace refcpu

#endif // REFCPU_TARGET_COMPILE_H
