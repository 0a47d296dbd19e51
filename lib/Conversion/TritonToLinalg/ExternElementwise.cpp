//===- ExternElementwise.cpp - libdevice calls to math / arith ops --------===//
//
// TTIR exported from CUDA pipelines calls CUDA libdevice by name:
//
//   %y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true,
//                                  symbol = "__nv_tanhf"} : (...) -> ...
//     -> %y = math.tanh %x
//
// The table maps each libdevice function (f32 names end in `f`, f64 names do
// not) to math / arith ops on the same tensor or scalar types; the math ops
// later become LLVM intrinsics or libm calls. Functions the math dialect has
// no op for (the Bessel functions) call the runtime's f64 builtins
// refcpu_rt_bessel_* element by element. Unknown symbols are reported.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace refcpu;

namespace {

using Builder = std::function<Value(OpBuilder &, Location, Type, ValueRange)>;

template <typename OpTy>
Builder op() {
  return [](OpBuilder &b, Location loc, Type type, ValueRange args) -> Value {
    return OpTy::create(b, loc, type, args).getResult();
  };
}

Value splatLike(OpBuilder &b, Location loc, Type like, TypedAttr scalar) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return arith::ConstantOp::create(
        b, loc, tensor, SplatElementsAttr::get(tensor.clone(scalar.getType()), scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// `pred(x)` as an i32 0/1, the libdevice convention for classification.
Builder classify(std::function<Value(OpBuilder &, Location, Value)> pred) {
  return [pred](OpBuilder &b, Location loc, Type type, ValueRange args) -> Value {
    return arith::ExtUIOp::create(b, loc, type, pred(b, loc, args[0]));
  };
}

/// Integer bit counts (popc, clz) return i32 whatever the operand width.
template <typename OpTy>
Builder bitCount() {
  return [](OpBuilder &b, Location loc, Type type, ValueRange args) -> Value {
    Value count = OpTy::create(b, loc, args[0]);
    unsigned from = getElementTypeOrSelf(count.getType()).getIntOrFloatBitWidth();
    unsigned to = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    if (from > to)
      return arith::TruncIOp::create(b, loc, type, count);
    if (from < to)
      return arith::ExtUIOp::create(b, loc, type, count);
    return count;
  };
}

/// A unary function computed by the runtime builtin `symbol` (f64 -> f64):
/// narrower operands are widened for the call and the result rounded back,
/// tensors are mapped element by element.
Builder runtimeCall(StringRef symbol) {
  return [symbol](OpBuilder &b, Location loc, Type type, ValueRange args) -> Value {
    Operation *module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    Type f64 = b.getF64Type();
    FailureOr<LLVM::LLVMFuncOp> callee =
        LLVM::lookupOrCreateFn(b, module, symbol, {f64}, f64);
    auto scalar = [&](OpBuilder &b, Location loc, Value x) -> Value {
      Type elt = x.getType();
      if (elt != f64)
        x = arith::ExtFOp::create(b, loc, f64, x);
      Value y = LLVM::CallOp::create(b, loc, *callee, ValueRange{x}).getResult();
      if (elt != f64)
        y = arith::TruncFOp::create(b, loc, elt, y);
      return y;
    };
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return scalar(b, loc, args[0]);
    Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                          tensor.getElementType());
    auto map = b.getMultiDimIdentityMap(tensor.getRank());
    return linalg::GenericOp::create(
               b, loc, tensor, args[0], empty, ArrayRef<AffineMap>{map, map},
               SmallVector<utils::IteratorType>(tensor.getRank(),
                                                utils::IteratorType::parallel),
               [&](OpBuilder &b, Location loc, ValueRange lane) {
                 linalg::YieldOp::create(b, loc, scalar(b, loc, lane[0]));
               })
        .getResult(0);
  };
}

const llvm::StringMap<Builder> &libdeviceTable() {
  static const llvm::StringMap<Builder> table = [] {
    llvm::StringMap<Builder> t;
    // Unary float functions.
    t["exp"] = op<math::ExpOp>();
    t["fast_exp"] = op<math::ExpOp>();
    t["exp2"] = op<math::Exp2Op>();
    t["expm1"] = op<math::ExpM1Op>();
    t["log"] = op<math::LogOp>();
    t["fast_log"] = op<math::LogOp>();
    t["log2"] = op<math::Log2Op>();
    t["log10"] = op<math::Log10Op>();
    t["log1p"] = op<math::Log1pOp>();
    t["sin"] = op<math::SinOp>();
    t["fast_sin"] = op<math::SinOp>();
    t["cos"] = op<math::CosOp>();
    t["fast_cos"] = op<math::CosOp>();
    t["tan"] = op<math::TanOp>();
    t["asin"] = op<math::AsinOp>();
    t["acos"] = op<math::AcosOp>();
    t["atan"] = op<math::AtanOp>();
    t["sinh"] = op<math::SinhOp>();
    t["cosh"] = op<math::CoshOp>();
    t["tanh"] = op<math::TanhOp>();
    t["asinh"] = op<math::AsinhOp>();
    t["acosh"] = op<math::AcoshOp>();
    t["atanh"] = op<math::AtanhOp>();
    t["erf"] = op<math::ErfOp>();
    t["erfc"] = op<math::ErfcOp>();
    t["sqrt"] = op<math::SqrtOp>();
    t["rsqrt"] = op<math::RsqrtOp>();
    t["cbrt"] = op<math::CbrtOp>();
    t["floor"] = op<math::FloorOp>();
    t["ceil"] = op<math::CeilOp>();
    t["trunc"] = op<math::TruncOp>();
    t["round"] = op<math::RoundOp>();
    t["rint"] = op<math::RoundEvenOp>();
    t["nearbyint"] = op<math::RoundEvenOp>();
    t["fabs"] = op<math::AbsFOp>();
    t["j0"] = runtimeCall(REFCPU_RT_BESSEL_J0);
    t["j1"] = runtimeCall(REFCPU_RT_BESSEL_J1);
    t["y0"] = runtimeCall(REFCPU_RT_BESSEL_Y0);
    t["y1"] = runtimeCall(REFCPU_RT_BESSEL_Y1);
    t["cyl_bessel_i0"] = runtimeCall(REFCPU_RT_BESSEL_I0);
    t["cyl_bessel_i1"] = runtimeCall(REFCPU_RT_BESSEL_I1);
    // Binary and ternary float functions.
    t["pow"] = op<math::PowFOp>();
    t["fast_pow"] = op<math::PowFOp>();
    t["powi"] = op<math::FPowIOp>();
    t["atan2"] = op<math::Atan2Op>();
    t["fmod"] = op<arith::RemFOp>();
    t["fmin"] = op<arith::MinNumFOp>();
    t["fmax"] = op<arith::MaxNumFOp>();
    t["copysign"] = op<math::CopySignOp>();
    t["fma"] = op<math::FmaOp>();
    t["fdiv_rn"] = op<arith::DivFOp>();
    t["div_rn"] = op<arith::DivFOp>();
    t["fsqrt_rn"] = op<math::SqrtOp>();
    t["sqrt_rn"] = op<math::SqrtOp>();
    t["fadd_rn"] = op<arith::AddFOp>();
    t["dadd_rn"] = op<arith::AddFOp>();
    t["fmul_rn"] = op<arith::MulFOp>();
    t["dmul_rn"] = op<arith::MulFOp>();
    t["fmaf_rn"] = op<math::FmaOp>();
    t["fma_rn"] = op<math::FmaOp>();
    // hi * sqrt(1 + (lo / hi)^2) does not overflow where x^2 + y^2 would;
    // an infinite operand gives inf even when the other is NaN (C's hypot).
    t["hypot"] = [](OpBuilder &b, Location loc, Type type, ValueRange args) -> Value {
      auto elt = cast<FloatType>(getElementTypeOrSelf(type));
      Value a = math::AbsFOp::create(b, loc, args[0]);
      Value c = math::AbsFOp::create(b, loc, args[1]);
      Value hi = arith::MaximumFOp::create(b, loc, a, c);
      Value lo = arith::MinimumFOp::create(b, loc, a, c);
      Value ratio = arith::DivFOp::create(b, loc, lo, hi);
      Value one = splatLike(b, loc, type, b.getFloatAttr(elt, 1.0));
      Value zero = splatLike(b, loc, type, b.getFloatAttr(elt, 0.0));
      Value inf = splatLike(b, loc, type, b.getFloatAttr(elt, INFINITY));
      Value root = math::SqrtOp::create(b, loc, math::FmaOp::create(b, loc, ratio, ratio, one));
      Value result = arith::MulFOp::create(b, loc, hi, root);
      Value hiIsZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, hi, zero);
      result = arith::SelectOp::create(b, loc, hiIsZero, zero, result);
      Value anyInf = arith::OrIOp::create(
          b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a, inf),
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, c, inf));
      return arith::SelectOp::create(b, loc, anyInf, inf, result);
    };
    t["exp10"] = [](OpBuilder &b, Location loc, Type type, ValueRange args) -> Value {
      auto elt = cast<FloatType>(getElementTypeOrSelf(type));
      Value ten = splatLike(b, loc, type, b.getFloatAttr(elt, 10.0));
      return math::PowFOp::create(b, loc, ten, args[0]);
    };
    // Classification (i32 results).
    auto isNan = classify([](OpBuilder &b, Location loc, Value x) -> Value {
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    });
    auto isInf = classify([](OpBuilder &b, Location loc, Value x) -> Value {
      return math::IsInfOp::create(b, loc, x);
    });
    auto isFinite = classify([](OpBuilder &b, Location loc, Value x) -> Value {
      return math::IsFiniteOp::create(b, loc, x);
    });
    auto signBit = classify([](OpBuilder &b, Location loc, Value x) -> Value {
      unsigned width = getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth();
      Type intType = b.getIntegerType(width);
      if (auto tensor = dyn_cast<RankedTensorType>(x.getType()))
        intType = tensor.clone(intType);
      Value bits = arith::BitcastOp::create(b, loc, intType, x);
      Value zero = splatLike(b, loc, intType,
                             b.getIntegerAttr(getElementTypeOrSelf(intType), 0));
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits, zero);
    });
    t["isnan"] = isNan;
    t["isnand"] = isNan;
    t["isinf"] = isInf;
    t["isinfd"] = isInf;
    t["finite"] = isFinite;
    t["isfinited"] = isFinite;
    t["signbit"] = signBit;
    t["signbitd"] = signBit;
    // Integer functions.
    t["popc"] = bitCount<math::CtPopOp>();
    t["popcll"] = bitCount<math::CtPopOp>();
    t["clz"] = bitCount<math::CountLeadingZerosOp>();
    t["clzll"] = bitCount<math::CountLeadingZerosOp>();
    t["abs"] = op<math::AbsIOp>();
    t["llabs"] = op<math::AbsIOp>();
    t["min"] = op<arith::MinSIOp>();
    t["max"] = op<arith::MaxSIOp>();
    t["umin"] = op<arith::MinUIOp>();
    t["umax"] = op<arith::MaxUIOp>();
    t["llmin"] = op<arith::MinSIOp>();
    t["llmax"] = op<arith::MaxSIOp>();
    return t;
  }();
  return table;
}

/// The table key of a libdevice symbol: `__nv_tanhf` on f32 is `tanh`.
std::string tableKey(StringRef symbol) {
  StringRef name = symbol;
  name.consume_front("__nv_");
  const auto &table = libdeviceTable();
  if (table.count(name))
    return name.str();
  // f32 variants carry an `f` suffix: expf, powif.
  if (name.ends_with("f") && table.count(name.drop_back()))
    return name.drop_back().str();
  return std::string();
}

struct ExternElementwiseConversion
    : OpConversionPattern<triton::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string key = tableKey(op.getSymbol());
    if (key.empty())
      return op.emitOpError("unsupported external function '")
             << op.getSymbol() << "'";
    Value result = libdeviceTable().lookup(key)(
        rewriter, op.getLoc(), op.getType(), adaptor.getSrcs());
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void refcpu::populateExternElementwisePatterns(
    const TritonTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseConversion>(converter, patterns.getContext());
}
