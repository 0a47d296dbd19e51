//===- BoundsCheck.h - the check_bounds option ------------------*- C++ -*-===//
//
// What the lowerings call to check accesses against their arguments'
// extents (BoundsCheck.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_LIB_CONVERSION_TRITONTOLINALG_BOUNDSCHECK_H
#define REFCPU_LIB_CONVERSION_TRITONTOLINALG_BOUNDSCHECK_H

#include "MemoryAccess.h"

namespace refcpu {

/// Bounds checking (the check_bounds compile option). Before the
/// conversion, markCheckedAccesses sets on every load, store and atomic of
/// the public kernel `kernel` and of the functions it calls (block-pointer
/// and descriptor accesses too) the attribute kBoundsParamsAttr: the kernel
/// parameters its pointer may
/// derive from (one when traced, every pointer parameter otherwise).
/// kBoundsNamesAttr holds their names, for the report, and the unit
/// attribute kBoundsTracedAttr says the pointer was traced to its one
/// parameter.
constexpr llvm::StringLiteral kBoundsParamsAttr = "refcpu.bounds_params";
constexpr llvm::StringLiteral kBoundsNamesAttr = "refcpu.bounds_names";
constexpr llvm::StringLiteral kBoundsTracedAttr = "refcpu.bounds_traced";
void markCheckedAccesses(mlir::triton::FuncOp kernel);

/// For an access `op` that markCheckedAccesses marked (else returns `mask`
/// as it is): emits the check of the lanes at `addresses` (i64, a scalar or
/// a tensor) that `mask` (i1 of the same shape, or null) enables, each
/// accessing `bytes`, against the extents of the parameters `op` may derive
/// from. Lanes outside are reported to refcpu_rt_bounds_fail (the first by
/// address) and must not access memory: the result is the mask of the lanes
/// that may.
mlir::Value emitBoundsCheck(mlir::OpBuilder &b, mlir::Operation *op,
                            mlir::Value addresses, mlir::Value mask,
                            int64_t bytes);

/// For a marked access `op` whose lanes form the strided `block` of `shape`
/// (each lane `bytes` wide): adds to the block's exactIf that the whole box
/// lies inside a candidate parameter, so that the view is taken only then and
/// the checked per-lane path (the block's fallback) runs otherwise.
void guardStridedBlock(mlir::OpBuilder &b, mlir::Operation *op,
                       StridedBlock &block, llvm::ArrayRef<int64_t> shape,
                       int64_t bytes);

} // namespace refcpu

#endif // REFCPU_LIB_CONVERSION_TRITONTOLINALG_BOUNDSCHECK_H
