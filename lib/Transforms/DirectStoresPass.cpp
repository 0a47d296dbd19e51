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
// Two forms that bufferization and refcpu-collapse-dims leave are brought
// to that one first. A generic that refcpu-collapse-dims made 1-D over
// collapse_shapes of 2-D buffers gets its rows back, since the view it is
// copied to has rows apart. A copy inside an scf.if (Triton's store of a
// block whose row stride may be negative has a strided and a per-lane
// branch) gets the generic moved into the branches that use its buffer, as
// a dot's f32 -> bf16 result converted and stored by the tutorial matmul.
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

/// The generic of `block` that writes all of `scratch` and nothing else,
/// without reading it, when it is elementwise and the only generic of the
/// block using `scratch`.
linalg::GenericOp onlyWriter(Value scratch, Block *block) {
  linalg::GenericOp writer;
  for (Operation *user : scratch.getUsers()) {
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || generic->getBlock() != block)
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

/// The buffer of the program (alloc / alloca) that `copy` copies, whole or
/// through the subview it returns in `view`; else null.
Value copiedBuffer(linalg::CopyOp copy, memref::SubViewOp &view) {
  Value scratch = copy.getInputs()[0];
  view = scratch.getDefiningOp<memref::SubViewOp>();
  if (view)
    scratch = view.getSource();
  if (!scratch.getDefiningOp<memref::AllocaOp>() &&
      !scratch.getDefiningOp<memref::AllocOp>())
    return nullptr;
  return scratch;
}

/// Whether `generic` is elementwise on identity maps, with no linalg.index
/// in its payload (whose values depend on the loops' shape).
bool isPlainElementwise(linalg::GenericOp generic) {
  if (!generic.hasPureBufferSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  return generic.getBody()->getOps<linalg::IndexOp>().empty();
}

/// Rebuilds an elementwise generic that writes a collapse_shape of
/// `scratch` on the uncollapsed buffers, when every operand is a
/// collapse_shape alike (the same reassociation of the same shape).
void uncollapseWriter(Value scratch, IRRewriter &rewriter) {
  auto scratchType = cast<MemRefType>(scratch.getType());
  for (Operation *user : llvm::make_early_inc_range(scratch.getUsers())) {
    auto collapse = dyn_cast<memref::CollapseShapeOp>(user);
    if (!collapse || !collapse->hasOneUse())
      continue;
    auto generic = dyn_cast<linalg::GenericOp>(*collapse->user_begin());
    if (!generic || !isPlainElementwise(generic) ||
        generic.getNumDpsInits() != 1 ||
        generic.getDpsInits()[0] != collapse.getResult())
      continue;
    SmallVector<Value> inputs;
    for (Value input : generic.getDpsInputs()) {
      auto other = input.getDefiningOp<memref::CollapseShapeOp>();
      if (!other ||
          other.getReassociationIndices() !=
              collapse.getReassociationIndices() ||
          other.getSrcType().getShape() != scratchType.getShape())
        break;
      inputs.push_back(other.getSrc());
    }
    if (int64_t(inputs.size()) != generic.getNumDpsInputs())
      continue;
    rewriter.setInsertionPoint(generic);
    int64_t rank = scratchType.getRank();
    SmallVector<AffineMap> maps(
        inputs.size() + 1, rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto rows = linalg::GenericOp::create(rewriter, generic.getLoc(),
                                          TypeRange(), inputs, scratch, maps,
                                          iterators);
    rewriter.inlineRegionBefore(generic.getRegion(), rows.getRegion(),
                                rows.getRegion().begin());
    rewriter.eraseOp(generic);
    rewriter.eraseOp(collapse);
  }
}

/// Moves the one generic that writes `scratch` into the regions of the
/// scf.if that `copy` lies in, a clone at the start of each region that
/// uses the buffer, when the generic comes before the scf.if in its block,
/// writes nothing else, nothing between them writes memory, and the buffer
/// has no use after it. (A region that does not use the buffer then skips
/// the generic.)
void sinkWriterToCopy(linalg::CopyOp copy, Value scratch,
                      IRRewriter &rewriter) {
  auto branch = dyn_cast<scf::IfOp>(copy->getParentOp());
  if (!branch)
    return;
  linalg::GenericOp writer;
  for (Operation *user : scratch.getUsers()) {
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (generic && generic->getBlock() == branch->getBlock()) {
      if (writer)
        return;
      writer = generic;
    } else if (!branch->isAncestor(user)) {
      return;
    }
  }
  if (!writer || writer.getNumDpsInits() != 1 ||
      writer.getDpsInits()[0] != scratch || !writer->isBeforeInBlock(branch))
    return;
  for (Operation &op : writer.getBody()->without_terminator())
    if (refcpu::mayWriteMemory(&op))
      return;
  for (Operation *op = writer->getNextNode(); op != branch;
       op = op->getNextNode())
    if (refcpu::mayWriteMemory(op))
      return;
  for (Region &region : branch->getRegions()) {
    if (region.empty() ||
        llvm::none_of(scratch.getUsers(), [&](Operation *user) {
          return region.isAncestor(user->getParentRegion());
        }))
      continue;
    rewriter.setInsertionPointToStart(&region.front());
    rewriter.clone(*writer);
  }
  rewriter.eraseOp(writer);
}

std::optional<DirectStore> match(linalg::CopyOp copy) {
  if (!copy.hasPureBufferSemantics())
    return std::nullopt;
  Value source = copy.getInputs()[0];
  DirectStore store{copy, nullptr, {}, {}};
  memref::SubViewOp view;
  Value scratch = copiedBuffer(copy, view);
  if (!scratch)
    return std::nullopt;
  if (view) {
    if (!view->hasOneUse() ||
        !llvm::all_of(view.getMixedStrides(), isOneInteger) ||
        view.getSourceType().getRank() != view.getType().getRank())
      return std::nullopt;
    store.offsets = view.getMixedOffsets();
    store.sizes = view.getMixedSizes();
  }
  // The scratch buffer has no other readers and no aliases on the copy's
  // path; the other branch of an scf.if around the copy may use it.
  auto branch = dyn_cast<scf::IfOp>(copy->getParentOp());
  for (Operation *user : scratch.getUsers()) {
    if (user->getBlock() != copy->getBlock()) {
      if (!branch || !branch->isAncestor(user) ||
          copy->getParentRegion()->isAncestor(user->getParentRegion()))
        return std::nullopt;
      continue;
    }
    if (!isa<linalg::GenericOp>(user) &&
        !(source != scratch && user == source.getDefiningOp()) &&
        user != copy)
      return std::nullopt;
  }
  store.generic = onlyWriter(scratch, copy->getBlock());
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
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::CopyOp> copies;
    getOperation().walk([&](linalg::CopyOp copy) { copies.push_back(copy); });
    for (linalg::CopyOp copy : copies) {
      memref::SubViewOp view;
      Value scratch = copiedBuffer(copy, view);
      if (!scratch)
        continue;
      // Only a part of the buffer copied needs the rows: a whole buffer's
      // copy collapses as its writer did.
      if (view)
        uncollapseWriter(scratch, rewriter);
      sinkWriterToCopy(copy, scratch, rewriter);
    }
    // The preparation above moves generics, never a copy.
    SmallVector<DirectStore> stores;
    for (linalg::CopyOp copy : copies)
      if (std::optional<DirectStore> store = match(copy))
        stores.push_back(*store);
    for (DirectStore &store : stores)
      rewrite(store);
  }
};

} // namespace
