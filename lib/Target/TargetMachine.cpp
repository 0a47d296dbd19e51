//===- TargetMachine.cpp - The LLVM target a kernel is compiled for -------===//

#include "refcpu/Target/TargetMachine.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <string>

using namespace llvm;

namespace {
void initializeNativeTargetOnce() {
  static const bool initialized = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

/// Fails unless `cpu` is a processor LLVM knows for `triple`; LLVM itself
/// only warns on stderr and falls back to a generic CPU.
Error checkCPU(const Triple &triple, StringRef cpu) {
  std::string message;
  const Target *target = TargetRegistry::lookupTarget(triple, message);
  if (!target)
    return createStringError(message);
  std::unique_ptr<MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  if (info && info->isCPUStringValid(cpu))
    return Error::success();
  std::string known;
  if (info)
    for (const SubtargetSubTypeKV &kind : info->getAllProcessorDescriptions())
      known += (known.empty() ? "" : ", ") + std::string(kind.Key);
  return createStringError("unknown target CPU '%s' for %s; known: %s",
                           cpu.str().c_str(), triple.str().c_str(),
                           known.c_str());
}
} // namespace

Expected<std::unique_ptr<TargetMachine>>
refcpu::createTargetMachine(StringRef cpu, bool positionIndependent) {
  initializeNativeTargetOnce();
  Expected<orc::JITTargetMachineBuilder> builder =
      orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  if (!cpu.empty()) {
    if (Error err = checkCPU(builder->getTargetTriple(), cpu))
      return std::move(err);
    builder->setCPU(cpu.str());
    builder->getFeatures() = SubtargetFeatures();
  }
  builder->setCodeGenOptLevel(CodeGenOptLevel::Aggressive);
  if (positionIndependent)
    builder->setRelocationModel(Reloc::PIC_);
  return builder->createTargetMachine();
}
