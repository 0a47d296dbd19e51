//===- Compare.cpp - numpy.allclose-style comparison of arrays ------------===//

#include "Compare.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstring>

using namespace refcpu;

namespace {
double bfloat16ToDouble(const NpyArray &array, size_t index) {
  uint16_t bits;
  std::memcpy(&bits, array.getData() + 2 * index, sizeof(bits));
  uint32_t widened = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &widened, sizeof(value));
  return value;
}

std::string describeShape(llvm::ArrayRef<int64_t> shape) {
  return "(" + llvm::join(llvm::map_range(shape, [](int64_t dim) {
                             return std::to_string(dim);
                           }),
                           ", ") +
         ")";
}

/// numpy.isclose with equal_nan=True, and the error it contributes.
bool isClose(double got, double expected, double atol, double rtol,
             double &error) {
  if (std::isnan(got) || std::isnan(expected)) {
    bool bothNaN = std::isnan(got) && std::isnan(expected);
    error = bothNaN ? 0 : INFINITY;
    return bothNaN;
  }
  if (got == expected) {
    error = 0;
    return true;
  }
  error = std::fabs(got - expected);
  if (std::isinf(got) || std::isinf(expected))
    return false;
  return error <= atol + rtol * std::fabs(expected);
}
} // namespace

llvm::Expected<CompareResult>
refcpu::compareArrays(const NpyArray &got, const NpyArray &expected,
                      const CompareOptions &options) {
  if (got.getDType() != expected.getDType())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "dtype mismatch: got " + getNpyDescr(got.getDType()) + ", expected " +
            getNpyDescr(expected.getDType()));
  if (got.getShape() != expected.getShape())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "shape mismatch: got " + describeShape(got.getShape()) +
            ", expected " + describeShape(expected.getShape()));
  if (options.bfloat16 && got.getDType() != NpyDType::U16)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "bfloat16 data must be stored as uint16, not " +
            getNpyDescr(got.getDType()));

  CompareResult result;
  result.numElements = got.getNumElements();
  NpyDType dtype = got.getDType();
  bool floating = options.bfloat16 || isNpyFloat(dtype);
  result.exact = !floating;
  for (size_t i = 0; i < result.numElements; ++i) {
    double gotValue, expectedValue, error;
    bool close;
    if (options.bfloat16) {
      gotValue = bfloat16ToDouble(got, i);
      expectedValue = bfloat16ToDouble(expected, i);
      close = isClose(gotValue, expectedValue, options.atol, options.rtol,
                      error);
    } else if (floating) {
      gotValue = got.getAsDouble(i);
      expectedValue = expected.getAsDouble(i);
      close = isClose(gotValue, expectedValue, options.atol, options.rtol,
                      error);
    } else {
      // Compare as integers: doubles cannot hold every 64-bit value.
      int64_t gotInt = got.getAsInt64(i);
      int64_t expectedInt = expected.getAsInt64(i);
      close = gotInt == expectedInt;
      gotValue = got.getAsDouble(i);
      expectedValue = expected.getAsDouble(i);
      error = std::fabs(gotValue - expectedValue);
    }
    if (error > result.maxAbsError)
      result.maxAbsError = error;
    if (close)
      continue;
    if (!result.firstMismatch) {
      result.firstMismatch = i;
      result.firstGot = gotValue;
      result.firstExpected = expectedValue;
    }
    ++result.numMismatches;
  }
  return result;
}
