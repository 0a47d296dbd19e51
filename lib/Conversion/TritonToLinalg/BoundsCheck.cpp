//===- BoundsCheck.cpp - the check_bounds compile option ------------------===//
//
// The CPU counterpart of compute-sanitizer's memcheck. Before the conversion
// each load, store and atomic of the kernel is traced to the pointer
// parameter its pointer derives from (through splat, broadcast, addptr,
// expand_dims, reshape, trans, select, loop-carried values); during it, the
// general memory path computes per lane whether the access lies inside that
// parameter's extent, which the runtime reads from the launch's arguments
// (a strided access takes its view only when its whole box lies inside, and
// the checked per-lane path otherwise):
//
//   %ok   = (addr - base) in [0, extent - bytes]   (any lane, extent 0 = unknown)
//   %mask = %mask & %ok                            (lanes outside never access)
//   scf.if (some enabled lane is outside) { refcpu_rt_bounds_fail(...) }
//
// An access that cannot be traced to one parameter must lie in one of them.
// In functions the kernel calls (noinline), parameters are traced through
// every call site, and the bases come from the runtime
// (refcpu_rt_param_base) rather than from the kernel's arguments.
// The failure names the kernel, program, op, source line, offset and extent;
// the launch then runs no further programs.
//
//===----------------------------------------------------------------------===//

#include "BoundsCheck.h"
#include "MemoryAccess.h"
#include "RuntimeReports.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace refcpu;

namespace {

/// What a pointer derives from: one parameter, nothing traceable (nullopt),
/// or the loop-carried value being traced itself (kSelf), which agrees with
/// any parameter.
constexpr int64_t kSelf = -1;
using Root = std::optional<int64_t>;

Root merge(Root a, Root b) {
  if (a && *a == kSelf)
    return b;
  if (b && *b == kSelf)
    return a;
  if (a && b && *a == *b)
    return a;
  return std::nullopt;
}

struct Tracer {
  Block *entry;
  llvm::DenseSet<Value> inProgress;

  Root trace(Value value) {
    if (inProgress.contains(value))
      return kSelf;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == entry)
        return arg.getArgNumber();
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return std::nullopt;
      return carried(loop, arg.getArgNumber() - 1, arg);
    }
    Operation *op = value.getDefiningOp();
    if (isa<triton::SplatOp, triton::BroadcastOp, triton::ExpandDimsOp,
            triton::ReshapeOp, triton::TransOp, triton::AddPtrOp,
            triton::BitcastOp, triton::MakeTensorPtrOp, triton::AdvanceOp,
            triton::MakeTensorDescOp>(op))
      return trace(op->getOperand(0));
    if (auto select = dyn_cast<arith::SelectOp>(op))
      return merge(trace(select.getTrueValue()), trace(select.getFalseValue()));
    if (isa<triton::CatOp, triton::JoinOp>(op))
      return merge(trace(op->getOperand(0)), trace(op->getOperand(1)));
    auto result = cast<OpResult>(value);
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return carried(loop, result.getResultNumber(), value);
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (branch.getElseRegion().empty())
        return std::nullopt;
      unsigned i = result.getResultNumber();
      return merge(trace(branch.thenYield().getOperand(i)),
                   trace(branch.elseYield().getOperand(i)));
    }
    return std::nullopt;
  }

  /// Value `i` that `loop` carries, reached through `via` (an iteration
  /// argument or a result): its initial value and what each iteration yields
  /// must derive from the same parameter.
  Root carried(scf::ForOp loop, unsigned i, Value via) {
    inProgress.insert(via);
    inProgress.insert(loop.getRegionIterArgs()[i]);
    inProgress.insert(loop.getResult(i));
    Root root = merge(trace(loop.getInitArgs()[i]), trace(loop.getYieldedValues()[i]));
    inProgress.erase(via);
    inProgress.erase(loop.getRegionIterArgs()[i]);
    inProgress.erase(loop.getResult(i));
    return root;
  }
};

std::string parameterName(BlockArgument arg) {
  if (auto name = dyn_cast<NameLoc>(arg.getLoc()))
    return name.getName().str();
  return "arg" + std::to_string(arg.getArgNumber());
}

Value i32Value(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

Value i64Value(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

/// The address kernel parameter `param` was launched with, as seen from the
/// access `op`: the kernel's argument, or, in a function it calls, the
/// runtime's record of the launch.
FailureOr<Value> parameterBase(OpBuilder &b, Location loc, Operation *op,
                               int32_t param) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (func.isPublic())
    return func.getBody().front().getArgument(param);
  auto baseFn = LLVM::lookupOrCreateFn(b, op->getParentOfType<ModuleOp>(),
                                       REFCPU_RT_PARAM_BASE, {b.getI32Type()},
                                       b.getI64Type());
  if (failed(baseFn))
    return failure();
  return LLVM::CallOp::create(b, loc, *baseFn, ValueRange{i32Value(b, loc, param)})
      .getResult();
}

} // namespace

namespace {

/// The pointer each access of `op` goes through, or null for other ops.
Value accessedPointer(Operation *op) {
  if (auto load = dyn_cast<triton::LoadOp>(op))
    return load.getPtr();
  if (auto store = dyn_cast<triton::StoreOp>(op))
    return store.getPtr();
  if (auto rmw = dyn_cast<triton::AtomicRMWOp>(op))
    return rmw.getPtr();
  if (auto cas = dyn_cast<triton::AtomicCASOp>(op))
    return cas.getPtr();
  if (isa<triton::DescriptorLoadOp, triton::DescriptorStoreOp,
          triton::DescriptorGatherOp, triton::DescriptorScatterOp,
          triton::DescriptorReduceOp>(op))
    return op->getOperand(0);
  return Value();
}

/// For every function `kernel` calls (directly or not), the kernel parameter
/// each of its parameters derives from at every call site: a parameter
/// index, or nullopt when the call sites disagree or it cannot be traced.
/// The kernel maps its parameters to themselves. Functions that other public
/// kernels call too are left out (their accesses stay unchecked).
llvm::DenseMap<Operation *, SmallVector<Root>> kernelRoots(triton::FuncOp kernel) {
  auto module = kernel->getParentOfType<ModuleOp>();
  SymbolTable symbols(module);
  // Per parameter: not seen at any call site yet (nullopt), or the merged
  // root. Roots only go from unseen to a parameter to untraced, so the
  // rounds below end.
  llvm::MapVector<Operation *, SmallVector<std::optional<Root>>> found;
  for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
    found[kernel].push_back(Root(i));
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned f = 0; f < found.size(); ++f) {
      auto caller = cast<triton::FuncOp>(found.begin()[f].first);
      Block *entry = &caller.getBody().front();
      caller.walk([&](triton::CallOp call) {
        auto callee = symbols.lookup<triton::FuncOp>(call.getCallee());
        if (!callee || callee.isPublic())
          return;
        SmallVector<std::optional<Root>> callerRoots = found[caller];
        SmallVector<std::optional<Root>> &calleeRoots = found[callee];
        calleeRoots.resize(call.getNumOperands());
        for (auto [i, operand] : llvm::enumerate(call.getOperands())) {
          Tracer tracer{entry, {}};
          Root local = tracer.trace(operand);
          Root mapped = local && *local != kSelf && callerRoots[*local]
                            ? *callerRoots[*local]
                            : std::nullopt;
          std::optional<Root> &slot = calleeRoots[i];
          Root next = !slot || *slot == mapped ? mapped : std::nullopt;
          if (!slot || *slot != next) {
            slot = next;
            changed = true;
          }
        }
      });
    }
  }
  llvm::DenseMap<Operation *, SmallVector<Root>> roots;
  for (auto &[func, params] : found)
    for (std::optional<Root> root : params)
      roots[func].push_back(root ? *root : std::nullopt);
  for (auto other : module.getOps<triton::FuncOp>()) {
    if (!other.isPublic() || other == kernel)
      continue;
    other.walk([&](triton::CallOp call) {
      if (Operation *callee = symbols.lookup(call.getCallee()))
        roots.erase(callee);
    });
  }
  return roots;
}

} // namespace

void refcpu::markCheckedAccesses(triton::FuncOp kernel) {
  Block *kernelEntry = &kernel.getBody().front();
  // The checks address parameters by their index in the converted function,
  // which equals the TTIR index only while every parameter stays one value.
  // Descriptor parameters are plain pointers by now (the pass materializes
  // them first); a block-pointer parameter, which Triton never emits (its
  // frontend builds block pointers inside the kernel), leaves its kernel
  // unchecked.
  if (llvm::any_of(kernelEntry->getArguments(), [](BlockArgument arg) {
        return isBlockPointer(arg) || isa<triton::TensorDescType>(arg.getType());
      }))
    return;
  SmallVector<int32_t> pointerParams;
  for (BlockArgument arg : kernelEntry->getArguments())
    if (isa<triton::PointerType>(arg.getType()) && !isBlockPointer(arg))
      pointerParams.push_back(arg.getArgNumber());
  Builder builder(kernel.getContext());
  for (auto [func, roots] : kernelRoots(kernel)) {
    Block *entry = &cast<triton::FuncOp>(func).getBody().front();
    func->walk([&](Operation *op) {
      Value ptr = accessedPointer(op);
      if (!ptr)
        return;
      Tracer tracer{entry, {}};
      Root local = tracer.trace(ptr);
      Root root = local && *local != kSelf ? roots[*local] : std::nullopt;
      SmallVector<int32_t> params = pointerParams;
      if (root) {
        params = {static_cast<int32_t>(*root)};
        op->setAttr(kBoundsTracedAttr, builder.getUnitAttr());
      }
      SmallVector<Attribute> names;
      for (int32_t param : params)
        names.push_back(
            builder.getStringAttr(parameterName(kernelEntry->getArgument(param))));
      op->setAttr(kBoundsParamsAttr, builder.getDenseI32ArrayAttr(params));
      op->setAttr(kBoundsNamesAttr, builder.getArrayAttr(names));
    });
  }
}

std::vector<bool> refcpu::findWrittenParams(triton::FuncOp kernel) {
  Block *entry = &kernel.getBody().front();
  std::vector<bool> written(entry->getNumArguments(), false);
  auto writesThrough = [&](Value ptr) {
    Tracer tracer{entry, {}};
    Root root = tracer.trace(ptr);
    if (root && *root != kSelf) {
      written[*root] = true;
      return;
    }
    // Untraced: any pointer (or descriptor) parameter may be the one.
    for (BlockArgument arg : entry->getArguments())
      if (isa<triton::PointerType, triton::TensorDescType>(arg.getType()))
        written[arg.getArgNumber()] = true;
  };
  kernel.walk([&](Operation *op) {
    if (auto store = dyn_cast<triton::StoreOp>(op))
      writesThrough(store.getPtr());
    else if (auto rmw = dyn_cast<triton::AtomicRMWOp>(op))
      writesThrough(rmw.getPtr());
    else if (auto cas = dyn_cast<triton::AtomicCASOp>(op))
      writesThrough(cas.getPtr());
    else if (isa<triton::DescriptorStoreOp, triton::DescriptorReduceOp,
                 triton::DescriptorScatterOp>(op))
      writesThrough(op->getOperand(0));
    else if (isa<triton::CallOp>(op))
      // A callee may write through any pointer it is given.
      for (Value operand : op->getOperands())
        if (isa<triton::PointerType, triton::TensorDescType>(operand.getType()))
          writesThrough(operand);
  });
  return written;
}

Value refcpu::emitBoundsCheck(OpBuilder &b, Operation *op, Value addresses,
                              Value mask, int64_t bytes) {
  auto params = op->getAttrOfType<DenseI32ArrayAttr>(kBoundsParamsAttr);
  auto names = op->getAttrOfType<ArrayAttr>(kBoundsNamesAttr);
  if (!params || !names)
    return mask;
  Location loc = op->getLoc();
  Operation *module = op->getParentOfType<ModuleOp>();
  auto func = op->getParentOfType<func::FuncOp>();
  MLIRContext *context = b.getContext();
  Type i1 = b.getI1Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto extentFn = LLVM::lookupOrCreateFn(b, module, REFCPU_RT_PARAM_EXTENT, {i32}, i64);
  auto failFn = LLVM::lookupOrCreateFn(
      b, module, REFCPU_RT_BOUNDS_FAIL,
      {ptrType, ptrType, ptrType, i32, i32, i32, i32, i32, ptrType, i64, i64},
      LLVM::LLVMVoidType::get(context));
  if (failed(extentFn) || failed(failFn)) {
    op->emitOpError("the bounds-checking hooks have unexpected signatures");
    return mask;
  }

  // The candidate parameters' bases (the converted i64 arguments) and
  // extents, read once per access.
  SmallVector<std::pair<Value, Value>> bounds;
  for (int32_t param : params.asArrayRef()) {
    Value extent =
        LLVM::CallOp::create(b, loc, *extentFn, ValueRange{i32Value(b, loc, param)})
            .getResult();
    FailureOr<Value> base = parameterBase(b, loc, op, param);
    if (failed(base)) {
      op->emitOpError(REFCPU_RT_PARAM_BASE " has an unexpected signature");
      return mask;
    }
    bounds.push_back({*base, extent});
  }
  auto inBounds = [&](OpBuilder &b, Location loc, Value address) -> Value {
    Value ok = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (auto [base, extent] : bounds) {
      Value unknown = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, extent,
                                            i64Value(b, loc, 0));
      Value offset = arith::SubIOp::create(b, loc, address, base);
      Value last = arith::SubIOp::create(b, loc, extent, i64Value(b, loc, bytes));
      Value above = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, offset,
                                          i64Value(b, loc, 0));
      Value below =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, offset, last);
      Value inside = arith::OrIOp::create(
          b, loc, unknown, arith::AndIOp::create(b, loc, above, below));
      ok = arith::OrIOp::create(b, loc, ok, inside);
    }
    return ok;
  };

  // The first (lowest) address of an enabled lane outside, INT64_MAX if none.
  const int64_t none = std::numeric_limits<int64_t>::max();
  Value allowed, firstBad;
  if (auto type = dyn_cast<RankedTensorType>(addresses.getType())) {
    int64_t rank = type.getRank();
    SmallVector<Value> inputs{addresses};
    if (mask)
      inputs.push_back(mask);
    auto map = b.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> maps(inputs.size() + 2, map);
    auto lanes = linalg::GenericOp::create(
        b, loc, TypeRange{type.clone(i1), type.clone(i64)}, inputs,
        ValueRange{tensor::EmptyOp::create(b, loc, type.getShape(), i1),
                   tensor::EmptyOp::create(b, loc, type.getShape(), i64)},
        maps, SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value ok = inBounds(b, loc, args[0]);
          Value enabled = mask ? args[1] : arith::ConstantIntOp::create(b, loc, 1, 1);
          Value outside = arith::XOrIOp::create(b, loc, ok,
                                                arith::ConstantIntOp::create(b, loc, 1, 1));
          Value bad = arith::AndIOp::create(b, loc, enabled, outside);
          linalg::YieldOp::create(
              b, loc,
              ValueRange{arith::AndIOp::create(b, loc, enabled, ok),
                         arith::SelectOp::create(b, loc, bad, args[0],
                                                 i64Value(b, loc, none))});
        });
    allowed = lanes.getResult(0);
    Value init = tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({}, i64), ValueRange{i64Value(b, loc, none)});
    auto reduce = linalg::ReduceOp::create(
        b, loc, ValueRange{lanes.getResult(1)}, ValueRange{init},
        llvm::to_vector(llvm::seq<int64_t>(0, rank)),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(
              b, loc, ValueRange{arith::MinSIOp::create(b, loc, args[0], args[1])});
        });
    firstBad = tensor::ExtractOp::create(b, loc, reduce.getResult(0), ValueRange{});
  } else {
    Value ok = inBounds(b, loc, addresses);
    Value enabled = mask ? mask : arith::ConstantIntOp::create(b, loc, 1, 1);
    allowed = arith::AndIOp::create(b, loc, enabled, ok);
    Value bad = arith::XOrIOp::create(b, loc, allowed, enabled);
    firstBad = arith::SelectOp::create(b, loc, bad, addresses, i64Value(b, loc, none));
  }

  // The report: with one candidate the offset into it, else the address.
  bool traced = op->hasAttr(kBoundsTracedAttr);
  auto [file, line] = sourcePosition(loc);
  Value kernelName = globalString(b, loc, module, func.getName());
  Value opName = globalString(b, loc, module, op->getName().getStringRef());
  Value fileName = globalString(b, loc, module, file);
  Value paramName = globalString(
      b, loc, module, traced ? cast<StringAttr>(names[0]).getValue() : StringRef());
  Value anyBad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, firstBad,
                                       i64Value(b, loc, none));
  scf::IfOp::create(b, loc, anyBad, [&](OpBuilder &b, Location loc) {
    Value offset =
        traced ? arith::SubIOp::create(b, loc, firstBad, bounds[0].first).getResult()
               : firstBad;
    SmallVector<Value> args{kernelName, opName, fileName, i32Value(b, loc, line)};
    for (unsigned axis = 0; axis < 3; ++axis)
      args.push_back(getGridArgument(op, 3 + axis));
    args.append({i32Value(b, loc, traced ? params[0] : -1), paramName, offset,
                 i64Value(b, loc, bytes)});
    LLVM::CallOp::create(b, loc, *failFn, args);
    scf::YieldOp::create(b, loc);
  });
  return allowed;
}

void refcpu::guardStridedBlock(OpBuilder &b, Operation *op, StridedBlock &block,
                               ArrayRef<int64_t> shape, int64_t bytes) {
  auto params = op->getAttrOfType<DenseI32ArrayAttr>(kBoundsParamsAttr);
  if (!params)
    return;
  Location loc = op->getLoc();
  Operation *module = op->getParentOfType<ModuleOp>();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto extentFn = LLVM::lookupOrCreateFn(b, module, REFCPU_RT_PARAM_EXTENT, {i32}, i64);
  if (failed(extentFn))
    return;
  auto minOf = [&](Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); };
  auto maxOf = [&](Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); };
  // The lowest and highest byte the box of lanes touches, and whether it is
  // empty (then nothing is accessed).
  Value first = block.base, last = block.base;
  Value empty = arith::ConstantIntOp::create(b, loc, 0, 1);
  for (auto [d, size] : llvm::enumerate(shape)) {
    Value lo = i64Value(b, loc, 0), hi = i64Value(b, loc, size);
    if (block.lo[d])
      lo = maxOf(lo, block.lo[d]);
    if (block.hi[d])
      hi = minOf(hi, block.hi[d]);
    empty = arith::OrIOp::create(
        b, loc, empty, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, lo, hi));
    Value step = arith::MulIOp::create(b, loc, block.strides[d], i64Value(b, loc, bytes));
    Value atLo = arith::MulIOp::create(b, loc, lo, step);
    Value atHi = arith::MulIOp::create(
        b, loc, arith::SubIOp::create(b, loc, hi, i64Value(b, loc, 1)), step);
    first = arith::AddIOp::create(b, loc, first, minOf(atLo, atHi));
    last = arith::AddIOp::create(b, loc, last, maxOf(atLo, atHi));
  }
  Value inside = empty;
  for (int32_t param : params.asArrayRef()) {
    FailureOr<Value> found = parameterBase(b, loc, op, param);
    if (failed(found))
      return;
    Value base = *found;
    Value extent =
        LLVM::CallOp::create(b, loc, *extentFn, ValueRange{i32Value(b, loc, param)})
            .getResult();
    Value unknown = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, extent,
                                          i64Value(b, loc, 0));
    Value end = arith::SubIOp::create(
        b, loc, arith::AddIOp::create(b, loc, base, extent), i64Value(b, loc, bytes));
    Value fits = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, first, base),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, last, end));
    inside = arith::OrIOp::create(b, loc, inside,
                                  arith::OrIOp::create(b, loc, unknown, fits));
  }
  block.exactIf =
      block.exactIf ? arith::AndIOp::create(b, loc, block.exactIf, inside).getResult()
                    : inside;
  // A wrapped block's pieces are not checked: where the block is not exact,
  // its checked per-lane access runs.
  block.wrap.reset();
}
