//===- StreamingStoresPass.cpp - the refcpu-streaming-stores pass ---------===//
//
// A store to a line that is not in cache first reads the line from memory
// (write-allocate), so a launch that writes more than the caches hold moves
// each output byte twice: vector_add of 16M floats reads 128 MiB, writes 64
// MiB and reads those 64 MiB again before writing them. Non-temporal stores
// (vmovntps and kin) write whole lines without reading them. Upstream has
// them as vector.store {nontemporal = true}, and x86 has them only for
// vectors aligned to their size; LLVM's loop vectorizer refuses a loop whose
// scalar store is non-temporal and not known to be aligned, so this pass
// writes the vector loop itself:
//
//   linalg.generic ins(%x, %y) outs(%dst)      // 1-D, elementwise, %dst global
//     ->
//   scf.if %large {                            // the launch stores >= min-bytes
//     linalg.generic on [0, %head)             // up to %dst's next 64 bytes
//     scf.for %i = %head to %end step V {      // V lanes of 64 bytes
//       %a = vector.load %x[%i]  ...  the payload on vectors
//       vector.store %r, %dst[%i] {nontemporal = true, alignment = 64}
//     }
//     linalg.generic on [%end, %n)
//   } else {
//     the generic as before
//   }
//
// The launch's size is num_programs x * y * z times this program's lanes:
// the programs of a grid store alike. Non-temporal stores are weakly
// ordered: the launcher fences them before a launch returns (Launcher.cpp),
// and x86's locked instructions (every tt.atomic_*) order them within one.
// Fast preset, after refcpu-direct-stores, which makes the generics that
// write global views.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "refcpu/Analysis/GlobalViews.h"
#include "refcpu/kernel_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace refcpu {
#define GEN_PASS_DEF_STREAMINGSTORES
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// Bytes of one non-temporal vector store: a cache line, a zmm register.
constexpr int64_t kLineBytes = 64;

/// The payload op can run on vectors: arith or math, elementwise and
/// without regions (it runs as it is), or a constant (it is splat).
bool isVectorizable(Operation &op) {
  return isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) &&
         op.getNumRegions() == 0 &&
         (OpTrait::hasElementwiseMappableTraits(&op) ||
          op.hasTrait<OpTrait::ConstantLike>());
}

/// Whether a 1-D memref's lanes are adjacent.
bool isContiguous(MemRefType type) {
  int64_t offset;
  SmallVector<int64_t> strides;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.size() == 1 && strides[0] == 1;
}

/// Lanes of one 64-byte store of `generic`'s output, when the generic can
/// stream: 1-D, elementwise, writing a contiguous global view without
/// reading it, its memref inputs read lane for lane, its payload
/// vectorizable. Else 0.
int64_t streamLanes(linalg::GenericOp generic) {
  if (!generic.hasPureBufferSemantics() || generic.getNumLoops() != 1 ||
      generic.getNumParallelLoops() != 1 || generic.getNumDpsInits() != 1)
    return 0;
  OpOperand *init = generic.getDpsInitOperand(0);
  auto type = cast<MemRefType>(init->get().getType());
  if (!isContiguous(type) ||
      !generic.getMatchingIndexingMap(init).isIdentity() ||
      generic.payloadUsesValueFromOperand(init) ||
      !refcpu::isGlobalMemory(refcpu::getViewRoot(init->get())))
    return 0;
  unsigned bits = type.getElementTypeBitWidth();
  if (!type.getElementType().isIntOrFloat() || bits < 8 || bits > 64 ||
      !llvm::isPowerOf2_32(bits))
    return 0;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto inType = dyn_cast<MemRefType>(input->get().getType());
    if (!inType)
      continue;
    if (!isContiguous(inType) || !generic.getMatchingIndexingMap(input).isIdentity())
      return 0;
  }
  for (Operation &op : generic.getBody()->without_terminator())
    if (!isVectorizable(op))
      return 0;
  return kLineBytes * 8 / bits;
}

/// `generic` on lanes [offset, offset + size) of its views.
void cloneOnPart(OpBuilder &b, linalg::GenericOp generic, Value offset,
                 Value size) {
  Location loc = generic.getLoc();
  IRMapping part;
  for (OpOperand &operand : generic->getOpOperands())
    if (isa<MemRefType>(operand.get().getType()))
      part.map(operand.get(),
               memref::SubViewOp::create(
                   b, loc, operand.get(), OpFoldResult(offset),
                   OpFoldResult(size), OpFoldResult(b.getIndexAttr(1))));
  b.clone(*generic, part);
}

/// The loop body: lanes [i, i + lanes) of `generic` as vector ops, stored
/// non-temporally.
void vectorBody(OpBuilder &b, linalg::GenericOp generic, int64_t lanes,
                Value i) {
  Location loc = generic.getLoc();
  IRMapping vectors;
  Block *body = generic.getBody();
  auto vectorOf = [&](Type element) { return VectorType::get(lanes, element); };
  for (OpOperand *input : generic.getDpsInputOperands()) {
    Value value = input->get();
    Value lane = body->getArgument(input->getOperandNumber());
    if (auto type = dyn_cast<MemRefType>(value.getType()))
      vectors.map(lane, vector::LoadOp::create(b, loc,
                                               vectorOf(type.getElementType()),
                                               value, ValueRange{i}));
    else
      vectors.map(lane, vector::BroadcastOp::create(
                            b, loc, vectorOf(value.getType()), value));
  }
  // Values of the enclosing code, and constants, become splats.
  auto operandOf = [&](Value scalar) -> Value {
    if (Value mapped = vectors.lookupOrNull(scalar))
      return mapped;
    Value splat = vector::BroadcastOp::create(
        b, loc, vectorOf(scalar.getType()), scalar);
    vectors.map(scalar, splat);
    return splat;
  };
  for (Operation &op : body->without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>()) {
      Operation *scalar = b.clone(op);
      vectors.map(op.getResult(0), operandOf(scalar->getResult(0)));
      continue;
    }
    // A clone keeps the op's attributes and properties; its operands and
    // results become vectors of the same elements.
    IRMapping operands;
    for (Value operand : op.getOperands())
      operands.map(operand, operandOf(operand));
    Operation *vector = b.clone(op, operands);
    for (OpResult result : vector->getResults())
      result.setType(vectorOf(result.getType()));
    vectors.map(op.getResults(), vector->getResults());
  }
  Value result = operandOf(body->getTerminator()->getOperand(0));
  vector::StoreOp::create(b, loc, result, generic.getDpsInits()[0],
                          ValueRange{i}, /*nontemporal=*/true,
                          llvm::MaybeAlign(kLineBytes));
}

/// Rewrites `generic` as the file comment shows.
void stream(linalg::GenericOp generic, int64_t lanes, ValueRange programs,
            int64_t minBytes) {
  Location loc = generic.getLoc();
  OpBuilder b(generic);
  Value dst = generic.getDpsInits()[0];
  auto type = cast<MemRefType>(dst.getType());
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  // One constant per value, before the branch that uses them.
  llvm::SmallDenseMap<int64_t, Value> constants;
  for (int64_t value : {int64_t(0), elementBytes, kLineBytes, lanes})
    constants.try_emplace(value, arith::ConstantIndexOp::create(b, loc, value));
  auto index = [&](int64_t value) { return constants.at(value); };
  Value n = memref::DimOp::create(b, loc, dst, 0);
  Value bytes = arith::MulIOp::create(b, loc, n, index(elementBytes));
  for (Value count : programs)
    bytes = arith::MulIOp::create(
        b, loc, bytes,
        arith::IndexCastOp::create(b, loc, b.getIndexType(), count));
  // (A product that overflows at most loses the streaming, never a lane.)
  Value large = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sge, bytes,
      arith::ConstantIndexOp::create(b, loc, minBytes));
  auto branch = scf::IfOp::create(b, loc, large, /*withElseRegion=*/true);
  generic->moveBefore(branch.elseBlock()->getTerminator());

  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  // Lanes before the first 64-byte boundary of %dst (all of them when its
  // elements are not aligned to their size, which no boundary then starts).
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, dst);
  Value address = arith::AddIOp::create(
      b, loc,
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc,
                                                     metadata.getBaseBuffer()),
      arith::MulIOp::create(b, loc, metadata.getOffset(), index(elementBytes)));
  Value misaligned = arith::RemUIOp::create(b, loc, address, index(kLineBytes));
  Value toBoundary = arith::DivUIOp::create(
      b, loc,
      arith::RemUIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, index(kLineBytes), misaligned),
          index(kLineBytes)),
      index(elementBytes));
  Value natural = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, address, index(elementBytes)), index(0));
  Value head = arith::MinUIOp::create(
      b, loc, n, arith::SelectOp::create(b, loc, natural, toBoundary, n));
  Value rest = arith::SubIOp::create(b, loc, n, head);
  Value end = arith::AddIOp::create(
      b, loc, head,
      arith::SubIOp::create(b, loc, rest,
                            arith::RemUIOp::create(b, loc, rest, index(lanes))));
  cloneOnPart(b, generic, index(0), head);
  auto loop = scf::ForOp::create(b, loc, head, end, index(lanes));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    vectorBody(b, generic, lanes, loop.getInductionVar());
  }
  cloneOnPart(b, generic, end, arith::SubIOp::create(b, loc, n, end));
}

struct StreamingStoresPass
    : public refcpu::impl::StreamingStoresBase<StreamingStoresPass> {
  using StreamingStoresBase::StreamingStoresBase;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      // Kernels end with the grid's arguments, num_programs x, y, z first.
      if (func.isExternal() || func.getNumArguments() < REFCPU_NUM_GRID_ARGS)
        return;
      ValueRange programs = func.getArguments()
                                .take_back(REFCPU_NUM_GRID_ARGS)
                                .take_front(3);
      if (!llvm::all_of(programs.getTypes(),
                        [](Type type) { return type.isInteger(32); }))
        return;
      SmallVector<std::pair<linalg::GenericOp, int64_t>> generics;
      func.walk([&](linalg::GenericOp generic) {
        if (int64_t lanes = streamLanes(generic))
          generics.push_back({generic, lanes});
      });
      for (auto [generic, lanes] : generics)
        stream(generic, lanes, programs, minBytes);
    });
  }
};

} // namespace
