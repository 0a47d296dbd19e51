//===- Compile.cpp - TTIR text to an optimized LLVM module ----------------===//
//
// parse + verify TTIR -> TTIR-to-linalg -> linalg-to-LLVM -> LLVM IR ->
// packed entry -> LLVM O2 for the host CPU (in debug mode: DWARF for the
// line table and the kernel's arguments, no optimization). Every diagnostic
// of every stage is collected with its location and returned as the error.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Target/Compile.h"
#include "refcpu/Target/InputLimits.h"
#include "refcpu/Target/TargetMachine.h"
#include "ArgumentVariables.h"
#include "Bf16Bits.h"
#include "PackedEntry.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"
#include "refcpu/Pipelines/Pipelines.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

namespace {

/// Collects diagnostics as "LOCATION: error: MESSAGE" lines.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": ";
          switch (diag.getSeverity()) {
          case DiagnosticSeverity::Error:
            os << "error: ";
            break;
          case DiagnosticSeverity::Warning:
            os << "warning: ";
            break;
          default:
            os << "note: ";
            break;
          }
          os << diag << "\n";
          for (Diagnostic &note : diag.getNotes())
            os << note.getLocation() << ": note: " << note << "\n";
          return success();
        }) {}

  llvm::Error error(StringRef stage) {
    std::string message = (stage + " failed").str();
    if (!text.empty())
      message += ":\n" + text;
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

std::optional<refcpu_arg_kind> paramKind(Type type) {
  // A host tensor descriptor is passed as its base pointer (its shape and
  // strides are parameters of their own).
  if (isa<triton::PointerType, triton::TensorDescType>(type))
    return REFCPU_ARG_PTR;
  if (type.isInteger(1))
    return REFCPU_ARG_I1;
  if (type.isInteger(8))
    return REFCPU_ARG_I8;
  if (type.isInteger(16))
    return REFCPU_ARG_I16;
  if (type.isInteger(32))
    return REFCPU_ARG_I32;
  if (type.isInteger(64))
    return REFCPU_ARG_I64;
  if (type.isF16())
    return REFCPU_ARG_F16;
  if (type.isBF16())
    return REFCPU_ARG_BF16;
  if (type.isF32())
    return REFCPU_ARG_F32;
  if (type.isF64())
    return REFCPU_ARG_F64;
  return std::nullopt;
}

/// The names the TTIR text gives the kernel's parameters ("x_ptr" for
/// %x_ptr), "arg<index>" where the parser recorded none.
std::vector<std::string> paramNames(triton::FuncOp kernel,
                                    const AsmParserState &state) {
  Region &body = kernel.getBody();
  const AsmParserState::BlockDefinition *entry =
      body.empty() ? nullptr : state.getBlockDef(&body.front());
  std::vector<std::string> names;
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    StringRef name;
    if (entry && i < entry->arguments.size()) {
      llvm::SMRange range = entry->arguments[i].loc;
      name = StringRef(range.Start.getPointer(),
                       range.End.getPointer() - range.Start.getPointer());
      name.consume_front("%");
    }
    names.push_back(name.empty() ? "arg" + std::to_string(i) : name.str());
  }
  return names;
}

std::string printType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Prints `module`; with the op locations in debug mode, where they are what
/// the line table is made of.
void printModule(ModuleOp module, const refcpu::CompileOptions &options,
                 llvm::raw_ostream &os) {
  OpPrintingFlags flags;
  if (options.pipeline.debug)
    flags.enableDebugInfo();
  module.print(os, flags);
}

/// Writes `print` output to dumpDir/name when dumping is on.
llvm::Error dump(const refcpu::CompileOptions &options, StringRef name,
                 llvm::function_ref<void(llvm::raw_ostream &)> print) {
  if (options.dumpDir.empty())
    return llvm::Error::success();
  if (std::error_code ec = llvm::sys::fs::create_directories(options.dumpDir))
    return llvm::createStringError(ec, "cannot create dump directory '%s'",
                                   options.dumpDir.c_str());
  SmallString<256> path(options.dumpDir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError(ec, "cannot write '%s'", path.c_str());
  print(os);
  return llvm::Error::success();
}

/// Whether glibc's vector math library (libmvec) is loaded into the process,
/// where the JIT resolves its symbols. With it, the loop vectorizer turns
/// exp, log, sin, ... in kernel loops into calls that compute 4-16 lanes at
/// once, instead of one scalar libm call per lane. Its 256-bit entry points
/// need AVX2, which an AVX-only host lacks while still having 256-bit
/// vectors. An object file links libmvec itself (-lmvec), so only the
/// target CPU matters for it.
bool haveVectorMath(const llvm::TargetMachine &machine, bool objectFile) {
  static const bool loaded =
      !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  const llvm::Triple &triple = machine.getTargetTriple();
  return (loaded || objectFile) && triple.isX86() && triple.isOSLinux() &&
         machine.getMCSubtargetInfo()->checkFeatures("+avx2");
}

/// Gives every definition but the packed entry internal linkage, so that
/// the object file of one kernel exports its entry only (two kernels' helper
/// functions cannot clash at link time) and the optimizer may inline and
/// drop them.
void internalizeAllBut(llvm::Module &module, llvm::StringRef entry) {
  for (llvm::GlobalValue &value : module.global_values())
    if (!value.isDeclaration() && value.getName() != entry &&
        !value.getName().starts_with("llvm."))
      value.setLinkage(llvm::GlobalValue::InternalLinkage);
}

void optimize(llvm::Module &module, llvm::TargetMachine &machine,
              bool objectFile) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  const llvm::Triple &triple = machine.getTargetTriple();
  llvm::TargetLibraryInfoImpl libraryInfo(triple);
  if (haveVectorMath(machine, objectFile))
    libraryInfo.addVectorizableFunctionsFromVecLib(llvm::VectorLibrary::LIBMVEC,
                                                   triple);
  // Registered first, so the default registration below keeps it.
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  // O2, not O3: the kernels' hot loops are the runtime's block products and
  // vector code refcpu's passes already shaped. On the 37 tutorial matmul
  // kernels O3 took 340-358 ms for the slowest to compile (O2: 238-240) and
  // 224-230 ms median (O2: 206-212), with the same run time.
  builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2)
      .run(module, mam);
}

} // namespace

llvm::Expected<refcpu::CompiledKernel>
refcpu::compileTTIR(StringRef ttir, const CompileOptions &options) {
  if (llvm::Error err = checkInputLimits(ttir, options.sourceName))
    return std::move(err);
  DialectRegistry registry;
  registerDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  DiagnosticCollector diagnostics(context);

  // MLIR's lexer reads up to a NUL byte, which a caller's text (the C API
  // takes a pointer and a size) need not have after its end: an unterminated
  // string or comment in the last bytes would read past it. Parse a copy,
  // which MemoryBuffer terminates.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(ttir, options.sourceName), llvm::SMLoc());
  // MLIR drops SSA names at parse time; the parser state records where each
  // block argument is defined in the text, so the parameter names come from
  // the text itself. The NameLocs that Triton gives its parameters
  // (loc("x_ptr"(#loc))) would do for Triton's output only: hand-written TTIR
  // and TTIR printed without debug info have none. Unlike parseSourceFile,
  // parseAsmSourceFile reads no MLIR bytecode, which carries no names either;
  // refcpu's input is TTIR text.
  AsmParserState asmState;
  Block parsed;
  if (failed(parseAsmSourceFile(sourceMgr, &parsed, ParserConfig(&context),
                                &asmState)))
    return diagnostics.error("parsing TTIR");
  OwningOpRef<ModuleOp> module =
      detail::constructContainerOpForParserIfNecessary<ModuleOp>(
          &parsed, &context,
          FileLineColLoc::get(&context, options.sourceName, 0, 0));
  if (!module)
    return diagnostics.error("parsing TTIR");

  triton::FuncOp kernel;
  for (auto func : module->getOps<triton::FuncOp>()) {
    if (!func.isPublic())
      continue;
    if (!options.kernelName.empty() && func.getName() != options.kernelName)
      continue;
    if (kernel)
      return llvm::createStringError(
          "the TTIR has several public kernels (@%s, @%s); choose one by name",
          kernel.getName().str().c_str(), func.getName().str().c_str());
    kernel = func;
  }
  if (!kernel)
    return llvm::createStringError(
        options.kernelName.empty()
            ? "the TTIR has no public tt.func"
            : ("no public tt.func named @" + options.kernelName).c_str());

  CompiledKernel result;
  result.kernelName = kernel.getName().str();
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    std::optional<refcpu_arg_kind> kind = paramKind(type);
    if (!kind) {
      InFlightDiagnostic diag = kernel.emitError("parameter ")
                                << i << " has unsupported type " << type;
      (void)diag;
      return diagnostics.error("checking the kernel signature");
    }
    result.params.push_back(*kind);
    result.paramTypes.push_back(printType(type));
    auto pointer = dyn_cast<triton::PointerType>(type);
    result.paramPointeeTypes.push_back(
        pointer ? printType(pointer.getPointeeType()) : std::string());
  }
  result.paramNames = paramNames(kernel, asmState);
  result.paramWritten = findWrittenParams(kernel);

  if (auto err = dump(options, "0-ttir.mlir", [&](llvm::raw_ostream &os) {
        printModule(*module, options, os);
      }))
    return std::move(err);

  // The pipeline of DESIGN.md, each step dumped after it runs.
  struct Step {
    void (*build)(OpPassManager &, const PipelineOptions &);
    const char *failure;
    const char *dumpName;
  };
  const Step steps[] = {
      {buildTTIROptimization, "optimizing the TTIR", "1-ttir-opt.mlir"},
      {buildTTIRToLinalg, "lowering TTIR to linalg", "2-linalg.mlir"},
      {buildLinalgToLLVM, "lowering to the LLVM dialect", "3-llvm-dialect.mlir"},
  };
  for (const Step &step : steps) {
    PassManager pm(&context);
    step.build(pm, options.pipeline);
    if (failed(pm.run(*module)))
      return diagnostics.error(step.failure);
    if (auto err = dump(options, step.dumpName, [&](llvm::raw_ostream &os) {
          printModule(*module, options, os);
        }))
      return std::move(err);
  }

  auto machine = createTargetMachine(options.targetCPU, options.objectFile);
  if (!machine)
    return machine.takeError();
  result.context = std::make_unique<llvm::LLVMContext>();
  result.module = translateModuleToLLVMIR(*module, *result.context);
  if (!result.module)
    return diagnostics.error("translating to LLVM IR");
  result.module->setDataLayout((*machine)->createDataLayout());
  result.module->setTargetTriple((*machine)->getTargetTriple());
  llvm::Function *entry = result.module->getFunction(result.kernelName);
  if (!entry)
    return llvm::createStringError("kernel @%s vanished during lowering",
                                   result.kernelName.c_str());
  result.packedEntry = addPackedEntry(*entry);
  if (options.objectFile)
    internalizeAllBut(*result.module, result.packedEntry);
  result.debug = options.pipeline.debug;
  if (result.debug)
    addArgumentVariables(*entry, result.paramNames, result.params,
                         result.paramTypes, result.paramPointeeTypes);
  // The target's CPU and features travel with every function, as clang's
  // output carries them: the JIT, which only generates code for the
  // optimized module, then needs no target knowledge of its own.
  // LLVM tunes most AVX-512 Intel cores (Ice Lake to Sapphire Rapids, and
  // the Rocket Lake model number that some virtual machines report for
  // newer Xeons) to vectorize loops at 256 bits, for fear of the clock drop
  // of Skylake-SP's 512-bit units. A kernel is a throughput loop:
  // full-width vectors halve its instructions.
  bool fullWidthVectors =
      (*machine)->getMCSubtargetInfo()->checkFeatures("+avx512f");
  for (llvm::Function &function : *result.module)
    if (!function.isDeclaration()) {
      function.addFnAttr("target-cpu", (*machine)->getTargetCPU());
      if (!(*machine)->getTargetFeatureString().empty())
        function.addFnAttr("target-features",
                           (*machine)->getTargetFeatureString());
      if (fullWidthVectors)
        function.addFnAttr("prefer-vector-width", "512");
      // Frame pointers let perf and other stack walkers that read no DWARF
      // unwind through kernel code.
      if (result.debug)
        function.addFnAttr("frame-pointer", "all");
    }
  // Optimization would move, merge and delete the code that the line table
  // and the argument variables describe: debug mode leaves the IR as it was
  // translated.
  if (!result.debug)
    optimize(*result.module, **machine, options.objectFile);
  moveBf16AsBits(*result.module);
  result.targetMachine = std::move(*machine);
  if (auto err = dump(options, "4-llvm.ll", [&](llvm::raw_ostream &os) {
        result.module->print(os, nullptr);
      }))
    return std::move(err);
  return result;
}
