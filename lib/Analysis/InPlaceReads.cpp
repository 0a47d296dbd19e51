//===- InPlaceReads.cpp - loads whose block can be read where it lies ----===//

#include "refcpu/Analysis/InPlaceReads.h"
#include "refcpu/Analysis/MemoryEffects.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

/// Consumers that read their operands where they stand: their lowering
/// reads the operand only at the op's own program point and is never
/// recomputed later (as fused elementwise ops are).
bool readsWhereItStands(Operation *user) {
  return isa<triton::DotOp, triton::ReduceOp, triton::ScanOp>(user);
}

/// Elementwise arith/math ops: their result is a new tensor computed from
/// the operands, which refcpu-fuse-elementwise may recompute inside any
/// linalg consumer of it (never inside a store: a strided store copies a
/// materialized block, a per-lane one extracts from it).
bool isElementwise(Operation *user) {
  if (!isa<arith::ArithDialect, math::MathDialect>(user->getDialect()))
    return false;
  return user->hasTrait<OpTrait::Elementwise>() && isMemoryEffectFree(user);
}

} // namespace

bool refcpu::canReadInPlace(Operation *load) {
  if (load->getNumResults() != 1 ||
      !isa<RankedTensorType>(load->getResult(0).getType()))
    return false;
  Block *block = load->getBlock();
  // The loaded block is read wherever its elementwise closure (the
  // elementwise ops computed from it, transitively) or a dot, reduction or
  // scan of a closure value runs; fusion moves closure ops only into their
  // linalg consumers. Each such read must come before the first op after
  // the load that may write memory. A tt.store of a closure value may come
  // anywhere: it copies a block that a closure op materialized where it
  // stands.
  SmallVector<Value> worklist{load->getResult(0)};
  SmallPtrSet<Operation *, 16> closure;
  SmallVector<Operation *> reads;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != block)
        return false;
      if (isElementwise(user)) {
        if (closure.insert(user).second) {
          reads.push_back(user);
          llvm::append_range(worklist, user->getResults());
        }
      } else if (readsWhereItStands(user)) {
        reads.push_back(user);
      } else if (!isa<triton::StoreOp>(user) || value == load->getResult(0) ||
                 use.getOperandNumber() != 1) {
        // Anything else, the loaded block itself stored (a copy from view
        // to view), and a data-dependent address or mask (computed per
        // lane while the store writes).
        return false;
      }
    }
  }
  if (reads.empty())
    return false;
  Operation *last = reads.front();
  for (Operation *read : reads)
    if (last->isBeforeInBlock(read))
      last = read;
  for (Operation *op = load->getNextNode(); op != last; op = op->getNextNode())
    if (!closure.contains(op) && refcpu::mayWriteMemory(op))
      return false;
  return true;
}

bool refcpu::mayRunAfterWrite(Operation *op) {
  auto anyWrites = [](Region &region) {
    for (Block &block : region)
      for (Operation &nested : block)
        if (mayWriteMemory(&nested))
          return true;
    return false;
  };
  for (Operation *current = op; current;) {
    Block *block = current->getBlock();
    if (!block)
      return false;
    for (Operation &before : *block) {
      if (&before == current)
        break;
      if (mayWriteMemory(&before))
        return true;
    }
    Region *region = block->getParent();
    if (!region->hasOneBlock() && anyWrites(*region))
      return true;
    Operation *parent = region->getParentOp();
    if (!parent)
      return false;
    // A kernel starts its program; any other function may be called after
    // its caller wrote memory.
    if (auto func = dyn_cast<FunctionOpInterface>(parent))
      return !func.isPublic() ||
             !SymbolTable::symbolKnownUseEmpty(func, func->getParentOp());
    if (parent->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return true;
    // Only scf.if runs a region at most once per execution of the op; any
    // other region (a loop's body) may run again after its writes.
    if (!isa<scf::IfOp>(parent))
      for (Region &sibling : parent->getRegions())
        if (anyWrites(sibling))
          return true;
    current = parent;
  }
  return false;
}
