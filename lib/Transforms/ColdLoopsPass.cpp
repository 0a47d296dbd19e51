//===- ColdLoopsPass.cpp - the refcpu-cold-loops pass ---------------------===//
//
// The loops of a per-lane fallback, which runs only when a run-time check
// fails, get no unrolling and no vectorization from LLVM: they cost compile
// time and code size, not run time. The conversion marks the fallback's
// memory accesses; every loop of the scf.if branch around them becomes
//
//   scf.if %viewOk { ... } else {
//     scf.for ... { (addresses) } {llvm.loop_annotation = #cold}
//     scf.for ... {
//       scf.for ... { ... llvm.load ... {refcpu.cold} ... }
//           {llvm.loop_annotation = #cold}
//     } {llvm.loop_annotation = #cold}
//   }
//   #cold = #llvm.loop_annotation<vectorize = <disable = true>,
//                                 unroll = <disable = true>>
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/ColdLoops.h"
#include "refcpu/Transforms/Passes.h"

namespace refcpu {
#define GEN_PASS_DEF_COLDLOOPS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// The discardable attribute that scf-to-cf carries to a loop's back edge
/// and refcpu-loop-annotations turns into LLVM loop metadata.
constexpr llvm::StringLiteral kLoopAnnotation = "llvm.loop_annotation";

LLVM::LoopAnnotationAttr coldAnnotation(MLIRContext *context) {
  auto disabled = BoolAttr::get(context, true);
  return LLVM::LoopAnnotationAttr::get(
      context, /*disableNonforced=*/{},
      LLVM::LoopVectorizeAttr::get(context, disabled, {}, {}, {}, {}, {}, {}),
      /*interleave=*/{},
      LLVM::LoopUnrollAttr::get(context, disabled, {}, {}, {}, {}, {}, {}),
      /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{}, /*pipeline=*/{},
      /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
}

/// Whether `loop`'s body is only `inner` (and the yield): the loops of a
/// lowered linalg op or of a per-lane visit form such a perfect nest.
bool onlyHolds(scf::ForOp loop, Operation *inner) {
  Block *body = loop.getBody();
  return inner->getBlock() == body && body->getOperations().size() == 2;
}

/// The block of the fallback that holds `access`: the one of the outermost
/// loop of the perfect nest around it, while that is a branch of an scf.if
/// (the fallback's run-time check). Null when the check was folded away
/// (the fallback always runs) or `access` is in no loop.
Block *fallbackBlock(Operation *access) {
  auto loop = access->getParentOfType<scf::ForOp>();
  if (!loop)
    return nullptr;
  while (auto outer = dyn_cast<scf::ForOp>(loop->getParentOp())) {
    if (!onlyHolds(outer, loop))
      break;
    loop = outer;
  }
  return isa<scf::IfOp>(loop->getParentOp()) ? loop->getBlock() : nullptr;
}

struct ColdLoopsPass : refcpu::impl::ColdLoopsBase<ColdLoopsPass> {
  void runOnOperation() override {
    llvm::SetVector<Block *> fallbacks;
    getOperation()->walk([&](Operation *op) {
      if (!op->removeAttr(refcpu::kColdAttr))
        return;
      if (Block *block = fallbackBlock(op))
        fallbacks.insert(block);
    });
    // Every loop of the block is the fallback's: the per-lane accesses and
    // the address and mask blocks that only they read.
    auto annotation = coldAnnotation(&getContext());
    for (Block *block : fallbacks)
      block->walk(
          [&](scf::ForOp loop) { loop->setAttr(kLoopAnnotation, annotation); });
  }
};

} // namespace
