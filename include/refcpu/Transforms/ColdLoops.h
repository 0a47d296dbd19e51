//===- ColdLoops.h - marking code that rarely runs --------------*- C++ -*-===//
//
// The conversion marks the memory accesses of code that runs only when a
// run-time check fails (the per-lane fallback of a strided access); the
// refcpu-cold-loops pass keeps LLVM from unrolling and vectorizing the loops
// around them.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TRANSFORMS_COLDLOOPS_H
#define REFCPU_TRANSFORMS_COLDLOOPS_H

#include "llvm/ADT/StringRef.h"

namespace refcpu {

/// A unit attribute on the llvm.load and llvm.store ops of rarely run code.
/// It stays on them through fusion and bufferization, which rebuild the
/// linalg ops around them, and into the loops those become.
constexpr llvm::StringLiteral kColdAttr = "refcpu.cold";

} // namespace refcpu

#endif // REFCPU_TRANSFORMS_COLDLOOPS_H
