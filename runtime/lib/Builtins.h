//===- Builtins.h - Symbols the runtime defines for JIT-compiled code -----===//
//
// Generated code calls a few functions that are not reliably in the process:
// the kernel ABI's runtime hooks, compiler-rt style half/bfloat16 conversion
// helpers (older libgcc has no bfloat16 ones), MLIR's `memrefCopy` (from
// libmlir_c_runner_utils, which the runtime does not link), libdevice's
// Bessel functions (refcpu_rt_bessel_*, f64 -> f64) and the block matrix
// products of tt.dot (refcpu_rt_matmul_*). The JIT defines them as absolute
// symbols so that no process-wide symbol is needed; an object file links
// them from librefcpu_rt.a by the same names.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_LIB_BUILTINS_H
#define REFCPU_RUNTIME_LIB_BUILTINS_H

#include <cstdint>
#include <vector>

namespace refcpu::runtime {

/// MLIR's UnrankedMemRefType: a rank and a pointer to a ranked descriptor
/// { allocated, aligned, offset, sizes[rank], strides[rank] }. The type of
/// `memrefCopy`'s parameters, so that callers call it through its own type.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

/// A symbol name as generated code refers to it and its address here.
struct BuiltinSymbol {
  const char *name;
  void *address;
};

/// Every symbol the JIT must define for generated code.
const std::vector<BuiltinSymbol> &getBuiltinSymbols();

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_LIB_BUILTINS_H
