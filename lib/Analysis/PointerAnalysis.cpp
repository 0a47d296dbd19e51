//===- PointerAnalysis.cpp - pointer tensors as strided blocks ------------===//
//
// Recognizes the pointer tensors Triton kernels build from a scalar pointer
// and lane indices,
//
//   ptrs = splat(p) + (pid * BLOCK + arange(0, BLOCK))[:, None] * stride
//          + arange(0, BN)[None, :]
//   mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
//
// and describes them as StridedPointers, which the conversion emits as a
// StridedBlock (MatchStridedAccess.cpp): every lane's address is affine in
// the lane indices,
//
//   address(i) = p + offset + sum_d i_d * stride_d      (elements)
//
// and the mask is a box lo_d <= i_d < hi_d, possibly emptied by a uniform
// condition. Offsets wrapped with `% m` are taken as unwrapped, valid when
// no lane wraps: a run-time check picks another path otherwise, which the
// Wrap of the form describes when a single such offset varies along one lane
// dimension (so the conversion can copy the block in unwrapped pieces). The
// analysis walks the original TTIR (the conversion keeps it until the end) and
// builds the scalar offset, strides and bounds as expressions over original
// scalar values; only when the whole access is understood does the conversion
// emit them, over the converted values. Anything else (gathers, masks like
// `offs % 2 == 0`) stays on the general per-lane path.
//
// Index arithmetic is done in i64. Where a kernel's i32 index arithmetic
// would wrap, the two differ; Triton's own pointer analysis assumes the same.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Analysis/PointerAnalysis.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace refcpu::pointer_analysis;

const Expr *ExprPool::constant(int64_t value) {
  return make({Expr::Kind::Constant, value, Value(), nullptr, nullptr});
}

const Expr *ExprPool::leaf(Value value) {
  APInt known;
  if (matchPattern(value, m_ConstantInt(&known)))
    return constant(known.getSExtValue());
  return make({Expr::Kind::Leaf, 0, value, nullptr, nullptr});
}

const Expr *ExprPool::add(const Expr *a, const Expr *b) {
  if (isConstant(a, 0))
    return b;
  if (isConstant(b, 0))
    return a;
  if (a->kind == Expr::Kind::Constant && b->kind == Expr::Kind::Constant)
    return constant(wrap(uint64_t(a->constant) + uint64_t(b->constant)));
  return make({Expr::Kind::Add, 0, Value(), a, b});
}

const Expr *ExprPool::mul(const Expr *a, const Expr *b) {
  // Constants go left, so that k1 * (k2 * x) folds to (k1 * k2) * x.
  if (b->kind == Expr::Kind::Constant)
    std::swap(a, b);
  if (isConstant(a, 0) || isConstant(a, 1))
    return isConstant(a, 0) ? a : b;
  if (a->kind == Expr::Kind::Constant && b->kind == Expr::Kind::Constant)
    return constant(wrap(uint64_t(a->constant) * uint64_t(b->constant)));
  if (a->kind == Expr::Kind::Constant && b->kind == Expr::Kind::Mul &&
      b->lhs->kind == Expr::Kind::Constant)
    return mul(
        constant(wrap(uint64_t(a->constant) * uint64_t(b->lhs->constant))),
        b->rhs);
  return make({Expr::Kind::Mul, 0, Value(), a, b});
}

const Expr *ExprPool::sub(const Expr *a, const Expr *b) {
  return add(a, mul(constant(-1), b));
}

const Expr *ExprPool::max(const Expr *a, const Expr *b) {
  if (!a || !b)
    return a ? a : b;
  return make({Expr::Kind::Max, 0, Value(), a, b});
}

const Expr *ExprPool::min(const Expr *a, const Expr *b) {
  if (!a || !b)
    return a ? a : b;
  return make({Expr::Kind::Min, 0, Value(), a, b});
}

const Expr *ExprPool::make(Expr e) {
  nodes.push_back(e);
  return &nodes.back();
}

namespace {

class Analysis {
public:
  explicit Analysis(ExprPool &pool) : pool(pool) {}

  /// Conditions under which the forms found are exact (see arith.remsi).
  SmallVector<Condition> exactIf;
  /// How many offsets taken `% m` the forms describe unwrapped.
  unsigned wrapped = 0;
  /// Whether forms may rely on exactIf; masks do not, since a failed
  /// condition there would only send the access to the general path.
  bool allowWrap = true;

  std::optional<Form> form(Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    Operation *def = value.getDefiningOp();
    if (!type || !def)
      return std::nullopt;
    int64_t rank = type.getRank();
    auto uniform = [&](Value base, const Expr *offset) {
      return Form{base, offset,
                  SmallVector<const Expr *>(rank, pool.constant(0))};
    };
    return TypeSwitch<Operation *, std::optional<Form>>(def)
        .Case([&](arith::ConstantOp op) -> std::optional<Form> {
          auto dense = dyn_cast<DenseIntElementsAttr>(op.getValue());
          if (!dense || !dense.isSplat())
            return std::nullopt;
          return uniform(
              Value(),
              pool.constant(dense.getSplatValue<APInt>().getSExtValue()));
        })
        .Case([&](triton::SplatOp op) -> std::optional<Form> {
          Value src = op.getSrc();
          if (isa<triton::PointerType>(src.getType()))
            return uniform(src, pool.constant(0));
          if (!src.getType().isSignlessInteger())
            return std::nullopt;
          return uniform(Value(), pool.leaf(src));
        })
        .Case([&](triton::MakeRangeOp op) -> std::optional<Form> {
          return Form{
              Value(), pool.constant(op.getStart()), {pool.constant(1)}};
        })
        .Case([&](triton::AddPtrOp op) -> std::optional<Form> {
          std::optional<Form> ptr = form(op.getPtr());
          std::optional<Form> offset = form(op.getOffset());
          if (!ptr || !offset || !ptr->base || offset->base)
            return std::nullopt;
          return combine(*ptr, *offset, /*sign=*/1);
        })
        .Case([&](arith::AddIOp op) { return intCombine(op, 1); })
        .Case([&](arith::SubIOp op) { return intCombine(op, -1); })
        .Case([&](arith::MulIOp op) -> std::optional<Form> {
          std::optional<Form> a = form(op.getLhs()), b = form(op.getRhs());
          if (!a || !b || a->base || b->base)
            return std::nullopt;
          if (!a->isUniform())
            std::swap(a, b);
          if (!a->isUniform())
            return std::nullopt;
          Form scaled{Value(), pool.mul(b->offset, a->offset), {}, b->wrap};
          for (const Expr *stride : b->strides)
            scaled.strides.push_back(pool.mul(stride, a->offset));
          if (scaled.wrap)
            scaled.wrap->scale = pool.mul(scaled.wrap->scale, a->offset);
          return scaled;
        })
        .Case([&](arith::ExtSIOp op) { return form(op.getIn()); })
        .Case([&](arith::RemSIOp op) -> std::optional<Form> {
          // a % m (Triton's tutorial matmul wraps its row offsets so) is a
          // itself while every lane of a lies in [0, m): the access is
          // described as a, valid when that holds at run time.
          std::optional<Form> a = form(op.getLhs()), m = form(op.getRhs());
          if (!allowWrap || !a || !m || a->base || m->base || !m->isUniform())
            return std::nullopt;
          const Expr *lo = a->offset, *hi = a->offset;
          for (auto [stride, size] : llvm::zip(a->strides, type.getShape())) {
            if (stride->kind != Expr::Kind::Constant)
              return std::nullopt;
            const Expr *span = pool.constant(stride->constant * (size - 1));
            if (stride->constant < 0)
              lo = pool.add(lo, span);
            else
              hi = pool.add(hi, span);
          }
          exactIf.push_back({Value(), arith::CmpIPredicate::sge, lo});
          exactIf.push_back(
              {Value(), arith::CmpIPredicate::slt, pool.sub(hi, m->offset)});
          ++wrapped;
          Form unwrapped = *a;
          unwrapped.wrap = wrapOf(*a, m->offset);
          return unwrapped;
        })
        .Case([&](triton::ExpandDimsOp op) -> std::optional<Form> {
          std::optional<Form> src = form(op.getSrc());
          if (!src)
            return std::nullopt;
          src->strides.insert(src->strides.begin() + op.getAxis(),
                              pool.constant(0));
          if (src->wrap && src->wrap->dim >= int64_t(op.getAxis()))
            ++src->wrap->dim;
          return src;
        })
        .Case([&](triton::BroadcastOp op) -> std::optional<Form> {
          std::optional<Form> src = form(op.getSrc());
          if (!src)
            return std::nullopt;
          // A broadcast dimension had one lane: its index is always 0.
          auto srcShape =
              cast<RankedTensorType>(op.getSrc().getType()).getShape();
          for (auto [d, size] : llvm::enumerate(srcShape))
            if (size == 1)
              src->strides[d] = pool.constant(0);
          // A wrap along a broadcast dimension no longer varies with it.
          if (src->wrap && srcShape[src->wrap->dim] == 1)
            src->wrap.reset();
          return src;
        })
        .Case([&](triton::TransOp op) -> std::optional<Form> {
          std::optional<Form> src = form(op.getSrc());
          if (!src)
            return std::nullopt;
          Form permuted{src->base, src->offset, {}, src->wrap};
          for (int32_t d : op.getOrder())
            permuted.strides.push_back(src->strides[d]);
          if (permuted.wrap)
            permuted.wrap->dim = llvm::find(op.getOrder(), permuted.wrap->dim) -
                                 op.getOrder().begin();
          return permuted;
        })
        .Default([](Operation *) { return std::nullopt; });
  }

  std::optional<Box> box(Value mask) {
    auto type = dyn_cast<RankedTensorType>(mask.getType());
    Operation *def = mask.getDefiningOp();
    if (!type || !def)
      return std::nullopt;
    int64_t rank = type.getRank();
    Box none{SmallVector<const Expr *>(rank, nullptr),
             SmallVector<const Expr *>(rank, nullptr),
             {}};
    return TypeSwitch<Operation *, std::optional<Box>>(def)
        .Case([&](arith::ConstantOp op) -> std::optional<Box> {
          auto dense = dyn_cast<DenseIntElementsAttr>(op.getValue());
          if (!dense || !dense.isSplat())
            return std::nullopt;
          if (dense.getSplatValue<APInt>().isZero())
            // 0 < 0: no lane is enabled.
            none.conditions.push_back(
                {Value(), arith::CmpIPredicate::slt, pool.constant(0)});
          return none;
        })
        .Case([&](triton::SplatOp op) -> std::optional<Box> {
          none.conditions.push_back({op.getSrc(), {}, nullptr});
          return none;
        })
        .Case([&](arith::AndIOp op) -> std::optional<Box> {
          std::optional<Box> a = box(op.getLhs()), b = box(op.getRhs());
          if (!a || !b)
            return std::nullopt;
          for (int64_t d = 0; d < rank; ++d) {
            a->lo[d] = pool.max(a->lo[d], b->lo[d]);
            a->hi[d] = pool.min(a->hi[d], b->hi[d]);
          }
          a->conditions.append(b->conditions);
          return a;
        })
        .Case([&](triton::ExpandDimsOp op) -> std::optional<Box> {
          std::optional<Box> src = box(op.getSrc());
          if (!src)
            return std::nullopt;
          src->lo.insert(src->lo.begin() + op.getAxis(), nullptr);
          src->hi.insert(src->hi.begin() + op.getAxis(), nullptr);
          return src;
        })
        .Case([&](triton::BroadcastOp op) -> std::optional<Box> {
          std::optional<Box> src = box(op.getSrc());
          if (!src)
            return std::nullopt;
          // The single lane (index 0) of a broadcast dimension decides for
          // all lanes of the result: lo <= 0 < hi.
          auto srcShape =
              cast<RankedTensorType>(op.getSrc().getType()).getShape();
          for (auto [d, size] : llvm::enumerate(srcShape)) {
            if (size != 1)
              continue;
            if (src->lo[d])
              src->conditions.push_back(
                  {Value(), arith::CmpIPredicate::sle, src->lo[d]});
            if (src->hi[d])
              src->conditions.push_back(
                  {Value(), arith::CmpIPredicate::sgt, src->hi[d]});
            src->lo[d] = src->hi[d] = nullptr;
          }
          return src;
        })
        .Case([&](arith::CmpIOp op) -> std::optional<Box> {
          std::optional<Form> a = form(op.getLhs()), b = form(op.getRhs());
          if (!a || !b || a->base || b->base)
            return std::nullopt;
          return compare(op.getPredicate(), combine(*a, *b, /*sign=*/-1), none);
        })
        .Default([](Operation *) { return std::nullopt; });
  }

private:
  Form combine(const Form &a, const Form &b, int64_t sign) {
    Form sum{a.base,
             pool.add(a.offset, pool.mul(pool.constant(sign), b.offset)),
             {}};
    for (auto [x, y] : llvm::zip(a.strides, b.strides))
      sum.strides.push_back(pool.add(x, pool.mul(pool.constant(sign), y)));
    // Two wraps in one sum are not described (`wrapped` counts both).
    if (a.wrap && !b.wrap)
      sum.wrap = a.wrap;
    if (b.wrap && !a.wrap) {
      sum.wrap = b.wrap;
      sum.wrap->scale = pool.mul(pool.constant(sign), b.wrap->scale);
    }
    return sum;
  }

  /// The wrap of `index % modulus` when `index` varies along a single lane
  /// dimension, by a positive constant step, and has no wrap of its own.
  std::optional<Wrap> wrapOf(const Form &index, const Expr *modulus) {
    if (index.wrap)
      return std::nullopt;
    std::optional<Wrap> wrap;
    for (auto [d, stride] : llvm::enumerate(index.strides)) {
      if (ExprPool::isConstant(stride, 0))
        continue;
      if (wrap || stride->kind != Expr::Kind::Constant || stride->constant <= 0)
        return std::nullopt;
      wrap = Wrap{int64_t(d), index.offset, stride->constant, modulus,
                  pool.constant(1)};
    }
    return wrap;
  }

  template <typename OpTy>
  std::optional<Form> intCombine(OpTy op, int64_t sign) {
    std::optional<Form> a = form(op.getLhs()), b = form(op.getRhs());
    if (!a || !b || a->base || b->base)
      return std::nullopt;
    return combine(*a, *b, sign);
  }

  /// The lanes where `diff pred 0` holds, when diff depends on at most one
  /// lane index, with a unit stride.
  std::optional<Box> compare(arith::CmpIPredicate pred, const Form &diff,
                             Box box) {
    using P = arith::CmpIPredicate;
    bool isSigned = pred == P::slt || pred == P::sle || pred == P::sgt ||
                    pred == P::sge || pred == P::eq;
    if (!isSigned && pred != P::ne)
      return std::nullopt;
    std::optional<int64_t> dim;
    for (auto [d, stride] : llvm::enumerate(diff.strides)) {
      if (ExprPool::isConstant(stride, 0))
        continue;
      if (dim || !(ExprPool::isConstant(stride, 1) ||
                   ExprPool::isConstant(stride, -1)))
        return std::nullopt;
      dim = d;
    }
    if (!dim) {
      box.conditions.push_back({Value(), pred, diff.offset});
      return box;
    }
    if (pred == P::ne)
      return std::nullopt;
    // i + e pred 0  <=>  i pred -e;   -i + e pred 0  <=>  i swapped(pred) e.
    const Expr *t = diff.offset;
    if (ExprPool::isConstant(diff.strides[*dim], 1))
      t = pool.mul(pool.constant(-1), t);
    else
      pred = swapPredicate(pred);
    const Expr *next = pool.add(t, pool.constant(1));
    switch (pred) {
    case P::slt:
      box.hi[*dim] = t;
      break;
    case P::sle:
      box.hi[*dim] = next;
      break;
    case P::sgt:
      box.lo[*dim] = next;
      break;
    case P::sge:
      box.lo[*dim] = t;
      break;
    default: // eq
      box.lo[*dim] = t;
      box.hi[*dim] = next;
      break;
    }
    return box;
  }

  static arith::CmpIPredicate swapPredicate(arith::CmpIPredicate pred) {
    using P = arith::CmpIPredicate;
    switch (pred) {
    case P::slt:
      return P::sgt;
    case P::sle:
      return P::sge;
    case P::sgt:
      return P::slt;
    case P::sge:
      return P::sle;
    default:
      return pred;
    }
  }

  ExprPool &pool;
};

std::optional<Uniform> uniformOther(Value other, Type elementType) {
  Operation *def = other.getDefiningOp();
  if (auto splat = dyn_cast_or_null<triton::SplatOp>(def))
    return Uniform{TypedAttr(), splat.getSrc()};
  if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (dense && dense.isSplat() && dense.getElementType() == elementType)
      return Uniform{cast<TypedAttr>(dense.getSplatValue<Attribute>()),
                     Value()};
  }
  return std::nullopt;
}

} // namespace

std::optional<StridedPointers>
refcpu::pointer_analysis::analyzeStridedAccess(ExprPool &pool, Value ptr,
                                               Value mask, Value other,
                                               Type elementType) {
  if (!isa<RankedTensorType>(ptr.getType()))
    return std::nullopt;
  StridedPointers access;
  if (other) {
    access.padding = uniformOther(other, elementType);
    if (!access.padding)
      return std::nullopt;
  }
  Analysis analysis(pool);
  std::optional<Form> form = analysis.form(ptr);
  if (!form || !form->base)
    return std::nullopt;
  access.form = std::move(*form);
  if (mask) {
    analysis.allowWrap = false;
    access.box = analysis.box(mask);
    if (!access.box)
      return std::nullopt;
  }
  access.exactIf = std::move(analysis.exactIf);
  if (analysis.wrapped != 1)
    access.form.wrap.reset();
  return access;
}
