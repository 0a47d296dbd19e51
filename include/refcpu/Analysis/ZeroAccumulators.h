//===- ZeroAccumulators.h - buffers that products first fill from zero ----===//
//
// A dot loop's accumulator is a block of zeros that the loop's products add
// to. After bufferization that is a buffer, a zero fill of it, and block
// products into it in the loops that follow. Filling it only for the first
// product to read it back is a cost: 64 KiB of zeros per 128 x 128 f32 block,
// written, then loaded by the product's kernel. Where nothing else touches
// the buffer from the fill to the last product, the first product that runs
// may store its result instead (C = A * B), and the zeros are needed only
// where no product wrote: all of the buffer when none ran, and the lanes
// outside a product that writes part of it (a dot that computes only the
// lanes its store keeps).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_ANALYSIS_ZEROACCUMULATORS_H
#define REFCPU_ANALYSIS_ZEROACCUMULATORS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace refcpu {

/// A buffer (a statically shaped memref.alloca or memref.alloc) that `fill`
/// sets to zero whole (linalg.fill of +0 or integer 0, or memref.copy of a
/// constant global of such zeros), then only `products` touch until
/// `lastProduct` ends: the op of the fill's block that holds the last of
/// them. Each product writes the buffer itself or a subview of it at its
/// origin with unit strides (its accumulator, as its init operand) and
/// reads it nowhere else. Other uses of the buffer run before the fill or
/// after `lastProduct` (or outside the fill's block).
struct ZeroAccumulator {
  mlir::Operation *fill;
  mlir::Value buffer;
  llvm::SmallVector<mlir::linalg::LinalgOp> products;
  mlir::Operation *lastProduct;
};

/// The zero accumulators in `root` whose products all satisfy `isProduct`
/// (the products a caller can make store instead of add).
llvm::SmallVector<ZeroAccumulator> findZeroAccumulators(
    mlir::Operation *root,
    llvm::function_ref<bool(mlir::linalg::LinalgOp)> isProduct);

/// The subview through which `product` writes its accumulator `buffer`, or
/// null where it writes the buffer itself.
mlir::memref::SubViewOp getAccumulatorView(mlir::linalg::LinalgOp product,
                                           mlir::Value buffer);

} // namespace refcpu

#endif // REFCPU_ANALYSIS_ZEROACCUMULATORS_H
