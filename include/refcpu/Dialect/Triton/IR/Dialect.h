//===- Dialect.h - The tt dialect ---------------------------------*- C++ -*-===//
//
// Types, attributes and operations of our `tt` dialect (Triton 3.6 TTIR).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_DIALECT_TRITON_IR_DIALECT_H
#define REFCPU_DIALECT_TRITON_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "refcpu/Dialect/Triton/IR/TritonDialect.h.inc"
#include "refcpu/Dialect/Triton/IR/TritonEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "refcpu/Dialect/Triton/IR/TritonTypes.h.inc"

namespace mlir {
namespace OpTrait {
namespace triton {

/// Every tensor operand and result of a tt op has a power-of-two number of
/// elements, at most 2^20 (Triton's TRITON_MAX_TENSOR_NUMEL).
LogicalResult verifyTensorSize(Operation *op);

template <typename ConcreteType>
class TensorSizeTrait : public TraitBase<ConcreteType, TensorSizeTrait> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyTensorSize(op);
  }
};

} // namespace triton
} // namespace OpTrait

namespace triton {

/// Pointee of a pointer, of each pointer of a tensor of pointers (as a tensor
/// of the same shape), or the block of a block pointer.
Type getPointeeType(Type type);

/// An i1 type (scalar or tensor) with the shape of `type`.
Type getI1SameShape(Type type);

/// The scalar base pointer type of a block pointer type.
Type getBlockPointerBaseType(Type blockPointerType);

} // namespace triton
} // namespace mlir

#define GET_OP_CLASSES
#include "refcpu/Dialect/Triton/IR/TritonOps.h.inc"

#endif // REFCPU_DIALECT_TRITON_IR_DIALECT_H
