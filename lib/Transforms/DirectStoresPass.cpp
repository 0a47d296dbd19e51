//===- DirectStoresPass.cpp - the refcpu-direct-stores pass ---------------===//
//
// A tt.store of a computed block bufferizes to the computation writing a
// buffer of the program and a copy of (part of) that buffer to the stored
// view. Where the computation is elementwise (after refcpu-fuse-elementwise
// it usually is one linalg.generic) it can write the view directly, saving
// a write and a read of every element:
//
//   linalg.generic ins(%x, %y) outs(%t : memref<1024xf32>)    // %t: scratch
//   %part = memref.subview %t[0] [%n] [1]
//   linalg.copy ins(%part) outs(%dst)
//     ->
//   scf.if %disjoint {
//     linalg.generic ins(%x[0] [%n] [1], %y[0] [%n] [1]) outs(%dst)
//   } else {
//     <the original generic and copy>
//   }
//
// Triton's store happens after the whole block is computed, so an output
// that overlaps an input must still see the input's old values: %disjoint
// is checked at run time, true when every input view either shares no byte
// with %dst or is %dst itself lane for lane (an in-place update reads each
// lane before it writes it). The generic moves to the copy, which is sound
// because nothing between them writes memory. Fast preset, after
// bufferization.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "refcpu/Analysis/MemoryEffects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace refcpu {
#define GEN_PASS_DEF_DIRECTSTORES
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// A copy out of a scratch buffer that one elementwise generic fills.
struct DirectStore {
  linalg::CopyOp copy;
  linalg::GenericOp generic;
  /// Where the copied part lies in the scratch buffer (unit strides).
  SmallVector<OpFoldResult> offsets, sizes;
};

/// The generic that writes all of `scratch` and nothing else, without
/// reading it, when it is elementwise.
linalg::GenericOp onlyWriter(Value scratch) {
  linalg::GenericOp writer;
  for (Operation *user : scratch.getUsers()) {
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic)
      continue;
    if (writer)
      return nullptr;
    writer = generic;
  }
  if (!writer || !writer.hasPureBufferSemantics() ||
      writer.getNumDpsInits() != 1 || writer.getDpsInits()[0] != scratch ||
      writer.getNumParallelLoops() != writer.getNumLoops())
    return nullptr;
  OpOperand *init = writer.getDpsInitOperand(0);
  if (!writer.getMatchingIndexingMap(init).isIdentity() ||
      writer.payloadUsesValueFromOperand(init))
    return nullptr;
  for (OpOperand *input : writer.getDpsInputOperands()) {
    if (input->get() == scratch)
      return nullptr;
    if (isa<MemRefType>(input->get().getType()) &&
        !writer.getMatchingIndexingMap(input).isProjectedPermutation())
      return nullptr;
  }
  return writer;
}

std::optional<DirectStore> match(linalg::CopyOp copy) {
  if (!copy.hasPureBufferSemantics())
    return std::nullopt;
  Value source = copy.getInputs()[0];
  DirectStore store{copy, nullptr, {}, {}};
  Value scratch = source;
  if (auto view = source.getDefiningOp<memref::SubViewOp>()) {
    if (!view->hasOneUse() ||
        !llvm::all_of(view.getMixedStrides(), isOneInteger) ||
        view.getSourceType().getRank() != view.getType().getRank())
      return std::nullopt;
    scratch = view.getSource();
    store.offsets = view.getMixedOffsets();
    store.sizes = view.getMixedSizes();
  }
  if (!scratch.getDefiningOp<memref::AllocaOp>() &&
      !scratch.getDefiningOp<memref::AllocOp>())
    return std::nullopt;
  // The scratch buffer has no other readers and no aliases.
  for (Operation *user : scratch.getUsers())
    if (!isa<linalg::GenericOp>(user) &&
        !(source != scratch && user == source.getDefiningOp()) &&
        user != copy)
      return std::nullopt;
  store.generic = onlyWriter(scratch);
  if (!store.generic || store.generic->getBlock() != copy->getBlock() ||
      !store.generic->isBeforeInBlock(copy))
    return std::nullopt;
  for (Operation *op = store.generic->getNextNode(); op != copy;
       op = op->getNextNode())
    if (refcpu::mayWriteMemory(op))
      return std::nullopt;
  if (store.offsets.empty()) {
    OpBuilder b(copy);
    int64_t rank = cast<MemRefType>(scratch.getType()).getRank();
    store.offsets.assign(rank, b.getIndexAttr(0));
    store.sizes = memref::getMixedSizes(b, copy.getLoc(), scratch);
  }
  return store;
}

/// The byte range [lo, hi) of `view`'s elements (empty when a size is 0)
/// and its first element's address.
struct Extent {
  Value lo, hi, first;
  memref::ExtractStridedMetadataOp metadata;
};

Extent extentOf(OpBuilder &b, Location loc, Value view) {
  auto type = cast<MemRefType>(view.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, view);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value lo = metadata.getOffset(), hi = metadata.getOffset();
  Value empty = arith::ConstantIntOp::create(b, loc, 0, 1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size = metadata.getSizes()[d];
    empty = arith::OrIOp::create(
        b, loc, empty,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero));
    Value span = arith::MulIOp::create(
        b, loc, arith::SubIOp::create(b, loc, size, one),
        metadata.getStrides()[d]);
    lo = arith::AddIOp::create(b, loc, lo,
                               arith::MinSIOp::create(b, loc, span, zero));
    hi = arith::AddIOp::create(b, loc, hi,
                               arith::MaxSIOp::create(b, loc, span, zero));
  }
  unsigned bits = type.getElementTypeBitWidth();
  Value bytes = arith::ConstantIndexOp::create(b, loc, (bits + 7) / 8);
  auto address = [&](Value element) {
    return arith::AddIOp::create(b, loc, base,
                                 arith::MulIOp::create(b, loc, element, bytes));
  };
  Extent extent{address(lo),
                address(arith::AddIOp::create(b, loc, hi, one)),
                address(metadata.getOffset()), metadata};
  // An empty view covers no bytes.
  extent.hi = arith::SelectOp::create(b, loc, empty, extent.lo, extent.hi);
  return extent;
}

/// Whether writing lane i of `out` before reading lane i of `input` (and
/// only that lane) keeps every value read: they share no byte, or they are
/// the same view.
Value safeToWriteOver(OpBuilder &b, Location loc, Value input,
                      Extent out) {
  Extent in = extentOf(b, loc, input);
  auto cmp = [&](arith::CmpIPredicate pred, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, pred, x, y);
  };
  Value disjoint =
      arith::OrIOp::create(b, loc, cmp(arith::CmpIPredicate::ule, in.hi, out.lo),
                           cmp(arith::CmpIPredicate::ule, out.hi, in.lo));
  auto inType = cast<MemRefType>(input.getType());
  auto outType = cast<MemRefType>(out.metadata.getSource().getType());
  if (inType.getElementType() != outType.getElementType() ||
      inType.getRank() != outType.getRank())
    return disjoint;
  // Equal first elements, sizes and strides make the same lanes.
  Value same = cmp(arith::CmpIPredicate::eq, in.first, out.first);
  for (auto [x, y] : llvm::zip(in.metadata.getSizes(), out.metadata.getSizes()))
    same = arith::AndIOp::create(b, loc, same,
                                 cmp(arith::CmpIPredicate::eq, x, y));
  for (auto [x, y] :
       llvm::zip(in.metadata.getStrides(), out.metadata.getStrides()))
    same = arith::AndIOp::create(b, loc, same,
                                 cmp(arith::CmpIPredicate::eq, x, y));
  return arith::OrIOp::create(b, loc, disjoint, same);
}

void rewrite(DirectStore &store) {
  linalg::CopyOp copy = store.copy;
  linalg::GenericOp generic = store.generic;
  Location loc = copy.getLoc();
  Value dst = copy.getOutputs()[0];
  generic->moveBefore(copy);
  OpBuilder b(copy);

  // The inputs' parts that the copied lanes read.
  IRMapping direct;
  direct.map(generic.getDpsInits()[0], dst);
  Extent out = extentOf(b, loc, dst);
  Value safe = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    AffineMap map = generic.getMatchingIndexingMap(input);
    SmallVector<OpFoldResult> offsets, sizes;
    for (AffineExpr result : map.getResults()) {
      unsigned loop = cast<AffineDimExpr>(result).getPosition();
      offsets.push_back(store.offsets[loop]);
      sizes.push_back(store.sizes[loop]);
    }
    SmallVector<OpFoldResult> strides(map.getNumResults(), b.getIndexAttr(1));
    Value part = memref::SubViewOp::create(b, loc, input->get(), offsets,
                                           sizes, strides);
    direct.map(input->get(), part);
    safe = arith::AndIOp::create(b, loc, safe,
                                 safeToWriteOver(b, loc, part, out));
  }

  auto branch = scf::IfOp::create(b, loc, safe, /*withElseRegion=*/true);
  OpBuilder thenBuilder = branch.getThenBodyBuilder();
  thenBuilder.clone(*generic, direct);
  generic->moveBefore(branch.elseBlock()->getTerminator());
  copy->moveBefore(branch.elseBlock()->getTerminator());
  if (Operation *view = copy.getInputs()[0].getDefiningOp())
    if (isa<memref::SubViewOp>(view))
      view->moveBefore(copy);
}

struct DirectStoresPass
    : public refcpu::impl::DirectStoresBase<DirectStoresPass> {
  void runOnOperation() override {
    SmallVector<DirectStore> stores;
    getOperation().walk([&](linalg::CopyOp copy) {
      if (std::optional<DirectStore> store = match(copy))
        stores.push_back(*store);
    });
    for (DirectStore &store : stores)
      rewrite(store);
  }
};

} // namespace
