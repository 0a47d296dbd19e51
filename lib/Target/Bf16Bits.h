//===- Bf16Bits.h - bf16 values moved as their bits -------------*- C++ -*-===//

#ifndef REFCPU_LIB_TARGET_BF16BITS_H
#define REFCPU_LIB_TARGET_BF16BITS_H

#include "llvm/IR/Module.h"

namespace refcpu {

/// Rewrites the loads, stores, phis, selects, freezes and vector shuffles,
/// inserts and extracts of bf16 values (scalars and vectors) in `module` to
/// move i16 bits instead; only conversions see bf16. Run after the
/// optimizer, which would fold the casts back, and before code generation:
/// LLVM's x86 backend carries a bf16 value that is not only loaded and
/// stored in an f32 register and rounds it back with vcvtneps2bf16 on
/// AVX512_BF16 hosts, which flushes subnormals to zero.
void moveBf16AsBits(llvm::Module &module);

} // namespace refcpu

#endif // REFCPU_LIB_TARGET_BF16BITS_H
