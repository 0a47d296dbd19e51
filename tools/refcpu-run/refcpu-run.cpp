//===- refcpu-run.cpp - Run a corpus case through the C API ---------------===//
//
// refcpu-run CASE_DIR [--ttir FILE] [--dump-dir DIR] [--repeat N]
//                     [--preset fast|reference] [--debug]
//
// Compiles CASE_DIR/kernel.ttir (or --ttir) with the public C API, launches it
// over the case's grid on fresh copies of the inputs and compares every
// output with its expected array (numpy.allclose semantics, integers
// exactly). Prints one line per output; exits 0 only when all match.
//
//===----------------------------------------------------------------------===//

#include "refcpu/refcpu.h"

#include "Compare.h"
#include "CorpusCase.h"
#include "Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>

using namespace refcpu;

namespace {
llvm::cl::OptionCategory toolCategory("refcpu-run options");

llvm::cl::opt<std::string> caseDir(llvm::cl::Positional, llvm::cl::Required,
                                   llvm::cl::desc("CASE_DIR"),
                                   llvm::cl::cat(toolCategory));
llvm::cl::opt<std::string>
    ttirPath("ttir", llvm::cl::desc("TTIR file (default: CASE_DIR/kernel.ttir)"),
             llvm::cl::value_desc("file"), llvm::cl::cat(toolCategory));
llvm::cl::opt<std::string>
    dumpDir("dump-dir",
            llvm::cl::desc("Write the IR after each compiler stage here"),
            llvm::cl::value_desc("dir"), llvm::cl::cat(toolCategory));
llvm::cl::opt<unsigned>
    repeat("repeat",
           llvm::cl::desc("Launch N times, each on fresh copies of the inputs"),
           llvm::cl::init(1), llvm::cl::value_desc("N"),
           llvm::cl::cat(toolCategory));
llvm::cl::opt<refcpu_preset> preset(
    "preset", llvm::cl::desc("Code generation preset"),
    llvm::cl::values(clEnumValN(REFCPU_PRESET_FAST, "fast", "optimized"),
                     clEnumValN(REFCPU_PRESET_REFERENCE, "reference",
                                "plain linalg -> loops pipeline")),
    llvm::cl::init(REFCPU_PRESET_FAST), llvm::cl::cat(toolCategory));
llvm::cl::opt<bool> debug(
    "debug",
    llvm::cl::desc("Compile in debug mode, for gdb at the kernel's source "
                   "lines (default: the environment variable REFCPU_DEBUG)"),
    llvm::cl::cat(toolCategory));

/// Prints "refcpu-run: error: MESSAGE" and returns the exit code 1.
int fail(const llvm::Twine &message) {
  llvm::outs().flush(); // Keep the order of stdout and stderr lines.
  llvm::errs() << "refcpu-run: error: " << message << "\n";
  return 1;
}

const char *statusName(refcpu_status status) {
  switch (status) {
  case REFCPU_OK:
    return "ok";
  case REFCPU_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case REFCPU_ERROR_COMPILE:
    return "compile error";
  case REFCPU_ERROR_JIT:
    return "JIT error";
  case REFCPU_ERROR_KERNEL:
    return "kernel error";
  }
  return "unknown status";
}

/// Takes ownership of a C API error message.
std::string takeMessage(char *error) {
  std::string message = error ? error : "(no message)";
  refcpu_free_error(error);
  return message;
}

/// The argument kind of a scalar parameter of Triton type `dtype`.
std::optional<refcpu_arg_kind> getScalarKind(llvm::StringRef dtype) {
  return llvm::StringSwitch<std::optional<refcpu_arg_kind>>(dtype)
      .Cases({"i1", "u1", "bool", "int1"}, REFCPU_ARG_I1)
      .Cases({"i8", "u8", "int8", "uint8"}, REFCPU_ARG_I8)
      .Cases({"i16", "u16", "int16", "uint16"}, REFCPU_ARG_I16)
      .Cases({"i32", "u32", "int32", "uint32"}, REFCPU_ARG_I32)
      .Cases({"i64", "u64", "int64", "uint64"}, REFCPU_ARG_I64)
      .Cases({"fp16", "f16", "float16"}, REFCPU_ARG_F16)
      .Cases({"bf16", "bfloat16"}, REFCPU_ARG_BF16)
      .Cases({"fp32", "f32", "float32"}, REFCPU_ARG_F32)
      .Cases({"fp64", "f64", "float64"}, REFCPU_ARG_F64)
      .Default(std::nullopt);
}

std::string joinPath(llvm::StringRef dir, llvm::StringRef file) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, file);
  return path.str().str();
}

std::string formatIndex(const NpyArray &array, size_t flat) {
  std::vector<int64_t> index = array.unflattenIndex(flat);
  return "[" +
         llvm::join(llvm::map_range(index,
                                    [](int64_t i) { return std::to_string(i); }),
                    ", ") +
         "]";
}

/// Loads the input array of every pointer parameter and checks it against the
/// declared dtype and shape. Scalar parameters get an empty slot.
llvm::Expected<std::vector<std::optional<NpyArray>>>
loadInputs(const CorpusCase &spec) {
  std::vector<std::optional<NpyArray>> inputs;
  for (const CaseParam &param : spec.params) {
    if (!param.isPointer) {
      inputs.emplace_back();
      continue;
    }
    std::optional<NpyDType> storage = getStorageDType(param.dtype);
    if (!storage)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "param '" + param.name +
                                         "': unsupported dtype '" +
                                         param.dtype + "'");
    llvm::Expected<NpyArray> array = readNpy(joinPath(caseDir, param.input));
    if (!array)
      return array.takeError();
    if (array->getDType() != *storage)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          param.input + " holds " + getNpyDescr(array->getDType()) +
              " but param '" + param.name + "' is " + param.dtype +
              " (stored as " + getNpyDescr(*storage) + ")");
    if (array->getShape() != llvm::ArrayRef<int64_t>(param.shape))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     param.input +
                                         " does not have the shape that "
                                         "case.json gives for '" +
                                         param.name + "'");
    inputs.push_back(std::move(*array));
  }
  return inputs;
}

/// The launch arguments for `spec`, pointing into `buffers`.
llvm::Expected<std::vector<refcpu_arg>>
buildArgs(const CorpusCase &spec, std::vector<std::optional<NpyArray>> &buffers) {
  std::vector<refcpu_arg> args;
  for (size_t i = 0; i < spec.params.size(); ++i) {
    const CaseParam &param = spec.params[i];
    refcpu_arg arg{};
    if (param.isPointer) {
      arg.kind = REFCPU_ARG_PTR;
      arg.value.ptr = buffers[i]->getData();
      arg.extent_bytes = buffers[i]->getSizeInBytes();
    } else {
      std::optional<refcpu_arg_kind> kind = getScalarKind(param.dtype);
      if (!kind)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "param '" + param.name +
                                           "': unsupported scalar dtype '" +
                                           param.dtype + "'");
      arg.kind = *kind;
      if (*kind >= REFCPU_ARG_F16)
        arg.value.f = param.floatValue;
      else
        arg.value.i = param.intValue;
    }
    args.push_back(arg);
  }
  return args;
}

/// Compares the outputs of one launch and prints a line for each. Returns
/// true when all match.
bool checkOutputs(const CorpusCase &spec,
                  const std::vector<std::optional<NpyArray>> &buffers,
                  const std::vector<NpyArray> &expected,
                  llvm::StringRef prefix) {
  bool allMatch = true;
  for (size_t i = 0; i < spec.outputs.size(); ++i) {
    const CaseOutput &output = spec.outputs[i];
    const NpyArray &got = *buffers[output.param];
    CompareOptions options;
    options.atol = output.atol;
    options.rtol = output.rtol;
    options.bfloat16 = spec.params[output.param].dtype == "bfloat16";
    llvm::outs() << prefix << "arg" << output.param << ": ";
    llvm::Expected<CompareResult> result =
        compareArrays(got, expected[i], options);
    if (!result) {
      llvm::outs() << "ERROR " << llvm::toString(result.takeError()) << "\n";
      allMatch = false;
      continue;
    }
    llvm::outs() << "max abs err " << llvm::format("%.3g", result->maxAbsError);
    if (result->exact)
      llvm::outs() << " (exact)";
    else
      llvm::outs() << " (atol " << llvm::format("%g", output.atol) << ", rtol "
                   << llvm::format("%g", output.rtol) << ")";
    if (result->matches()) {
      llvm::outs() << " OK\n";
      continue;
    }
    allMatch = false;
    llvm::outs() << " MISMATCH at index " << formatIndex(got, *result->firstMismatch)
                 << ": got " << llvm::format("%.9g", result->firstGot)
                 << ", expected " << llvm::format("%.9g", result->firstExpected)
                 << " (" << result->numMismatches << " of "
                 << result->numElements << " elements differ)\n";
  }
  return allMatch;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

int runCase() {
  if (refcpu_abi_version() != REFCPU_ABI_VERSION)
    return fail("librefcpu has ABI version " +
                llvm::Twine(refcpu_abi_version()) + ", this tool needs " +
                llvm::Twine(REFCPU_ABI_VERSION));
  llvm::Expected<CorpusCase> spec = readCorpusCase(caseDir);
  if (!spec)
    return fail(llvm::toString(spec.takeError()));
  llvm::Expected<std::vector<std::optional<NpyArray>>> inputs =
      loadInputs(*spec);
  if (!inputs)
    return fail(llvm::toString(inputs.takeError()));
  std::vector<NpyArray> expected;
  for (const CaseOutput &output : spec->outputs) {
    llvm::Expected<NpyArray> array = readNpy(joinPath(caseDir, output.expected));
    if (!array)
      return fail(llvm::toString(array.takeError()));
    expected.push_back(std::move(*array));
  }

  std::string ttirFile =
      ttirPath.empty() ? joinPath(caseDir, "kernel.ttir") : ttirPath.getValue();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> ttir =
      llvm::MemoryBuffer::getFile(ttirFile, /*IsText=*/true);
  if (!ttir)
    return fail(ttirFile + ": cannot read: " + ttir.getError().message());

  refcpu_compile_options options;
  refcpu_compile_options_init(&options);
  options.preset = preset;
  options.kernel_name = spec->kernel.c_str();
  options.source_name = ttirFile.c_str();
  if (debug)
    options.debug = 1;
  if (!dumpDir.empty())
    options.dump_dir = dumpDir.c_str();
  refcpu_kernel *kernel = nullptr;
  char *error = nullptr;
  auto compileStart = std::chrono::steady_clock::now();
  refcpu_status status =
      refcpu_kernel_create((*ttir)->getBufferStart(), (*ttir)->getBufferSize(),
                           &options, &kernel, &error);
  if (status != REFCPU_OK)
    return fail(llvm::Twine("cannot compile ") + ttirFile + " (" +
                statusName(status) + "):\n" + takeMessage(error));
  llvm::outs() << spec->name << ": compiled in "
               << llvm::format("%.1f", millisecondsSince(compileStart))
               << " ms\n";

  bool allMatch = true;
  for (unsigned run = 1; run <= repeat && allMatch; ++run) {
    std::string prefix =
        repeat > 1 ? "run " + std::to_string(run) + "/" +
                         std::to_string(repeat) + ": "
                   : "";
    std::vector<std::optional<NpyArray>> buffers = *inputs;
    llvm::Expected<std::vector<refcpu_arg>> args = buildArgs(*spec, buffers);
    if (!args) {
      refcpu_kernel_destroy(kernel);
      return fail(llvm::toString(args.takeError()));
    }
    auto launchStart = std::chrono::steady_clock::now();
    status = refcpu_kernel_launch(kernel, args->data(), args->size(),
                                  spec->grid[0], spec->grid[1], spec->grid[2],
                                  &error);
    if (status != REFCPU_OK) {
      refcpu_kernel_destroy(kernel);
      return fail(prefix + "launch failed (" + statusName(status) + "): " +
                  takeMessage(error));
    }
    llvm::outs() << prefix << "launched grid (" << spec->grid[0] << ", "
                 << spec->grid[1] << ", " << spec->grid[2] << ") in "
                 << llvm::format("%.3f", millisecondsSince(launchStart))
                 << " ms\n";
    allMatch = checkOutputs(*spec, buffers, expected, prefix);
  }
  refcpu_kernel_destroy(kernel);
  return allMatch ? 0 : 1;
}
} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(toolCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "Compile a corpus case's TTIR with refcpu, launch it over the case's "
      "grid and compare the outputs with the expected arrays\n");
  if (repeat == 0)
    return fail("--repeat must be at least 1");
  return runCase();
}
