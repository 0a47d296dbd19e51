//===- Jit.cpp - JIT-compile an LLVM module for the host ------------------===//

#include "refcpu/Runtime/Jit.h"

#include "Builtins.h"
#include "refcpu/Runtime/Status.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

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

/// Appends "START SIZE NAME" (hexadecimal) for every function of `graph`
/// to /tmp/perf-<pid>.map, where perf looks up samples in code that no ELF
/// file on disk holds. Best effort: a map that cannot be written fails no
/// compilation.
void appendToPerfMap(llvm::jitlink::LinkGraph &graph) {
  std::string lines;
  llvm::raw_string_ostream os(lines);
  for (llvm::jitlink::Symbol *symbol : graph.defined_symbols())
    if (symbol->isCallable() && symbol->hasName() && symbol->getSize() != 0)
      os << llvm::format_hex_no_prefix(symbol->getAddress().getValue(), 1)
         << ' ' << llvm::format_hex_no_prefix(symbol->getSize(), 1) << ' '
         << *symbol->getName() << '\n';
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::error_code ec;
  llvm::raw_fd_ostream map(
      "/tmp/perf-" + std::to_string(llvm::sys::Process::getProcessId()) +
          ".map",
      ec, llvm::sys::fs::OF_Append);
  if (!ec)
    map << lines;
}

/// Writes the perf map entries of each object once it is linked, when its
/// addresses are final.
class PerfMapPlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(llvm::orc::MaterializationResponsibility &,
                        llvm::jitlink::LinkGraph &,
                        llvm::jitlink::PassConfiguration &config) override {
    config.PostFixupPasses.push_back([](llvm::jitlink::LinkGraph &graph) {
      appendToPerfMap(graph);
      return llvm::Error::success();
    });
  }
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility &) override {
    return llvm::Error::success();
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib &,
                                      llvm::orc::ResourceKey) override {
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib &, llvm::orc::ResourceKey,
                                   llvm::orc::ResourceKey) override {}
};

/// Whether kernels are to be named in perf's map: where the environment
/// variable REFCPU_PERF_MAP is set and not "0". Opt-in, debug mode or not
/// (profiles are mostly of optimized code): the maps outlive the process,
/// for `perf report`, and would pile up in /tmp.
bool wantPerfMap() {
  const char *value = std::getenv("REFCPU_PERF_MAP");
  return value && *value && std::strcmp(value, "0") != 0;
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
  if (wantPerfMap())
    if (auto *linker = llvm::dyn_cast<llvm::orc::ObjectLinkingLayer>(
            &(*jit)->getObjLinkingLayer()))
      linker->addPlugin(std::make_shared<PerfMapPlugin>());
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
