//===- TrimmedK.h - the K lanes a tt.dot need not read ----------*- C++ -*-===//
//
// Triton's matmul kernels mask the last K block of both operands of a dot
// with one bound and zero padding (`offs_k < K - k * BLOCK_K`, other=0):
// each lane past it adds 0 * 0 to every element of the product. The dot may
// stop at the bound instead (a product over the first `bound` lanes of K),
// and then its loads need not pad those lanes: a block that only that bound
// cuts is read where it lies, no copy.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_ANALYSIS_TRIMMEDK_H
#define REFCPU_ANALYSIS_TRIMMEDK_H

#include "refcpu/Analysis/PointerAnalysis.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Dominance.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace refcpu {

/// The K bound that both operands of a dot share, as A's mask states it.
struct TrimmedK {
  mlir::triton::LoadOp a, b;
  const pointer_analysis::Expr *bound;
};

/// TrimmedK of `dot` when A and B are tt.loads that only the dot uses,
/// strided blocks (pointer_analysis) whose masks bound the K dimension (A's
/// last, B's second to last) from above by the same expression, with no
/// lower bound there, and whose `other` is a constant zero or absent. Reads the
/// IR only; the expressions live in `pool`.
std::optional<TrimmedK> analyzeTrimmedK(pointer_analysis::ExprPool &pool,
                                        mlir::triton::DotOp dot);

/// The lanes of a dot's result that memory ever sees: the store its value
/// reaches and, per dimension, the upper bound of that store's mask (null:
/// the whole dimension). `a` and `b` are the dot's operand loads that need
/// not read the rows of A (columns of B) past the bound: non-volatile loads
/// that only the dot uses, whose masks do not bound those lanes otherwise;
/// null otherwise.
struct KeptLanes {
  mlir::triton::StoreOp store;
  llvm::SmallVector<const pointer_analysis::Expr *> hi;
  mlir::triton::LoadOp a, b;
};

/// KeptLanes of `dot` when its result reaches memory only as the value of
/// one tt.store, lane for lane: through scf.for iter args and results, the
/// accumulator of dots and elementwise ops, with no other use on the way.
/// The store's mask must bound some dimension from above only, by an
/// expression whose leaves are defined before every loop around `dot`
/// (invariant in them): lanes past it are never stored, so the dot need
/// not compute them.
std::optional<KeptLanes> analyzeKeptLanes(pointer_analysis::ExprPool &pool,
                                          mlir::triton::DotOp dot,
                                          mlir::DominanceInfo &dominance);

/// Set by the conversion pass on a dot that analyzeKeptLanes accepts and on
/// its store, the same i64 on both: the dot's conversion computes only the
/// lanes below the store's bounds.
constexpr llvm::StringLiteral kKeptByStoreAttr = "refcpu.kept_by_store";

/// The bounds that the conversion pass finds before converting anything,
/// so that each is analyzed once: per kKeptByStoreAttr id, the bounds of the
/// store that keeps dots' lanes (KeptLanes::hi), and per
/// kUnreadPastBoundAttr id, the K bound that a dot's operands share
/// (TrimmedK::bound). The conversions of the dots and of their operand
/// loads read them here.
class DotLaneBounds {
public:
  /// Marks `kept.store` with kKeptByStoreAttr unless a dot already did (a
  /// store keeps the lanes of every dot its value comes from) and records
  /// its bounds; returns its id. A marker the input already carried is
  /// replaced: ids are this table's own.
  int64_t recordKept(const KeptLanes &kept);

  /// The bounds recorded under kKeptByStoreAttr `id`; empty if none.
  llvm::ArrayRef<const pointer_analysis::Expr *> lookupKept(int64_t id) const;

  /// Records `trimmed.bound` and returns its id, for kUnreadPastBoundAttr.
  int64_t recordTrimmedK(const TrimmedK &trimmed);

  /// The K bound recorded under `id`; null if none.
  const pointer_analysis::Expr *lookupTrimmedK(int64_t id) const;

  /// Where the analyses' expressions must live to be recorded.
  pointer_analysis::ExprPool &getPool() { return pool; }

private:
  pointer_analysis::ExprPool pool;
  llvm::DenseMap<mlir::Operation *, int64_t> storeIds;
  llvm::SmallVector<llvm::SmallVector<const pointer_analysis::Expr *>>
      keptBounds;
  llvm::SmallVector<const pointer_analysis::Expr *> trimmedKBounds;
};

/// Set by the conversion pass on KeptLanes' `a` and `b`: [dimension,
/// kKeptByStoreAttr id] (i64s), the dimension being both the load's and the
/// product's (A's rows, B's columns). No consumer reads the load's lanes
/// past that store's bound for that dimension.
constexpr llvm::StringLiteral kUnreadPastStoreAttr = "refcpu.unread_past_store";

/// Set by the conversion pass on both loads of a dot that analyzeTrimmedK
/// accepts: [dimension, DotLaneBounds id] (i64s), the lane dimension whose
/// lanes past the mask's bound, recorded under that id, no consumer reads.
/// The dot's conversion trims K where both carry it.
constexpr llvm::StringLiteral kUnreadPastBoundAttr = "refcpu.unread_past_bound";

} // namespace refcpu

#endif // REFCPU_ANALYSIS_TRIMMEDK_H
