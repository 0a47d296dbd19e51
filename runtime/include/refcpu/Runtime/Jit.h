//===- Jit.h - JIT-compile an LLVM module for the host ----------*- C++ -*-===//
//
// Turns the LLVM module the compiler produces into native code in this
// process with ORC's LLJIT, and hands out its packed entry.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_JIT_H
#define REFCPU_RUNTIME_JIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>

#include "refcpu/kernel_abi.h"

namespace llvm {
class LLVMContext;
class Module;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace refcpu::runtime {

/// A kernel's packed entry: args[i] points to the storage of argument i.
using PackedEntry = refcpu_packed_entry;

struct JitOptions {
  /// Level (0-3) of LLVM's standard IR optimization pipeline, run on the
  /// module before code generation with the host's target information.
  unsigned irOptLevel = 3;
};

/// One JIT-compiled module. Its code lives as long as the JitModule.
class JitModule {
public:
  /// Compiles `module` for the host (its CPU name and features, O3 code
  /// generation) and looks up `entrySymbol`, a `void(void **)` function.
  /// Undefined symbols resolve to the runtime's builtins (refcpu_rt_*,
  /// half-precision conversion helpers, memrefCopy) and then to the process
  /// (libm, libc). Errors are StatusErrors with REFCPU_ERROR_JIT.
  static llvm::Expected<std::unique_ptr<JitModule>>
  create(std::unique_ptr<llvm::LLVMContext> context,
         std::unique_ptr<llvm::Module> module, llvm::StringRef entrySymbol,
         const JitOptions &options = {});

  ~JitModule();
  JitModule(const JitModule &) = delete;
  JitModule &operator=(const JitModule &) = delete;

  PackedEntry getEntry() const { return entry; }

private:
  JitModule(std::unique_ptr<llvm::orc::LLJIT> jit, PackedEntry entry);

  std::unique_ptr<llvm::orc::LLJIT> jit;
  PackedEntry entry;
};

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_JIT_H
