//===- AtomicEffects.cpp - memory effects of LLVM atomic ops --------------===//
//
// llvm.atomicrmw and llvm.cmpxchg declare no MemoryEffectOpInterface, and
// ownership-based buffer deallocation rejects ops whose effects are unknown.
// refcpu lowers tt atomics to them before bufferization, so it states their
// effects: they read and write memory that no buffer of the kernel aliases.
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

} // namespace

void refcpu::registerAtomicEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    LLVM::AtomicRMWOp::attachInterface<AtomicMemoryEffects<LLVM::AtomicRMWOp>>(
        *context);
    LLVM::AtomicCmpXchgOp::attachInterface<
        AtomicMemoryEffects<LLVM::AtomicCmpXchgOp>>(*context);
  });
}
