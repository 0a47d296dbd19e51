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

#include "refcpu/Runtime/Launcher.h"

namespace llvm {
class LLVMContext;
class Module;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace refcpu::runtime {

/// One JIT-compiled module. Its code lives as long as the JitModule.
class JitModule {
public:
  /// Generates code for `module` (O3 code generation; no IR optimization:
  /// the compiler delivers optimized IR) for the target triple and data
  /// layout the module names, the process's when it names none, with the
  /// CPU and features its functions carry (`target-cpu`, `target-features`),
  /// and looks up `entrySymbol`, a `void(void **)` function.
  /// Undefined symbols resolve to the runtime's builtins (refcpu_rt_*,
  /// half-precision conversion helpers, memrefCopy) and then to the process
  /// (libm, libc). Errors are StatusErrors with REFCPU_ERROR_JIT.
  /// With `debug` (a module compiled in debug mode), code generation is at
  /// level none and each object is registered with gdb through its JIT
  /// interface, DWARF included. Where the environment variable
  /// REFCPU_PERF_MAP is set (and not "0"), in either mode, the functions are
  /// also appended to perf's /tmp/perf-<pid>.map.
  static llvm::Expected<std::unique_ptr<JitModule>>
  create(std::unique_ptr<llvm::LLVMContext> context,
         std::unique_ptr<llvm::Module> module, llvm::StringRef entrySymbol,
         bool debug = false);

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
