//===- WidenKLoopsPass.cpp - the refcpu-widen-k-loops pass ----------------===//
//
// Triton's matmul loops load one K block of A and B per iteration and
// accumulate their tt.dot; on the CPU each tt.dot is one call of a runtime
// kernel, which loads and stores its accumulator block and packs its
// operands per call. This pass lets one iteration do the work of U: it
// loads U consecutive K blocks as one block U times as deep and makes one
// tt.dot of them,
//
//   scf.for %k = 0 to %n step 1 iter_args(%acc, %oa, %ob) {
//     %a = tt.load (addptr %A0, splat %oa), %maskA(%k), %zero  : 128x32
//     %b = tt.load (addptr %B0, splat %ob), %maskB(%k), %zero  : 32x128
//     %d = tt.dot %a, %b, %acc
//     yield %d, %oa + %da, %ob + %db
//   }
//   ->
//   main:  scf.for %k = 0 to %n / U * U step U   (128x256 and 256x128 blocks;
//          offsets advanced by U * %da, U * %db)
//   rest:  the original loop from there to %n
//
// The wide blocks are the original address and mask computations with the
// K range (tt.make_range) U times longer. Lane u * BK + j of such a block is
// lane j of iteration k + u when the pointer analysis describes the load as
// a strided block and
//   - the path from the K range to the address and the mask is affine
//     (no `%` or division on it);
//   - the address advances by BK times its K stride per iteration (the
//     carried offsets of refcpu-loop-offsets, or offsets computed from the
//     induction variable), its other strides do not move;
//   - the mask is a box whose K bounds move by -BK per iteration and whose
//     other bounds and conditions do not move; `other` is loop-invariant.
// The pass proves these on polynomials over the loop's scalars (the
// induction variable, the carried offsets and loop-invariant values) and
// leaves the loop alone otherwise. Besides the loads, the dot and the
// offsets' advances, the loop body must be free of memory effects, so that
// running it once per U iterations changes nothing else. The wide K range
// is computed in the original integer type: the main loop runs only when
// U * BK * |K stride| fits in 31 bits (a check before the loop).
// Fast preset, after refcpu-loop-offsets.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "refcpu/Analysis/PointerAnalysis.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cstdlib>
#include <map>

namespace refcpu {
#define GEN_PASS_DEF_WIDENKLOOPS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;
using namespace refcpu::pointer_analysis;

namespace {

/// An integer polynomial over scalar values, in wrapping i64 arithmetic:
/// monomial (sorted value pointers) -> coefficient.
using Monomial = SmallVector<void *, 2>;
using Polynomial = std::map<Monomial, int64_t>;

int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}

void addTerm(Polynomial &p, const Monomial &m, int64_t c) {
  int64_t &slot = p[m];
  slot = static_cast<int64_t>(static_cast<uint64_t>(slot) +
                              static_cast<uint64_t>(c));
  if (slot == 0)
    p.erase(m);
}

Polynomial add(const Polynomial &a, const Polynomial &b, int64_t sign = 1) {
  Polynomial sum = a;
  for (auto &[m, c] : b)
    addTerm(sum, m, wrapMul(sign, c));
  return sum;
}

Polynomial mul(const Polynomial &a, const Polynomial &b) {
  Polynomial product;
  for (auto &[ma, ca] : a)
    for (auto &[mb, cb] : b) {
      Monomial m = ma;
      m.append(mb.begin(), mb.end());
      llvm::sort(m);
      addTerm(product, m, wrapMul(ca, cb));
    }
  return product;
}

Polynomial constantPolynomial(int64_t c) {
  Polynomial p;
  addTerm(p, {}, c);
  return p;
}

/// The loop whose iterations are merged: its polynomials and their change
/// from one iteration to the next.
class LoopAlgebra {
public:
  LoopAlgebra(scf::ForOp loop, int64_t step) : loop(loop) {
    steps[loop.getInductionVar().getAsOpaquePointer()] =
        constantPolynomial(step);
  }

  /// Declares the carried scalar `arg` advanced by `advance` per iteration.
  bool addCarried(BlockArgument arg, Value advance) {
    std::optional<Polynomial> d = polynomial(advance);
    if (!d || !isInvariant(*d))
      return false;
    steps[arg.getAsOpaquePointer()] = *d;
    return true;
  }

  bool isDefinedOutside(Value v) const {
    return !loop->isAncestor(v.getParentRegion()->getParentOp());
  }

  /// `v` as a polynomial: integer constants, add, sub, mul and sign
  /// extensions are looked through; anything else defined outside the loop
  /// (or a carried scalar) is a variable. Fails on other values of the
  /// loop body.
  std::optional<Polynomial> polynomial(Value v) const {
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant)))
      return constantPolynomial(constant.getSExtValue());
    if (isDefinedOutside(v) || steps.count(v.getAsOpaquePointer())) {
      Polynomial p;
      p[{v.getAsOpaquePointer()}] = 1;
      return p;
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    auto binary = [&](auto combine) -> std::optional<Polynomial> {
      std::optional<Polynomial> a = polynomial(def->getOperand(0));
      std::optional<Polynomial> b = polynomial(def->getOperand(1));
      if (!a || !b)
        return std::nullopt;
      return combine(*a, *b);
    };
    if (isa<arith::AddIOp>(def))
      return binary([](auto &a, auto &b) { return add(a, b); });
    if (isa<arith::SubIOp>(def))
      return binary([](auto &a, auto &b) { return add(a, b, -1); });
    if (isa<arith::MulIOp>(def))
      return binary([](auto &a, auto &b) { return mul(a, b); });
    if (isa<arith::ExtSIOp>(def))
      return polynomial(def->getOperand(0));
    return std::nullopt;
  }

  std::optional<Polynomial> polynomial(const Expr *e) const {
    switch (e->kind) {
    case Expr::Kind::Constant:
      return constantPolynomial(e->constant);
    case Expr::Kind::Leaf:
      return polynomial(e->leaf);
    case Expr::Kind::Add:
    case Expr::Kind::Mul: {
      std::optional<Polynomial> a = polynomial(e->lhs), b = polynomial(e->rhs);
      if (!a || !b)
        return std::nullopt;
      return e->kind == Expr::Kind::Add ? add(*a, *b) : mul(*a, *b);
    }
    case Expr::Kind::Max:
    case Expr::Kind::Min:
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// How much `p` changes from one iteration to the next, when it is
  /// linear in the loop's changing variables.
  std::optional<Polynomial> change(const Polynomial &p) const {
    Polynomial delta;
    for (auto &[m, c] : p) {
      std::optional<Polynomial> step;
      Monomial rest;
      for (void *factor : m) {
        auto it = steps.find(factor);
        if (it == steps.end()) {
          rest.push_back(factor);
          continue;
        }
        if (step)
          return std::nullopt; // A product of two changing variables.
        step = it->second;
      }
      if (step) {
        Polynomial term;
        term[rest] = c;
        delta = add(delta, mul(term, *step));
      }
    }
    return delta;
  }

  /// Whether `e` changes by exactly `expected` per iteration.
  bool changesBy(const Expr *e, int64_t expected) const {
    if (!e)
      return true;
    std::optional<Polynomial> p = polynomial(e);
    if (!p)
      return false;
    std::optional<Polynomial> delta = change(*p);
    return delta && *delta == constantPolynomial(expected);
  }

  bool isInvariant(const Polynomial &p) const {
    std::optional<Polynomial> delta = change(p);
    return delta && delta->empty();
  }

private:
  scf::ForOp loop;
  /// Changing variable -> its change per iteration.
  llvm::DenseMap<void *, Polynomial> steps;
};

/// Rebuilds values whose dimension `dim` has BK lanes, indexed by a K range,
/// with U * BK lanes: the same computation on the longer range. A new op
/// whose operands are all defined outside `loop` goes before it, the others
/// at `inside`. Without builders it only checks that it could.
class Widener {
public:
  Widener(scf::ForOp loop, OpBuilder *inside, int64_t blockK, int64_t factor)
      : loop(loop), inside(inside), outside(loop), blockK(blockK),
        factor(factor) {}

  /// Null when `v` is not such a computation: the ops on the path from the
  /// K range must be affine or elementwise integer ops, comparisons or
  /// `and`s (a `%` or a division would make the wide lanes differ from the
  /// next iterations' lanes).
  Value widen(Value v, unsigned dim) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || dim >= type.getRank() || type.getDimSize(dim) != blockK)
      return Value();
    auto key = std::make_pair(v.getAsOpaquePointer(), dim);
    if (Value done = widened.lookup(key))
      return done;
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] *= factor;
    Value wide = build(v, dim, RankedTensorType::get(shape, type.getElementType()));
    if (wide)
      widened[key] = wide;
    return wide;
  }

private:
  Value build(Value v, unsigned dim, RankedTensorType wideType) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return Value();
    if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
      if (!dense)
        return Value();
      if (!inside)
        return v;
      return arith::ConstantOp::create(outside, def->getLoc(), wideType,
                                       dense.resizeSplat(wideType));
    }
    IRMapping operands;
    if (isa<triton::MakeRangeOp, triton::SplatOp>(def)) {
      // The K range itself, or the same scalar in every lane.
    } else if (auto broadcast = dyn_cast<triton::BroadcastOp>(def)) {
      // A broadcast dimension stays one lane; only a K-long one is widened.
      Value src = broadcast.getSrc();
      if (cast<RankedTensorType>(src.getType()).getDimSize(dim) != 1 &&
          !map(operands, src, dim))
        return Value();
    } else if (auto expand = dyn_cast<triton::ExpandDimsOp>(def)) {
      unsigned axis = expand.getAxis();
      if (axis == dim ||
          !map(operands, expand.getSrc(), dim < axis ? dim : dim - 1))
        return Value();
    } else if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp,
                   arith::ExtSIOp, arith::CmpIOp, arith::AndIOp,
                   triton::AddPtrOp>(def)) {
      for (Value operand : def->getOperands())
        if (!map(operands, operand, dim))
          return Value();
    } else {
      return Value();
    }
    if (!inside)
      return v;
    bool invariant = llvm::all_of(def->getOperands(), [&](Value operand) {
      Value mapped = operands.lookupOrDefault(operand);
      return !loop->isAncestor(mapped.getParentRegion()->getParentOp());
    });
    OpBuilder &builder = invariant ? outside : *inside;
    Operation *copy = builder.clone(*def, operands);
    if (auto range = dyn_cast<triton::MakeRangeOp>(copy))
      copy->setAttr("end", builder.getI32IntegerAttr(int64_t(range.getStart()) +
                                                     blockK * factor));
    copy->getResult(0).setType(wideType);
    return copy->getResult(0);
  }

  bool map(IRMapping &operands, Value operand, unsigned dim) {
    Value wide = widen(operand, dim);
    if (wide)
      operands.map(operand, wide);
    return bool(wide);
  }

  scf::ForOp loop;
  OpBuilder *inside;
  OpBuilder outside;
  int64_t blockK, factor;
  llvm::DenseMap<std::pair<void *, unsigned>, Value> widened;
};

/// One operand of the dot: a load whose K lanes lie along `dim`.
struct Operand {
  triton::LoadOp load;
  unsigned dim;
  /// The K stride of its addresses, when a single value: checked at run
  /// time (the wide K range is computed in the original integer type).
  Value stride;
};

class KLoopWidening {
public:
  KLoopWidening(scf::ForOp loop, triton::DotOp dot, int64_t targetDepth)
      : loop(loop), dot(dot), targetDepth(targetDepth) {}

  /// Checks everything the rewrite relies on; false leaves the loop as is.
  bool match();
  void rewrite();

private:
  bool matchOperand(Value value, unsigned dim, Operand &operand);

  scf::ForOp loop;
  triton::DotOp dot;
  int64_t targetDepth;
  int64_t step = 0, blockK = 0, factor = 0;
  Operand operands[2];
  std::optional<LoopAlgebra> algebra;
  ExprPool pool;
};

bool KLoopWidening::match() {
  std::optional<int64_t> constantStep = getConstantIntValue(loop.getStep());
  if (!constantStep || *constantStep <= 0 ||
      !loop.getInductionVar().getType().isSignlessInteger())
    return false;
  step = *constantStep;
  auto aType = cast<RankedTensorType>(dot.getA().getType());
  unsigned rank = aType.getRank();
  blockK = aType.getDimSize(rank - 1);
  factor = targetDepth / blockK;
  if (factor < 2)
    return false;
  algebra.emplace(loop, step);

  // The accumulator goes through the dot and nothing else.
  Value acc = dot.getC();
  auto accArg = dyn_cast<BlockArgument>(acc);
  if (!accArg || accArg.getOwner() != loop.getBody() || !acc.hasOneUse() ||
      !dot->hasOneUse() ||
      loop.getTiedLoopYieldedValue(accArg)->get() != dot.getResult())
    return false;

  // Every other carried value is a scalar advanced by an invariant amount.
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    if (arg == accArg)
      continue;
    auto advance = loop.getTiedLoopYieldedValue(arg)
                       ->get()
                       .getDefiningOp<arith::AddIOp>();
    if (!advance || advance.getLhs() != arg ||
        !algebra->addCarried(arg, advance.getRhs()))
      return false;
  }

  if (!matchOperand(dot.getA(), rank - 1, operands[0]) ||
      !matchOperand(dot.getB(), rank - 2, operands[1]))
    return false;

  // Nothing else in the body reads or writes memory.
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (&op == dot || &op == operands[0].load || &op == operands[1].load)
      continue;
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return false;
  }
  return true;
}

bool KLoopWidening::matchOperand(Value value, unsigned dim, Operand &operand) {
  auto load = value.getDefiningOp<triton::LoadOp>();
  if (!load || load->getBlock() != loop.getBody() || !value.hasOneUse())
    return false;
  operand = {load, dim, Value()};
  Value other = load.getOther();
  if (other && !algebra->isDefinedOutside(other) &&
      !matchPattern(other, m_Constant()))
    return false;
  Widener check(loop, nullptr, blockK, factor);
  if (!check.widen(load.getPtr(), dim) ||
      (load.getMask() && !check.widen(load.getMask(), dim)) ||
      (other && !check.widen(other, dim)))
    return false;

  Type element = getElementTypeOrSelf(value.getType());
  std::optional<StridedPointers> access = analyzeStridedAccess(
      pool, load.getPtr(), load.getMask(), other, element);
  if (!access || !algebra->isDefinedOutside(access->form.base))
    return false;

  // The strides stay, the addresses advance by BK times the K stride.
  const Form &form = access->form;
  for (const Expr *stride : form.strides)
    if (!algebra->changesBy(stride, 0))
      return false;
  const Expr *stride = form.strides[dim];
  std::optional<Polynomial> s = algebra->polynomial(stride);
  std::optional<Polynomial> offset = algebra->polynomial(form.offset);
  std::optional<Polynomial> advance =
      offset ? algebra->change(*offset) : std::nullopt;
  if (!s || !advance || mul(*s, constantPolynomial(blockK)) != *advance)
    return false;
  if (stride->kind == Expr::Kind::Leaf &&
      algebra->isDefinedOutside(stride->leaf))
    operand.stride = stride->leaf;
  else if (stride->kind != Expr::Kind::Constant ||
           std::abs(stride->constant) * blockK * factor >= (int64_t(1) << 31))
    return false;
  // Where `%` was taken as its operand, the condition for it must not move.
  for (const Condition &condition : access->exactIf)
    if (!algebra->changesBy(condition.lhs, 0))
      return false;

  // The mask's K bounds move by one block per iteration, nothing else moves.
  if (!access->box)
    return !load.getMask();
  const Box &box = *access->box;
  for (unsigned d = 0; d < box.lo.size(); ++d) {
    int64_t expected = d == dim ? -blockK : 0;
    if (!algebra->changesBy(box.lo[d], expected) ||
        !algebra->changesBy(box.hi[d], expected))
      return false;
  }
  for (const Condition &condition : box.conditions) {
    if (condition.flag ? !algebra->isDefinedOutside(condition.flag)
                       : !algebra->changesBy(condition.lhs, 0))
      return false;
  }
  return true;
}

void KLoopWidening::rewrite() {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Type ivType = loop.getInductionVar().getType();
  auto constant = [&](Type type, int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
  };

  // The iterations the main loop does: whole groups of U, none when a wide
  // K range could overflow.
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Value zero = constant(ivType, 0), groupStep = constant(ivType, step * factor);
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ub, lb), zero);
  // floor(ceil(span / step) / U) = floor((span + step - 1) / (step * U)).
  Value groups = arith::DivSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, span, constant(ivType, step - 1)),
      groupStep);
  for (const Operand &operand : operands) {
    if (!operand.stride)
      continue;
    Type i64 = b.getI64Type();
    Value s = operand.stride;
    if (s.getType() != i64)
      s = arith::ExtSIOp::create(b, loc, i64, s);
    Value magnitude = arith::MaxSIOp::create(
        b, loc, s, arith::SubIOp::create(b, loc, constant(i64, 0), s));
    Value fits = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, magnitude,
        constant(i64, ((int64_t(1) << 31) - 1) / (blockK * factor)));
    groups = arith::SelectOp::create(b, loc, fits, groups, zero);
  }
  Value mainUb = arith::AddIOp::create(
      b, loc, lb, arith::MulIOp::create(b, loc, groups, groupStep));

  // The rest of the iterations: the original loop, after the main one.
  b.setInsertionPointAfter(loop);
  auto rest = cast<scf::ForOp>(b.clone(*loop));
  loop->replaceAllUsesWith(rest);
  rest.getInitArgsMutable().assign(loop->getResults());
  rest.getLowerBoundMutable().assign(mainUb);
  loop.getUpperBoundMutable().assign(mainUb);
  loop.getStepMutable().assign(groupStep);

  // The wide blocks and their dot.
  Value wide[2];
  for (auto [i, operand] : llvm::enumerate(operands)) {
    triton::LoadOp load = operand.load;
    OpBuilder inside(load);
    Widener widener(loop, &inside, blockK, factor);
    IRMapping mapping;
    for (Value narrow : load->getOperands())
      mapping.map(narrow, widener.widen(narrow, operand.dim));
    Operation *wideLoad = inside.clone(*load, mapping);
    auto ptrType = cast<RankedTensorType>(wideLoad->getOperand(0).getType());
    wideLoad->getResult(0).setType(RankedTensorType::get(
        ptrType.getShape(), getElementTypeOrSelf(load.getType())));
    wide[i] = wideLoad->getResult(0);
  }
  dot.getAMutable().assign(wide[0]);
  dot.getBMutable().assign(wide[1]);
  for (const Operand &operand : operands)
    operand.load->erase();
  // The narrow addresses and masks are dead now.
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(*loop.getBody())))
    if (isOpTriviallyDead(&op))
      op.erase();

  // Offsets advance by U iterations' worth.
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    if (arg == dot.getC())
      continue;
    auto advance =
        loop.getTiedLoopYieldedValue(arg)->get().getDefiningOp<arith::AddIOp>();
    OpBuilder at(advance);
    Value amount = advance.getRhs();
    advance.getRhsMutable().assign(arith::MulIOp::create(
        at, loc, amount,
        arith::ConstantOp::create(at, loc,
                                  at.getIntegerAttr(amount.getType(), factor))));
  }
}

struct WidenKLoopsPass
    : public refcpu::impl::WidenKLoopsBase<WidenKLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<int64_t> targets(depths.begin(), depths.end());
    if (targets.empty())
      targets = {512, 256};
    // A loop that the first depth widened is left alone by the next ones
    // (its K block is already that deep); the original loop it leaves for
    // the rest of K is widened again, so that a K that is no multiple of
    // the first depth still takes most of its blocks in deep dots.
    for (int64_t depth : targets) {
      SmallVector<scf::ForOp> loops;
      getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        auto dots = loop.getBody()->getOps<triton::DotOp>();
        if (std::distance(dots.begin(), dots.end()) != 1)
          continue;
        KLoopWidening widening(loop, *dots.begin(), depth);
        if (widening.match())
          widening.rewrite();
      }
    }
  }
};

} // namespace
