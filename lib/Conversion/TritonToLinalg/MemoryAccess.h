//===- MemoryAccess.h - memory paths of the tt lowerings --------*- C++ -*-===//
//
// The memory paths shared by pointer tensors, block pointers and tensor
// descriptors: the general one, where each lane accesses its own address and
// a masked-off lane touches no memory, and the strided one, where a block of
// memory is copied through a memref view.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_LIB_CONVERSION_TRITONTOLINALG_MEMORYACCESS_H
#define REFCPU_LIB_CONVERSION_TRITONTOLINALG_MEMORYACCESS_H

#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace refcpu::pointer_analysis {
struct Expr;
} // namespace refcpu::pointer_analysis

namespace refcpu {

/// Builds a value at the builder's position.
using BuildFn =
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location)>;

/// The value of `then` where `cond` (null: always) holds, else of
/// `otherwise` (an scf.if yielding either).
mlir::Value ifElse(mlir::OpBuilder &b, mlir::Location loc, mlir::Value cond,
                   BuildFn then, BuildFn otherwise);

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
/// (i1) is set, the description holds only when it is true; `wrap`, when set,
/// says how the block is laid out otherwise.
struct StridedBlock {
  /// An index taken `% modulus` along lane dimension `dim` (see
  /// pointer_analysis::Wrap): lane i_dim's index is `index + i_dim * step`,
  /// and an element moves `scale` elements per unit of it. Set on blocks of
  /// rank 1 or 2 (REFCPU_RT_COPY_WRAPPED copies them). i64 values.
  struct Wrap {
    int64_t dim;
    mlir::Value index;
    int64_t step;
    mlir::Value modulus, scale;
  };

  mlir::Value base;
  llvm::SmallVector<mlir::Value> strides, lo, hi;
  mlir::Value exactIf;
  std::optional<Wrap> wrap;
  /// Bit d set: no consumer reads the lanes of dimension d past `hi` (see
  /// UnreadLanes); a block that only such bounds cut is read in place.
  unsigned unreadPastHi = 0;
  bool isUnreadPastHi(int64_t d) const { return unreadPastHi >> d & 1; }
};

/// Lanes of a load that its one consumer, a dot, never reads
/// (refcpu/Analysis/TrimmedK.h).
struct UnreadLanes {
  /// The dimension whose lanes past the mask's bound are unread (K, where
  /// the dot stops at it: kUnreadPastBoundAttr).
  std::optional<int64_t> pastMask;
  /// The dimension whose lanes past `storeBound` are unread (A's rows or
  /// B's columns that no store keeps: kUnreadPastStoreAttr).
  std::optional<int64_t> pastStore;
  const pointer_analysis::Expr *storeBound = nullptr;
};

/// The access a strided block describes, done per lane the way the kernel
/// wrote it: what runs instead of the view when the block's `exactIf` fails.
using LaneLoadFn =
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location)>;
using LaneStoreFn = llvm::function_ref<void(mlir::OpBuilder &, mlir::Location)>;

/// Set by the conversion pass (read-in-place) on loads that canReadInPlace
/// accepts.
constexpr llvm::StringLiteral kReadInPlaceAttr = "refcpu.read_in_place";

/// Loads `type` from `block` through a strided memref view (the per-lane
/// path when no view can describe it); elements out of bounds read `padding`
/// (a scalar, or zero when null). With `inPlace` (the load carries
/// kReadInPlaceAttr), a block wholly in bounds is the view itself, not a
/// copy of it. `original` is required when the block has an `exactIf`.
mlir::Value emitStridedLoad(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::RankedTensorType type,
                            const StridedBlock &block, mlir::Value padding,
                            bool isVolatile, bool inPlace,
                            LaneLoadFn original = nullptr);

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

/// The i64 lane bound `index` clamped to [lo, end] (lo <= end, i64s): how
/// far a dimension of `end` lanes is read up to a mask's bound.
mlir::Value clampLane(mlir::OpBuilder &b, mlir::Location loc, mlir::Value index,
                      mlir::Value lo, mlir::Value end);

/// `expr`, over original TTIR scalars, as an i64 value of the converted IR.
mlir::Value emitScalarExpr(mlir::ConversionPatternRewriter &rewriter,
                           mlir::Location loc,
                           const pointer_analysis::Expr *expr);

/// A tt.load or tt.store whose pointer tensor is a strided block; `padding`
/// is the uniform `other` of a load (null when there is none).
struct StridedAccess {
  StridedBlock block;
  mlir::Value padding;
};

/// Describes the pointer tensor `ptr` of a load or store (elements of the
/// converted `elementType`), with its `mask` and `other` (both optional), as
/// a strided block when its addresses are affine in the lane indices, the
/// mask is a box and `other` is uniform (refcpu/Analysis/PointerAnalysis.h).
/// Emits the block's scalar arithmetic only on success. A load's `unread`
/// lanes become bounds the block's readers may leave unread.
std::optional<StridedAccess>
matchStridedAccess(mlir::ConversionPatternRewriter &rewriter,
                   mlir::Location loc, mlir::Value ptr, mlir::Value mask,
                   mlir::Value other, mlir::Type elementType,
                   const UnreadLanes &unread = {});

/// One atomic read-modify-write per lane where `mask` (optional) is set;
/// returns the old values (zero for masked-off lanes).
mlir::Value emitAtomicRMWs(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::LLVM::AtomicBinOp binOp,
                           mlir::LLVM::AtomicOrdering ordering,
                           mlir::Value addresses, mlir::Value values,
                           mlir::Value mask);

/// The LLVM ordering of a Triton memory semantic.
mlir::LLVM::AtomicOrdering toAtomicOrdering(mlir::triton::MemSemantic sem);

} // namespace refcpu

#endif // REFCPU_LIB_CONVERSION_TRITONTOLINALG_MEMORYACCESS_H
