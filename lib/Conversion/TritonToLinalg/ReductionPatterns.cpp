//===- ReductionPatterns.cpp - tt.reduce, tt.scan and tt.dot --------------===//
//
// tt.reduce with any combiner region becomes linalg.reduce whose body is the
// combiner. Triton has no identity value, so element 0 along the axis is the
// initial accumulator and the rest is reduced into it (a left fold
// acc = combine(acc, x_i), which Triton allows since it treats combiners as
// associative and commutative). A long axis is folded into a vector of
// partial results first:
//
//   %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({ ^bb0(%a, %b): ... })
//     -> %init = tensor.extract_slice %x[0] ; %rest = tensor.extract_slice %x[1..]
//        %r = linalg.reduce ins(%rest) outs(%init) dimensions = [0] { ... }
//
// tt.scan keeps Triton's order: a loop along the axis applies the combiner
// to the running slice and the next slice (reverse scans walk backwards).
// tt.map_elementwise is a loop over packs of elements running its region.
// tt.dot is linalg.matmul / linalg.batch_matmul accumulating into C
// (tt.dot_scaled: DotScaledPatterns.cpp).
//
//===----------------------------------------------------------------------===//

#include "FloatConversions.h"
#include "MemoryAccess.h"
#include "Shapes.h"
#include "refcpu/Analysis/InPlaceReads.h"
#include "refcpu/Analysis/TrimmedK.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace refcpu;

namespace {

/// Clones the combiner `region` at the builder's position with its 2N block
/// arguments bound to `lhs` then `rhs`, and returns the N returned values.
SmallVector<Value> inlineCombiner(OpBuilder &b, Region &region, ValueRange lhs,
                                  ValueRange rhs) {
  Block &block = region.front();
  IRMapping mapping;
  unsigned n = lhs.size();
  for (unsigned i = 0; i < n; ++i) {
    mapping.map(block.getArgument(i), lhs[i]);
    mapping.map(block.getArgument(n + i), rhs[i]);
  }
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(v));
  return results;
}

/// Folds `srcs` along `axis` with the combiner of `op`: element 0 is the
/// initial accumulator, the rest is reduced into it.
SmallVector<Value> foldAlong(OpBuilder &b, Location loc, triton::ReduceOp op,
                             ValueRange srcs, int64_t axis) {
  int64_t extent = cast<RankedTensorType>(srcs[0].getType()).getDimSize(axis);
  SmallVector<Value> inits, rest;
  for (Value src : srcs) {
    inits.push_back(sliceAlong(b, loc, src, axis, b.getIndexAttr(0), 1, true));
    if (extent > 1)
      rest.push_back(
          sliceAlong(b, loc, src, axis, b.getIndexAttr(1), extent - 1, false));
  }
  if (extent == 1)
    return inits;
  unsigned n = srcs.size();
  auto reduce = linalg::ReduceOp::create(
      b, loc, rest, inits, ArrayRef<int64_t>{axis},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        // linalg passes (inputs..., accumulators...); the combiner takes
        // the accumulator as its left operands.
        SmallVector<Value> combined = inlineCombiner(
            b, op.getCombineOp(), args.drop_front(n), args.take_front(n));
        linalg::YieldOp::create(b, loc, combined);
      });
  return reduce.getResults();
}

/// The number of partial results a long reduction of `extent` elements
/// keeps: four vector registers of the widest element when the axis is long
/// enough, so that four independent chains of vector ops hide the latency
/// of each, else one register; 1 (no partial results) for a short axis.
int64_t partialCount(ValueRange srcs, int64_t extent) {
  unsigned widest = 8;
  for (Value src : srcs)
    widest = std::max<unsigned>(
        widest, cast<RankedTensorType>(src.getType()).getElementTypeBitWidth());
  int64_t lanes = std::max<int64_t>(1, 512 / widest);
  for (int64_t count : {4 * lanes, lanes})
    if (extent >= 4 * count && extent % count == 0)
      return count;
  return 1;
}

struct ReduceConversion : OpConversionPattern<triton::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getAxis();
    SmallVector<Value> srcs(adaptor.getSrcs());
    auto type = cast<RankedTensorType>(srcs[0].getType());
    int64_t extent = type.getDimSize(axis);
    // A long axis is first folded into `lanes` independent partial results
    // (x[i * lanes + v] into partial v): the loop over v vectorizes, where a
    // single accumulator would serialize every step on its latency. Triton
    // treats combiners as associative and commutative, as the GPU's tree
    // reduction does.
    int64_t lanes = partialCount(srcs, extent);
    if (lanes > 1) {
      SmallVector<int64_t> shape(type.getShape());
      shape[axis] = extent / lanes;
      shape.insert(shape.begin() + axis + 1, lanes);
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (d == axis)
          groups.push_back({d, d + 1});
        else
          groups.push_back({d < axis ? d : d + 1});
      }
      for (Value &src : srcs)
        src = tensor::ExpandShapeOp::create(
            rewriter, loc,
            RankedTensorType::get(
                shape, cast<RankedTensorType>(src.getType()).getElementType()),
            src, groups);
      srcs = foldAlong(rewriter, loc, op, srcs, axis);
    }
    SmallVector<Value> results = foldAlong(rewriter, loc, op, srcs, axis);
    for (auto [i, result] : llvm::enumerate(results))
      if (!isa<RankedTensorType>(op->getResult(i).getType()))
        result = tensor::ExtractOp::create(rewriter, loc, result, ValueRange{});
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// `op`'s scan of `srcs` along `axis`, a loop along the axis:
/// out[0] = x[0], out[i] = combine(out[i-1], x[i]); reversed when `reverse`.
SmallVector<Value> scanAlong(OpBuilder &rewriter, Location loc,
                             triton::ScanOp op, ValueRange srcs, int64_t axis,
                             bool reverse) {
  auto type = cast<RankedTensorType>(srcs[0].getType());
  int64_t extent = type.getDimSize(axis);
  unsigned n = srcs.size();
  int64_t rank = type.getRank();

  // The first element along the axis is copied as is; the sources are the
  // initial outputs, so only positions 1..extent-1 are rewritten.
  Value lb = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value ub = arith::ConstantIndexOp::create(rewriter, loc, extent);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value last = arith::ConstantIndexOp::create(rewriter, loc, extent - 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, lb, ub, step, srcs,
      [&](OpBuilder &b, Location loc, Value iv, ValueRange outs) {
        Value pos = iv, prev = arith::SubIOp::create(b, loc, iv, step);
        if (reverse) {
          pos = arith::SubIOp::create(b, loc, last, iv);
          prev = arith::AddIOp::create(b, loc, pos, step);
        }
        SmallVector<Value> accs, xs;
        for (unsigned i = 0; i < n; ++i) {
          accs.push_back(sliceAlong(b, loc, outs[i], axis, prev, 1, true));
          xs.push_back(sliceAlong(b, loc, srcs[i], axis, pos, 1, true));
        }
        SmallVector<Value> combined;
        if (rank == 1) {
          SmallVector<Value> accScalars, xScalars;
          for (unsigned i = 0; i < n; ++i) {
            accScalars.push_back(tensor::ExtractOp::create(b, loc, accs[i], ValueRange{}));
            xScalars.push_back(tensor::ExtractOp::create(b, loc, xs[i], ValueRange{}));
          }
          for (Value v : inlineCombiner(b, op.getCombineOp(), accScalars, xScalars))
            combined.push_back(tensor::FromElementsOp::create(
                b, loc, RankedTensorType::get({}, v.getType()), v));
        } else {
          SmallVector<Value> inits;
          for (unsigned i = 0; i < n; ++i)
            inits.push_back(tensor::EmptyOp::create(
                b, loc, cast<RankedTensorType>(accs[i].getType()).getShape(),
                cast<RankedTensorType>(accs[i].getType()).getElementType()));
          SmallVector<Value> inputs(accs);
          inputs.append(xs);
          auto map = b.getMultiDimIdentityMap(rank - 1);
          auto generic = linalg::GenericOp::create(
              b, loc, TypeRange(ValueRange(inits)), inputs, inits,
              SmallVector<AffineMap>(inputs.size() + inits.size(), map),
              SmallVector<utils::IteratorType>(rank - 1,
                                               utils::IteratorType::parallel),
              [&](OpBuilder &b, Location loc, ValueRange args) {
                linalg::YieldOp::create(
                    b, loc,
                    inlineCombiner(b, op.getCombineOp(), args.take_front(n),
                                   args.slice(n, n)));
              });
          combined = generic.getResults();
        }
        SmallVector<Value> next;
        for (unsigned i = 0; i < n; ++i)
          next.push_back(insertAlong(b, loc, combined[i], outs[i], axis, pos));
        scf::YieldOp::create(b, loc, next);
      });
  return loop.getResults();
}

/// The number of chunks a forward scan of `extent` elements is split into.
/// One chain of combiner ops along the axis runs at the latency of each op
/// (a float add: 4 cycles per element); `kScanChunks` chunks scanned side by
/// side in one loop are independent chains, and fixing each chunk up with
/// the total of those before it is elementwise work that vectorizes.
constexpr int64_t kScanChunks = 8;

/// Scans `srcs` (as scanAlong, forward) as kScanChunks chunks along `axis`
/// side by side, then combines the last element of each fixed chunk into
/// every element of the next. Triton treats the combiner as associative, as
/// the GPU's tree scan does.
SmallVector<Value> scanInChunks(OpBuilder &b, Location loc, triton::ScanOp op,
                                ValueRange srcs, int64_t axis) {
  auto type = cast<RankedTensorType>(srcs[0].getType());
  int64_t rank = type.getRank();
  int64_t chunk = type.getDimSize(axis) / kScanChunks;
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = kScanChunks;
  shape.insert(shape.begin() + axis + 1, chunk);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d)
    groups.push_back(d < axis ? ReassociationIndices{d}
                     : d == axis ? ReassociationIndices{d, d + 1}
                                 : ReassociationIndices{d + 1});
  SmallVector<Value> chunked;
  for (Value src : srcs)
    chunked.push_back(tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get(shape,
                              cast<RankedTensorType>(src.getType()).getElementType()),
        src, groups));
  SmallVector<Value> scanned = scanAlong(b, loc, op, chunked, axis + 1, false);

  unsigned n = srcs.size();
  // A chunk has the source's rank; its carry (the total of everything
  // before it) lacks the axis and is broadcast along it.
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap dropAxis = identity.dropResult(axis);
  SmallVector<AffineMap> maps(n, dropAxis);
  maps.append(2 * n, identity);
  SmallVector<utils::IteratorType> parallel(rank, utils::IteratorType::parallel);
  SmallVector<Value> previous;
  for (Value v : scanned)
    previous.push_back(sliceAlong(b, loc, v, axis, b.getIndexAttr(0), 1, true));
  for (int64_t k = 1; k < kScanChunks; ++k) {
    SmallVector<Value> inputs, inits;
    for (Value fixed : previous)
      inputs.push_back(
          sliceAlong(b, loc, fixed, axis, b.getIndexAttr(chunk - 1), 1, true));
    for (Value v : scanned) {
      Value part = sliceAlong(b, loc, v, axis, b.getIndexAttr(k), 1, true);
      inputs.push_back(part);
      auto partType = cast<RankedTensorType>(part.getType());
      inits.push_back(tensor::EmptyOp::create(b, loc, partType.getShape(),
                                              partType.getElementType()));
    }
    auto fix = linalg::GenericOp::create(
        b, loc, TypeRange(ValueRange(inits)), inputs, inits, maps, parallel,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc,
                                  inlineCombiner(b, op.getCombineOp(),
                                                 args.take_front(n),
                                                 args.slice(n, n)));
        });
    previous.assign(fix.getResults().begin(), fix.getResults().end());
    for (unsigned i = 0; i < n; ++i)
      scanned[i] = insertAlong(b, loc, previous[i], scanned[i], axis,
                               b.getIndexAttr(k));
  }
  SmallVector<Value> results;
  for (auto [v, src] : llvm::zip(scanned, srcs))
    results.push_back(tensor::CollapseShapeOp::create(b, loc, src.getType(), v, groups));
  return results;
}

struct ScanConversion : OpConversionPattern<triton::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t axis = op.getAxis();
    SmallVector<Value> srcs(adaptor.getSrcs());
    int64_t extent = cast<RankedTensorType>(srcs[0].getType()).getDimSize(axis);
    // Chunks of at least 16 elements: shorter scans gain nothing.
    bool chunked = !op.getReverse() && extent >= 16 * kScanChunks &&
                   extent % kScanChunks == 0;
    rewriter.replaceOp(
        op, chunked ? scanInChunks(rewriter, op.getLoc(), op, srcs, axis)
                    : scanAlong(rewriter, op.getLoc(), op, srcs, axis,
                                op.getReverse()));
    return success();
  }
};

/// tt.map_elementwise: a loop over packs of `pack` consecutive row-major
/// elements; the region takes the pack's elements operand-major and returns
/// them result-major.
/// Runs the scalar region of a tt.map_elementwise on `args` at the builder's
/// position and returns what it returns. A single block is inlined; a region
/// with several blocks (early `return`s in the mapped function) becomes an
/// scf.execute_region, whose branches lift-cf-to-scf turns into scf.if.
SmallVector<Value> inlineScalarRegion(RewriterBase &b, Location loc, Region &region,
                                      ValueRange args) {
  if (region.hasOneBlock()) {
    IRMapping mapping;
    for (auto [arg, value] : llvm::zip(region.getArguments(), args))
      mapping.map(arg, value);
    Block &body = region.front();
    for (Operation &inner : body.without_terminator())
      b.clone(inner, mapping);
    return llvm::map_to_vector(body.getTerminator()->getOperands(), [&](Value v) {
      return mapping.lookupOrDefault(v);
    });
  }
  TypeRange types = region.front().getTerminator()->getOperandTypes();
  for (Block &block : region)
    if (isa<triton::MapElementwiseReturnOp>(block.getTerminator()))
      types = block.getTerminator()->getOperandTypes();
  auto exec = scf::ExecuteRegionOp::create(b, loc, types);
  // The entry block of an execute_region takes no arguments: the region's
  // own entry is reached by a branch carrying the lane values.
  IRMapping mapping;
  b.cloneRegionBefore(region, exec.getRegion(), exec.getRegion().end(), mapping);
  Block *clonedEntry = mapping.lookup(&region.front());
  b.createBlock(&exec.getRegion(), exec.getRegion().begin());
  cf::BranchOp::create(b, loc, clonedEntry, args);
  SmallVector<Operation *> returns;
  for (Block &block : exec.getRegion())
    if (isa<triton::MapElementwiseReturnOp>(block.getTerminator()))
      returns.push_back(block.getTerminator());
  for (Operation *terminator : returns) {
    b.setInsertionPoint(terminator);
    scf::YieldOp::create(b, loc, terminator->getOperands());
    b.eraseOp(terminator);
  }
  b.setInsertionPointAfter(exec);
  return SmallVector<Value>(exec.getResults());
}

struct MapElementwiseConversion
    : OpConversionPattern<triton::MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::MapElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Region &region = op.getScalarOp();
    Location loc = op.getLoc();
    int64_t pack = op.getPack();
    auto shape = cast<RankedTensorType>(op->getResult(0).getType()).getShape();
    int64_t numel = ShapedType::getNumElements(shape);
    SmallVector<Value> srcs, inits;
    for (Value src : adaptor.getSrcs()) {
      auto type = cast<RankedTensorType>(src.getType());
      srcs.push_back(reshapeRowMajor(rewriter, loc, src,
                                     RankedTensorType::get({numel}, type.getElementType())));
    }
    for (Type type : op->getResultTypes())
      inits.push_back(tensor::EmptyOp::create(
          rewriter, loc, ArrayRef<int64_t>{numel},
          cast<RankedTensorType>(type).getElementType()));
    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value ub = arith::ConstantIndexOp::create(rewriter, loc, numel);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, pack);
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, ub, step, inits,
        [&](OpBuilder &b, Location loc, Value iv, ValueRange accs) {
          SmallVector<Value> positions;
          for (int64_t j = 0; j < pack; ++j)
            positions.push_back(arith::AddIOp::create(
                b, loc, iv, arith::ConstantIndexOp::create(b, loc, j)));
          SmallVector<Value> lanes;
          for (Value src : srcs)
            for (Value pos : positions)
              lanes.push_back(tensor::ExtractOp::create(b, loc, src, pos));
          // `b` is the rewriter itself (scf.for builds its body with it).
          SmallVector<Value> values = inlineScalarRegion(rewriter, loc, region, lanes);
          SmallVector<Value> next;
          for (auto [r, acc] : llvm::enumerate(accs)) {
            Value updated = acc;
            for (auto [j, pos] : llvm::enumerate(positions))
              updated = tensor::InsertOp::create(b, loc, values[r * pack + j],
                                                 updated, pos);
            next.push_back(updated);
          }
          scf::YieldOp::create(b, loc, next);
        });
    SmallVector<Value> results;
    for (auto [result, type] : llvm::zip(loop.getResults(), op->getResultTypes()))
      results.push_back(reshapeRowMajor(rewriter, loc, result,
                                        cast<RankedTensorType>(type)));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// min(max(`bound`, 0), `size`) as an index: the lanes below a bound.
OpFoldResult lanesBelow(ConversionPatternRewriter &rewriter, Location loc,
                        const pointer_analysis::Expr *bound, int64_t size) {
  Value hi = clampLane(rewriter, loc, emitScalarExpr(rewriter, loc, bound),
                       arith::ConstantIntOp::create(rewriter, loc, 0, 64),
                       arith::ConstantIntOp::create(rewriter, loc, size, 64));
  return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), hi)
      .getResult();
}

/// The lanes of `op`'s product to compute (refcpu/Analysis/TrimmedK.h),
/// null where all: `k`, the lanes of K below the bound its operands' loads
/// share (both carry kUnreadPastBoundAttr: past it both are zero, each lane
/// would add 0 * 0, and the loads did not pad it), and `result`, per
/// dimension of the result, the lanes below the bounds of the store that
/// keeps them (kKeptByStoreAttr: no other lane is ever stored); both bounds
/// as recorded in `laneBounds`.
struct ProductLanes {
  OpFoldResult k;
  SmallVector<OpFoldResult> result;
};

FailureOr<ProductLanes> productLanes(triton::DotOp op,
                                     const DotLaneBounds &laneBounds,
                                     ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> shape = op.getType().getShape();
  ProductLanes lanes;
  lanes.result.resize(shape.size());
  auto a = op.getA().getDefiningOp<triton::LoadOp>();
  auto b = op.getB().getDefiningOp<triton::LoadOp>();
  auto unreadA =
      a ? a->getAttrOfType<ArrayAttr>(kUnreadPastBoundAttr) : nullptr;
  auto unreadB =
      b ? b->getAttrOfType<ArrayAttr>(kUnreadPastBoundAttr) : nullptr;
  if (unreadA && unreadB) {
    const pointer_analysis::Expr *bound =
        laneBounds.lookupTrimmedK(cast<IntegerAttr>(unreadA[1]).getInt());
    if (!bound || unreadA[1] != unreadB[1])
      return op.emitOpError("lost the K bound of its operands' masks");
    lanes.k =
        lanesBelow(rewriter, loc, bound, op.getA().getType().getShape().back());
  }
  if (auto id = op->getAttrOfType<IntegerAttr>(kKeptByStoreAttr)) {
    ArrayRef<const pointer_analysis::Expr *> bounds =
        laneBounds.lookupKept(id.getInt());
    if (bounds.size() != shape.size())
      return op.emitOpError("lost the store that keeps its result");
    for (auto [d, bound] : llvm::enumerate(bounds))
      if (bound)
        lanes.result[d] = lanesBelow(rewriter, loc, bound, shape[d]);
  }
  return lanes;
}

/// `value` cut to `sizes` from its origin, null sizes whole: itself when
/// all are null.
Value sliceTo(ConversionPatternRewriter &rewriter, Location loc, Value value,
              ArrayRef<OpFoldResult> sizes) {
  if (llvm::all_of(sizes, [](OpFoldResult size) { return !size; }))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> whole =
      getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());
  for (auto [size, full] : llvm::zip(sizes, whole))
    if (size)
      full = size;
  SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(rewriter, loc, value, offsets, whole,
                                        strides);
}

struct DotConversion : OpConversionPattern<triton::DotOp> {
  DotConversion(const TypeConverter &converter, MLIRContext *context,
                const DotLaneBounds &laneBounds)
      : OpConversionPattern(converter, context), laneBounds(laneBounds) {}

  LogicalResult
  matchAndRewrite(triton::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto cType = cast<RankedTensorType>(adaptor.getC().getType());
    // A 16-bit float accumulator is what Triton gives a dot with
    // out_dtype=float16. The GPU's MMA units add the products at higher
    // precision and round to 16 bits per instruction, not per product:
    // the CPU accumulates in f32 and rounds once, at the end.
    bool narrowAccumulator =
        isa<FloatType>(cType.getElementType()) && cType.getElementTypeBitWidth() < 32;
    auto widen = [&](Value value) -> FailureOr<Value> {
      auto type = cast<RankedTensorType>(value.getType());
      return convertFloat(rewriter, loc, value, type.clone(rewriter.getF32Type()),
                          /*towardZero=*/false);
    };
    SmallVector<Value> inputs{adaptor.getA(), adaptor.getB()};
    // fp8 operands are widened exactly to f32 (LLVM has no fp8 arithmetic).
    for (Value &input : inputs) {
      auto type = cast<RankedTensorType>(input.getType());
      if (!isa<FloatType>(type.getElementType()) ||
          (type.getElementTypeBitWidth() != 8 && !narrowAccumulator))
        continue;
      FailureOr<Value> wide = widen(input);
      if (failed(wide))
        return op.emitOpError("operand type ") << type << " is not supported";
      input = *wide;
    }
    Value acc = adaptor.getC();
    if (narrowAccumulator) {
      FailureOr<Value> wide = widen(acc);
      if (failed(wide))
        return op.emitOpError("accumulator type ") << cType << " is not supported";
      acc = *wide;
    }
    FailureOr<ProductLanes> lanes = productLanes(op, laneBounds, rewriter);
    if (failed(lanes))
      return failure();
    // A: [batch,] M, K; B: [batch,] K, N; C: [batch,] M, N.
    ArrayRef<OpFoldResult> kept = lanes->result;
    SmallVector<OpFoldResult> aLanes(kept.drop_back()), bLanes(kept);
    aLanes.push_back(lanes->k);
    bLanes[bLanes.size() - 2] = lanes->k;
    inputs[0] = sliceTo(rewriter, loc, inputs[0], aLanes);
    inputs[1] = sliceTo(rewriter, loc, inputs[1], bLanes);
    Value wholeAcc = acc;
    acc = sliceTo(rewriter, loc, acc, kept);
    Operation *product;
    if (op.getType().getRank() == 3)
      product = linalg::BatchMatmulOp::create(rewriter, loc, inputs, acc);
    else
      product = linalg::MatmulOp::create(rewriter, loc, inputs, acc);
    if (op->hasAttr(kSharedOperandsAttr))
      product->setAttr(kSharedOperandsAttr, rewriter.getUnitAttr());
    Value result = product->getResult(0);
    if (acc != wholeAcc) {
      auto sliced = acc.getDefiningOp<tensor::ExtractSliceOp>();
      result = tensor::InsertSliceOp::create(
          rewriter, loc, result, wholeAcc, sliced.getMixedOffsets(),
          sliced.getMixedSizes(), sliced.getMixedStrides());
    }
    if (narrowAccumulator) {
      FailureOr<Value> narrow =
          convertFloat(rewriter, loc, result, cType, /*towardZero=*/false);
      if (failed(narrow))
        return op.emitOpError("accumulator type ") << cType << " is not supported";
      result = *narrow;
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  const DotLaneBounds &laneBounds;
};

} // namespace

void refcpu::populateReductionConversionPatterns(
    const TritonTypeConverter &converter, const DotLaneBounds &laneBounds,
    RewritePatternSet &patterns) {
  patterns.add<ReduceConversion, ScanConversion, MapElementwiseConversion>(
      converter, patterns.getContext());
  patterns.add<DotConversion>(converter, patterns.getContext(), laneBounds);
}
