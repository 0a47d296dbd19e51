//===- CAPI.cpp - The C API of refcpu.h -----------------------------------===//
//
// Glue between the C API and C++: compile with refcpu::compileTTIR, JIT with
// the runtime, launch with the runtime's argument packing and launcher. Every
// llvm::Error becomes a status code and a malloc'ed message.
//
//===----------------------------------------------------------------------===//

#include "refcpu/refcpu.h"

#include "refcpu/Runtime/Arguments.h"
#include "refcpu/Runtime/Jit.h"
#include "refcpu/Runtime/Launcher.h"
#include "refcpu/Runtime/Status.h"
#include "refcpu/Target/AheadOfTime.h"
#include "refcpu/Target/Compile.h"

#include "llvm/Config/llvm-config.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace refcpu::runtime;

struct refcpu_kernel {
  std::string name;
  std::vector<refcpu_arg_kind> params;
  std::vector<bool> written;
  std::vector<std::string> paramNames;
  std::vector<std::string> paramTypes;
  std::vector<std::string> paramPointeeTypes;
  bool checksBounds = false;
  std::unique_ptr<JitModule> jit;
};

namespace {
/// Stores a copy of `message` in *error (when error is non-NULL).
refcpu_status fail(char **error, refcpu_status status,
                   const std::string &message) {
  if (error) {
    *error = static_cast<char *>(std::malloc(message.size() + 1));
    if (*error)
      std::memcpy(*error, message.c_str(), message.size() + 1);
  }
  return status;
}

refcpu_status fail(char **error, llvm::Error err, refcpu_status fallback) {
  std::string message;
  refcpu_status status = takeStatus(std::move(err), fallback, message);
  return fail(error, status, message);
}

/// Whether environment variable `name` is set and not "0": the C API is
/// the one reader of the environment defaults of refcpu_compile_options.
bool isEnvSet(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::strcmp(value, "0") != 0;
}

/// Turns the C options (NULL for defaults) into the compiler's; on a bad
/// field fails with REFCPU_ERROR_INVALID_ARGUMENT and a message naming
/// `function`.
refcpu_status resolveOptions(const refcpu_compile_options *options,
                             const char *function,
                             refcpu::CompileOptions &compileOptions,
                             char **error) {
  // A caller built against an older header passes a smaller struct: the
  // fields it does not know keep their defaults.
  refcpu_compile_options resolved;
  refcpu_compile_options_init(&resolved);
  if (options) {
    if (options->struct_size < sizeof(size_t) ||
        options->struct_size > sizeof(resolved))
      return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                  std::string(function) + ": options.struct_size is " +
                      std::to_string(options->struct_size) +
                      "; call refcpu_compile_options_init first");
    std::memcpy(&resolved, options, options->struct_size);
  }
  int preset = refcpu::runtime::getRawEnumValue(resolved.preset);
  if (preset != REFCPU_PRESET_FAST && preset != REFCPU_PRESET_REFERENCE)
    return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                std::string(function) + ": unknown preset " + std::to_string(preset));
  compileOptions.pipeline.preset = preset == REFCPU_PRESET_REFERENCE
                              ? refcpu::Preset::Reference
                              : refcpu::Preset::Fast;
  if (resolved.kernel_name)
    compileOptions.kernelName = resolved.kernel_name;
  if (resolved.dump_dir)
    compileOptions.dumpDir = resolved.dump_dir;
  if (resolved.source_name)
    compileOptions.sourceName = resolved.source_name;
  compileOptions.pipeline.checkBounds = resolved.check_bounds != 0;
  compileOptions.pipeline.debug = resolved.debug != 0;
  if (resolved.target_cpu)
    compileOptions.targetCPU = resolved.target_cpu;
  return REFCPU_OK;
}
} // namespace

extern "C" {

int refcpu_abi_version(void) { return REFCPU_ABI_VERSION; }

const char *refcpu_version_string(void) {
  return "refcpu 0.1 (ABI 1, LLVM " LLVM_VERSION_STRING ")";
}

void refcpu_compile_options_init(refcpu_compile_options *options) {
  if (!options)
    return;
  std::memset(options, 0, sizeof(*options));
  options->struct_size = sizeof(*options);
  options->preset = REFCPU_PRESET_FAST;
  options->check_bounds = isEnvSet("REFCPU_CHECK_BOUNDS");
  options->debug = isEnvSet("REFCPU_DEBUG");
}

refcpu_status refcpu_kernel_create(const char *ttir, size_t ttir_size,
                                   const refcpu_compile_options *options,
                                   refcpu_kernel **kernel, char **error) {
  if (error)
    *error = nullptr;
  if (!kernel)
    return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                "refcpu_kernel_create: `kernel` is NULL");
  *kernel = nullptr;
  if (!ttir && ttir_size != 0)
    return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                "refcpu_kernel_create: `ttir` is NULL");

  refcpu::CompileOptions compileOptions;
  if (refcpu_status status = resolveOptions(options, "refcpu_kernel_create",
                                            compileOptions, error))
    return status;
  if (!compileOptions.targetCPU.empty())
    return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                "refcpu_kernel_create: options.target_cpu is for "
                "refcpu_compile_aot; JIT-compiled code runs on this host");

  llvm::Expected<refcpu::CompiledKernel> compiled = refcpu::compileTTIR(
      llvm::StringRef(ttir ? ttir : "", ttir_size), compileOptions);
  if (!compiled)
    return fail(error, compiled.takeError(), REFCPU_ERROR_COMPILE);

  auto result = std::make_unique<refcpu_kernel>();
  result->name = compiled->kernelName;
  result->params = compiled->params;
  result->written = compiled->paramWritten;
  result->paramNames = std::move(compiled->paramNames);
  result->paramTypes = std::move(compiled->paramTypes);
  result->paramPointeeTypes = std::move(compiled->paramPointeeTypes);
  result->checksBounds = compileOptions.pipeline.checkBounds;
  llvm::Expected<std::unique_ptr<JitModule>> jit =
      JitModule::create(std::move(compiled->context),
                        std::move(compiled->module), compiled->packedEntry,
                        compiled->debug);
  if (!jit)
    return fail(error, jit.takeError(), REFCPU_ERROR_JIT);
  result->jit = std::move(*jit);
  *kernel = result.release();
  return REFCPU_OK;
}

refcpu_status refcpu_compile_aot(const char *ttir, size_t ttir_size,
                                 const refcpu_compile_options *options,
                                 const char *object_path,
                                 const char *header_path, char **error) {
  if (error)
    *error = nullptr;
  if (!ttir && ttir_size != 0)
    return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                "refcpu_compile_aot: `ttir` is NULL");
  if (!object_path || !*object_path)
    return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                "refcpu_compile_aot: `object_path` is NULL or empty");
  refcpu::CompileOptions compileOptions;
  if (refcpu_status status = resolveOptions(options, "refcpu_compile_aot",
                                            compileOptions, error))
    return status;
  if (llvm::Error err = refcpu::compileAheadOfTime(
          llvm::StringRef(ttir ? ttir : "", ttir_size), compileOptions,
          object_path, header_path ? header_path : ""))
    return fail(error, std::move(err), REFCPU_ERROR_COMPILE);
  return REFCPU_OK;
}

void refcpu_kernel_destroy(refcpu_kernel *kernel) { delete kernel; }

const char *refcpu_kernel_name(const refcpu_kernel *kernel) {
  return kernel ? kernel->name.c_str() : "";
}

size_t refcpu_kernel_num_params(const refcpu_kernel *kernel) {
  return kernel ? kernel->params.size() : 0;
}

refcpu_arg_kind refcpu_kernel_param_kind(const refcpu_kernel *kernel,
                                         size_t index) {
  if (!kernel || index >= kernel->params.size())
    return static_cast<refcpu_arg_kind>(-1);
  return kernel->params[index];
}

int refcpu_kernel_param_written(const refcpu_kernel *kernel, size_t index) {
  if (!kernel || index >= kernel->written.size())
    return -1;
  return kernel->written[index] ? 1 : 0;
}

int refcpu_kernel_checks_bounds(const refcpu_kernel *kernel) {
  return kernel ? kernel->checksBounds : -1;
}

const char *refcpu_kernel_param_name(const refcpu_kernel *kernel,
                                     size_t index) {
  if (!kernel || index >= kernel->paramNames.size())
    return nullptr;
  return kernel->paramNames[index].c_str();
}

const char *refcpu_kernel_param_type(const refcpu_kernel *kernel,
                                     size_t index) {
  if (!kernel || index >= kernel->paramTypes.size())
    return nullptr;
  return kernel->paramTypes[index].c_str();
}

const char *refcpu_kernel_param_pointee_type(const refcpu_kernel *kernel,
                                             size_t index) {
  if (!kernel || index >= kernel->paramPointeeTypes.size() ||
      kernel->paramPointeeTypes[index].empty())
    return nullptr;
  return kernel->paramPointeeTypes[index].c_str();
}

refcpu_status refcpu_kernel_launch(refcpu_kernel *kernel,
                                   const refcpu_arg *args, size_t num_args,
                                   uint32_t gx, uint32_t gy, uint32_t gz,
                                   char **error) {
  if (error)
    *error = nullptr;
  if (!kernel)
    return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                "refcpu_kernel_launch: `kernel` is NULL");
  if (!args && num_args != 0)
    return fail(error, REFCPU_ERROR_INVALID_ARGUMENT,
                "refcpu_kernel_launch: `args` is NULL");
  llvm::Expected<PackedArgs> packed = packArguments(
      kernel->params, llvm::ArrayRef<refcpu_arg>(args, num_args));
  if (!packed)
    return fail(error, packed.takeError(), REFCPU_ERROR_INVALID_ARGUMENT);
  // The extents of pointer arguments, for kernels compiled with bounds
  // checking (others never read them).
  std::vector<int64_t> extents(num_args, 0);
  for (size_t i = 0; i < num_args; ++i)
    if (kernel->params[i] == REFCPU_ARG_PTR)
      extents[i] = static_cast<int64_t>(std::min<uint64_t>(args[i].extent_bytes, INT64_MAX));
  llvm::ArrayRef<void *> pointers = packed->getPointers();
  LaunchStatus status =
      launchGrid(kernel->jit->getEntry(), pointers.data(), pointers.size(),
                 Grid{gx, gy, gz}, getDefaultNumThreads(), extents.data());
  if (!status.ok())
    return fail(error, status.status, status.message);
  return REFCPU_OK;
}

void refcpu_free_error(char *error) { std::free(error); }

} // extern "C"
