//===- Ops.cpp - tt operations: verifiers, functions, effects -------------===//
//
// Verifiers follow what Triton 3.6's own verifier accepts and rejects (see
// docs/TTIR-REFERENCE.md); the messages name the broken rule.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton;

#define GET_OP_CLASSES
#include "refcpu/Dialect/Triton/IR/TritonOps.cpp.inc"

/// Triton's TRITON_MAX_TENSOR_NUMEL.
static constexpr int64_t kMaxTensorNumel = 1 << 20;

LogicalResult mlir::OpTrait::triton::verifyTensorSize(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    int64_t numel = tensor.getNumElements();
    if (!llvm::isPowerOf2_64(numel))
      return op->emitOpError("number of elements must be power-of-two, got ")
             << type;
    if (numel > kMaxTensorNumel)
      return op->emitOpError("tensor has more than ")
             << kMaxTensorNumel << " elements: " << type;
    return success();
  };
  for (Type type : op->getOperandTypes())
    if (failed(check(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(check(type)))
      return failure();
  return success();
}

static void addGlobalEffect(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects,
    MemoryEffects::Effect *effect) {
  effects.emplace_back(effect, SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// FuncOp, CallOp, ReturnOp
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (isExternal())
    return emitOpError("must have a body");
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "'" << getCallee()
                         << "' does not reference a valid tt.func";
  FunctionType type = fn.getFunctionType();
  if (!llvm::equal(type.getInputs(), getOperandTypes()))
    return emitOpError("operand types do not match the callee's signature");
  if (!llvm::equal(type.getResults(), getResultTypes()))
    return emitOpError("result types do not match the callee's signature");
  return success();
}

LogicalResult ReturnOp::verify() {
  auto fn = (*this)->getParentOfType<FuncOp>();
  ArrayRef<Type> results = fn.getFunctionType().getResults();
  if (getNumOperands() != results.size())
    return emitOpError("has ")
           << getNumOperands() << " operands, but the enclosing function @"
           << fn.getName() << " returns " << results.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getOperandTypes(), results)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("type of return operand ")
             << i << " (" << std::get<0>(pair)
             << ") does not match the function result type ("
             << std::get<1>(pair) << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor creation and shapes
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a 1-D tensor");
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError("end must be greater than start");
  if (type.getDimSize(0) != end - start)
    return emitOpError("number of elements in the result (")
           << type.getDimSize(0) << ") must equal end - start (" << end - start
           << ")";
  return success();
}

LogicalResult SplatOp::verify() {
  Type srcType = getSrc().getType();
  if (auto srcTensor = dyn_cast<RankedTensorType>(srcType)) {
    if (srcTensor.getNumElements() != 1)
      return emitOpError("a tensor source must have exactly one element");
    srcType = srcTensor.getElementType();
  }
  if (srcType != getType().getElementType())
    return emitOpError("source type ")
           << srcType << " does not match the result element type "
           << getType().getElementType();
  return success();
}

LogicalResult UnsplatOp::verify() {
  if (getSrc().getType().getNumElements() != 1)
    return emitOpError("source must have exactly one element");
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto srcType = getSrc().getType(), resultType = getType();
  if (srcType.getRank() != resultType.getRank())
    return emitOpError("rank of source must be same as rank of result");
  for (auto [src, dst] : llvm::zip(srcType.getShape(), resultType.getShape()))
    if (src != dst && src != 1)
      return emitOpError("only size-1 dimensions can be broadcast: ")
             << srcType << " to " << resultType;
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto srcType = getSrc().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError("axis ") << axis << " out of range [0, "
                                << srcType.getRank() << "]";
  SmallVector<int64_t> shape(srcType.getShape());
  shape.insert(shape.begin() + axis, 1);
  if (ArrayRef<int64_t>(shape) != getType().getShape())
    return emitOpError("result shape must be the source shape with a size-1 "
                       "dimension inserted at axis ")
           << axis;
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (getSrc().getType().getNumElements() != getType().getNumElements())
    return emitOpError("number of src and dst elements of reshape must match");
  return success();
}

LogicalResult TransOp::verify() {
  auto srcType = getSrc().getType();
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != srcType.getRank())
    return emitOpError("order must have one entry per dimension");
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= static_cast<int32_t>(order.size()) || seen[d])
      return emitOpError("order must be a permutation of 0..rank-1");
    seen[d] = true;
  }
  for (auto [k, d] : llvm::enumerate(order))
    if (getType().getDimSize(k) != srcType.getDimSize(d))
      return emitOpError("result dimension ")
             << k << " must be source dimension " << d;
  return success();
}

LogicalResult JoinOp::verify() {
  SmallVector<int64_t> shape(getLhs().getType().getShape());
  shape.push_back(2);
  if (ArrayRef<int64_t>(shape) != getType().getShape())
    return emitOpError("result must be the operand shape with a minor "
                       "dimension of size 2");
  return success();
}

LogicalResult SplitOp::verify() {
  auto srcType = getSrc().getType();
  if (srcType.getRank() == 0 || srcType.getShape().back() != 2)
    return emitOpError("last dimension of the input must be 2");
  if (srcType.getShape().drop_back() != getOutLHS().getType().getShape())
    return emitOpError("results must be the input without its last dimension");
  return success();
}

void SplitOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getOutLHS(), "outLHS");
  setNameFn(getOutRHS(), "outRHS");
}

LogicalResult GatherOp::verify() {
  auto srcType = getSrc().getType(), idxType = getIndices().getType();
  int64_t axis = getAxis();
  if (srcType.getRank() != idxType.getRank())
    return emitOpError("indices and source must have the same rank");
  if (axis < 0 || axis >= srcType.getRank())
    return emitOpError("gather axis out of range");
  for (int64_t d = 0; d < srcType.getRank(); ++d)
    if (d != axis && srcType.getDimSize(d) != idxType.getDimSize(d))
      return emitOpError("indices dimension ")
             << d << " must match the source dimension";
  if (getType().getShape() != idxType.getShape() ||
      getType().getElementType() != srcType.getElementType())
    return emitOpError("result must have the indices' shape and the source's "
                       "element type");
  return success();
}

LogicalResult HistogramOp::verify() {
  if (getSrc().getType().getRank() != 1 || getType().getRank() != 1)
    return emitOpError("source and result must be 1-D");
  if (getMask() && getMask().getType().getShape() != getSrc().getType().getShape())
    return emitOpError("mask must have the source's shape");
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers and casts
//===----------------------------------------------------------------------===//

/// Shape of a scalar-or-tensor type; empty for scalars.
static std::optional<ArrayRef<int64_t>> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return std::nullopt;
}

LogicalResult AddPtrOp::verify() {
  if (shapeOf(getPtr().getType()) != shapeOf(getOffset().getType()))
    return emitOpError("pointer and offset must both be scalars or tensors of "
                       "the same shape");
  return success();
}

LogicalResult IntToPtrOp::verify() {
  if (shapeOf(getSrc().getType()) != shapeOf(getType()))
    return emitOpError("source and result must have the same shape");
  return success();
}

LogicalResult PtrToIntOp::verify() {
  if (shapeOf(getSrc().getType()) != shapeOf(getType()))
    return emitOpError("source and result must have the same shape");
  return success();
}

LogicalResult BitcastOp::verify() {
  Type src = getElementTypeOrSelf(getSrc().getType());
  Type dst = getElementTypeOrSelf(getType());
  if (shapeOf(getSrc().getType()) != shapeOf(getType()))
    return emitOpError("source and result must have the same shape");
  bool srcPtr = isa<PointerType>(src), dstPtr = isa<PointerType>(dst);
  if (srcPtr != dstPtr)
    return emitOpError("Cannot bitcast pointer to non-pointer type");
  if (srcPtr)
    return success();
  unsigned srcBits = src.getIntOrFloatBitWidth();
  unsigned dstBits = dst.getIntOrFloatBitWidth();
  if (srcBits != dstBits)
    return emitOpError("Cannot bitcast data-type of size ")
           << srcBits << " to data-type of size " << dstBits;
  return success();
}

LogicalResult FpToFpOp::verify() {
  Type src = getElementTypeOrSelf(getSrc().getType());
  Type dst = getElementTypeOrSelf(getType());
  if (shapeOf(getSrc().getType()) != shapeOf(getType()))
    return emitOpError("source and result must have the same shape");
  if (dst.getIntOrFloatBitWidth() < src.getIntOrFloatBitWidth() && !getRounding())
    return emitOpError("Rounding mode is required for FP downcast");
  return success();
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  int64_t packed = getPackedElement();
  if (packed < 1)
    return emitOpError("packed_element must be at least 1");
  for (Type type : getOperation()->getOperandTypes())
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      if (tensor.getNumElements() % packed != 0)
        return emitOpError("number of elements must be a multiple of "
                           "packed_element");
  return success();
}

/// Impure external calls and inline asm may touch memory.
static void getOpaqueCallEffects(
    bool pure,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (pure)
    return;
  addGlobalEffect(effects, MemoryEffects::Read::get());
  addGlobalEffect(effects, MemoryEffects::Write::get());
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  getOpaqueCallEffects(getPure(), effects);
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  getOpaqueCallEffects(getPure(), effects);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Block-pointer boundary checks name dimensions of the block.
static LogicalResult verifyBoundaryCheck(Operation *op, Type ptrType,
                                         ArrayRef<int32_t> boundaryCheck) {
  if (boundaryCheck.empty())
    return success();
  auto ptr = dyn_cast<PointerType>(ptrType);
  auto block = ptr ? dyn_cast<RankedTensorType>(ptr.getPointeeType()) : nullptr;
  if (!block)
    return op->emitOpError("boundaryCheck requires a block pointer");
  for (int32_t d : boundaryCheck)
    if (d < 0 || d >= block.getRank())
      return op->emitOpError("boundaryCheck dimension ")
             << d << " out of range for " << block;
  return success();
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("'other' requires a mask");
  return verifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Read::get());
  if (getIsVolatile())
    addGlobalEffect(effects, MemoryEffects::Write::get());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Write::get());
}

void AtomicRMWOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Read::get());
  addGlobalEffect(effects, MemoryEffects::Write::get());
}

void AtomicCASOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Read::get());
  addGlobalEffect(effects, MemoryEffects::Write::get());
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto aType = getA().getType(), bType = getB().getType();
  auto cType = getC().getType();
  int64_t rank = aType.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError("operands must be 2-D or 3-D");
  if (bType.getRank() != rank || cType.getRank() != rank)
    return emitOpError("operands and accumulator must have the same rank");
  if (aType.getShape().back() != bType.getShape()[rank - 2])
    return emitOpError("A's last dimension must equal B's second to last");
  if (cType.getShape()[rank - 2] != aType.getShape()[rank - 2] ||
      cType.getShape()[rank - 1] != bType.getShape()[rank - 1])
    return emitOpError("accumulator shape must be M x N");
  if (rank == 3 && (aType.getShape()[0] != bType.getShape()[0] ||
                    aType.getShape()[0] != cType.getShape()[0]))
    return emitOpError("batch dimensions must match");
  if (aType.getElementType().getIntOrFloatBitWidth() !=
      bType.getElementType().getIntOrFloatBitWidth())
    return emitOpError("element bit widths of A and B must be equal");
  // Triton's accumulator types per input type: i8 -> i32, f64 -> f64, f32
  // and bf16 -> f32, f16 and fp8 -> f32 or f16.
  Type in = aType.getElementType(), acc = cType.getElementType();
  bool accOk;
  if (in.isInteger(8))
    accOk = acc.isInteger(32);
  else if (in.isF64())
    accOk = acc.isF64();
  else if (in.isF32() || in.isBF16())
    accOk = acc.isF32();
  else if (in.isF16() || in.getIntOrFloatBitWidth() == 8)
    accOk = acc.isF32() || acc.isF16();
  else
    accOk = false;
  if (!accOk)
    return emitOpError("a dot of ") << in << " inputs cannot accumulate in " << acc;
  return success();
}

/// Whether `type` is how a dot_scaled operand of `format` is held: its own
/// float type, or i8 for the sub-byte formats.
static bool isScaledOperandType(Type type, ScaleDotElemType format) {
  switch (format) {
  case ScaleDotElemType::E4M3:
    return isa<Float8E4M3FNType>(type);
  case ScaleDotElemType::E5M2:
    return isa<Float8E5M2Type>(type);
  case ScaleDotElemType::BF16:
    return type.isBF16();
  case ScaleDotElemType::FP16:
    return type.isF16();
  case ScaleDotElemType::E2M1:
  case ScaleDotElemType::E2M3:
  case ScaleDotElemType::E3M2:
    return type.isInteger(8);
  }
  return false;
}

LogicalResult DotScaledOp::verify() {
  auto aType = cast<RankedTensorType>(getA().getType());
  auto bType = cast<RankedTensorType>(getB().getType());
  auto cType = cast<RankedTensorType>(getC().getType());
  int64_t rank = aType.getRank();
  if (rank != 2 && rank != 3)
    return emitOpError("operands must be 2-D or 3-D");
  if (bType.getRank() != rank || cType.getRank() != rank)
    return emitOpError("operands and accumulator must have the same rank");
  for (auto [type, format, name] :
       {std::make_tuple(aType, getAElemType(), "A"),
        std::make_tuple(bType, getBElemType(), "B")})
    if (!isScaledOperandType(type.getElementType(), format))
      return emitOpError() << name << " of format '"
                           << stringifyScaleDotElemType(format)
                           << "' cannot have elements of type "
                           << type.getElementType();
  bool aFp4 = getAElemType() == ScaleDotElemType::E2M1;
  bool bFp4 = getBElemType() == ScaleDotElemType::E2M1;
  if ((!getLhsKPack() && !aFp4) || (!getRhsKPack() && !bFp4))
    return emitOpError("only e2m1 operands may be packed along M or N");
  // The logical M x K and K x N, with e2m1 doubling its packed dimension.
  ArrayRef<int64_t> aShape = aType.getShape(), bShape = bType.getShape();
  int64_t m = aShape[rank - 2], ka = aShape[rank - 1];
  int64_t kb = bShape[rank - 2], n = bShape[rank - 1];
  if (aFp4)
    (getLhsKPack() ? ka : m) *= 2;
  if (bFp4)
    (getRhsKPack() ? kb : n) *= 2;
  if (ka != kb)
    return emitOpError("A and B hold different K (") << ka << " and " << kb
                                                      << " elements)";
  ArrayRef<int64_t> cShape = cType.getShape();
  if (cShape[rank - 2] != m || cShape[rank - 1] != n)
    return emitOpError("accumulator shape must be ") << m << "x" << n;
  if (rank == 3 && (aShape[0] != bShape[0] || aShape[0] != cShape[0]))
    return emitOpError("batch dimensions must match");
  // Scales: [batch,] rows, groups, with groups dividing K.
  for (auto [scale, rows, name] : {std::make_tuple(getAScale(), m, "A"),
                                   std::make_tuple(getBScale(), n, "B")}) {
    if (!scale)
      continue;
    auto type = cast<RankedTensorType>(scale.getType());
    ArrayRef<int64_t> shape = type.getShape();
    Type element = type.getElementType();
    if (!element.isInteger(8) && !isa<Float8E4M3FNType>(element))
      return emitOpError() << name << "'s scales must be i8 (e8m0) or f8E4M3FN";
    bool batchOk = rank == 2 || shape[0] == aShape[0];
    if (type.getRank() != rank || !batchOk || shape[rank - 2] != rows ||
        shape[rank - 1] == 0 || ka % shape[rank - 1] != 0)
      return emitOpError() << name << "'s scales must have shape "
                           << (rank == 3 ? "batch x " : "") << rows
                           << " x (a divisor of " << ka << "), got " << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Reduce, scan, map_elementwise
//===----------------------------------------------------------------------===//

/// Combiner regions take 2N scalars (N left, then N right) of the operands'
/// element types and return N values of the same types.
static LogicalResult verifyCombiner(Operation *op, Region &region,
                                    ValueRange srcs) {
  Block &block = region.front();
  unsigned n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("nested block must take ")
           << 2 * n << " arguments, got " << block.getNumArguments();
  for (unsigned i = 0; i < 2 * n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i % n].getType());
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError("combiner argument ")
             << i << " must have type " << expected;
  }
  Operation *terminator = block.getTerminator();
  if (terminator->getNumOperands() != n)
    return op->emitOpError("combiner must return ") << n << " values";
  for (unsigned i = 0; i < n; ++i)
    if (terminator->getOperand(i).getType() !=
        getElementTypeOrSelf(srcs[i].getType()))
      return op->emitOpError("combiner result ")
             << i << " must have the element type of operand " << i;
  return success();
}

LogicalResult ReduceOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto srcType = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= srcType.getRank())
    return emitOpError("axis ") << axis << " out of range for " << srcType;
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per operand");
  SmallVector<int64_t> shape(srcType.getShape());
  shape.erase(shape.begin() + axis);
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    Type elt = cast<RankedTensorType>(src.getType()).getElementType();
    Type expected = shape.empty() ? elt : RankedTensorType::get(shape, elt);
    if (result.getType() != expected)
      return emitOpError("result type ")
             << result.getType() << " must be " << expected;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto srcType = cast<RankedTensorType>(getSrcs()[0].getType());
  if (getAxis() < 0 || getAxis() >= srcType.getRank())
    return emitOpError("axis ") << getAxis() << " out of range for " << srcType;
  for (auto [src, result] : llvm::zip(getSrcs(), getResults()))
    if (src.getType() != result.getType())
      return emitOpError("results must have the operand types");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombiner(*this, getCombineOp(), getSrcs());
}

LogicalResult MapElementwiseOp::verify() {
  int64_t pack = getPack();
  if (pack < 1)
    return emitOpError("pack must be at least 1");
  if (getScalarOp().empty())
    return emitOpError("region must not be empty");
  Block &block = getScalarOp().front();
  if (block.getNumArguments() != getSrcs().size() * pack)
    return emitOpError("region must take ")
           << getSrcs().size() * pack << " arguments (operands x pack)";
  return success();
}

//===----------------------------------------------------------------------===//
// Block pointers and descriptors
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorPtrOp::verify() {
  auto block = cast<RankedTensorType>(getType().getPointeeType());
  if (static_cast<int64_t>(getShape().size()) != block.getRank())
    return emitOpError("shape, strides and offsets need one entry per block "
                       "dimension (")
           << block.getRank() << ")";
  if (static_cast<int64_t>(getOrder().size()) != block.getRank())
    return emitOpError("order needs one entry per block dimension");
  return success();
}

LogicalResult AdvanceOp::verify() {
  auto block = cast<RankedTensorType>(getType().getPointeeType());
  if (static_cast<int64_t>(getOffsets().size()) != block.getRank())
    return emitOpError("needs one offset per block dimension (")
           << block.getRank() << ")";
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  int64_t rank = getType().getBlockType().getRank();
  if (static_cast<int64_t>(getShape().size()) != rank)
    return emitOpError("shape and strides need one entry per block dimension (")
           << rank << ")";
  if (getBase().getType().getPointeeType() !=
      getElementTypeOrSelf(getType().getBlockType().getElementType()) &&
      getBase().getType().getPointeeType().getIntOrFloatBitWidth() !=
          getType().getBlockType().getElementTypeBitWidth())
    return emitOpError("base pointer and block element types differ");
  return success();
}

/// The block loaded or stored through `desc`: equal to the descriptor's
/// block, with size-1 dimensions optionally dropped, and signless.
static LogicalResult verifyDescriptorBlock(Operation *op, TensorDescType desc,
                                           RankedTensorType value,
                                           size_t numIndices) {
  RankedTensorType block = desc.getBlockType();
  if (static_cast<int64_t>(numIndices) != block.getRank())
    return op->emitOpError("needs one index per descriptor dimension (")
           << block.getRank() << ")";
  if (value.getNumElements() != block.getNumElements())
    return op->emitOpError("value shape ")
           << value << " does not match the descriptor block " << block;
  SmallVector<int64_t> blockShape, valueShape;
  llvm::copy_if(block.getShape(), std::back_inserter(blockShape),
                [](int64_t d) { return d != 1; });
  llvm::copy_if(value.getShape(), std::back_inserter(valueShape),
                [](int64_t d) { return d != 1; });
  if (blockShape != valueShape ||
      value.getElementTypeBitWidth() != block.getElementTypeBitWidth())
    return op->emitOpError("value type ")
           << value << " does not match the descriptor block " << block;
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return verifyDescriptorBlock(*this, getDesc().getType(), getType(),
                               getIndices().size());
}

LogicalResult DescriptorStoreOp::verify() {
  return verifyDescriptorBlock(*this, getDesc().getType(), getSrc().getType(),
                               getIndices().size());
}

LogicalResult DescriptorReduceOp::verify() {
  return verifyDescriptorBlock(*this, getDesc().getType(), getSrc().getType(),
                               getIndices().size());
}

void DescriptorLoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Read::get());
}

void DescriptorStoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Write::get());
}

void DescriptorReduceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Read::get());
  addGlobalEffect(effects, MemoryEffects::Write::get());
}

void DescriptorGatherOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Read::get());
}

void DescriptorScatterOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  addGlobalEffect(effects, MemoryEffects::Write::get());
}
