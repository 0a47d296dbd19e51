//===- refcpu-fuzz.cpp - libFuzzer target over TTIR compilation -----------===//
//
// Feeds each input to compileTTIR: parse, verify, lower through the whole
// pipeline and optimize the LLVM IR (no JIT: what the runtime then does with
// a valid module is covered by the launch tests). Any input must give either
// a module or an error; a crash, a sanitizer report, a hang or runaway
// memory is a bug. The last byte of the input, which stays part of the text,
// picks the options so that the fuzzer explores both presets and bounds
// checking: bit 0 selects the reference preset, bit 1 bounds checking.
//
// Built with REFCPU_FUZZ=ON (clang's -fsanitize=fuzzer); scripts/fuzz.sh
// builds and runs it on seeds from the corpus and the lit tests.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Target/Compile.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  refcpu::CompileOptions options;
  uint8_t selector = data[size - 1];
  options.pipeline.preset = (selector & 1) ? refcpu::Preset::Reference : refcpu::Preset::Fast;
  options.pipeline.checkBounds = (selector & 2) != 0;
  options.sourceName = "fuzz.ttir";
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<refcpu::CompiledKernel> kernel = refcpu::compileTTIR(text, options);
  if (!kernel)
    llvm::consumeError(kernel.takeError());
  return 0;
}
