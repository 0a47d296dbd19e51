//===- AheadOfTime.cpp - TTIR to an object file and its C header ----------===//

#include "refcpu/Target/AheadOfTime.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {
/// Writes `path` through a temporary file in its directory that replaces it
/// only once `write` succeeded.
Error writeAtomically(StringRef path,
                      function_ref<Error(raw_pwrite_stream &)> write) {
  Expected<sys::fs::TempFile> temp =
      sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp)
    return createStringError(toString(temp.takeError()) + " (writing '" +
                             path + "')");
  Error result = Error::success();
  {
    raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    result = write(os);
    os.flush();
    if (!result && os.has_error())
      result = createStringError(os.error(), "cannot write '%s'",
                                 path.str().c_str());
  }
  if (result) {
    consumeError(temp->discard());
    return result;
  }
  if (Error err = temp->keep(path))
    return createStringError(toString(std::move(err)) + " (writing '" + path +
                             "')");
  return Error::success();
}
} // namespace

Error refcpu::compileAheadOfTime(StringRef ttir, const CompileOptions &options,
                                 StringRef objectPath, StringRef headerPath) {
  if (objectPath.empty())
    return createStringError("no object file path");
  CompileOptions objectOptions = options;
  objectOptions.objectFile = true;
  Expected<CompiledKernel> kernel = compileTTIR(ttir, objectOptions);
  if (!kernel)
    return kernel.takeError();

  TargetMachine &machine = *kernel->targetMachine;
  auto writeObject = [&](raw_pwrite_stream &os) -> Error {
    legacy::PassManager codegen;
    if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                    CodeGenFileType::ObjectFile))
      return createStringError("cannot write object files for " +
                               machine.getTargetTriple().str());
    codegen.run(*kernel->module);
    return Error::success();
  };
  if (Error err = writeAtomically(objectPath, writeObject))
    return err;
  if (headerPath.empty())
    return Error::success();
  std::string header =
      generateKernelHeader(*kernel, sys::path::filename(objectPath));
  return writeAtomically(headerPath, [&](raw_pwrite_stream &os) -> Error {
    os << header;
    return Error::success();
  });
}
