//===- TestUtils.h - Helpers shared by the unit tests -----------*- C++ -*-===//
//
// Debian ships llvm/Testing/Support headers without their library, so the
// tests check llvm::Error and llvm::Expected with these instead.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_UNITTESTS_TESTUTILS_H
#define REFCPU_UNITTESTS_TESTUTILS_H

#include "llvm/Support/Error.h"

#include <string>

namespace refcpu::unittest {

/// The message of `err`, or "" for success.
inline std::string errorString(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : std::string();
}

/// The message of a failed `expected`, or "<no error>" when it succeeded.
template <typename T> std::string errorString(llvm::Expected<T> &&expected) {
  if (expected)
    return "<no error>";
  return llvm::toString(expected.takeError());
}

} // namespace refcpu::unittest

/// Asserts that an llvm::Expected holds a value, printing the error if not.
#define REFCPU_ASSERT_OK(expected)                                             \
  ASSERT_TRUE(!!(expected)) << llvm::toString((expected).takeError())

#endif // REFCPU_UNITTESTS_TESTUTILS_H
