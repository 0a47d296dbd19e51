//===- LLVMOpEffects.cpp - memory effects of LLVM ops in kernels ----------===//
//
// llvm.atomicrmw, llvm.cmpxchg and llvm.intr.assume declare no
// MemoryEffectOpInterface, and ownership-based buffer deallocation rejects
// ops whose effects are unknown. They are in kernels before bufferization
// (tt atomics lower to the first two; tl.assume is the third), so refcpu
// states their effects: atomics read and write memory that no buffer of the
// kernel aliases; an assumption touches no memory, but writes a resource of
// its own so that dead-code elimination keeps it for LLVM to use (LLVM
// models llvm.assume the same way, as writing inaccessible memory).
//
//===----------------------------------------------------------------------===//

#include "refcpu/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

template <typename OpTy>
struct AtomicMemoryEffects
    : public MemoryEffectOpInterface::ExternalModel<AtomicMemoryEffects<OpTy>,
                                                    OpTy> {
  void getEffects(Operation *op,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                      &effects) const {
    effects.emplace_back(MemoryEffects::Read::get(),
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(),
                         SideEffects::DefaultResource::get());
  }
};

/// What an assumption writes: nothing a kernel's buffers or other ops see.
struct AssumptionResource : SideEffects::Resource::Base<AssumptionResource> {
  llvm::StringRef getName() override { return "refcpu.assumption"; }
};

struct AssumeEffects
    : public MemoryEffectOpInterface::ExternalModel<AssumeEffects,
                                                    LLVM::AssumeOp> {
  void getEffects(Operation *op,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                      &effects) const {
    effects.emplace_back(MemoryEffects::Write::get(), AssumptionResource::get());
  }
};

} // namespace

void refcpu::registerLLVMOpEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    LLVM::AtomicRMWOp::attachInterface<AtomicMemoryEffects<LLVM::AtomicRMWOp>>(
        *context);
    LLVM::AtomicCmpXchgOp::attachInterface<
        AtomicMemoryEffects<LLVM::AtomicCmpXchgOp>>(*context);
    LLVM::AssumeOp::attachInterface<AssumeEffects>(*context);
  });
}
