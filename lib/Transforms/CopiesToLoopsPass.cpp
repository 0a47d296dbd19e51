//===- CopiesToLoopsPass.cpp - the refcpu-copies-to-loops pass ------------===//
//
// finalize-memref-to-llvm lowers a memref.copy between contiguous buffers to
// memcpy, and every other copy to a call of the runtime's generic
// `memrefCopy`, which walks both descriptors element by element. After
// bufferization such copies are common where a block is either read in
// place or copied (an scf.if yields both, so its result has a dynamic
// layout): a row sum spent more time in memrefCopy of its 64 partial
// results than in reading its row. Those copies become linalg.copy here,
// loops that LLVM vectorizes for the strides at hand:
//
//   memref.copy %a, %b : memref<64xf32, strided<[?], offset: ?>> to memref<64xf32>
//     -> linalg.copy ins(%a : ...) outs(%b : memref<64xf32>)
//
// Copies that are memcpy already stay.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace refcpu {
#define GEN_PASS_DEF_COPIESTOLOOPS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// Whether finalize-memref-to-llvm lowers a copy of `type` to memcpy: the
/// identity layout, or a static layout that is contiguous.
bool isMemcpyOperand(MemRefType type) {
  return type.getLayout().isIdentity() ||
         (type.hasStaticShape() && type.getNumElements() > 0 &&
          memref::isStaticShapeAndContiguousRowMajor(type));
}

struct CopiesToLoopsPass : refcpu::impl::CopiesToLoopsBase<CopiesToLoopsPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (source && target &&
          !(isMemcpyOperand(source) && isMemcpyOperand(target)))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
  }
};

} // namespace
