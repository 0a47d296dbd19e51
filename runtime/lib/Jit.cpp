//===- Jit.cpp - JIT-compile an LLVM module for the host ------------------===//

#include "refcpu/Runtime/Jit.h"

#include "Builtins.h"
#include "refcpu/Runtime/Status.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebugInfoSupport.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/Orc/Shared/PerfSharedStructs.h"
#include "llvm/ExecutionEngine/Orc/TargetProcess/JITLoaderPerf.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
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

/// Runs a function on the graph of each object once it is linked, when its
/// addresses are final: the perf map's and the jitdump's writer.
class PostFixupPlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
public:
  explicit PostFixupPlugin(
      std::function<void(llvm::jitlink::LinkGraph &)> pass)
      : pass(std::move(pass)) {}
  void modifyPassConfig(llvm::orc::MaterializationResponsibility &,
                        llvm::jitlink::LinkGraph &,
                        llvm::jitlink::PassConfiguration &config) override {
    config.PostFixupPasses.push_back([this](llvm::jitlink::LinkGraph &graph) {
      pass(graph);
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

private:
  std::function<void(llvm::jitlink::LinkGraph &)> pass;
};

/// Whether kernels are to be named in perf's map: where the environment
/// variable REFCPU_PERF_MAP is set and not "0". Opt-in, debug mode or not
/// (profiles are mostly of optimized code): the maps outlive the process,
/// for `perf report`, and would pile up in /tmp.
bool wantPerfMap() {
  const char *value = std::getenv("REFCPU_PERF_MAP");
  return value && *value && std::strcmp(value, "0") != 0;
}

/// Whether kernels are to be written to a perf jitdump, where the
/// environment variable REFCPU_PERF_JITDUMP is set and not "0". Opt-in like
/// the perf map: each dump is a new file that outlives the process.
bool wantPerfJitDump() {
  const char *value = std::getenv("REFCPU_PERF_JITDUMP");
  return value && *value && std::strcmp(value, "0") != 0;
}

/// Calls one of LLVM's jitdump writer functions (JITLoaderPerf, the
/// executor side of ORC's perf support), which take their arguments and
/// return their result serialized, in this process.
template <typename SPSSignature, typename... Args>
llvm::Error
callJitDumpWriter(llvm::orc::shared::CWrapperFunctionBuffer (*function)(
                      const char *, size_t),
                  const Args &...args) {
  llvm::Error result = llvm::Error::success();
  if (llvm::Error err = llvm::orc::shared::WrapperFunction<SPSSignature>::call(
          [function](const char *data, size_t size) {
            return llvm::orc::shared::WrapperFunctionBuffer(
                function(data, size));
          },
          result, args...))
    return llvm::joinErrors(std::move(result), std::move(err));
  return result;
}

/// Opens this process's jitdump, once, and says whether it is open. LLVM's
/// writer keeps one dump per process, never ended here: a kernel may run
/// until the process exits, and perf needs no close record. A forked child
/// inherits the parent's open dump and opens one of its own instead of
/// writing into that. Where the dump cannot be opened, the JIT says why
/// once and compiles kernels without it, as without a perf map.
bool openPerfJitDump() {
  static std::mutex mutex;
  static llvm::sys::procid_t owner = 0;
  static bool open = false;
  std::lock_guard<std::mutex> lock(mutex);
  llvm::sys::procid_t pid = llvm::sys::Process::getProcessId();
  if (owner == pid)
    return open;
  owner = pid;
  llvm::Error err = callJitDumpWriter<llvm::orc::shared::SPSError()>(
      &llvm_orc_registerJITLoaderPerfStart);
  open = !err;
  if (err)
    llvm::errs() << "refcpu: REFCPU_PERF_JITDUMP: no jitdump: "
                 << llvm::toString(std::move(err)) << '\n';
  return open;
}

/// Writes a code load record for every function of `graph` to the jitdump,
/// each after a debug info record with its line table where the graph has
/// DWARF (debug mode). The records are made here, not by LLVM's ORC plugin
/// (PerfSupportPlugin), which writes an object's line tables all before its
/// code: perf gives a function the line table just before it, and the
/// packed entry, first in refcpu's objects, would get the kernel's lines.
/// Best effort, like the perf map.
void appendToPerfJitDump(llvm::jitlink::LinkGraph &graph, bool debug) {
  using namespace llvm::orc;
  std::unique_ptr<llvm::DWARFContext> dwarf;
  // The sections that `dwarf` reads.
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> dwarfSections;
  if (debug) {
    auto created = createDWARFContext(graph);
    if (created)
      std::tie(dwarf, dwarfSections) = std::move(*created);
    else
      llvm::consumeError(created.takeError());
  }
  // perf names the file of each function's code by its index.
  static std::atomic<uint64_t> codeIndex{0};
  constexpr uint32_t recordHeaderSize = 16; // id, size, timestamp
  for (llvm::jitlink::Symbol *symbol : graph.defined_symbols()) {
    if (!symbol->isCallable() || !symbol->hasName() || symbol->getSize() == 0)
      continue;
    uint64_t address = symbol->getAddress().getValue();
    PerfJITRecordBatch batch{};
    if (dwarf) {
      PerfJITDebugInfoRecord lines;
      lines.Prefix.Id = PerfJITRecordType::JIT_CODE_DEBUG_INFO;
      lines.CodeAddr = address;
      uint32_t size = recordHeaderSize + 16; // code address, entry count
      for (const auto &[lineAddress, line] : dwarf->getLineInfoForAddressRange(
               {address, llvm::object::SectionedAddress::UndefSection},
               symbol->getSize(),
               llvm::DILineInfoSpecifier(
                   llvm::DILineInfoSpecifier::FileLineInfoKind::
                       AbsoluteFilePath))) {
        lines.Entries.push_back(
            {lineAddress, line.Line, line.Discriminator, line.FileName});
        // address, line, discriminator, file name
        size += 16 + line.FileName.size() + 1;
      }
      lines.Prefix.TotalSize = size;
      if (!lines.Entries.empty())
        batch.DebugInfoRecords.push_back(std::move(lines));
    }
    PerfJITCodeLoadRecord code;
    code.Prefix.Id = PerfJITRecordType::JIT_CODE_LOAD;
    code.Name = (*symbol->getName()).str();
    code.Vma = code.CodeAddr = address;
    code.CodeSize = symbol->getSize();
    code.CodeIndex = codeIndex++;
    // pid, tid, vma, address, size, index, the name and the code, which
    // the writer copies from the address: JITLink links in place in this
    // process, so the code is there once fixed up. The writer fills in the
    // pid and the thread id.
    code.Prefix.TotalSize =
        recordHeaderSize + 40 + code.Name.size() + 1 + code.CodeSize;
    batch.CodeLoadRecords.push_back(std::move(code));
    llvm::consumeError(
        callJitDumpWriter<llvm::orc::shared::SPSError(
            llvm::orc::shared::SPSPerfJITRecordBatch)>(
            &llvm_orc_registerJITLoaderPerfImpl, batch));
  }
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
  if (auto *linker = llvm::dyn_cast<llvm::orc::ObjectLinkingLayer>(
          &(*jit)->getObjLinkingLayer())) {
    if (wantPerfMap())
      linker->addPlugin(std::make_shared<PostFixupPlugin>(appendToPerfMap));
    // The jitdump has the code and, for kernels compiled in debug mode, the
    // line table, which `perf inject --jit` turns into an ELF file per
    // function, so that perf shows samples at the kernel's Python lines.
    if (wantPerfJitDump() && openPerfJitDump()) {
      // JITLink drops the DWARF sections, which no code refers to, before
      // the line table is read from the linked object.
      if (debug)
        linker->addPlugin(
            std::make_shared<llvm::orc::DebugInfoPreservationPlugin>());
      linker->addPlugin(std::make_shared<PostFixupPlugin>(
          [debug](llvm::jitlink::LinkGraph &graph) {
            appendToPerfJitDump(graph, debug);
          }));
    }
  }
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
