//===- FuncPatterns.cpp - tt.func/call/return and program ids -------------===//
//
// Every tt.func becomes a func.func with the kernel ABI's six trailing i32
// grid arguments; calls forward the caller's grid arguments, and
// get_program_id / get_num_programs read them:
//
//   tt.func public @k(%p: !tt.ptr<f32>)   ->  func.func @k(%p: i64,
//     %pid = tt.get_program_id y : i32          %nx: i32, %ny: i32, %nz: i32,
//                                               %px: i32, %py: i32, %pz: i32)
//                                           (%pid is %py)
//
//===----------------------------------------------------------------------===//

#include "RuntimeReports.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace refcpu;

Value refcpu::getGridArgument(Operation *op, unsigned index) {
  auto func = op->getParentOfType<func::FuncOp>();
  Block &entry = func.getBody().front();
  return entry.getArgument(entry.getNumArguments() - kNumGridArgs + index);
}

namespace {

struct FuncOpConversion : OpConversionPattern<triton::FuncOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::FuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      Type converted = getTypeConverter()->convertType(input);
      if (!converted)
        return rewriter.notifyMatchFailure(op, "unsupported argument type");
      signature.addInputs(i, converted);
    }
    signature.addInputs(SmallVector<Type>(kNumGridArgs, rewriter.getI32Type()));
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return rewriter.notifyMatchFailure(op, "unsupported result type");

    auto func = func::FuncOp::create(
        rewriter, op.getLoc(), op.getName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    func.setVisibility(op.getVisibility());
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), *getTypeConverter(),
                                           &signature)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct CallOpConversion : OpConversionPattern<triton::CallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), results)))
      return failure();
    SmallVector<Value> operands(adaptor.getOperands());
    for (unsigned i = 0; i < kNumGridArgs; ++i)
      operands.push_back(getGridArgument(op, i));
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getCallee(), results,
                                              operands);
    return success();
  }
};

struct ReturnOpConversion : OpConversionPattern<triton::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, adaptor.getSrcs());
    return success();
  }
};

template <typename OpTy, unsigned FirstIndex>
struct GridQueryConversion : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned axis = static_cast<unsigned>(op.getAxis());
    rewriter.replaceOp(op, getGridArgument(op, FirstIndex + axis));
    return success();
  }
};

} // namespace

void refcpu::populateFuncConversionPatterns(const TritonTypeConverter &converter,
                                            RewritePatternSet &patterns) {
  patterns.add<FuncOpConversion, CallOpConversion, ReturnOpConversion,
               GridQueryConversion<triton::GetNumProgramsOp, 0>,
               GridQueryConversion<triton::GetProgramIdOp, 3>>(
      converter, patterns.getContext());
}
