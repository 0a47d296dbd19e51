//===- ReduceLocalityPass.cpp - the refcpu-reduce-locality pass -----------===//
//
// A loop that folds each iteration's reduction into a carried value,
//
//   %r = scf.for ... iter_args(%acc = %init) -> tensor<32xf32> {
//     %s = "tt.reduce"(%x) <{axis = 1}> ({ arith.addf }) : tensor<32x128xf32> -> tensor<32xf32>
//     %n = arith.addf %acc, %s : tensor<32xf32>
//     scf.yield %n
//   }
//
// reduces across vector lanes (a horizontal shuffle tree) every iteration.
// Carrying one partial result per lane moves that to a single reduction
// after the loop; inside, only vertical vector ops remain:
//
//   %r' = scf.for ... iter_args(%acc = splat(-0.0) : tensor<32x16xf32>) {
//     %x3 = tt.reshape %x : tensor<32x128xf32> -> tensor<32x8x16xf32>
//     %s = "tt.reduce"(%x3) <{axis = 1}> ({ arith.addf }) -> tensor<32x16xf32>
//     %n = arith.addf %acc, %s : tensor<32x16xf32>
//     scf.yield %n
//   }
//   %t = "tt.reduce"(%r') <{axis = 1}> ({ arith.addf }) -> tensor<32xf32>
//   %r = arith.addf %init, %t
//
// The row-major reshape splits element n of the reduced axis into
// (n / L, n % L), so each lane l accumulates the elements n = l (mod L).
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace refcpu {
#define GEN_PASS_DEF_REDUCELOCALITY
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// Bytes of one vector register of the widest ISA refcpu targets (AVX-512);
/// on narrower hosts LLVM splits each lane vector into a few registers.
constexpr int64_t kVectorBytes = 64;

/// The identity of the associative, commutative combiner `op` for elements
/// of `type` (e with op(e, x) == x for every x, NaN and signed zeros
/// included, so that lanes and loops without elements change nothing), or
/// null when `op` is not such a combiner.
TypedAttr identityOf(Operation *op, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    auto value = [&](const APFloat &v) { return FloatAttr::get(type, v); };
    // -0 + x is x for x = +0 too, which +0 + x is not for x = -0.
    if (isa<arith::AddFOp>(op))
      return value(APFloat::getZero(sem, /*Negative=*/true));
    if (isa<arith::MulFOp>(op))
      return value(APFloat::getOne(sem));
    // maxnum / minnum ignore a NaN operand.
    if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op))
      return value(APFloat::getQNaN(sem));
    if (isa<arith::MaximumFOp>(op))
      return value(APFloat::getInf(sem, /*Negative=*/true));
    if (isa<arith::MinimumFOp>(op))
      return value(APFloat::getInf(sem));
    return {};
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return {};
  unsigned width = intType.getWidth();
  auto value = [&](const APInt &v) { return IntegerAttr::get(type, v); };
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(op))
    return value(APInt::getZero(width));
  if (isa<arith::MulIOp>(op))
    return value(APInt(width, 1));
  if (isa<arith::AndIOp, arith::MinUIOp>(op))
    return value(APInt::getAllOnes(width));
  if (isa<arith::MaxSIOp>(op))
    return value(APInt::getSignedMinValue(width));
  if (isa<arith::MinSIOp>(op))
    return value(APInt::getSignedMaxValue(width));
  return {};
}

/// The one binary op that combines the two block arguments of `reduce`'s
/// combiner and is returned, or null.
Operation *combinerOp(triton::ReduceOp reduce) {
  if (reduce.getSrcs().size() != 1)
    return nullptr;
  Block &body = reduce.getCombineOp().front();
  if (body.getNumArguments() != 2 || !llvm::hasSingleElement(body.without_terminator()))
    return nullptr;
  Operation *op = &body.front();
  Operation *ret = body.getTerminator();
  if (op->getNumOperands() != 2 || op->getNumResults() != 1 ||
      ret->getNumOperands() != 1 || ret->getOperand(0) != op->getResult(0))
    return nullptr;
  bool argsInOrder = op->getOperand(0) == body.getArgument(0) &&
                     op->getOperand(1) == body.getArgument(1);
  bool argsSwapped = op->getOperand(0) == body.getArgument(1) &&
                     op->getOperand(1) == body.getArgument(0);
  return argsInOrder || argsSwapped ? op : nullptr;
}

/// Splat of `value` (scalar) as `type`, or the scalar itself for scalars.
Value constantOf(OpBuilder &b, Location loc, Type type, TypedAttr value) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return arith::ConstantOp::create(b, loc, tensor, SplatElementsAttr::get(tensor, value));
  return arith::ConstantOp::create(b, loc, value);
}

/// `reduce`'s combiner applied to `src` along `axis`, producing `type`.
Value reduceLike(OpBuilder &b, triton::ReduceOp reduce, Value src, int32_t axis,
                 Type type) {
  auto created = triton::ReduceOp::create(b, reduce.getLoc(), TypeRange{type},
                                          ValueRange{src}, axis);
  IRMapping mapping;
  reduce.getCombineOp().cloneInto(&created.getCombineOp(), mapping);
  return created.getResult()[0];
}

/// `combine` (an elementwise arith op) applied to `lhs`, `rhs` as `type`.
Value combineLike(OpBuilder &b, Operation *combine, Value lhs, Value rhs, Type type) {
  OperationState state(combine->getLoc(), combine->getName());
  state.addOperands({lhs, rhs});
  state.addTypes(type);
  state.addAttributes(combine->getAttrs());
  return b.create(state)->getResult(0);
}

/// Rewrites carried value `i` of `loop` when it is the pattern of the file
/// banner; returns whether it did.
bool rewriteCarried(scf::ForOp loop, unsigned i) {
  BlockArgument acc = loop.getRegionIterArgs()[i];
  if (!acc.hasOneUse())
    return false;
  Operation *combine = *acc.getUsers().begin();
  if (combine->getBlock() != loop.getBody() || combine->getNumOperands() != 2 ||
      combine->getNumResults() != 1 ||
      loop.getYieldedValues()[i] != combine->getResult(0) ||
      !combine->getResult(0).hasOneUse())
    return false;
  Value other = combine->getOperand(0) == acc ? combine->getOperand(1)
                                              : combine->getOperand(0);
  auto reduce = other.getDefiningOp<triton::ReduceOp>();
  if (!reduce || reduce->getBlock() != loop.getBody() || !other.hasOneUse())
    return false;
  Operation *combiner = combinerOp(reduce);
  if (!combiner || combiner->getName() != combine->getName() ||
      combiner->getAttrDictionary() != combine->getAttrDictionary())
    return false;

  auto srcType = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
  int64_t rank = srcType.getRank();
  if (reduce.getAxis() != rank - 1)
    return false;
  Type elementType = srcType.getElementType();
  TypedAttr identity = identityOf(combine, elementType);
  if (!identity || !elementType.isIntOrFloat())
    return false;
  int64_t bits = elementType.getIntOrFloatBitWidth();
  int64_t lanes = kVectorBytes * 8 / std::max<int64_t>(bits, 8);
  int64_t extent = srcType.getShape().back();
  if (extent <= lanes || extent % lanes != 0)
    return false;

  // The carried value becomes the per-lane partial results: the reduced
  // shape with a trailing axis of `lanes`.
  SmallVector<int64_t> carriedShape(srcType.getShape().drop_back());
  carriedShape.push_back(lanes);
  auto carriedType = RankedTensorType::get(carriedShape, elementType);
  SmallVector<int64_t> splitShape(srcType.getShape().drop_back());
  splitShape.append({extent / lanes, lanes});
  auto splitType = RankedTensorType::get(splitShape, elementType);
  Type resultType = acc.getType();

  OpBuilder b(loop);
  Value init = loop.getInitArgs()[i];
  loop.getInitArgsMutable()[i].assign(constantOf(b, loop.getLoc(), carriedType, identity));

  b.setInsertionPoint(reduce);
  Value split = triton::ReshapeOp::create(b, reduce.getLoc(), splitType,
                                          reduce.getSrcs()[0]);
  Value partial = reduceLike(b, reduce, split, rank - 1, carriedType);
  acc.setType(carriedType);
  b.setInsertionPoint(combine);
  Value next = combineLike(b, combine, acc, partial, carriedType);
  combine->getResult(0).replaceAllUsesWith(next);
  combine->erase();
  reduce->erase();

  OpResult result = loop->getResult(i);
  result.setType(carriedType);
  b.setInsertionPointAfter(loop);
  Value total = reduceLike(b, cast<triton::ReduceOp>(partial.getDefiningOp()), result,
                           rank - 1, resultType);
  Value folded = combineLike(b, next.getDefiningOp(), init, total, resultType);
  result.replaceUsesWithIf(folded, [&](OpOperand &use) {
    return use.getOwner() != total.getDefiningOp();
  });
  return true;
}

struct ReduceLocalityPass : refcpu::impl::ReduceLocalityBase<ReduceLocalityPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
        rewriteCarried(loop, i);
  }
};

} // namespace
