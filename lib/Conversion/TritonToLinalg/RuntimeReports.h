//===- RuntimeReports.h - what reports to the runtime carry -----*- C++ -*-===//
//
// Code that reports to the runtime (tt.print, tt.assert, failed bounds
// checks) passes the program's grid position, messages as global strings and
// the op's source position. Defined in FuncPatterns.cpp (grid arguments) and
// DebugPatterns.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_LIB_CONVERSION_TRITONTOLINALG_RUNTIMEREPORTS_H
#define REFCPU_LIB_CONVERSION_TRITONTOLINALG_RUNTIMEREPORTS_H

#include "mlir/IR/Builders.h"

#include <string>
#include <utility>

namespace refcpu {

/// The kernel ABI's grid argument `index` (0-2: num_programs x, y, z; 3-5:
/// program_id x, y, z) of the func.func enclosing `op`.
mlir::Value getGridArgument(mlir::Operation *op, unsigned index);

/// The address of a NUL-terminated global string with `value` in `module`,
/// shared by every use of the same text.
mlir::Value globalString(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Operation *module, llvm::StringRef value);

/// The innermost file:line of `loc` (Triton locations nest names and call
/// sites around them); ("unknown", 0) when it has none.
std::pair<std::string, int64_t> sourcePosition(mlir::Location loc);

} // namespace refcpu

#endif // REFCPU_LIB_CONVERSION_TRITONTOLINALG_RUNTIMEREPORTS_H
