//===- MemoryEffects.cpp - which ops may change memory --------------------===//

#include "refcpu/Analysis/MemoryEffects.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

bool refcpu::mayWriteMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect());
  });
}
