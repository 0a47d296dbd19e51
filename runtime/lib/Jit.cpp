//===- Jit.cpp - JIT-compile an LLVM module for the host ------------------===//

#include "refcpu/Runtime/Jit.h"

#include "Builtins.h"
#include "refcpu/Runtime/Status.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/TargetSelect.h"
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
                  llvm::StringRef entrySymbol, bool debug) {
  initializeNativeTargetOnce();
  if (!context || !module)
    return makeStatusError(REFCPU_ERROR_JIT, "no module to compile");

  std::string verifierMessage;
  llvm::raw_string_ostream verifierStream(verifierMessage);
  if (llvm::verifyModule(*module, &verifierStream))
    return makeStatusError(REFCPU_ERROR_JIT,
                           "the LLVM module is invalid: " + verifierMessage);

  // The target is the module's (the compiler chose the host's); a module
  // without one is for this process.
  llvm::Triple triple = module->getTargetTriple();
  if (triple.str().empty())
    triple = llvm::Triple(llvm::sys::getProcessTriple());
  llvm::orc::JITTargetMachineBuilder builder(triple);
  // At level none every statement keeps its own instructions, in order, and
  // values live in their stack slots: what breakpoints and `info args` need.
  builder.setCodeGenOptLevel(debug ? llvm::CodeGenOptLevel::None
                                   : llvm::CodeGenOptLevel::Aggressive);
  if (module->getDataLayout().isDefault()) {
    llvm::Expected<llvm::DataLayout> layout = builder.getDefaultDataLayoutForTarget();
    if (!layout)
      return makeJitError("cannot target " + triple.str(), layout.takeError());
    module->setDataLayout(*layout);
  }

  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(std::move(builder))
          .setDataLayout(module->getDataLayout())
          .create();
  if (!jit)
    return makeJitError("cannot create the JIT", jit.takeError());
  // Each object JITLink loads is then announced through the GDB JIT
  // interface (__jit_debug_register_code), with its DWARF.
  if (debug)
    if (llvm::Error err = llvm::orc::enableDebuggerSupport(**jit))
      return makeJitError("cannot register the code with the debugger",
                          std::move(err));
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
