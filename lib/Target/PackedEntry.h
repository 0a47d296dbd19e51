//===- PackedEntry.h - the kernel ABI's packed entry point ------*- C++ -*-===//

#ifndef REFCPU_LIB_TARGET_PACKEDENTRY_H
#define REFCPU_LIB_TARGET_PACKEDENTRY_H

#include "llvm/IR/Function.h"

#include <string>

namespace refcpu {

/// Adds `void <kernel>.refcpu_packed(ptr %args)` that loads argument i from
/// the storage args[i] points to and calls `kernel`; returns its name.
std::string addPackedEntry(llvm::Function &kernel);

} // namespace refcpu

#endif // REFCPU_LIB_TARGET_PACKEDENTRY_H
