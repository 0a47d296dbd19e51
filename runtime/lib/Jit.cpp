//===- Jit.cpp - JIT-compile an LLVM module for the host ------------------===//

#include "refcpu/Runtime/Jit.h"

#include "Builtins.h"
#include "refcpu/Runtime/Status.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace refcpu::runtime;

namespace {
void initializeNativeTargetOnce() {
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)initialized;
}

llvm::Error makeJitError(const llvm::Twine &context, llvm::Error cause) {
  return makeStatusError(REFCPU_ERROR_JIT,
                         context + ": " + llvm::toString(std::move(cause)));
}

/// A target machine builder for this host: its triple, CPU and features (so
/// that AVX2/AVX-512 are used where present) and aggressive code generation.
llvm::Expected<llvm::orc::JITTargetMachineBuilder> makeHostBuilder() {
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setCPU(llvm::sys::getHostCPUName().str());
  std::vector<std::string> features;
  for (const llvm::StringMapEntry<bool> &feature :
       llvm::sys::getHostCPUFeatures())
    features.push_back((feature.getValue() ? "+" : "-") +
                       feature.getKey().str());
  builder->getFeatures() = llvm::SubtargetFeatures();
  builder->addFeatures(features);
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  return builder;
}

/// Runs LLVM's default IR pipeline at `level`, with the target's cost model so
/// that the vectorizers see the host's vector width.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &targetMachine,
                    unsigned level) {
  llvm::LoopAnalysisManager loopAM;
  llvm::FunctionAnalysisManager functionAM;
  llvm::CGSCCAnalysisManager cgsccAM;
  llvm::ModuleAnalysisManager moduleAM;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = level >= 2;
  tuning.SLPVectorization = level >= 2;
  llvm::PassBuilder passBuilder(&targetMachine, tuning);
  passBuilder.registerModuleAnalyses(moduleAM);
  passBuilder.registerCGSCCAnalyses(cgsccAM);
  passBuilder.registerFunctionAnalyses(functionAM);
  passBuilder.registerLoopAnalyses(loopAM);
  passBuilder.crossRegisterProxies(loopAM, functionAM, cgsccAM, moduleAM);

  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::OptimizationLevel optLevel = levels[std::min(level, 3u)];
  llvm::ModulePassManager passes =
      level == 0 ? passBuilder.buildO0DefaultPipeline(optLevel)
                 : passBuilder.buildPerModuleDefaultPipeline(optLevel);
  passes.run(module, moduleAM);
}

/// Defines the runtime's builtins in `dylib` as absolute symbols.
llvm::Error defineBuiltins(llvm::orc::LLJIT &jit) {
  llvm::orc::SymbolMap symbols;
  for (const BuiltinSymbol &builtin : getBuiltinSymbols())
    symbols[jit.mangleAndIntern(builtin.name)] = {
        llvm::orc::ExecutorAddr::fromPtr(builtin.address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  return jit.getMainJITDylib().define(
      llvm::orc::absoluteSymbols(std::move(symbols)));
}
} // namespace

JitModule::JitModule(std::unique_ptr<llvm::orc::LLJIT> jit, PackedEntry entry)
    : jit(std::move(jit)), entry(entry) {}

JitModule::~JitModule() = default;

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::create(std::unique_ptr<llvm::LLVMContext> context,
                  std::unique_ptr<llvm::Module> module,
                  llvm::StringRef entrySymbol, const JitOptions &options) {
  initializeNativeTargetOnce();
  if (!context || !module)
    return makeStatusError(REFCPU_ERROR_JIT, "no module to compile");

  std::string verifierMessage;
  llvm::raw_string_ostream verifierStream(verifierMessage);
  if (llvm::verifyModule(*module, &verifierStream))
    return makeStatusError(REFCPU_ERROR_JIT,
                           "the LLVM module is invalid: " + verifierMessage);

  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      makeHostBuilder();
  if (!builder)
    return makeJitError("cannot target the host", builder.takeError());
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> targetMachine =
      builder->createTargetMachine();
  if (!targetMachine)
    return makeJitError("cannot create a target machine",
                        targetMachine.takeError());
  module->setDataLayout((*targetMachine)->createDataLayout());
  module->setTargetTriple((*targetMachine)->getTargetTriple());
  optimizeModule(*module, **targetMachine, options.irOptLevel);

  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(*builder))
          .create();
  if (!jit)
    return makeJitError("cannot create the JIT", jit.takeError());
  // ORC reports the root cause of a failed materialization (such as the
  // names of unresolved symbols) to the session, not in the lookup's error.
  auto sessionErrors = std::make_shared<std::string>();
  (*jit)->getExecutionSession().setErrorReporter(
      [sessionErrors](llvm::Error err) {
        if (!sessionErrors->empty())
          *sessionErrors += "; ";
        *sessionErrors += llvm::toString(std::move(err));
      });
  if (llvm::Error err = defineBuiltins(**jit))
    return makeJitError("cannot define the runtime builtins", std::move(err));
  if (llvm::Error err = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(
          std::move(module), llvm::orc::ThreadSafeContext(std::move(context)))))
    return makeJitError("cannot add the module", std::move(err));

  // The lookup compiles the module; unresolved symbols are reported here.
  llvm::Expected<llvm::orc::ExecutorAddr> address =
      (*jit)->lookup(entrySymbol);
  if (!address) {
    std::string cause = llvm::toString(address.takeError());
    if (!sessionErrors->empty())
      cause = *sessionErrors + " (" + cause + ")";
    return makeStatusError(REFCPU_ERROR_JIT,
                           "cannot compile entry '" + entrySymbol + "': " + cause);
  }
  return std::unique_ptr<JitModule>(
      new JitModule(std::move(*jit), address->toPtr<PackedEntry>()));
}
