//===- TargetMachine.h - The LLVM target a kernel is compiled for -*- C++ -*-===//
//
// One owner for the code generation target: the compiler optimizes for it,
// writes object files with it, and stamps its CPU and features on every
// function so that the JIT needs no target knowledge of its own.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TARGET_TARGETMACHINE_H
#define REFCPU_TARGET_TARGETMACHINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace refcpu {

/// A target machine for this process's triple at O3: for `cpu` (an LLVM
/// processor name such as "skylake-avx512" or "x86-64-v3") with the
/// features that CPU implies, or, with `cpu` empty, for the host's CPU with
/// every feature it has. `positionIndependent` selects PIC, which object
/// files need to link into position-independent executables and shared
/// libraries. An unknown `cpu` is an error that lists the known names.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef cpu, bool positionIndependent);

} // namespace refcpu

#endif // REFCPU_TARGET_TARGETMACHINE_H
