//===- ArgumentVariables.h - DWARF variables for kernel arguments -*- C++ -*-===//

#ifndef REFCPU_LIB_TARGET_ARGUMENTVARIABLES_H
#define REFCPU_LIB_TARGET_ARGUMENTVARIABLES_H

#include "refcpu/kernel_abi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Function.h"

#include <string>

namespace refcpu {

/// Describes every argument of `kernel`, a function with a DISubprogram, as
/// a DWARF parameter that a debugger shows (`info args`): the TTIR
/// parameters under `names`, with the types their `kinds`, `types` (of
/// scalars) and `pointeeTypes` (of pointers) say, as MLIR prints them
/// ("i32", "f32"), then the grid arguments
/// of the kernel ABI as num_programs_x, ..., pid_z. Each argument is stored
/// into a stack slot that the variable describes, as clang does at -O0, so
/// that its value stays readable in the whole function. Does nothing for a
/// function without a DISubprogram.
void addArgumentVariables(llvm::Function &kernel,
                          llvm::ArrayRef<std::string> names,
                          llvm::ArrayRef<refcpu_arg_kind> kinds,
                          llvm::ArrayRef<std::string> types,
                          llvm::ArrayRef<std::string> pointeeTypes);

} // namespace refcpu

#endif // REFCPU_LIB_TARGET_ARGUMENTVARIABLES_H
