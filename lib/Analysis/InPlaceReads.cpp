//===- InPlaceReads.cpp - loads whose block can be read where it lies ----===//

#include "refcpu/Analysis/InPlaceReads.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

/// Consumers that read their operands where they stand: their lowering
/// reads the operand only at the op's own program point and is never
/// recomputed later (as fused elementwise ops are).
bool readsWhereItStands(Operation *user) {
  return isa<triton::DotOp, triton::ReduceOp, triton::ScanOp>(user);
}

/// Consumers whose result is a new tensor computed from the operand, so the
/// operand's buffer is dead once they have run.
bool readsOnce(Operation *user) {
  if (readsWhereItStands(user))
    return true;
  if (!isa<arith::ArithDialect, math::MathDialect>(user->getDialect()))
    return false;
  return user->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(user);
}

bool mayWriteMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect());
  });
}

} // namespace

bool refcpu::canReadInPlace(Operation *load) {
  if (load->getNumResults() != 1 ||
      !isa<RankedTensorType>(load->getResult(0).getType()))
    return false;
  Block *block = load->getBlock();
  Operation *last = nullptr;
  for (Operation *user : load->getResult(0).getUsers()) {
    if (user->getBlock() != block || !readsOnce(user))
      return false;
    if (!last || last->isBeforeInBlock(user))
      last = user;
  }
  if (!last)
    return false;
  // A dot, reduction or scan reads its operands where it stands. An
  // elementwise result may be recomputed later, inside a consumer it is
  // fused into (refcpu-fuse-elementwise copies cheap producers), so then
  // nothing up to the end of the block may write memory.
  bool allWhereTheyStand =
      llvm::all_of(load->getResult(0).getUsers(), readsWhereItStands);
  Operation *end = allWhereTheyStand ? last : nullptr;
  for (Operation *op = load->getNextNode(); op != end; op = op->getNextNode())
    if (mayWriteMemory(op))
      return false;
  return true;
}
