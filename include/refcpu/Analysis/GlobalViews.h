//===- GlobalViews.h - memrefs of global memory ------------------*- C++ -*-===//
//
// After bufferization, a memref is either a view of global memory (what the
// kernel's pointers address; the conversion builds those from LLVM pointers)
// or a buffer of the program (alloc / alloca). The passes that treat the two
// differently (runtime block products, streaming stores) share this rule.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_ANALYSIS_GLOBALVIEWS_H
#define REFCPU_ANALYSIS_GLOBALVIEWS_H

#include "mlir/IR/Value.h"

namespace refcpu {

/// The memref that `memref` views, through any chain of view-like ops.
mlir::Value getViewRoot(mlir::Value memref);

/// Whether `root` (a getViewRoot result) is global memory: an unrealized
/// cast of one LLVM memref descriptor, as the conversion builds it.
bool isGlobalMemory(mlir::Value root);

} // namespace refcpu

#endif // REFCPU_ANALYSIS_GLOBALVIEWS_H
