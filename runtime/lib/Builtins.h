//===- Builtins.h - Symbols the runtime defines for JIT-compiled code -----===//
//
// Generated code calls a few functions that are not reliably in the process:
// the kernel ABI's runtime hooks, compiler-rt style half/bfloat16 conversion
// helpers (older libgcc has no bfloat16 ones), MLIR's `memrefCopy` (from
// libmlir_c_runner_utils, which the runtime does not link), libdevice's
// Bessel functions (refcpu_rt_bessel_*, f64 -> f64), the block matrix
// products of tt.dot (refcpu_rt_matmul_*) and the copies of partial and
// wrapped blocks (refcpu_rt_copy_box, refcpu_rt_copy_wrapped). The JIT
// defines them as absolute symbols so that no process-wide symbol is needed;
// an object file links them from librefcpu_rt.a by the same names.
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

/// REFCPU_RT_COPY_BOX of kernel_abi.h (BlockCopies.cpp).
extern "C" void refcpu_rt_copy_box(
    void *dst, const void *src, int64_t elementSize, int64_t batches,
    int64_t rows, int64_t cols, int64_t batchStride, int64_t rowStride,
    int64_t colStride, int64_t batchLo, int64_t batchHi, int64_t rowLo,
    int64_t rowHi, int64_t colLo, int64_t colHi, int64_t padding);

/// REFCPU_RT_COPY_WRAPPED of kernel_abi.h (BlockCopies.cpp).
extern "C" void refcpu_rt_copy_wrapped(
    void *dst, const void *src, int64_t elementSize, int64_t rows, int64_t cols,
    int64_t rowStride, int64_t colStride, int64_t rowLo, int64_t rowHi,
    int64_t colLo, int64_t colHi, int64_t wrapDim, int64_t index, int64_t step,
    int64_t modulus, int64_t scale, int64_t padding);

#endif // REFCPU_RUNTIME_LIB_BUILTINS_H
