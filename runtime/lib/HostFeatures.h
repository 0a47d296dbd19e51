//===- HostFeatures.h - The x86 features this process may use ---*- C++ -*-===//
//
// What the runtime's kernels need to know about the host CPU, read with
// CPUID and XGETBV: an instruction set counts only when the CPU has it and
// the OS saves its register state. No LLVM (librefcpu_rt.a links this).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_LIB_HOSTFEATURES_H
#define REFCPU_RUNTIME_LIB_HOSTFEATURES_H

namespace refcpu::runtime {

struct HostFeatures {
  bool avx2 = false;
  bool fma = false;
  /// AVX512F, BW and VL: what the AVX-512 kernels use.
  bool avx512 = false;
  bool avx512bf16 = false;
  bool avx512vnni = false;
  /// AMX-TILE and AMX-BF16 with the tile state enabled by the OS (the
  /// process still has to ask Linux for permission to use it).
  bool amxBf16 = false;
  /// AMX-TILE and AMX-INT8, with the tile state, and AVX512_VBMI (whose
  /// byte permutes pack B for it).
  bool amxInt8 = false;
};

/// The host's features, read once.
const HostFeatures &getHostFeatures();

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_LIB_HOSTFEATURES_H
