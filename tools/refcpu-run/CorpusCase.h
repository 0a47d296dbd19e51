//===- CorpusCase.h - The case.json of a kernel corpus case -----*- C++ -*-===//
//
// A corpus case (test/Corpus/cases/<name>/) holds kernel.ttir, argN.npy
// inputs, argN.expected.npy outputs and case.json, which gives the grid, the
// parameters in TTIR signature order and the outputs with their tolerances.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TOOLS_REFCPURUN_CORPUSCASE_H
#define REFCPU_TOOLS_REFCPURUN_CORPUSCASE_H

#include "Npy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace refcpu {

/// One kernel parameter of a case.
struct CaseParam {
  std::string name;
  bool isPointer = false;
  /// Element type: a torch name for pointers ("float32", "bfloat16", ...), a
  /// Triton name for scalars ("i32", "fp32", ...).
  std::string dtype;
  /// Pointers: the array's shape and its input file (relative to the case).
  std::vector<int64_t> shape;
  std::string input;
  /// Scalars: the value; integers and bools are also in `intValue`.
  double floatValue = 0;
  int64_t intValue = 0;
};

/// One output of a case: parameter `param` must end up matching `expected`.
struct CaseOutput {
  unsigned param = 0;
  std::string expected;
  double atol = 1e-8;
  double rtol = 1e-5;
};

struct CorpusCase {
  std::string name;
  /// Name of the public tt.func in the TTIR.
  std::string kernel;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::vector<CaseParam> params;
  std::vector<CaseOutput> outputs;
};

/// Parses case.json text. `fileName` only appears in error messages.
llvm::Expected<CorpusCase> parseCorpusCase(llvm::StringRef json,
                                           llvm::StringRef fileName);

/// Reads `caseDir`/case.json.
llvm::Expected<CorpusCase> readCorpusCase(llvm::StringRef caseDir);

/// The .npy dtype that stores pointer data of element type `dtype`
/// ("bfloat16" is stored as U16 bit patterns); std::nullopt if unknown.
std::optional<NpyDType> getStorageDType(llvm::StringRef dtype);

} // namespace refcpu

#endif // REFCPU_TOOLS_REFCPURUN_CORPUSCASE_H
