//===- PackedEntry.cpp - the kernel ABI's packed entry point --------------===//
//
// The runtime calls every kernel through one signature, `void(void **)`, so
// it needs no per-signature code:
//
//   define void @k.refcpu_packed(ptr %args) {
//     %p0 = getelementptr ptr, ptr %args, i64 0
//     %a0 = load ptr, ptr %p0      ; storage of argument 0
//     %v0 = load i64, ptr %a0      ; argument 0 itself
//     ...
//     call void @k(i64 %v0, ...)
//
//===----------------------------------------------------------------------===//

#include "PackedEntry.h"

#include "refcpu/kernel_abi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

std::string refcpu::addPackedEntry(Function &kernel) {
  Module &module = *kernel.getParent();
  LLVMContext &context = module.getContext();
  auto *ptrType = PointerType::getUnqual(context);
  auto *type = FunctionType::get(Type::getVoidTy(context), {ptrType}, false);
  std::string name = (kernel.getName() + REFCPU_PACKED_ENTRY_SUFFIX).str();
  Function *entry =
      Function::Create(type, GlobalValue::ExternalLinkage, name, module);
  IRBuilder<> builder(BasicBlock::Create(context, "entry", entry));
  SmallVector<Value *> args;
  for (auto [i, param] : enumerate(kernel.args())) {
    Value *slot = builder.CreateConstGEP1_64(ptrType, entry->getArg(0), i);
    Value *storage = builder.CreateLoad(ptrType, slot);
    args.push_back(builder.CreateLoad(param.getType(), storage));
  }
  builder.CreateCall(&kernel, args);
  builder.CreateRetVoid();
  return name;
}
