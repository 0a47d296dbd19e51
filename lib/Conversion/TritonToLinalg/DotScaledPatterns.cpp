//===- DotScaledPatterns.cpp - tt.dot_scaled -------------------------------===//
//
// tt.dot_scaled is D = C + (A * 2^(sa-127)) x (B * 2^(sb-127)) with one scale
// per group of K elements (OCP microscaling). Both operands are decoded to
// f32, which holds every value of every format exactly, multiplied by their
// group scales, and multiplied as an f32 (batch_)matmul into C:
//
//   - e4m3 / e5m2 / bf16 / fp16 operands have their own float types and are
//     widened exactly;
//   - e2m1 (fp4) operands are i8 tensors holding two values per byte, the
//     element with the lower index in the low nibble, packed along K (when
//     lhs_k_pack / rhs_k_pack is true, the default) or along M / N;
//   - e2m3 / e3m2 (fp6) operands are i8 tensors holding one value in the low
//     six bits of each byte (Triton 3.6's frontend emits none; TTIR from other
//     producers may).
//
// None of the OCP fp4/fp6 formats has an infinity or NaN encoding. An e8m0
// scale of 0xFF is NaN; an fp8e4nv scale is widened like any fp8 value.
//
//===----------------------------------------------------------------------===//

#include "FloatConversions.h"
#include "Shapes.h"
#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace refcpu;

namespace {

using triton::ScaleDotElemType;

/// The exponent and mantissa widths of the OCP sub-byte formats; nullopt for
/// formats with a float type of their own.
std::optional<std::pair<unsigned, unsigned>> subByteLayout(ScaleDotElemType t) {
  switch (t) {
  case ScaleDotElemType::E2M1:
    return std::make_pair(2u, 1u);
  case ScaleDotElemType::E2M3:
    return std::make_pair(2u, 3u);
  case ScaleDotElemType::E3M2:
    return std::make_pair(3u, 2u);
  default:
    return std::nullopt;
  }
}

/// The f32 value of the sub-byte code `code` (i32, in its low bits) of a
/// format with `eBits` exponent and `mBits` mantissa bits (bias
/// 2^(eBits-1) - 1, no infinity or NaN).
Value decodeMiniFloat(OpBuilder &b, Location loc, Value code, unsigned eBits,
                      unsigned mBits) {
  auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); };
  int64_t bias = (1 << (eBits - 1)) - 1;
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, code, i32(mBits)), i32((1 << eBits) - 1));
  Value mantissa = arith::AndIOp::create(b, loc, code, i32((1 << mBits) - 1));
  Value sign = arith::AndIOp::create(b, loc, code, i32(1 << (eBits + mBits)));
  // Normal: the same exponent and mantissa moved into f32's fields.
  Value normalBits = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc, arith::AddIOp::create(b, loc, exponent, i32(127 - bias)),
                            i32(23)),
      arith::ShLIOp::create(b, loc, mantissa, i32(23 - mBits)));
  Value normal = arith::BitcastOp::create(b, loc, b.getF32Type(), normalBits);
  // Subnormal (exponent 0): mantissa * 2^(1 - bias - mBits), exact in f32.
  Value subnormal = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), mantissa),
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                     APFloat(std::ldexp(1.0f, 1 - bias - mBits))));
  Value isSubnormal =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, exponent, i32(0));
  Value magnitude = arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, sign, i32(0));
  return arith::SelectOp::create(b, loc, negative,
                                 arith::NegFOp::create(b, loc, magnitude), magnitude);
}

/// Decodes the i8 tensor `packed` of sub-byte format `format` to f32. e2m1
/// holds two elements per byte along `packDim`, which doubles; fp6 one.
Value decodeSubByte(OpBuilder &b, Location loc, Value packed, ScaleDotElemType format,
                    int64_t packDim) {
  auto [eBits, mBits] = *subByteLayout(format);
  auto type = cast<RankedTensorType>(packed.getType());
  int64_t rank = type.getRank();
  unsigned perByte = eBits + mBits + 1 <= 4 ? 2 : 1;
  // The result with the elements of one byte along an extra dimension
  // (packDim + 1), collapsed into packDim afterwards: element 2i + j of
  // packDim is nibble j of byte i.
  SmallVector<int64_t> shape(type.getShape());
  if (perByte == 2)
    shape.insert(shape.begin() + packDim + 1, 2);
  int64_t loops = shape.size();
  SmallVector<AffineExpr> inputDims;
  for (int64_t d = 0; d < loops; ++d)
    if (perByte == 1 || d != packDim + 1)
      inputDims.push_back(b.getAffineDimExpr(d));
  AffineMap inputMap = AffineMap::get(loops, 0, inputDims, b.getContext());
  Value init = tensor::EmptyOp::create(b, loc, shape, b.getF32Type());
  Value decoded =
      linalg::GenericOp::create(
          b, loc, init.getType(), ValueRange{packed}, ValueRange{init},
          ArrayRef<AffineMap>{inputMap, b.getMultiDimIdentityMap(loops)},
          SmallVector<utils::IteratorType>(loops, utils::IteratorType::parallel),
          [&](OpBuilder &b, Location loc, ValueRange args) {
            Value byte = arith::ExtUIOp::create(b, loc, b.getI32Type(), args[0]);
            Value code = byte;
            if (perByte == 2) {
              Value nibble = arith::IndexCastOp::create(
                  b, loc, b.getI32Type(), linalg::IndexOp::create(b, loc, packDim + 1));
              Value shift = arith::ShLIOp::create(
                  b, loc, nibble, arith::ConstantIntOp::create(b, loc, 2, 32));
              code = arith::AndIOp::create(
                  b, loc, arith::ShRUIOp::create(b, loc, byte, shift),
                  arith::ConstantIntOp::create(b, loc, 0xF, 32));
            }
            linalg::YieldOp::create(b, loc,
                                    ValueRange{decodeMiniFloat(b, loc, code, eBits, mBits)});
          })
          .getResult(0);
  if (perByte == 1)
    return decoded;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == packDim)
      groups.push_back({d, d + 1});
    else
      groups.push_back({d < packDim ? d : d + 1});
  }
  return tensor::CollapseShapeOp::create(b, loc, decoded, groups);
}

/// The f32 value of each scale of `scales` ([batch,] rows, groups): e8m0
/// bytes are 2^(s - 127) with 0xFF NaN, float scales are widened.
FailureOr<Value> decodeScales(OpBuilder &b, Location loc, Value scales) {
  auto type = cast<RankedTensorType>(scales.getType());
  if (isa<FloatType>(type.getElementType()))
    return convertFloat(b, loc, scales, type.clone(b.getF32Type()), /*towardZero=*/false);
  int64_t rank = type.getRank();
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), b.getF32Type());
  auto map = b.getMultiDimIdentityMap(rank);
  return linalg::GenericOp::create(
             b, loc, empty.getType(), ValueRange{scales}, ValueRange{empty},
             ArrayRef<AffineMap>{map, map},
             SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
             [&](OpBuilder &b, Location loc, ValueRange args) {
               auto i32 = [&](int64_t v) {
                 return arith::ConstantIntOp::create(b, loc, v, 32);
               };
               // The byte is the biased exponent of an f32; 0 is the
               // subnormal 2^-127 and 0xFF NaN, as the f32 encoding has them.
               Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), args[0]);
               Value bits = arith::ShLIOp::create(b, loc, wide, i32(23));
               Value isZero =
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wide, i32(0));
               bits = arith::SelectOp::create(b, loc, isZero, i32(0x00400000), bits);
               Value isNaN =
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, wide, i32(0xFF));
               bits = arith::SelectOp::create(b, loc, isNaN, i32(0x7FC00000), bits);
               linalg::YieldOp::create(
                   b, loc, ValueRange{arith::BitcastOp::create(b, loc, b.getF32Type(), bits)});
             })
      .getResult(0);
}

/// `scales` ([batch,] rows, groups) as f32 factors repeated over the K
/// elements of each group: ([batch,] rows, k).
FailureOr<Value> expandScales(OpBuilder &b, Location loc, Value scales, int64_t k) {
  FailureOr<Value> values = decodeScales(b, loc, scales);
  if (failed(values))
    return failure();
  auto type = cast<RankedTensorType>(scales.getType());
  int64_t rank = type.getRank(), groups = type.getShape().back();
  SmallVector<int64_t> repeated(type.getShape());
  repeated.push_back(k / groups);
  Value init = tensor::EmptyOp::create(b, loc, repeated, b.getF32Type());
  Value broadcast = linalg::BroadcastOp::create(b, loc, *values, init,
                                                ArrayRef<int64_t>{rank})
                        ->getResult(0);
  SmallVector<int64_t> result(type.getShape());
  result.back() = k;
  return reshapeRowMajor(b, loc, broadcast,
                         RankedTensorType::get(result, b.getF32Type()));
}

/// Swaps the last two dimensions of `value`.
Value transposeInner(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 1], perm[rank - 2]);
  SmallVector<int64_t> shape(type.getShape());
  std::swap(shape[rank - 1], shape[rank - 2]);
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm)->getResult(0);
}

/// Multiplies `operand` by `factors` element by element (same shape).
Value multiply(OpBuilder &b, Location loc, Value operand, Value factors) {
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), b.getF32Type());
  auto map = b.getMultiDimIdentityMap(rank);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{operand, factors}, ValueRange{init},
             ArrayRef<AffineMap>{map, map, map},
             SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
             [&](OpBuilder &b, Location loc, ValueRange args) {
               linalg::YieldOp::create(
                   b, loc, ValueRange{arith::MulFOp::create(b, loc, args[0], args[1])});
             })
      .getResult(0);
}

struct DotScaledConversion : OpConversionPattern<triton::DotScaledOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(triton::DotScaledOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto cType = cast<RankedTensorType>(adaptor.getC().getType());
    int64_t rank = cType.getRank();
    if (!cType.getElementType().isF32())
      return op.emitOpError("only an f32 accumulator is supported");
    // Each operand as f32 in its logical shape: [batch,] M, K for A and
    // [batch,] K, N for B. packDim is where e2m1 packs two elements.
    auto decode = [&](Value operand, ScaleDotElemType format,
                      int64_t packDim) -> FailureOr<Value> {
      if (subByteLayout(format))
        return decodeSubByte(rewriter, loc, operand, format, packDim);
      auto type = cast<RankedTensorType>(operand.getType());
      return convertFloat(rewriter, loc, operand, type.clone(rewriter.getF32Type()),
                          /*towardZero=*/false);
    };
    FailureOr<Value> a = decode(adaptor.getA(), op.getAElemType(),
                                op.getLhsKPack() ? rank - 1 : rank - 2);
    FailureOr<Value> b = decode(adaptor.getB(), op.getBElemType(),
                                op.getRhsKPack() ? rank - 2 : rank - 1);
    if (failed(a) || failed(b))
      return op.emitOpError("operand types are not supported");
    int64_t k = cast<RankedTensorType>(a->getType()).getShape().back();
    Value lhs = *a, rhs = *b;
    if (Value scales = adaptor.getAScale()) {
      FailureOr<Value> factors = expandScales(rewriter, loc, scales, k);
      if (failed(factors))
        return op.emitOpError("A's scale type is not supported");
      lhs = multiply(rewriter, loc, lhs, *factors);
    }
    if (Value scales = adaptor.getBScale()) {
      // B's scales are per column ([batch,] N, groups).
      FailureOr<Value> factors = expandScales(rewriter, loc, scales, k);
      if (failed(factors))
        return op.emitOpError("B's scale type is not supported");
      rhs = multiply(rewriter, loc, rhs, transposeInner(rewriter, loc, *factors));
    }
    if (rank == 3)
      rewriter.replaceOpWithNewOp<linalg::BatchMatmulOp>(
          op, SmallVector<Value>{lhs, rhs}, adaptor.getC());
    else
      rewriter.replaceOpWithNewOp<linalg::MatmulOp>(op, SmallVector<Value>{lhs, rhs},
                                                    adaptor.getC());
    return success();
  }
};

} // namespace

void refcpu::populateDotScaledConversionPatterns(const TritonTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<DotScaledConversion>(converter, patterns.getContext());
}
