//===- StackBuffersPass.cpp - the refcpu-stack-buffers pass ---------------===//
//
// One-shot bufferization gives every block a program computes its own
// memref.alloc, which becomes a malloc/free pair per program: softmax_rows
// made seven per row. Blocks of a known size that live no longer than the
// program are placed in the program's stack frame instead, allocated once
// at function entry:
//
//   scf.if %partial {
//     %b = memref.alloc() : memref<1024xf32>          // malloc per program
//     ...
//   }
//     -> %b = memref.alloca() : memref<1024xf32>      // entry block
//        scf.if %partial { ... }
//
// Allocations nested in loops and conditionals move to the entry too (one
// frame slot instead of a malloc per iteration); in a loop only when the
// loop's body passes no alias of the buffer on: such a buffer can be live in
// the next iteration while the iteration after that writes its fresh copy.
// A conditional inside the loop that yields it (a block read in place or
// copied) does not pass it on by itself. A buffer returned
// from the function stays on the heap, and so does everything past the
// function's stack budget, in program order. Runs after bufferization and
// before buffer deallocation, which leaves stack buffers alone.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace refcpu {
#define GEN_PASS_DEF_STACKBUFFERS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// The bytes of a statically shaped buffer, or none when its shape or its
/// element size is not known here.
std::optional<uint64_t> staticBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return std::nullopt;
  // Sub-byte elements (i1) take a byte each, as in the LLVM lowering.
  uint64_t bytesPerElement = llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  return type.getNumElements() * bytesPerElement;
}

/// Whether some alias of `alloc`'s buffer may be live when `alloc` runs
/// again or after the function: it is returned, or the body of a loop around
/// `alloc` passes it on (to the next iteration or out of the loop). An alias
/// that a conditional yields is its result, whose own uses decide.
bool mayOutliveIteration(memref::AllocOp alloc,
                         const BufferViewFlowAnalysis &aliases) {
  for (Value alias : aliases.resolve(alloc.getResult()))
    for (Operation *user : alias.getUsers()) {
      if (isa<func::ReturnOp>(user))
        return true;
      Operation *parent = user->getParentOp();
      if (user->hasTrait<OpTrait::IsTerminator>() &&
          isa<LoopLikeOpInterface>(parent) && parent->isProperAncestor(alloc))
        return true;
    }
  return false;
}

struct StackBuffersPass : refcpu::impl::StackBuffersBase<StackBuffersPass> {
  using StackBuffersBase::StackBuffersBase;

  void runOnOperation() override {
    getOperation()->walk([&](func::FuncOp func) { placeOnStack(func); });
  }

  void placeOnStack(func::FuncOp func) {
    if (func.isExternal())
      return;
    SmallVector<memref::AllocOp> allocs;
    func.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    if (allocs.empty())
      return;
    BufferViewFlowAnalysis aliases(func);
    Block &entry = func.front();
    uint64_t budget = stackBudget;
    OpBuilder builder(func.getContext());
    // Slots go in program order at the top of the entry block. The
    // insertion point is kept after the last slot, not at an op that may be
    // one of the allocations erased here.
    Operation *lastSlot = nullptr;
    for (memref::AllocOp alloc : allocs) {
      std::optional<uint64_t> bytes = staticBytes(alloc.getType());
      if (!bytes || *bytes > budget)
        continue;
      // Only a loop can run an allocation twice while an earlier buffer is
      // still live; a buffer that a conditional yields (a block read in
      // place or copied) lives once per iteration or program.
      if (mayOutliveIteration(alloc, aliases))
        continue;
      budget -= *bytes;
      if (lastSlot)
        builder.setInsertionPointAfter(lastSlot);
      else
        builder.setInsertionPointToStart(&entry);
      auto slot = memref::AllocaOp::create(builder, alloc.getLoc(), alloc.getType(),
                                           alloc.getAlignmentAttr());
      lastSlot = slot;
      alloc.replaceAllUsesWith(slot.getResult());
      alloc.erase();
    }
  }
};

} // namespace
