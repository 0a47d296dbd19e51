//===- TrimmedK.cpp - the K lanes a tt.dot need not read -----------------===//

#include "refcpu/Analysis/TrimmedK.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SetVector.h"

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

/// `load`'s pointers, mask and `other` as a strided block, if they are one.
std::optional<StridedPointers> stridedLoad(ExprPool &pool,
                                           triton::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type)
    return std::nullopt;
  return analyzeStridedAccess(pool, load.getPtr(), load.getMask(),
                              load.getOther(), type.getElementType());
}

/// The upper bound of `load`'s mask along lane dimension `dim`, when the
/// load is a strided block padded with zero and bounded there from above
/// only. Uniform conditions may mask the rest of the block too: lanes past
/// the bound stay masked.
const Expr *boundOf(ExprPool &pool, triton::LoadOp load, int64_t dim) {
  if (!load.getMask())
    return nullptr;
  std::optional<StridedPointers> access = stridedLoad(pool, load);
  if (!access || !access->box || !padsWithZero(*access) || access->box->lo[dim])
    return nullptr;
  return access->box->hi[dim];
}

/// Whether `load`'s mask leaves its lanes along `dim` unbounded from above
/// or bounds them by `bound` itself: then every lane below `bound` is read
/// or padded as the mask says, and none past it needs to be. A lower bound
/// pads the lanes below it, which stay read.
bool maskAgreesWith(ExprPool &pool, triton::LoadOp load, int64_t dim,
                    const Expr *bound) {
  if (!load.getMask())
    return true;
  std::optional<StridedPointers> access = stridedLoad(pool, load);
  return access && (!access->box || !access->box->hi[dim] ||
                    sameExpr(access->box->hi[dim], bound));
}

/// Whether every leaf of `e` properly dominates `op`.
bool leavesDominate(const Expr *e, Operation *op, DominanceInfo &dominance) {
  if (!e)
    return true;
  if (e->kind == Expr::Kind::Leaf)
    return dominance.properlyDominates(e->leaf, op);
  return leavesDominate(e->lhs, op, dominance) &&
         leavesDominate(e->rhs, op, dominance);
}

/// Whether `op` maps lanes to lanes: an elementwise op (or tt.fp_to_fp) whose
/// operands and results all have one shape.
bool isLanewise(Operation *op) {
  if (!op->hasTrait<OpTrait::Elementwise>() && !isa<triton::FpToFpOp>(op))
    return false;
  Type shape = op->getResult(0).getType();
  auto sameShape = [&](Type type) {
    auto a = dyn_cast<RankedTensorType>(type);
    auto b = dyn_cast<RankedTensorType>(shape);
    return a && b && a.getShape() == b.getShape();
  };
  return llvm::all_of(op->getOperandTypes(), sameShape) &&
         llvm::all_of(op->getResultTypes(), sameShape);
}

/// The one tt.store that `value`'s lanes reach, lane for lane (see
/// analyzeKeptLanes); null when they reach anything else.
triton::StoreOp onlyStoreOf(Value value) {
  llvm::SetVector<Value> reached;
  reached.insert(value);
  triton::StoreOp store;
  for (unsigned i = 0; i < reached.size(); ++i) {
    for (OpOperand &use : reached[i].getUses()) {
      Operation *user = use.getOwner();
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        auto loop = dyn_cast<scf::ForOp>(yield->getParentOp());
        if (!loop)
          return nullptr;
        unsigned index = use.getOperandNumber();
        reached.insert(loop.getResult(index));
        reached.insert(loop.getRegionIterArgs()[index]);
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        OpResult result = loop.getTiedLoopResult(&use);
        if (!result)
          return nullptr;
        reached.insert(result);
        reached.insert(loop.getTiedLoopRegionIterArg(&use));
      } else if (auto dot = dyn_cast<triton::DotOp>(user)) {
        if (&use != &dot.getCMutable())
          return nullptr;
        reached.insert(dot.getResult());
      } else if (isLanewise(user)) {
        reached.insert(user->getResult(0));
      } else if (auto found = dyn_cast<triton::StoreOp>(user)) {
        if (&use != &found.getValueMutable() || (store && store != found))
          return nullptr;
        store = found;
      } else {
        return nullptr;
      }
    }
  }
  return store;
}

/// Per dimension, the upper bound of `store`'s mask where it has no lower
/// bound there (null: the whole dimension); empty when its access is no
/// strided box.
SmallVector<const Expr *> keptLaneBounds(ExprPool &pool,
                                         triton::StoreOp store) {
  auto type = dyn_cast<RankedTensorType>(store.getValue().getType());
  if (!type || !store.getMask())
    return {};
  std::optional<StridedPointers> access = analyzeStridedAccess(
      pool, store.getPtr(), store.getMask(), Value(), type.getElementType());
  if (!access || !access->box)
    return {};
  SmallVector<const Expr *> hi(type.getRank(), nullptr);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!access->box->lo[d])
      hi[d] = access->box->hi[d];
  return hi;
}

} // namespace

std::optional<KeptLanes> refcpu::analyzeKeptLanes(ExprPool &pool,
                                                  triton::DotOp dot,
                                                  DominanceInfo &dominance) {
  triton::StoreOp store = onlyStoreOf(dot.getResult());
  if (!store)
    return std::nullopt;
  SmallVector<const Expr *> hi = keptLaneBounds(pool, store);
  // The bounds must hold still over every loop around the dot: a lane that
  // a later iteration stores must have been accumulated by every earlier
  // one.
  Operation *outermost = dot;
  while (!isa<FunctionOpInterface>(outermost->getParentOp()))
    outermost = outermost->getParentOp();
  if (llvm::none_of(hi, [](const Expr *e) { return e; }) ||
      !llvm::all_of(hi, [&](const Expr *e) {
        return leavesDominate(e, outermost, dominance);
      }))
    return std::nullopt;
  // An operand load may leave the lanes past the bound of its rows (A) or
  // columns (B) unread when the dot alone reads it (the bound's scalars are
  // available there, as they are before the outermost loop), unless it is
  // volatile: those keep one access per lane, as the kernel wrote them.
  int64_t rank = hi.size();
  auto unreadLoad = [&](Value operand, int64_t dim) -> triton::LoadOp {
    auto load = operand.getDefiningOp<triton::LoadOp>();
    if (!load || !load->hasOneUse() || load.getIsVolatile() || !hi[dim] ||
        !maskAgreesWith(pool, load, dim, hi[dim]))
      return nullptr;
    return load;
  };
  return KeptLanes{store, hi, unreadLoad(dot.getA(), rank - 2),
                   unreadLoad(dot.getB(), rank - 1)};
}

int64_t DotLaneBounds::recordKept(const KeptLanes &kept) {
  auto [found, inserted] =
      storeIds.try_emplace(kept.store, static_cast<int64_t>(keptBounds.size()));
  if (!inserted)
    return found->second;
  kept.store->setAttr(
      kKeptByStoreAttr,
      IntegerAttr::get(IntegerType::get(kept.store->getContext(), 64),
                       found->second));
  // Every dot of the store finds the same bounds: the first ones stay.
  keptBounds.push_back(kept.hi);
  return found->second;
}

ArrayRef<const Expr *> DotLaneBounds::lookupKept(int64_t id) const {
  if (id < 0 || id >= static_cast<int64_t>(keptBounds.size()))
    return {};
  return keptBounds[id];
}

int64_t DotLaneBounds::recordTrimmedK(const TrimmedK &trimmed) {
  trimmedKBounds.push_back(trimmed.bound);
  return trimmedKBounds.size() - 1;
}

const Expr *DotLaneBounds::lookupTrimmedK(int64_t id) const {
  return id >= 0 && id < static_cast<int64_t>(trimmedKBounds.size())
             ? trimmedKBounds[id]
             : nullptr;
}

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
