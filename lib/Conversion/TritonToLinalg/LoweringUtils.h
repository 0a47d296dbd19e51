//===- LoweringUtils.h - helpers shared by the tt lowerings -----*- C++ -*-===//
//
// Shapes (lanes, reshapes, slices), float conversions, grid arguments,
// global strings and source positions, used across the lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_LIB_CONVERSION_TRITONTOLINALG_LOWERINGUTILS_H
#define REFCPU_LIB_CONVERSION_TRITONTOLINALG_LOWERINGUTILS_H

#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace refcpu {

/// Visits every lane of `shape` in row-major order, threading `init` (a
/// tensor the body updates and returns, or none) through the loops; returns
/// the final `init`.
mlir::Value forEachLane(
    mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<int64_t> shape,
    mlir::Value init,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange, mlir::Value)>
        body);

/// The kernel ABI's grid argument `index` (0-2: num_programs x, y, z; 3-5:
/// program_id x, y, z) of the func.func enclosing `op`.
mlir::Value getGridArgument(mlir::Operation *op, unsigned index);

/// Reshapes `src` to `type` in row-major order (same number of elements).
mlir::Value reshapeRowMajor(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value src, mlir::RankedTensorType type);

/// Converts floats (scalar or tensor) to `dstType`'s element type with
/// Triton's GPU results, fp8 formats included; `towardZero` selects rtz
/// rounding for narrowing (else rtne). Fails for unsupported formats.
mlir::FailureOr<mlir::Value> convertFloat(mlir::OpBuilder &b, mlir::Location loc,
                                          mlir::Value src, mlir::Type dstType,
                                          bool towardZero);

/// The slice of `src` along `axis` at `offset` with `size` elements; with
/// `dropAxis` (size 1) the axis is dropped from the result.
mlir::Value sliceAlong(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src,
                       int64_t axis, mlir::OpFoldResult offset, int64_t size,
                       bool dropAxis);

/// Inserts `part` into `dest` at `offset` along `axis`; a `part` of lower
/// rank fills one position of that axis.
mlir::Value insertAlong(mlir::OpBuilder &b, mlir::Location loc, mlir::Value part,
                        mlir::Value dest, int64_t axis, mlir::OpFoldResult offset);

/// The address of a NUL-terminated global string with `value` in `module`,
/// shared by every use of the same text.
mlir::Value globalString(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Operation *module, llvm::StringRef value);

/// The innermost file:line of `loc` (Triton locations nest names and call
/// sites around them); ("unknown", 0) when it has none.
std::pair<std::string, int64_t> sourcePosition(mlir::Location loc);

} // namespace refcpu

#endif // REFCPU_LIB_CONVERSION_TRITONTOLINALG_LOWERINGUTILS_H
