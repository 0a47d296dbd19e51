//===- TypeConverter.cpp - tt types -> builtin types ----------------------===//
//
// A pointer is an i64 address: `!tt.ptr<f32>` -> i64 and
// `tensor<16x!tt.ptr<f32>>` -> `tensor<16xi64>`. tt.addptr scales offsets by
// the pointee size, so the pointee type is no longer needed after lowering.
// Block pointers and tensor descriptors become several values (their parts).
//
//===----------------------------------------------------------------------===//

#include "refcpu/Conversion/TritonToLinalg/TritonToLinalg.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

refcpu::TritonTypeConverter::TritonTypeConverter(MLIRContext *context) {
  addConversion([](Type type) { return type; });
  addConversion([context](triton::PointerType type) -> std::optional<Type> {
    if (isa<RankedTensorType>(type.getPointeeType()))
      return std::nullopt;
    return IntegerType::get(context, 64);
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    return RankedTensorType::get(type.getShape(), element);
  });
  // A block pointer is its parts: base address, shape and strides (i64, in
  // elements) and the i32 offsets of the block.
  addConversion([context](triton::PointerType type, SmallVectorImpl<Type> &parts)
                    -> std::optional<LogicalResult> {
    auto block = dyn_cast<RankedTensorType>(type.getPointeeType());
    if (!block)
      return std::nullopt;
    auto i64 = IntegerType::get(context, 64);
    parts.push_back(i64);
    parts.append(2 * block.getRank(), i64);
    parts.append(block.getRank(), IntegerType::get(context, 32));
    return success();
  });
  // A tensor descriptor: base address, shape and strides (i64), and whether
  // out-of-bounds elements read NaN (padding = nan) rather than zero.
  addConversion([context](triton::TensorDescType type,
                          SmallVectorImpl<Type> &parts) {
    auto i64 = IntegerType::get(context, 64);
    parts.push_back(i64);
    parts.append(2 * type.getBlockType().getRank(), i64);
    parts.push_back(IntegerType::get(context, 1));
    return success();
  });
  auto materialize = [](OpBuilder &builder, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}
