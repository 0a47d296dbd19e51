//===- FloatConversions.h - float conversions with GPU results --*- C++ -*-===//
//
// The float conversions of tt.fp_to_fp, arith casts, dot_scaled operands and
// reductions share (defined in FloatConversions.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_LIB_CONVERSION_TRITONTOLINALG_FLOATCONVERSIONS_H
#define REFCPU_LIB_CONVERSION_TRITONTOLINALG_FLOATCONVERSIONS_H

#include "mlir/IR/Builders.h"

namespace refcpu {

/// Converts floats (scalar or tensor) to `dstType`'s element type with
/// Triton's GPU results, fp8 formats included; `towardZero` selects rtz
/// rounding for narrowing (else rtne). Fails for unsupported formats.
mlir::FailureOr<mlir::Value> convertFloat(mlir::OpBuilder &b, mlir::Location loc,
                                          mlir::Value src, mlir::Type dstType,
                                          bool towardZero);

} // namespace refcpu

#endif // REFCPU_LIB_CONVERSION_TRITONTOLINALG_FLOATCONVERSIONS_H
