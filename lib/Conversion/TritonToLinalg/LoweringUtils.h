//===- LoweringUtils.h - helpers shared by the tt lowerings -----*- C++ -*-===//
//
// The memory paths shared by pointer tensors, block pointers and tensor
// descriptors: the general one, where each lane accesses its own address and
// a masked-off lane touches no memory, and the strided one, where a block of
// memory is copied through a memref view.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_LIB_CONVERSION_TRITONTOLINALG_LOWERINGUTILS_H
#define REFCPU_LIB_CONVERSION_TRITONTOLINALG_LOWERINGUTILS_H

#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace refcpu {

/// Loads `resultType` (a scalar or a tensor) from `addresses` (i64 or a
/// tensor of i64 of the same shape). Masked-off lanes read `other`, or zero.
mlir::Value emitLoads(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Type resultType, mlir::Value addresses,
                      mlir::Value mask, mlir::Value other, bool isVolatile);

/// Stores `values` to `addresses` where `mask` (optional) is set.
void emitStores(mlir::OpBuilder &b, mlir::Location loc, mlir::Value values,
                mlir::Value addresses, mlir::Value mask);

/// Whether `ptr` is a block pointer (!tt.ptr<tensor<...>>), which is carried
/// as its parts rather than as an address.
inline bool isBlockPointer(mlir::Value ptr) {
  auto type = llvm::dyn_cast<mlir::triton::PointerType>(ptr.getType());
  return type && llvm::isa<mlir::RankedTensorType>(type.getPointeeType());
}

/// A block of memory whose element (i_0..i_{r-1}) lives at
///   base + sum_d i_d * strides[d]
/// (`base` an i64 byte address, strides i64 in elements) and is accessed only
/// where lo[d] <= i_d < hi[d] (i64; a null bound is no bound). When `exactIf`
/// (i1) is set, the description holds only when it is true.
struct StridedBlock {
  mlir::Value base;
  llvm::SmallVector<mlir::Value> strides, lo, hi;
  mlir::Value exactIf;
};

/// The access a strided block describes, done per lane the way the kernel
/// wrote it: what runs instead of the view when the block's `exactIf` fails.
using LaneLoadFn =
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location)>;
using LaneStoreFn = llvm::function_ref<void(mlir::OpBuilder &, mlir::Location)>;

/// Loads `type` from `block` through a strided memref view (the per-lane
/// path when no view can describe it); elements out of bounds read `padding`
/// (a scalar, or zero when null). `original` is required when the block has
/// an `exactIf`.
mlir::Value emitStridedLoad(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::RankedTensorType type,
                            const StridedBlock &block, mlir::Value padding,
                            bool isVolatile, LaneLoadFn original = nullptr);

/// The per-lane form of `block` holding `type`, for the general path: the
/// i64 address of every element, and the in-bounds mask (null when the block
/// is unbounded).
std::pair<mlir::Value, mlir::Value>
stridedAddresses(mlir::OpBuilder &b, mlir::Location loc,
                 mlir::RankedTensorType type, const StridedBlock &block);

/// Stores the in-bounds elements of `values` to `block`; `original` as for
/// loads.
void emitStridedStore(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value values, const StridedBlock &block,
                      LaneStoreFn original = nullptr);

/// A tt.load or tt.store whose pointer tensor is a strided block; `padding`
/// is the uniform `other` of a load (null when there is none).
struct StridedAccess {
  StridedBlock block;
  mlir::Value padding;
};

/// Describes the pointer tensor `ptr` of a load or store (elements of the
/// converted `elementType`), with its `mask` and `other` (both optional), as
/// a strided block when its addresses are affine in the lane indices, the
/// mask is a box and `other` is uniform (see PointerAnalysis.cpp). Emits the
/// block's scalar arithmetic only on success.
std::optional<StridedAccess>
matchStridedAccess(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc,
                   mlir::Value ptr, mlir::Value mask, mlir::Value other,
                   mlir::Type elementType);

/// One atomic read-modify-write per lane where `mask` (optional) is set;
/// returns the old values (zero for masked-off lanes).
mlir::Value emitAtomicRMWs(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::LLVM::AtomicBinOp binOp,
                           mlir::LLVM::AtomicOrdering ordering,
                           mlir::Value addresses, mlir::Value values,
                           mlir::Value mask);

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

/// The LLVM ordering of a Triton memory semantic.
mlir::LLVM::AtomicOrdering toAtomicOrdering(mlir::triton::MemSemantic sem);

} // namespace refcpu

#endif // REFCPU_LIB_CONVERSION_TRITONTOLINALG_LOWERINGUTILS_H
