//===- MemoryEffects.h - which ops may change memory -------------*- C++ -*-===//
//
// The one rule the passes that move reads of memory across other ops share
// (in-place reads of loaded blocks, fusion of elementwise producers into
// their consumers): what counts as an op that may change memory.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_ANALYSIS_MEMORYEFFECTS_H
#define REFCPU_ANALYSIS_MEMORYEFFECTS_H

#include "mlir/IR/Operation.h"

namespace refcpu {

/// Whether `op` or an op nested in it may write or free memory. Ops whose
/// effects are unknown (no MemoryEffectOpInterface, no recursive effects)
/// count as writing.
bool mayWriteMemory(mlir::Operation *op);

} // namespace refcpu

#endif // REFCPU_ANALYSIS_MEMORYEFFECTS_H
