//===- Status.cpp - Errors that carry a refcpu_status code ----------------===//

#include "refcpu/Runtime/Status.h"

#include "llvm/Support/raw_ostream.h"

using namespace refcpu::runtime;

char StatusError::ID = 0;

void StatusError::log(llvm::raw_ostream &os) const { os << message; }

std::error_code StatusError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error refcpu::runtime::makeStatusError(refcpu_status status,
                                             const llvm::Twine &message) {
  return llvm::make_error<StatusError>(status, message.str());
}

refcpu_status refcpu::runtime::takeStatus(llvm::Error error,
                                          refcpu_status fallback,
                                          std::string &message) {
  refcpu_status status = fallback;
  message.clear();
  llvm::handleAllErrors(
      std::move(error),
      [&](const StatusError &statusError) {
        status = statusError.getStatus();
        message += statusError.getMessage();
      },
      [&](const llvm::ErrorInfoBase &other) {
        if (!message.empty())
          message += "\n";
        message += other.message();
      });
  return status;
}
