//===- GlobalViews.cpp - memrefs of global memory -------------------------===//

#include "refcpu/Analysis/GlobalViews.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value refcpu::getViewRoot(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

bool refcpu::isGlobalMemory(Value root) {
  auto cast = root.getDefiningOp<UnrealizedConversionCastOp>();
  return cast && cast->getNumOperands() == 1 &&
         isa<LLVM::LLVMStructType>(cast->getOperand(0).getType());
}
