//===- Passes.h - refcpu transformation passes ------------------*- C++ -*-===//

#ifndef REFCPU_TRANSFORMS_PASSES_H
#define REFCPU_TRANSFORMS_PASSES_H

#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace refcpu {

#define GEN_PASS_DECL
#include "refcpu/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "refcpu/Transforms/Passes.h.inc"

} // namespace refcpu

#endif // REFCPU_TRANSFORMS_PASSES_H
