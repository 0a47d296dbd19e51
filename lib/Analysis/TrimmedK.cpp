//===- TrimmedK.cpp - the K lanes a tt.dot need not read -----------------===//

#include "refcpu/Analysis/TrimmedK.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace refcpu;
using namespace refcpu::pointer_analysis;

namespace {

/// Whether `a` and `b` are the same expression (the pools of two accesses
/// share no nodes).
bool sameExpr(const Expr *a, const Expr *b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case Expr::Kind::Constant:
    return a->constant == b->constant;
  case Expr::Kind::Leaf:
    return a->leaf == b->leaf;
  default:
    return sameExpr(a->lhs, b->lhs) && sameExpr(a->rhs, b->rhs);
  }
}

/// Whether every masked-off lane of the load reads zero: no `other` (refcpu
/// reads zero there; Triton leaves the lanes undefined) or a constant zero.
bool padsWithZero(const StridedPointers &access) {
  if (!access.padding)
    return true;
  TypedAttr constant = access.padding->constant;
  if (auto value = dyn_cast_if_present<FloatAttr>(constant))
    return value.getValue().isZero();
  if (auto value = dyn_cast_if_present<IntegerAttr>(constant))
    return value.getValue().isZero();
  return false;
}

/// The upper bound of `load`'s mask along lane dimension `dim`, when the
/// load is a strided block padded with zero and bounded there from above
/// only. Uniform conditions may mask the rest of the block too: lanes past
/// the bound stay masked.
const Expr *boundOf(ExprPool &pool, triton::LoadOp load, int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || !load.getMask())
    return nullptr;
  std::optional<StridedPointers> access =
      analyzeStridedAccess(pool, load.getPtr(), load.getMask(), load.getOther(),
                           type.getElementType());
  if (!access || !access->box || !padsWithZero(*access) || access->box->lo[dim])
    return nullptr;
  return access->box->hi[dim];
}

} // namespace

std::optional<TrimmedK> refcpu::analyzeTrimmedK(ExprPool &pool,
                                                triton::DotOp dot) {
  auto a = dot.getA().getDefiningOp<triton::LoadOp>();
  auto b = dot.getB().getDefiningOp<triton::LoadOp>();
  if (!a || !b || a == b || !dot.getA().hasOneUse() ||
      !dot.getB().hasOneUse() || a.getIsVolatile() || b.getIsVolatile())
    return std::nullopt;
  int64_t rank = dot.getType().getRank();
  const Expr *boundA = boundOf(pool, a, rank - 1);
  const Expr *boundB = boundOf(pool, b, rank - 2);
  if (!boundA || !sameExpr(boundA, boundB))
    return std::nullopt;
  return TrimmedK{a, b, boundA};
}

const Expr *refcpu::trimmedKBound(ExprPool &pool, triton::LoadOp load) {
  auto dim = load->getAttrOfType<IntegerAttr>(kUnreadPastBoundAttr);
  return dim ? boundOf(pool, load, dim.getInt()) : nullptr;
}
