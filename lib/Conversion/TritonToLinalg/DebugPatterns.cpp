//===- DebugPatterns.cpp - tt.print and tt.assert -------------------------===//
//
// tt.print prints one line per element, as Triton does on the GPU:
//
//   pid (0, 0, 0) idx (3) vals: 0.100000
//   pid (0, 0, 0) idx (1, 0) two: (operand 1) 2
//
// through the C library's printf, with the format of each operand's type
// (%f for floats, %d / %u by signedness, zero-padded hex with hex = true).
//
// tt.assert calls the runtime's refcpu_rt_assert_fail(message, file, line,
// pid x, y, z) when any element of the condition is false; the runtime fails
// the launch with that message and skips the programs not yet started.
//
//===----------------------------------------------------------------------===//

#include "RuntimeReports.h"
#include "Shapes.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace refcpu;

Value refcpu::globalString(OpBuilder &b, Location loc, Operation *module,
                           StringRef value) {
  std::string name =
      llvm::formatv("refcpu.str.{0:x16}", llvm::xxh3_64bits(value)).str();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    // Built at the module, not at `b`, which may be in a region that is not
    // attached to it yet. C readers need the NUL.
    std::string terminated = value.str();
    terminated.push_back('\0');
    OpBuilder top(module->getContext());
    top.setInsertionPointToStart(&module->getRegion(0).front());
    auto type = LLVM::LLVMArrayType::get(top.getI8Type(), terminated.size());
    LLVM::GlobalOp::create(top, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           top.getStringAttr(terminated));
  }
  return LLVM::AddressOfOp::create(b, loc, ptrType, name);
}

std::pair<std::string, int64_t> refcpu::sourcePosition(Location loc) {
  std::pair<std::string, int64_t> position{"unknown", 0};
  loc->walk([&](Location inner) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
      position = {fileLoc.getFilename().str(), fileLoc.getLine()};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return position;
}

namespace {

Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

/// The printf conversion of a value of `type`.
std::string formatSpec(Type type, bool isSigned, bool hex) {
  if (isa<FloatType>(type))
    return "%f";
  unsigned width = type.getIntOrFloatBitWidth();
  bool wide = width > 32;
  if (hex)
    return wide ? "0x%016llx"
                : llvm::formatv("0x%0{0}x", std::max(2u, width / 4)).str();
  if (width == 1)
    return "%u";
  return std::string(wide ? "%ll" : "%") + (isSigned ? "d" : "u");
}

/// `v` as printf's varargs expect it: floats as double, small ints as int.
Value printfArgument(OpBuilder &b, Location loc, Value v, bool isSigned,
                     bool hex) {
  Type type = v.getType();
  if (isa<FloatType>(type))
    return type.isF64() ? v : arith::ExtFOp::create(b, loc, b.getF64Type(), v);
  if (type.getIntOrFloatBitWidth() >= 32)
    return v;
  if (isSigned && !hex)
    return arith::ExtSIOp::create(b, loc, b.getI32Type(), v);
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), v);
}

struct PrintConversion : OpConversionPattern<triton::PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Operation *module = op->getParentOfType<ModuleOp>();
    auto ptrType = LLVM::LLVMPointerType::get(getContext());
    auto printf = LLVM::lookupOrCreateFn(rewriter, module, "printf", {ptrType},
                                         rewriter.getI32Type(), /*isVarArg=*/true);
    auto fflush = LLVM::lookupOrCreateFn(rewriter, module, "fflush", {ptrType},
                                         rewriter.getI32Type());
    if (failed(printf) || failed(fflush))
      return op.emitOpError("printf or fflush has an unexpected signature");
    SmallVector<Value> pid;
    for (unsigned axis = 0; axis < 3; ++axis)
      pid.push_back(getGridArgument(op, 3 + axis));
    // Triton's prefixes carry their own leading space (" x: "). A prefix is
    // user text inside a printf format: its '%' must print as itself, never
    // read (or, with %n, write) varargs that are not there.
    std::string head = "pid (%d, %d, %d)";
    std::string prefix;
    for (char c : op.getPrefix()) {
      prefix += c;
      if (c == '%')
        prefix += '%';
    }
    // Format strings are created here, outside the loops: a loop body is
    // built before it is attached to the module.
    auto print = [&](OpBuilder &b, Location loc, Value format,
                     ValueRange values) {
      SmallVector<Value> args{format};
      args.append(pid);
      args.append(values.begin(), values.end());
      LLVM::CallOp::create(b, loc, *printf, args);
    };

    ValueRange operands = adaptor.getArgs();
    if (operands.empty())
      print(rewriter, loc,
            globalString(rewriter, loc, module, head + prefix + "\n"),
            {});
    ArrayRef<int32_t> isSigned = op.getIsSigned();
    for (auto [k, element] : llvm::enumerate(operands)) {
      Value operand = element; // captured by the lane loop below
      bool sign = k < isSigned.size() && isSigned[k] != 0;
      std::string operandTag =
          operands.size() > 1 ? llvm::formatv("(operand {0}) ", k).str() : "";
      auto tensorType = dyn_cast<RankedTensorType>(operand.getType());
      if (!tensorType) {
        std::string format = head + " idx ()" + prefix +
                             operandTag +
                             formatSpec(operand.getType(), sign, op.getHex()) + "\n";
        print(rewriter, loc, globalString(rewriter, loc, module, format),
              printfArgument(rewriter, loc, operand, sign, op.getHex()));
        continue;
      }
      SmallVector<std::string> dims(tensorType.getRank(), "%d");
      std::string spec =
          formatSpec(tensorType.getElementType(), sign, op.getHex());
      Value format = globalString(
          rewriter, loc, module,
          head + " idx (" + llvm::join(dims, ", ") + ")" + prefix +
              operandTag + spec + "\n");
      forEachLane(rewriter, loc, tensorType.getShape(), Value(),
                  [&](OpBuilder &b, Location loc, ValueRange ivs, Value) {
                    Value element = tensor::ExtractOp::create(b, loc, operand, ivs);
                    SmallVector<Value> values;
                    for (Value iv : ivs)
                      values.push_back(
                          arith::IndexCastOp::create(b, loc, b.getI32Type(), iv));
                    values.push_back(
                        printfArgument(b, loc, element, sign, op.getHex()));
                    print(b, loc, format, values);
                    return Value();
                  });
    }
    Value null = LLVM::ZeroOp::create(rewriter, loc, ptrType);
    LLVM::CallOp::create(rewriter, loc, *fflush, ValueRange{null});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertConversion : OpConversionPattern<triton::AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Operation *module = op->getParentOfType<ModuleOp>();
    auto ptrType = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    auto fail = LLVM::lookupOrCreateFn(
        rewriter, module, REFCPU_RT_ASSERT_FAIL,
        {ptrType, ptrType, i32, i32, i32, i32}, LLVM::LLVMVoidType::get(getContext()));
    if (failed(fail))
      return op.emitOpError(REFCPU_RT_ASSERT_FAIL " has an unexpected signature");

    // The assertion holds when every element of the condition is true.
    Value holds = adaptor.getCondition();
    if (auto tensorType = dyn_cast<RankedTensorType>(holds.getType())) {
      Value all = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
      Value init = tensor::FromElementsOp::create(
          rewriter, loc, RankedTensorType::get({}, rewriter.getI1Type()), all);
      Value reduced = forEachLane(
          rewriter, loc, tensorType.getShape(), init,
          [&](OpBuilder &b, Location loc, ValueRange ivs, Value acc) {
            Value element = tensor::ExtractOp::create(b, loc, holds, ivs);
            Value sofar = tensor::ExtractOp::create(b, loc, acc, ValueRange{});
            Value both = arith::AndIOp::create(b, loc, sofar, element);
            return tensor::InsertOp::create(b, loc, both, acc, ValueRange{})
                .getResult();
          });
      holds = tensor::ExtractOp::create(rewriter, loc, reduced, ValueRange{});
    }
    Value fails = arith::XOrIOp::create(
        rewriter, loc, holds, arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    auto position = sourcePosition(loc);
    StringRef file = position.first;
    int64_t line = position.second;
    // Created outside the scf.if: its region is built before it is attached.
    Value message = globalString(rewriter, loc, module, op.getMessage());
    Value fileName = globalString(rewriter, loc, module, file);
    scf::IfOp::create(rewriter, loc, fails, [&](OpBuilder &b, Location loc) {
      SmallVector<Value> args{message, fileName, i32Constant(b, loc, line)};
      for (unsigned axis = 0; axis < 3; ++axis)
        args.push_back(getGridArgument(op, 3 + axis));
      LLVM::CallOp::create(b, loc, *fail, args);
      scf::YieldOp::create(b, loc);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void refcpu::populateDebugConversionPatterns(const TritonTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<PrintConversion, AssertConversion>(converter,
                                                  patterns.getContext());
}
