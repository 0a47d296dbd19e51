//===- AheadOfTime.h - TTIR to an object file and its C header --*- C++ -*-===//
//
// Ahead-of-time compilation: the kernel as a relocatable object that a C or
// C++ program links with librefcpu_rt.a (no LLVM, MLIR or Python at run
// time), and a header declaring its typed launch function.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TARGET_AHEADOFTIME_H
#define REFCPU_TARGET_AHEADOFTIME_H

#include "refcpu/Target/Compile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace refcpu {

/// Compiles `ttir` (as compileTTIR does, for `options.targetCPU`) into an
/// ELF object at `objectPath` and, when `headerPath` is not empty, writes its
/// header there. Each file is written whole or not at all: a failure leaves
/// existing files as they were.
llvm::Error compileAheadOfTime(llvm::StringRef ttir,
                               const CompileOptions &options,
                               llvm::StringRef objectPath,
                               llvm::StringRef headerPath);

/// The C header of `kernel`: its packed entry and a static inline
/// `<kernel>_launch(refcpu_grid grid, <parameters>)` with the parameters'
/// C types (const pointers for pointers the kernel never writes through).
/// `objectName` is the object file's name, for the comments.
std::string generateKernelHeader(const CompiledKernel &kernel,
                                 llvm::StringRef objectName);

} // namespace refcpu

#endif // REFCPU_TARGET_AHEADOFTIME_H
