//===- TypeConverter.cpp - tt types -> builtin types ----------------------===//
//
// A pointer is an i64 address: `!tt.ptr<f32>` -> i64 and
// `tensor<16x!tt.ptr<f32>>` -> `tensor<16xi64>`. tt.addptr scales offsets by
// the pointee size, so the pointee type is no longer needed after lowering.
// Block pointers are rewritten away before this conversion runs.
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
  auto materialize = [](OpBuilder &builder, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(builder, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}
