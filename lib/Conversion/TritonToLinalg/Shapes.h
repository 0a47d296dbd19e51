//===- Shapes.h - lanes, reshapes and slices of tensors ---------*- C++ -*-===//
//
// Shape helpers of the tt lowerings (defined in ShapePatterns.cpp, and
// forEachLane in MemoryPatterns.cpp): visiting every lane of a block,
// row-major reshapes, and slices along one axis.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_LIB_CONVERSION_TRITONTOLINALG_SHAPES_H
#define REFCPU_LIB_CONVERSION_TRITONTOLINALG_SHAPES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

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

/// Reshapes `src` to `type` in row-major order (same number of elements).
mlir::Value reshapeRowMajor(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value src, mlir::RankedTensorType type);

/// The slice of `src` along `axis` at `offset` with `size` elements; with
/// `dropAxis` (size 1) the axis is dropped from the result.
mlir::Value sliceAlong(mlir::OpBuilder &b, mlir::Location loc, mlir::Value src,
                       int64_t axis, mlir::OpFoldResult offset, int64_t size,
                       bool dropAxis);

/// Inserts `part` into `dest` at `offset` along `axis`; a `part` of lower
/// rank fills one position of that axis.
mlir::Value insertAlong(mlir::OpBuilder &b, mlir::Location loc, mlir::Value part,
                        mlir::Value dest, int64_t axis, mlir::OpFoldResult offset);

} // namespace refcpu

#endif // REFCPU_LIB_CONVERSION_TRITONTOLINALG_SHAPES_H
