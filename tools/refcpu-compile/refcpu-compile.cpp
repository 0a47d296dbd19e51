//===- refcpu-compile.cpp - Compile TTIR ahead of time --------------------===//
//
// refcpu-compile KERNEL.ttir -o KERNEL.o [--header KERNEL.h]
//                [--target-cpu CPU] [--kernel NAME] [--preset fast|reference]
//                [--check-bounds]
//
// Writes the kernel as a relocatable object and a C header with its typed
// launch function (refcpu_compile_aot of the C API); a C or C++ program
// links both with librefcpu_rt.a. The header defaults to the object's path
// with the extension .h.
//
//===----------------------------------------------------------------------===//

#include "refcpu/refcpu.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace {
llvm::cl::OptionCategory toolCategory("refcpu-compile options");

llvm::cl::opt<std::string> inputPath(llvm::cl::Positional, llvm::cl::Required,
                                     llvm::cl::desc("KERNEL.ttir"),
                                     llvm::cl::cat(toolCategory));
llvm::cl::opt<std::string> objectPath("o", llvm::cl::Required,
                                      llvm::cl::desc("Object file to write"),
                                      llvm::cl::value_desc("file"),
                                      llvm::cl::cat(toolCategory));
llvm::cl::opt<std::string>
    headerPath("header",
               llvm::cl::desc("C header to write (default: the object's path "
                              "with .h)"),
               llvm::cl::value_desc("file"), llvm::cl::cat(toolCategory));
llvm::cl::opt<std::string> targetCPU(
    "target-cpu",
    llvm::cl::desc("CPU to generate code for, as LLVM names it "
                   "(skylake-avx512, x86-64-v3, ...; default: this host's)"),
    llvm::cl::value_desc("cpu"), llvm::cl::cat(toolCategory));
llvm::cl::opt<std::string>
    kernelName("kernel",
               llvm::cl::desc("Public tt.func to compile (default: the only "
                              "one)"),
               llvm::cl::value_desc("name"), llvm::cl::cat(toolCategory));
llvm::cl::opt<refcpu_preset> preset(
    "preset", llvm::cl::desc("Code generation preset"),
    llvm::cl::values(clEnumValN(REFCPU_PRESET_FAST, "fast", "optimized"),
                     clEnumValN(REFCPU_PRESET_REFERENCE, "reference",
                                "plain linalg -> loops pipeline")),
    llvm::cl::init(REFCPU_PRESET_FAST), llvm::cl::cat(toolCategory));
llvm::cl::opt<bool> checkBounds(
    "check-bounds",
    llvm::cl::desc("Check every memory access against its argument's extent "
                   "(an ahead-of-time launch passes no extents: accesses "
                   "through pointers of unknown extent are not checked)"),
    llvm::cl::cat(toolCategory));
} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(toolCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "refcpu-compile: TTIR to an object file and a C header\n");

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> input =
      llvm::MemoryBuffer::getFile(inputPath, /*IsText=*/true);
  if (!input) {
    llvm::errs() << "refcpu-compile: error: cannot read '" << inputPath
                 << "': " << input.getError().message() << "\n";
    return 1;
  }
  std::string header = headerPath;
  if (header.empty()) {
    llvm::SmallString<256> path(objectPath);
    llvm::sys::path::replace_extension(path, ".h");
    header = path.str().str();
  }

  refcpu_compile_options options;
  refcpu_compile_options_init(&options);
  options.preset = preset;
  options.source_name = inputPath.c_str();
  options.check_bounds = checkBounds;
  if (!kernelName.empty())
    options.kernel_name = kernelName.c_str();
  if (!targetCPU.empty())
    options.target_cpu = targetCPU.c_str();
  char *error = nullptr;
  refcpu_status status = refcpu_compile_aot(
      (*input)->getBufferStart(), (*input)->getBufferSize(), &options,
      objectPath.c_str(), header.c_str(), &error);
  if (status != REFCPU_OK) {
    llvm::errs() << "refcpu-compile: error: " << (error ? error : "failed")
                 << "\n";
    refcpu_free_error(error);
    return 1;
  }
  return 0;
}
