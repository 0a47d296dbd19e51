//===- Status.h - Errors that carry a refcpu_status code --------*- C++ -*-===//
//
// The runtime reports failures as llvm::Error. The C API must turn them into
// a refcpu_status, so runtime errors carry the code they map to.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_STATUS_H
#define REFCPU_RUNTIME_STATUS_H

#include "refcpu/refcpu.h"

#include "llvm/Support/Error.h"

#include <string>

namespace refcpu::runtime {

/// An error with a refcpu_status code and a message for the user.
class StatusError : public llvm::ErrorInfo<StatusError> {
public:
  static char ID;

  StatusError(refcpu_status status, std::string message)
      : status(status), message(std::move(message)) {}

  refcpu_status getStatus() const { return status; }
  const std::string &getMessage() const { return message; }

  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  refcpu_status status;
  std::string message;
};

/// Shorthand for llvm::make_error<StatusError>(status, message).
llvm::Error makeStatusError(refcpu_status status, const llvm::Twine &message);

/// Consumes `error` and returns its status and message; errors that are not
/// StatusErrors get `fallback`.
refcpu_status takeStatus(llvm::Error error, refcpu_status fallback,
                         std::string &message);

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_STATUS_H
