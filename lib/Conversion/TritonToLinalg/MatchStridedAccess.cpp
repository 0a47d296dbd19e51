//===- MatchStridedAccess.cpp - strided blocks of tt.load / tt.store ------===//
//
// Emits the StridedBlock of a load or store that the pointer analysis
// (refcpu/Analysis/PointerAnalysis.h) describes: its base, strides, bounds
// and run-time conditions, expressions over original TTIR scalars, become
// i64 arithmetic over the converted values, each emitted once.
//
//   ptrs = splat(p) + pid * 1024 + arange(0, 1024), mask = offs < n
//     -> base = p + (pid * 1024) * 4, strides = [1], hi = [n - pid * 1024]
//
//===----------------------------------------------------------------------===//

#include "MemoryAccess.h"
#include "refcpu/Analysis/PointerAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace refcpu;
using namespace refcpu::pointer_analysis;

namespace {

/// Emits expressions as i64 values over the converted IR, each once.
class ExprEmitter {
public:
  ExprEmitter(ConversionPatternRewriter &rewriter, Location loc)
      : rewriter(rewriter), loc(loc) {}

  Value emit(const Expr *e) {
    if (Value done = emitted.lookup(e))
      return done;
    Value result;
    switch (e->kind) {
    case Expr::Kind::Constant:
      result = arith::ConstantIntOp::create(rewriter, loc, e->constant, 64);
      break;
    case Expr::Kind::Leaf:
      result = emitLeaf(e->leaf);
      break;
    case Expr::Kind::Add:
      result = arith::AddIOp::create(rewriter, loc, emit(e->lhs), emit(e->rhs));
      break;
    case Expr::Kind::Mul:
      result = arith::MulIOp::create(rewriter, loc, emit(e->lhs), emit(e->rhs));
      break;
    case Expr::Kind::Max:
      result =
          arith::MaxSIOp::create(rewriter, loc, emit(e->lhs), emit(e->rhs));
      break;
    case Expr::Kind::Min:
      result =
          arith::MinSIOp::create(rewriter, loc, emit(e->lhs), emit(e->rhs));
      break;
    }
    emitted[e] = result;
    return result;
  }

private:
  /// The converted value of an original scalar (pointers are i64 already).
  Value emitLeaf(Value original) {
    Value value = rewriter.getRemappedValue(original);
    if (value.getType().isIndex())
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                        value);
    if (value.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(),
                                    value);
    return value;
  }

  ConversionPatternRewriter &rewriter;
  Location loc;
  DenseMap<const Expr *, Value> emitted;
};

/// Whether the lanes of `wrap`'s dimension (`size` lanes) below `hi`
/// (clamped to the block) all keep their index unwrapped: the first lane's
/// index >= 0 and the last such lane's below the modulus.
Value readLanesUnwrapped(OpBuilder &b, Location loc,
                         const StridedBlock::Wrap &wrap, Value hi,
                         int64_t size) {
  auto i64 = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, value, 64);
  };
  Value lanes = clampLane(b, loc, hi, i64(0), i64(size));
  Value last = arith::AddIOp::create(
      b, loc, wrap.index,
      arith::MulIOp::create(b, loc,
                            arith::SubIOp::create(b, loc, lanes, i64(1)),
                            i64(wrap.step)));
  Value firstOk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                        wrap.index, i64(0));
  Value lastOk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, last,
                                       wrap.modulus);
  return arith::AndIOp::create(b, loc, firstOk, lastOk);
}

} // namespace

Value refcpu::emitScalarExpr(ConversionPatternRewriter &rewriter, Location loc,
                             const Expr *expr) {
  return ExprEmitter(rewriter, loc).emit(expr);
}

std::optional<StridedAccess>
refcpu::matchStridedAccess(ConversionPatternRewriter &rewriter, Location loc,
                           Value ptr, Value mask, Value other, Type elementType,
                           const UnreadLanes &unread) {
  // The analysis decides before anything is emitted: a pattern that fails
  // must leave the IR unchanged.
  ExprPool pool;
  std::optional<StridedPointers> analysis =
      analyzeStridedAccess(pool, ptr, mask, other, elementType);
  if (!analysis)
    return std::nullopt;
  auto type = cast<RankedTensorType>(ptr.getType());
  const Form &form = analysis->form;
  ExprEmitter emitter(rewriter, loc);

  // The conjunction of `conditions` (null when there are none).
  auto allHold = [&](ArrayRef<Condition> conditions) {
    Value all;
    for (const Condition &condition : conditions) {
      Value holds = condition.flag
                        ? rewriter.getRemappedValue(condition.flag)
                        : arith::CmpIOp::create(rewriter, loc, condition.pred,
                                                emitter.emit(condition.lhs),
                                                emitter.emit(pool.constant(0)))
                              .getResult();
      all = all ? arith::AndIOp::create(rewriter, loc, all, holds).getResult()
                : holds;
    }
    return all;
  };

  // Lanes that no store keeps bound their dimension like a mask's bound
  // that leaves the lanes past it unread. Uniform conditions must empty a
  // dimension whose lanes are read (below), so this needs one left.
  int64_t rank = type.getRank();
  unsigned unreadDims = unread.pastMask ? 1u << *unread.pastMask : 0;
  std::optional<int64_t> pastStore = unread.pastStore;
  if (pastStore && analysis->box && !analysis->box->conditions.empty() &&
      llvm::popcount(unreadDims | 1u << *pastStore) >= rank)
    pastStore.reset();
  // Where the index along that dimension wraps, only the lanes below the
  // bound need to stay unwrapped for the view: the wrap's two conditions,
  // all of exactIf (StridedPointers), are replaced by those of the lanes
  // read.
  bool wrapOfReadLanes =
      pastStore && form.wrap && rank <= 2 && form.wrap->dim == *pastStore;
  assert((!form.wrap || analysis->exactIf.size() == 2) &&
         "a wrap's exactness is its two conditions");

  StridedAccess access;
  StridedBlock &block = access.block;
  if (!wrapOfReadLanes)
    block.exactIf = allHold(analysis->exactIf);
  int64_t elementSize = std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
  Value bytes = arith::MulIOp::create(
      rewriter, loc, emitter.emit(form.offset),
      arith::ConstantIntOp::create(rewriter, loc, elementSize, 64));
  block.base = arith::AddIOp::create(
      rewriter, loc, rewriter.getRemappedValue(form.base), bytes);
  for (const Expr *stride : form.strides)
    block.strides.push_back(emitter.emit(stride));
  // The runtime copies wrapped blocks of rank 1 and 2.
  if (const std::optional<Wrap> &wrap = form.wrap; wrap && type.getRank() <= 2)
    block.wrap = StridedBlock::Wrap{wrap->dim, emitter.emit(wrap->index),
                                    wrap->step, emitter.emit(wrap->modulus),
                                    emitter.emit(wrap->scale)};
  block.lo.assign(rank, Value());
  block.hi.assign(rank, Value());
  SmallVector<Condition> conditions;
  if (const std::optional<Box> &box = analysis->box) {
    for (int64_t d = 0; d < rank; ++d) {
      if (box->lo[d])
        block.lo[d] = emitter.emit(box->lo[d]);
      if (box->hi[d])
        block.hi[d] = emitter.emit(box->hi[d]);
    }
    conditions = box->conditions;
  }
  block.unreadPastHi = unreadDims;
  if (pastStore) {
    int64_t d = *pastStore;
    block.unreadPastHi |= 1u << d;
    // A mask's bound there is the store's (KeptLanes' operand loads).
    if (!block.hi[d])
      block.hi[d] = emitter.emit(unread.storeBound);
    if (wrapOfReadLanes)
      block.exactIf = readLanesUnwrapped(rewriter, loc, *block.wrap,
                                         block.hi[d], type.getShape()[d]);
  }
  // A failed uniform condition empties the block: hi_d = 0 <= lo_d, in a
  // dimension whose cut lanes are read (a dot's operand leaves those of
  // some dimensions unread).
  if (Value all = allHold(conditions)) {
    int64_t d = 0;
    while (block.isUnreadPastHi(d))
      ++d;
    assert(d < rank && "no dimension left to empty");
    Value hi = block.hi[d] ? block.hi[d]
                           : emitter.emit(pool.constant(type.getShape()[d]));
    block.hi[d] = arith::SelectOp::create(rewriter, loc, all, hi,
                                          emitter.emit(pool.constant(0)));
  }
  if (const std::optional<Uniform> &padding = analysis->padding)
    access.padding =
        padding->constant
            ? arith::ConstantOp::create(rewriter, loc, padding->constant)
                  .getResult()
            : rewriter.getRemappedValue(padding->scalar);
  return access;
}
