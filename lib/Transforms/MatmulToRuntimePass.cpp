//===- MatmulToRuntimePass.cpp - the refcpu-matmul-to-runtime pass --------===//
//
// tt.dot becomes linalg.matmul (linalg.batch_matmul in 3-D) on the block.
// Lowered to loops, LLVM vectorizes it only partly: the accumulator goes
// through memory every k step and bf16 is widened element by element. The
// runtime has register-tiled kernels for the host's vector units instead
// (runtime/lib/Matmul.cpp); after bufferization this pass replaces each
// product it has a kernel for by a call, the memrefs cast to the builtin's
// fully dynamic strided type (their descriptors are what the runtime reads):
//
//   linalg.matmul ins(%a, %b : memref<32x32xbf16>, memref<32x32xbf16>)
//                 outs(%c : memref<32x32xf32>)
//     -> %a2 = memref.cast %a : ... to memref<?x?xbf16, strided<[?, ?], offset: ?>>
//        ...
//        func.call @refcpu_rt_matmul_bf16(%a2, %b2, %c2)
//
// A batch product calls it once per batch, on rank-reducing subviews.
//
// A loop's accumulator filled with zeros for its products alone
// (ZeroAccumulators.h) is filled only where needed: a flag in the frame,
// set at the fill, makes the first product that runs store its result
// (REFCPU_RT_ZERO_C) and is cleared after each; a product that writes part
// of the buffer fills it first if the flag is still set, and so does the
// end of the last product's loop, for the case that none ran.
// i8 products (sign-extended, summed in i32) have a kernel too; products of
// other types (f64, i64) keep their loops. fp8 operands were widened to f32
// by the conversion.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

#include "refcpu/Analysis/GlobalViews.h"
#include "refcpu/Analysis/InPlaceReads.h"
#include "refcpu/Analysis/ZeroAccumulators.h"
#include "refcpu/kernel_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseSet.h"

namespace refcpu {
#define GEN_PASS_DEF_MATMULTORUNTIME
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// The builtin that computes C += A * B for these element types, if any.
StringRef getBuiltin(Type a, Type b, Type c) {
  if (a != b)
    return {};
  if (a.isInteger(8) && c.isInteger(32))
    return REFCPU_RT_MATMUL_I8;
  if (!c.isF32())
    return {};
  if (a.isF32())
    return REFCPU_RT_MATMUL_F32;
  if (a.isBF16())
    return REFCPU_RT_MATMUL_BF16;
  if (a.isF16())
    return REFCPU_RT_MATMUL_F16;
  return {};
}

/// memref<?x...x?xT, strided<[?, ...], offset: ?>> of `rank`.
MemRefType getDynamicType(Type element, int64_t rank) {
  SmallVector<int64_t> dynamic(rank, ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(element.getContext(),
                                       ShapedType::kDynamic, dynamic);
  return MemRefType::get(dynamic, element, layout);
}

/// The declaration of `name`, added to the module on first use.
func::FuncOp getDeclaration(ModuleOp module, StringRef name,
                            TypeRange params) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name,
                                   builder.getFunctionType(params, {}));
  decl.setPrivate();
  return decl;
}

/// Whether `memref` is a view of global memory (what the kernel's pointers
/// address) rather than a buffer of the program: true or false where that is
/// known here, else an i1 that `memref`'s producer (an scf.if choosing
/// between a view and a copy) was extended to yield. Memrefs of global
/// memory are the ones the conversion builds from LLVM pointers; buffers
/// come from alloc/alloca. Anything else counts as not global.
OpFoldResult isGlobalView(Value memref) {
  MLIRContext *context = memref.getContext();
  auto known = [&](bool value) -> OpFoldResult {
    return BoolAttr::get(context, value);
  };
  memref = refcpu::getViewRoot(memref);
  if (refcpu::isGlobalMemory(memref))
    return known(true);
  auto ifOp = memref.getDefiningOp<scf::IfOp>();
  if (!ifOp || !ifOp.elseBlock())
    return known(false);
  unsigned index = cast<OpResult>(memref).getResultNumber();
  OpFoldResult branches[2] = {isGlobalView(ifOp.thenYield().getOperand(index)),
                              isGlobalView(ifOp.elseYield().getOperand(index))};
  std::optional<int64_t> first = getConstantIntValue(branches[0]);
  if (first && first == getConstantIntValue(branches[1]))
    return branches[0];
  // Each branch yields its answer as one more result of the scf.if.
  OpBuilder builder(ifOp);
  scf::YieldOp yields[2] = {ifOp.thenYield(), ifOp.elseYield()};
  for (int i = 0; i < 2; ++i) {
    Value flag = dyn_cast<Value>(branches[i]);
    if (!flag) {
      builder.setInsertionPoint(yields[i]);
      flag = arith::ConstantIntOp::create(
          builder, yields[i].getLoc(), *getConstantIntValue(branches[i]), 1);
    }
    yields[i].getResultsMutable().append(flag);
  }
  builder.setInsertionPoint(ifOp);
  SmallVector<Type> types(ifOp.getResultTypes());
  types.push_back(builder.getI1Type());
  auto extended = scf::IfOp::create(builder, ifOp.getLoc(), types,
                                    ifOp.getCondition(), /*withElse=*/true);
  extended.getThenRegion().takeBody(ifOp.getThenRegion());
  extended.getElseRegion().takeBody(ifOp.getElseRegion());
  ifOp.replaceAllUsesWith(extended.getResults().drop_back());
  ifOp.erase();
  return extended.getResults().back();
}

/// The builtin's `shared` operand: REFCPU_RT_SHARED_A where A is a view of
/// global memory, REFCPU_RT_SHARED_B where B is, in a product marked
/// kSharedOperandsAttr.
Value getSharedOperands(OpBuilder &builder, Location loc,
                        linalg::LinalgOp op) {
  Value flags = arith::ConstantIntOp::create(builder, loc, 0, 32);
  if (!op->hasAttr(refcpu::kSharedOperandsAttr))
    return flags;
  const int64_t bits[2] = {REFCPU_RT_SHARED_A, REFCPU_RT_SHARED_B};
  for (int i = 0; i < 2; ++i) {
    OpFoldResult global = isGlobalView(op.getDpsInputOperand(i)->get());
    std::optional<int64_t> known = getConstantIntValue(global);
    if (known && !*known)
      continue;
    Value bit = arith::ConstantIntOp::create(builder, loc, bits[i], 32);
    if (!known)
      bit = arith::SelectOp::create(builder, loc, cast<Value>(global), bit,
                                    arith::ConstantIntOp::create(builder, loc, 0, 32));
    flags = arith::OrIOp::create(builder, loc, flags, bit);
  }
  return flags;
}

/// The builtin that computes `op`, if it is a linalg.matmul or
/// linalg.batch_matmul on memrefs with the default indexing maps that one
/// computes.
StringRef getProductBuiltin(linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
      !op.hasPureBufferSemantics() || op.hasUserDefinedMaps())
    return {};
  MemRefType types[3];
  for (int i = 0; i < 3; ++i) {
    types[i] = dyn_cast<MemRefType>(op->getOperand(i).getType());
    if (!types[i])
      return {};
  }
  StringRef name =
      getBuiltin(types[0].getElementType(), types[1].getElementType(),
                 types[2].getElementType());
  // The i8 kernel sign-extends, as Triton's int8 dot does.
  auto castOf = [](Operation *op) {
    if (auto matmul = dyn_cast<linalg::MatmulOp>(op))
      return matmul.getCast();
    return cast<linalg::BatchMatmulOp>(op).getCast();
  };
  if (name.empty() || castOf(op) != linalg::TypeFn::cast_signed)
    return {};
  // Only strided layouts have a descriptor the runtime can read.
  for (MemRefType type : types)
    if (!memref::CastOp::areCastCompatible(
            type, getDynamicType(type.getElementType(), types[2].getRank())))
      return {};
  return name;
}

/// Replaces `op`, for which getProductBuiltin found `name`, by calls of it;
/// `zeroC`, if set, is the i32 of REFCPU_RT_ZERO_C or 0 to add to the flags.
void rewriteProduct(linalg::LinalgOp op, StringRef name, Value zeroC,
                    ModuleOp module) {
  MemRefType types[3];
  for (int i = 0; i < 3; ++i)
    types[i] = cast<MemRefType>(op->getOperand(i).getType());
  int64_t rank = types[2].getRank();
  OpBuilder builder(op);
  Location loc = op.getLoc();
  // It may extend the scf.if ops that yield the operands: read them after.
  Value flags = getSharedOperands(builder, loc, op);
  if (zeroC)
    flags = arith::OrIOp::create(builder, loc, flags, zeroC);
  Value operands[3];
  for (int i = 0; i < 3; ++i)
    operands[i] = op->getOperand(i);
  Value casts[3];
  SmallVector<Type> params;
  for (int i = 0; i < 3; ++i) {
    Type element = types[i].getElementType();
    casts[i] = memref::CastOp::create(builder, loc,
                                      getDynamicType(element, rank),
                                      operands[i]);
    params.push_back(getDynamicType(element, 2));
  }
  params.push_back(builder.getI32Type());
  func::FuncOp callee = getDeclaration(module, name, params);

  if (rank == 2) {
    func::CallOp::create(builder, loc, callee,
                         ValueRange{casts[0], casts[1], casts[2], flags});
  } else {
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value batches = memref::DimOp::create(builder, loc, casts[2], 0);
    auto loop = scf::ForOp::create(builder, loc, zero, batches, one);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    Value batch = loop.getInductionVar();
    SmallVector<Value> slices;
    for (int i = 0; i < 3; ++i) {
      SmallVector<OpFoldResult> offsets{batch, builder.getIndexAttr(0),
                                        builder.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes{
          builder.getIndexAttr(1),
          memref::DimOp::create(builder, loc, casts[i], 1).getResult(),
          memref::DimOp::create(builder, loc, casts[i], 2).getResult()};
      SmallVector<OpFoldResult> strides(3, builder.getIndexAttr(1));
      slices.push_back(memref::SubViewOp::create(
          builder, loc, cast<MemRefType>(params[i]), casts[i], offsets, sizes,
          strides));
    }
    slices.push_back(flags);
    func::CallOp::create(builder, loc, callee, slices);
  }
  op->erase();
}

/// The flag of one zero accumulator, in the function's frame (an i1 that
/// LLVM keeps in a register): set where the buffer was filled, cleared by
/// each product.
class ZeroFlag {
public:
  explicit ZeroFlag(const refcpu::ZeroAccumulator &accumulator)
      : accumulator(accumulator) {
    Operation *fill = accumulator.fill;
    auto func = fill->getParentOfType<FunctionOpInterface>();
    OpBuilder builder =
        OpBuilder::atBlockBegin(&func.getFunctionBody().front());
    Location loc = fill->getLoc();
    flag = memref::AllocaOp::create(builder, loc,
                                    MemRefType::get({}, builder.getI1Type()));
    // Set where the fill was; the fill runs after the last product's op
    // where no product ran.
    builder.setInsertionPoint(fill);
    store(builder, loc, true);
    builder.setInsertionPointAfter(accumulator.lastProduct);
    Value unfilled = memref::LoadOp::create(builder, loc, flag);
    auto ifOp = scf::IfOp::create(builder, loc, unfilled, /*withElse=*/false);
    fill->moveBefore(ifOp.thenBlock()->getTerminator());
  }

  /// Before `product`: the i32 to add to its builtin's flags, after a fill
  /// of the buffer where it writes part of it and the flag is set. After
  /// it: the flag cleared.
  Value prepare(linalg::LinalgOp product) {
    OpBuilder builder(product);
    Location loc = product.getLoc();
    Value set = memref::LoadOp::create(builder, loc, flag);
    if (Value partial = writesPart(builder, product)) {
      Value fill = arith::AndIOp::create(builder, loc, set, partial);
      auto ifOp = scf::IfOp::create(builder, loc, fill, /*withElse=*/false);
      builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      builder.clone(*accumulator.fill);
      builder.setInsertionPointAfter(ifOp);
    }
    Value zeroC = arith::SelectOp::create(
        builder, loc, set,
        arith::ConstantIntOp::create(builder, loc, REFCPU_RT_ZERO_C, 32),
        arith::ConstantIntOp::create(builder, loc, 0, 32));
    builder.setInsertionPointAfter(product);
    store(builder, loc, false);
    return zeroC;
  }

private:
  const refcpu::ZeroAccumulator &accumulator;
  Value flag;

  void store(OpBuilder &builder, Location loc, bool value) {
    memref::StoreOp::create(
        builder, loc, arith::ConstantIntOp::create(builder, loc, value, 1),
        flag);
  }

  /// Whether `product` writes less than the whole buffer: an i1, or null
  /// where it writes all of it.
  Value writesPart(OpBuilder &builder, linalg::LinalgOp product) {
    memref::SubViewOp view =
        refcpu::getAccumulatorView(product, accumulator.buffer);
    if (!view)
      return {};
    Location loc = product.getLoc();
    ArrayRef<int64_t> shape =
        cast<MemRefType>(accumulator.buffer.getType()).getShape();
    Value partial;
    for (auto [size, whole] : llvm::zip(view.getMixedSizes(), shape)) {
      std::optional<int64_t> known = getConstantIntValue(size);
      if (known && *known == whole)
        continue;
      Value differs =
          known ? arith::ConstantIntOp::create(builder, loc, 1, 1).getResult()
                : arith::CmpIOp::create(
                      builder, loc, arith::CmpIPredicate::ne, cast<Value>(size),
                      arith::ConstantIndexOp::create(builder, loc, whole))
                      .getResult();
      partial = partial ? arith::OrIOp::create(builder, loc, partial, differs)
                        : differs;
    }
    return partial;
  }
};

struct MatmulToRuntimePass
    : public refcpu::impl::MatmulToRuntimeBase<MatmulToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The products with a kernel, and its builtin, in program order.
    SmallVector<std::pair<linalg::LinalgOp, StringRef>> products;
    llvm::DenseSet<Operation *> withKernel;
    module.walk([&](linalg::LinalgOp op) {
      StringRef name = getProductBuiltin(op);
      if (name.empty())
        return;
      products.push_back({op, name});
      withKernel.insert(op);
    });
    SmallVector<refcpu::ZeroAccumulator> accumulators =
        refcpu::findZeroAccumulators(module, [&](linalg::LinalgOp op) {
          return withKernel.contains(op);
        });
    std::vector<ZeroFlag> flags;
    flags.reserve(accumulators.size());
    llvm::DenseMap<Operation *, ZeroFlag *> flagOf;
    for (const refcpu::ZeroAccumulator &accumulator : accumulators) {
      flags.emplace_back(accumulator);
      for (linalg::LinalgOp product : accumulator.products)
        flagOf[product] = &flags.back();
    }
    for (auto [op, name] : products) {
      ZeroFlag *flag = flagOf.lookup(op);
      rewriteProduct(op, name, flag ? flag->prepare(op) : Value(), module);
    }
  }
};

} // namespace
