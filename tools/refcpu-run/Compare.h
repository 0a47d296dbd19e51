//===- Compare.h - numpy.allclose-style comparison of arrays ----*- C++ -*-===//
//
// How refcpu-run (and tests) decide that a kernel's output matches its
// expected array: numpy.allclose(got, expected, atol, rtol, equal_nan=True)
// for floating-point data, exact equality for integers and booleans.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TOOLS_REFCPURUN_COMPARE_H
#define REFCPU_TOOLS_REFCPURUN_COMPARE_H

#include "Npy.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <optional>

namespace refcpu {

struct CompareOptions {
  double atol = 1e-8;
  double rtol = 1e-5;
  /// The arrays are U16 bfloat16 bit patterns to compare as values.
  bool bfloat16 = false;
};

struct CompareResult {
  size_t numElements = 0;
  size_t numMismatches = 0;
  /// Largest |got - expected| over all elements; pairs of NaNs and equal
  /// infinities count as 0, a NaN against a number as infinity.
  double maxAbsError = 0;
  /// True when integers/bools were compared exactly (no tolerances).
  bool exact = false;
  /// The first mismatching element (flat index) and its two values.
  std::optional<size_t> firstMismatch;
  double firstGot = 0;
  double firstExpected = 0;

  bool matches() const { return numMismatches == 0; }
};

/// Compares `got` with `expected` element by element. Floating-point elements
/// match when both are NaN, or when equal (infinities included), or when
/// |got - expected| <= atol + rtol * |expected|. Integer and bool elements
/// match only when equal (bools by truth value). Arrays of different dtypes
/// or shapes are an error.
llvm::Expected<CompareResult> compareArrays(const NpyArray &got,
                                            const NpyArray &expected,
                                            const CompareOptions &options);

} // namespace refcpu

#endif // REFCPU_TOOLS_REFCPURUN_COMPARE_H
