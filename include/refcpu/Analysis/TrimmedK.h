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

/// The K bound of `load`, an operand of a dot that analyzeTrimmedK accepted
/// (the load carries kUnreadPastBoundAttr), reanalyzed where the conversion
/// needs it; null if its mask no longer has one.
const pointer_analysis::Expr *trimmedKBound(pointer_analysis::ExprPool &pool,
                                            mlir::triton::LoadOp load);

/// Set by the conversion pass on both loads of a dot that analyzeTrimmedK
/// accepts: the lane dimension (i64) whose lanes past the mask's bound no
/// consumer reads. The dot's conversion trims K where both carry it.
constexpr llvm::StringLiteral kUnreadPastBoundAttr = "refcpu.unread_past_bound";

} // namespace refcpu

#endif // REFCPU_ANALYSIS_TRIMMEDK_H
