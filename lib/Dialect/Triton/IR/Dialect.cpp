//===- Dialect.cpp - tt dialect registration and types --------------------===//
//
// Registers the tt dialect and implements its types: `!tt.ptr<T[, AS]>` with
// the default address space 1 elided, and `!tt.tensordesc<tensor<...>>`.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::triton;

#include "refcpu/Dialect/Triton/IR/TritonDialect.cpp.inc"
#include "refcpu/Dialect/Triton/IR/TritonEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "refcpu/Dialect/Triton/IR/TritonTypes.cpp.inc"

void TTDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "refcpu/Dialect/Triton/IR/TritonTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "refcpu/Dialect/Triton/IR/TritonOps.cpp.inc"
      >();
}

/// Triton's global address space; it is the default and never printed.
static constexpr int kDefaultAddressSpace = 1;

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = kDefaultAddressSpace;
  if (parser.parseLess() || parser.parseType(pointee))
    return Type();
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseInteger(addressSpace))
    return Type();
  if (parser.parseGreater())
    return Type();
  return PointerType::get(pointee, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != kDefaultAddressSpace)
    printer << ", " << getAddressSpace();
  printer << ">";
}

Type mlir::triton::getPointeeType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(),
                                 getPointeeType(tensor.getElementType()));
  if (auto ptr = dyn_cast<PointerType>(type))
    return ptr.getPointeeType();
  return type;
}

Type mlir::triton::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1);
  return i1;
}

Type mlir::triton::getBlockPointerBaseType(Type blockPointerType) {
  auto ptr = cast<PointerType>(blockPointerType);
  auto block = cast<RankedTensorType>(ptr.getPointeeType());
  return PointerType::get(block.getElementType(), ptr.getAddressSpace());
}
