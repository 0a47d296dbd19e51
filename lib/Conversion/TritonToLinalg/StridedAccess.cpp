//===- StridedAccess.cpp - loads and stores of strided blocks -------------===//
//
// The structured memory path. A block whose elements sit at
//
//   base + sum_d i_d * strides[d]        (in elements)
//
// and that is accessed where lo[d] <= i_d < hi[d] is read and written through
// a strided memref view of the memory, so the copy is a plain loop nest that
// LLVM vectorizes, instead of one masked access per lane:
//
//   %view = memref.reinterpret_cast (address as memref<T>) to
//             memref<16x32xT, strided<[?, 1]>>
//   load:  memref.alloc, linalg.fill(other) when the block is partly out of
//          bounds, linalg.copy of the in-bounds subview, then
//          bufferization.to_tensor of the copy
//   store: linalg.copy of the in-bounds slice of the value into the subview
//
// A load copies at its program point: the tensor it yields must not change
// when the kernel later stores to the same memory through llvm.store, which
// bufferization cannot see. A load that nothing can overwrite before its last
// use (refcpu/Analysis/InPlaceReads.h; the conversion marks it) copies only a
// partial block; a block wholly in bounds is read through the view.
//
// MLIR's memref lowering computes element offsets with nuw arithmetic, which a
// negative stride would violate. Strides known only at run time are checked:
// when one is negative the access takes the general per-lane path instead.
// So does a block whose description holds only under a run-time condition
// (`exactIf`) that fails; it then runs the access as the kernel wrote it.
// A load whose condition failed because an index taken `% m` wrapped (rows of
// Triton's tutorial matmul in its last programs) is copied instead by the
// runtime (refcpu_rt_copy_wrapped), in pieces along the wrapped dimension,
// each piece a strided block of its own.
//
//===----------------------------------------------------------------------===//

#include "MemoryAccess.h"
#include "refcpu/Transforms/ColdLoops.h"
#include "refcpu/kernel_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace refcpu;

namespace {

Value i64Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

Value toIndex(OpBuilder &b, Location loc, Value value) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

/// The in-bounds box of a block, clamped to the block: offsets and sizes per
/// dimension (index values), whether any dimension is bounded at all, and
/// whether the box misses part of the block (i1, when bounded).
struct Box {
  SmallVector<OpFoldResult> offsets, sizes, unitStrides;
  bool bounded = false;
  /// Whether the box misses part of the block; null when it cannot.
  Value partial;
  /// Whether it misses lanes that a consumer reads (all but those past the
  /// block's unreadPastHi bounds); null when it cannot.
  Value readPartial;
};

Box clampedBox(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
               const StridedBlock &block) {
  Box box;
  Value zero = i64Constant(b, loc, 0);
  for (auto [d, size] : llvm::enumerate(shape)) {
    box.unitStrides.push_back(b.getIndexAttr(1));
    if (!block.lo[d] && !block.hi[d]) {
      box.offsets.push_back(b.getIndexAttr(0));
      box.sizes.push_back(b.getIndexAttr(size));
      continue;
    }
    box.bounded = true;
    Value end = i64Constant(b, loc, size);
    Value lo = block.lo[d] ? clampLane(b, loc, block.lo[d], zero, end) : zero;
    Value hi = block.hi[d] ? clampLane(b, loc, block.hi[d], lo, end) : end;
    Value extent = arith::SubIOp::create(b, loc, hi, lo);
    Value cut =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, extent, end);
    auto orCut = [&](Value partial) -> Value {
      return partial ? arith::OrIOp::create(b, loc, partial, cut).getResult()
                     : cut;
    };
    box.partial = orCut(box.partial);
    if (!block.isUnreadPastHi(d))
      box.readPartial = orCut(box.readPartial);
    box.offsets.push_back(toIndex(b, loc, lo));
    box.sizes.push_back(toIndex(b, loc, extent));
  }
  return box;
}

/// The memref `base` (an i64 address) points to, viewed as `shape` with
/// `strides`. Constant strides become part of the type, so a unit innermost
/// stride is a contiguous copy.
Value makeView(OpBuilder &b, Location loc, Type elementType,
               ArrayRef<int64_t> shape, const StridedBlock &block) {
  MLIRContext *ctx = b.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  // The descriptor of a rank-0 memref is {allocated, aligned, offset}; the
  // cast is reconciled with its inverse once memrefs lower to LLVM.
  auto descType =
      LLVM::LLVMStructType::getLiteral(ctx, {ptrType, ptrType, b.getI64Type()});
  Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrType, block.base);
  Value desc = LLVM::PoisonOp::create(b, loc, descType);
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, ArrayRef<int64_t>{1});
  desc = LLVM::InsertValueOp::create(b, loc, desc, i64Constant(b, loc, 0),
                                     ArrayRef<int64_t>{2});
  Value scalar = UnrealizedConversionCastOp::create(
                     b, loc, MemRefType::get({}, elementType), desc)
                     .getResult(0);

  SmallVector<int64_t> staticStrides;
  SmallVector<OpFoldResult> strides;
  for (auto [d, size] : llvm::enumerate(shape)) {
    std::optional<int64_t> known = getConstantIntValue(block.strides[d]);
    if (size == 1)
      known = 0;
    if (known) {
      staticStrides.push_back(*known);
      strides.push_back(b.getIndexAttr(*known));
    } else {
      staticStrides.push_back(ShapedType::kDynamic);
      strides.push_back(toIndex(b, loc, block.strides[d]));
    }
  }
  auto viewType = MemRefType::get(
      shape, elementType, StridedLayoutAttr::get(ctx, 0, staticStrides));
  SmallVector<OpFoldResult> sizes;
  for (int64_t size : shape)
    sizes.push_back(b.getIndexAttr(size));
  return memref::ReinterpretCastOp::create(b, loc, viewType, scalar,
                                           b.getIndexAttr(0), sizes, strides);
}

Value andOf(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x || !y)
    return x ? x : y;
  return arith::AndIOp::create(b, loc, x, y);
}


/// Whether a view may describe the block: the element type has an LLVM
/// equivalent of its memory size and no stride is known to be negative.
/// Returns through `guard` the run-time condition for the view (null when
/// none is needed): no stride is negative.
bool canView(OpBuilder &b, Location loc, Type elementType,
             ArrayRef<int64_t> shape, const StridedBlock &block, Value &guard) {
  // i1 is excluded: a vectorized copy of it would move packed bits, while
  // each element occupies a byte in memory.
  if (!LLVM::isCompatibleType(elementType) ||
      isa<LLVM::LLVMPointerType>(elementType) || elementType.isInteger(1))
    return false;
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (size == 1)
      continue;
    if (std::optional<int64_t> known = getConstantIntValue(block.strides[d])) {
      if (*known < 0)
        return false;
      continue;
    }
    guard =
        andOf(b, loc, guard,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                    block.strides[d], i64Constant(b, loc, 0)));
  }
  return true;
}

/// Marks the memory accesses of `fallback`, the block of a per-lane access
/// that runs only when the run-time check of its strided view fails, for
/// refcpu-cold-loops.
void markCold(Block *fallback) {
  fallback->walk([](Operation *op) {
    if (isa<LLVM::LoadOp, LLVM::StoreOp>(op))
      op->setAttr(kColdAttr, UnitAttr::get(op->getContext()));
  });
}

Value laneLoad(OpBuilder &b, Location loc, RankedTensorType type,
               const StridedBlock &block, Value padding, bool isVolatile) {
  auto [addresses, inBounds] = stridedAddresses(b, loc, type, block);
  Value other;
  if (inBounds && padding) {
    Value empty =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    other = linalg::FillOp::create(b, loc, padding, empty).getResult(0);
  }
  return emitLoads(b, loc, type, addresses, inBounds, other, isVolatile);
}

Value allocBlock(OpBuilder &b, Location loc, RankedTensorType type) {
  return memref::AllocOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()));
}

/// Fills `buffer` with `padding` (zero when null) where `box` misses part of
/// the block: only a block that is partly out of bounds needs padding.
void padPartialBlock(OpBuilder &b, Location loc, Value buffer, const Box &box,
                     Value padding) {
  if (!box.bounded)
    return;
  if (!padding) {
    Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
    padding = arith::ConstantOp::create(b, loc, elementType,
                                        b.getZeroAttr(elementType));
  }
  scf::IfOp::create(b, loc, box.partial, [&](OpBuilder &b, Location loc) {
    linalg::FillOp::create(b, loc, padding, buffer);
    scf::YieldOp::create(b, loc);
  });
}

/// The declaration of `name`, a block copy of kernel_abi.h taking two
/// pointers and `i64Args` i64s, in the module around `b`'s insertion point;
/// fails only where the kernel defines a function of that name itself.
FailureOr<LLVM::LLVMFuncOp> declareBlockCopy(OpBuilder &b, StringRef name,
                                             unsigned i64Args) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  SmallVector<Type> argTypes{ptrType, ptrType};
  argTypes.append(i64Args, b.getI64Type());
  return LLVM::lookupOrCreateFn(
      b, b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>(),
      name, argTypes, LLVM::LLVMVoidType::get(b.getContext()));
}

/// The arguments that REFCPU_RT_COPY_BOX and REFCPU_RT_COPY_WRAPPED share
/// for `block` copied into `buffer`, its shape taken as `rank` dimensions
/// (leading unit ones added): dst, src, element size, then per dimension the
/// sizes, the strides, and the bounds (lo, hi; unclamped: the runtime clamps
/// them).
SmallVector<Value> blockCopyArgs(OpBuilder &b, Location loc,
                                 RankedTensorType type,
                                 const StridedBlock &block, Value buffer,
                                 int64_t rank) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  int64_t unitDims = rank - type.getRank();
  assert(unitDims >= 0 && "block of a higher rank than the copy");
  Value zero = i64Constant(b, loc, 0), one = i64Constant(b, loc, 1);
  SmallVector<Value> sizes(unitDims, one), strides(unitDims, zero), bounds;
  for (int64_t i = 0; i < unitDims; ++i)
    bounds.append({zero, one});
  for (auto [i, size] : llvm::enumerate(type.getShape())) {
    sizes.push_back(i64Constant(b, loc, size));
    strides.push_back(block.strides[i]);
    bounds.push_back(block.lo[i] ? block.lo[i] : zero);
    bounds.push_back(block.hi[i] ? block.hi[i] : sizes.back());
  }
  int64_t elementSize = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  Value bufferAddress = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
  SmallVector<Value> args{
      LLVM::IntToPtrOp::create(b, loc, ptrType, bufferAddress),
      LLVM::IntToPtrOp::create(b, loc, ptrType, block.base),
      i64Constant(b, loc, elementSize)};
  llvm::append_range(args, sizes);
  llvm::append_range(args, strides);
  llvm::append_range(args, bounds);
  return args;
}

/// `padding` (zero when null) as the i64 that REFCPU_RT_COPY_BOX and
/// REFCPU_RT_COPY_WRAPPED write the low bytes of.
Value paddingBits(OpBuilder &b, Location loc, Type elementType, Value padding) {
  unsigned width = elementType.getIntOrFloatBitWidth();
  if (!padding)
    return i64Constant(b, loc, 0);
  Value bits = padding;
  if (isa<FloatType>(elementType))
    bits = arith::BitcastOp::create(b, loc, b.getIntegerType(width), bits);
  if (width < 64)
    bits = arith::ExtUIOp::create(b, loc, b.getI64Type(), bits);
  return bits;
}

/// The rank of the blocks that REFCPU_RT_COPY_BOX copies.
constexpr int64_t kCopyBoxRank = 3;

/// REFCPU_RT_COPY_BOX, declared for a load of `block` that it can copy
/// (rank 1 to 3, bounded, elements of at most 64 bits); null otherwise.
/// Declared before the scf.if that the copy goes in is built, since
/// declaring needs the module around the insertion point.
LLVM::LLVMFuncOp declareCopyBox(OpBuilder &b, RankedTensorType type,
                                const StridedBlock &block) {
  bool bounded = llvm::any_of(block.lo, [](Value v) { return v; }) ||
                 llvm::any_of(block.hi, [](Value v) { return v; });
  if (!bounded || type.getRank() > kCopyBoxRank ||
      type.getElementTypeBitWidth() > 64)
    return nullptr;
  FailureOr<LLVM::LLVMFuncOp> copyBox =
      declareBlockCopy(b, REFCPU_RT_COPY_BOX, 4 * kCopyBoxRank + 2);
  return succeeded(copyBox) ? *copyBox : nullptr;
}

/// `buffer` (from allocBlock) holding the in-bounds part (`box`) of `view`,
/// the rest `padding`, as a tensor. With `copyBox` (declareCopyBox), the
/// runtime copies and pads the block in one pass: a call instead of fill
/// and copy loops in the kernel, and each byte of the buffer written once.
/// Otherwise the buffer is filled where the box misses part of the block,
/// then the box copied.
Value copyLoad(OpBuilder &b, Location loc, RankedTensorType type,
               const StridedBlock &block, Value view, Value buffer,
               const Box &box, Value padding, LLVM::LLVMFuncOp copyBox) {
  if (copyBox) {
    SmallVector<Value> args =
        blockCopyArgs(b, loc, type, block, buffer, kCopyBoxRank);
    args.push_back(paddingBits(b, loc, type.getElementType(), padding));
    LLVM::CallOp::create(b, loc, copyBox, args);
  } else {
    Value src = view, dst = buffer;
    padPartialBlock(b, loc, buffer, box, padding);
    if (box.bounded) {
      src = memref::SubViewOp::create(b, loc, view, box.offsets, box.sizes,
                                      box.unitStrides);
      dst = memref::SubViewOp::create(b, loc, buffer, box.offsets, box.sizes,
                                      box.unitStrides);
    }
    linalg::CopyOp::create(b, loc, src, dst);
  }
  return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

Value viewLoad(OpBuilder &b, Location loc, RankedTensorType type,
               const StridedBlock &block, Value padding, bool inPlace,
               LLVM::LLVMFuncOp copyBox) {
  Value buffer = inPlace ? Value() : allocBlock(b, loc, type);
  // The runtime's copy reads the block from its description.
  if (!inPlace && copyBox)
    return copyLoad(b, loc, type, block, Value(), buffer, Box(), padding,
                    copyBox);
  Value view = makeView(b, loc, type.getElementType(), type.getShape(), block);
  Box box = clampedBox(b, loc, type.getShape(), block);
  if (!inPlace)
    return copyLoad(b, loc, type, block, view, buffer, box, padding, copyBox);
  // Not writable: bufferization copies before anything writes into it.
  auto inPlaceRead = [&](OpBuilder &b, Location loc) -> Value {
    return bufferization::ToTensorOp::create(b, loc, type, view,
                                             /*restrict=*/true,
                                             /*writable=*/false);
  };
  if (!box.readPartial)
    return inPlaceRead(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, box.readPartial,
      [&](OpBuilder &b, Location loc) {
        // The copy takes the view's layout type where the two are
        // compatible, so that both branches bufferize to one type;
        // otherwise the result gets a fully dynamic layout, whose unknown
        // unit stride turns every vector access of the block into
        // element-wise gathers.
        Value buffer = allocBlock(b, loc, type);
        if (memref::CastOp::areCastCompatible(buffer.getType(), view.getType()))
          buffer = memref::CastOp::create(b, loc, view.getType(), buffer);
        scf::YieldOp::create(
            b, loc,
            copyLoad(b, loc, type, block, view, buffer, box, padding, copyBox));
      },
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, inPlaceRead(b, loc));
      });
  return ifOp.getResult(0);
}

/// `block`, whose `wrap` made its `exactIf` fail, copied by the runtime
/// (REFCPU_RT_COPY_WRAPPED): the lanes whose index has the same quotient by
/// the modulus are a strided block of their own; it pads the lanes outside
/// the bounds too. One call, so that the edge programs' path adds no copy
/// or fill loops to the kernel: copies generated per piece made the
/// tutorial matmul 40-100 ms slower to compile.
Value wrappedLoad(OpBuilder &b, Location loc, RankedTensorType type,
                  const StridedBlock &block, Value padding,
                  LLVM::LLVMFuncOp copy) {
  const StridedBlock::Wrap &wrap = *block.wrap;
  Value buffer = allocBlock(b, loc, type);
  SmallVector<Value> args =
      blockCopyArgs(b, loc, type, block, buffer, /*rank=*/2);
  // A rank-1 block is one row of the runtime's rows x cols block.
  args.append({i64Constant(b, loc, wrap.dim + 2 - type.getRank()), wrap.index,
               i64Constant(b, loc, wrap.step), wrap.modulus, wrap.scale,
               paddingBits(b, loc, type.getElementType(), padding)});
  LLVM::CallOp::create(b, loc, copy, args);
  return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

void viewStore(OpBuilder &b, Location loc, Value values,
               const StridedBlock &block) {
  auto type = cast<RankedTensorType>(values.getType());
  Value view = makeView(b, loc, type.getElementType(), type.getShape(), block);
  Box box = clampedBox(b, loc, type.getShape(), block);
  Value src = values, dst = view;
  if (box.bounded) {
    src = tensor::ExtractSliceOp::create(b, loc, values, box.offsets, box.sizes,
                                         box.unitStrides);
    dst = memref::SubViewOp::create(b, loc, view, box.offsets, box.sizes,
                                    box.unitStrides);
  }
  auto srcType = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> dynamicStrides(srcType.getRank(), ShapedType::kDynamic);
  auto bufferType = MemRefType::get(
      srcType.getShape(), srcType.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             dynamicStrides));
  Value buffer = bufferization::ToBufferOp::create(b, loc, bufferType, src,
                                                   /*readOnly=*/true);
  linalg::CopyOp::create(b, loc, buffer, dst);
}

} // namespace

Value refcpu::clampLane(OpBuilder &b, Location loc, Value index, Value lo,
                        Value end) {
  return arith::MaxSIOp::create(b, loc,
                                arith::MinSIOp::create(b, loc, index, end), lo);
}

Value refcpu::emitStridedLoad(OpBuilder &b, Location loc, RankedTensorType type,
                              const StridedBlock &block, Value padding,
                              bool isVolatile, bool inPlace,
                              LaneLoadFn original) {
  assert((!block.exactIf || original) && "an inexact block needs its access");
  auto lanes = [&](OpBuilder &b, Location loc, bool isVolatile) {
    if (block.exactIf)
      return original(b, loc);
    return laneLoad(b, loc, type, block, padding, isVolatile);
  };
  Value stridesOk;
  // Volatile loads keep one access per element, as the kernel wrote them.
  if (isVolatile || !canView(b, loc, type.getElementType(), type.getShape(),
                             block, stridesOk))
    return lanes(b, loc, isVolatile);
  LLVM::LLVMFuncOp copyBox = declareCopyBox(b, type, block);
  auto view = [&](OpBuilder &b, Location loc) {
    return viewLoad(b, loc, type, block, padding, inPlace, copyBox);
  };
  auto perLane = [&](OpBuilder &b, Location loc) {
    Value loaded = lanes(b, loc, /*isVolatile=*/false);
    markCold(b.getInsertionBlock());
    return loaded;
  };
  FailureOr<LLVM::LLVMFuncOp> copy = failure();
  if (block.wrap)
    copy = declareBlockCopy(b, REFCPU_RT_COPY_WRAPPED, 15);
  if (failed(copy))
    return ifElse(b, loc, andOf(b, loc, stridesOk, block.exactIf), view,
                  perLane);
  // A wrapped block whose check failed is copied by the runtime, which
  // needs the view's non-negative strides too.
  auto wrapped = [&](OpBuilder &b, Location loc) {
    return ifElse(b, loc, block.exactIf, view, [&](OpBuilder &b, Location loc) {
      return wrappedLoad(b, loc, type, block, padding, *copy);
    });
  };
  return ifElse(b, loc, stridesOk, wrapped, perLane);
}

void refcpu::emitStridedStore(OpBuilder &b, Location loc, Value values,
                              const StridedBlock &block, LaneStoreFn original) {
  assert((!block.exactIf || original) && "an inexact block needs its access");
  auto type = cast<RankedTensorType>(values.getType());
  auto lanes = [&](OpBuilder &b, Location loc) {
    if (block.exactIf)
      return original(b, loc);
    auto [addresses, inBounds] = stridedAddresses(b, loc, type, block);
    emitStores(b, loc, values, addresses, inBounds);
  };
  Value guard;
  if (!canView(b, loc, type.getElementType(), type.getShape(), block, guard))
    return lanes(b, loc);
  guard = andOf(b, loc, guard, block.exactIf);
  if (!guard)
    return viewStore(b, loc, values, block);
  scf::IfOp::create(
      b, loc, guard,
      [&](OpBuilder &b, Location loc) {
        viewStore(b, loc, values, block);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        lanes(b, loc);
        markCold(b.getInsertionBlock());
        scf::YieldOp::create(b, loc);
      });
}

std::pair<Value, Value> refcpu::stridedAddresses(OpBuilder &b, Location loc,
                                                 RankedTensorType type,
                                                 const StridedBlock &block) {
  int64_t rank = type.getRank();
  bool bounded = llvm::any_of(block.lo, [](Value v) { return v; }) ||
                 llvm::any_of(block.hi, [](Value v) { return v; });
  SmallVector<Type> resultTypes{
      RankedTensorType::get(type.getShape(), b.getI64Type())};
  SmallVector<Value> inits{
      tensor::EmptyOp::create(b, loc, type.getShape(), b.getI64Type())};
  if (bounded) {
    resultTypes.push_back(
        RankedTensorType::get(type.getShape(), b.getI1Type()));
    inits.push_back(
        tensor::EmptyOp::create(b, loc, type.getShape(), b.getI1Type()));
  }
  int64_t elementSize = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  SmallVector<AffineMap> maps(inits.size(), b.getMultiDimIdentityMap(rank));
  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, ValueRange{}, inits, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange) {
        Value element = i64Constant(b, loc, 0);
        Value inBounds = arith::ConstantIntOp::create(b, loc, 1, 1);
        for (int64_t d = 0; d < rank; ++d) {
          Value index = arith::IndexCastOp::create(
              b, loc, b.getI64Type(), linalg::IndexOp::create(b, loc, d));
          element = arith::AddIOp::create(
              b, loc, element,
              arith::MulIOp::create(b, loc, index, block.strides[d]));
          if (block.lo[d])
            inBounds = arith::AndIOp::create(
                b, loc, inBounds,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index,
                                      block.lo[d]));
          if (block.hi[d])
            inBounds = arith::AndIOp::create(
                b, loc, inBounds,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index,
                                      block.hi[d]));
        }
        Value bytes = arith::MulIOp::create(b, loc, element,
                                            i64Constant(b, loc, elementSize));
        SmallVector<Value> results{
            arith::AddIOp::create(b, loc, block.base, bytes)};
        if (bounded)
          results.push_back(inBounds);
        linalg::YieldOp::create(b, loc, results);
      });
  return {generic.getResult(0), bounded ? generic.getResult(1) : Value()};
}

Value refcpu::ifElse(OpBuilder &b, Location loc, Value cond, BuildFn then,
                     BuildFn otherwise) {
  if (!cond)
    return then(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, then(b, loc));
      },
      [&](OpBuilder &b, Location loc) {
        scf::YieldOp::create(b, loc, otherwise(b, loc));
      });
  return ifOp.getResult(0);
}
