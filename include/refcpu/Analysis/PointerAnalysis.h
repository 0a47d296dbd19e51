//===- PointerAnalysis.h - pointer tensors as strided blocks ----*- C++ -*-===//
//
// Which loads and stores of a TTIR kernel access a strided block: their
// pointer tensor is a scalar pointer plus offsets affine in the lane indices,
// their mask a box of lanes and their `other` uniform. The result is a set
// of scalar expressions over values of the original TTIR, so that nothing
// is built before the whole access is understood; the conversion emits them
// (lib/Conversion/TritonToLinalg/MatchStridedAccess.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_ANALYSIS_POINTERANALYSIS_H
#define REFCPU_ANALYSIS_POINTERANALYSIS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <optional>

namespace refcpu::pointer_analysis {

/// A scalar integer expression over values of the original TTIR, evaluated
/// in i64 (wrapping); a leaf is an original integer scalar, sign-extended.
struct Expr {
  enum class Kind { Constant, Leaf, Add, Mul, Max, Min };
  Kind kind;
  int64_t constant = 0;
  mlir::Value leaf;
  const Expr *lhs = nullptr, *rhs = nullptr;
};

/// Owns the expressions of one access and folds constants as they are built.
class ExprPool {
public:
  const Expr *constant(int64_t value);
  /// `value` itself, or its value when it is a constant.
  const Expr *leaf(mlir::Value value);
  const Expr *add(const Expr *a, const Expr *b);
  const Expr *mul(const Expr *a, const Expr *b);
  const Expr *sub(const Expr *a, const Expr *b);
  /// max/min where a null operand is "no bound".
  const Expr *max(const Expr *a, const Expr *b);
  const Expr *min(const Expr *a, const Expr *b);

  static bool isConstant(const Expr *e, int64_t value) {
    return e->kind == Expr::Kind::Constant && e->constant == value;
  }

private:
  static int64_t wrap(uint64_t value) { return static_cast<int64_t>(value); }

  const Expr *make(Expr e);

  std::deque<Expr> nodes;
};

/// An index taken `% modulus` (arith.remsi) that a form describes
/// unwrapped: along lane dimension `dim` the index is `index + i_dim * step`
/// (step > 0, the same for every other lane index), and each element of the
/// form moves `scale` elements per unit of it. Where the index lies in
/// [q * modulus, (q + 1) * modulus), q >= 0, the wrapped element sits
/// q * modulus * scale elements before the unwrapped one.
struct Wrap {
  int64_t dim;
  const Expr *index;
  int64_t step;
  const Expr *modulus;
  const Expr *scale;
};

/// A pointer or integer tensor with value base + offset + sum_d i_d *
/// strides[d] at lane i; `base` (a scalar pointer) is null for integers.
/// `wrap` is the one index of it taken `% m`, when it has one.
struct Form {
  mlir::Value base;
  const Expr *offset = nullptr;
  llvm::SmallVector<const Expr *> strides;
  std::optional<Wrap> wrap;

  bool isUniform() const {
    return llvm::all_of(
        strides, [](const Expr *e) { return ExprPool::isConstant(e, 0); });
  }
};

/// A condition that is the same for every lane: `flag` (an original i1
/// scalar) when set, else `lhs pred 0`.
struct Condition {
  mlir::Value flag;
  mlir::arith::CmpIPredicate pred = mlir::arith::CmpIPredicate::eq;
  const Expr *lhs = nullptr;
};

/// The lanes a mask enables: lo[d] <= i_d < hi[d] (null: no bound) on every
/// dimension, when all `conditions` hold.
struct Box {
  llvm::SmallVector<const Expr *> lo, hi;
  llvm::SmallVector<Condition> conditions;
};

/// What every lane of `other` holds, when it is uniform: a constant, or an
/// original scalar value.
struct Uniform {
  mlir::TypedAttr constant;
  mlir::Value scalar;
};

/// A load or store whose every lane accesses element
///   form.base + form.offset + sum_d i_d * form.strides[d]
/// of the pointee type, where `box` (absent without a mask) enables it;
/// exact only when all `exactIf` hold at run time (offsets taken `% m`
/// unwrapped; `form.wrap` is set when a single such offset along one lane
/// dimension is the cause, and `exactIf` is then exactly its two
/// conditions: the first lane's index >= 0, the last one's below the
/// modulus); masked-off lanes of a load read `padding` (absent without an
/// `other`).
struct StridedPointers {
  Form form;
  std::optional<Box> box;
  llvm::SmallVector<Condition> exactIf;
  std::optional<Uniform> padding;
};

/// Describes the access of a tt.load or tt.store through the pointer tensor
/// `ptr` with its `mask` and `other` (both optional; `other` must be a
/// splat of `elementType` to be uniform), or nothing when it is not a
/// strided block. Reads the IR only; the expressions live in `pool`.
std::optional<StridedPointers>
analyzeStridedAccess(ExprPool &pool, mlir::Value ptr, mlir::Value mask,
                     mlir::Value other, mlir::Type elementType);

} // namespace refcpu::pointer_analysis

#endif // REFCPU_ANALYSIS_POINTERANALYSIS_H
