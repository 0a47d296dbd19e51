//===- TritonToLinalg.h - tt -> structured MLIR patterns --------*- C++ -*-===//

#ifndef REFCPU_CONVERSION_TRITONTOLINALG_TRITONTOLINALG_H
#define REFCPU_CONVERSION_TRITONTOLINALG_TRITONTOLINALG_H

#include "refcpu/Analysis/TrimmedK.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include "refcpu/kernel_abi.h"

#include <vector>

namespace refcpu {

/// Number of trailing i32 kernel arguments: num_programs x, y, z then
/// program_id x, y, z (refcpu/kernel_abi.h).
constexpr unsigned kNumGridArgs = REFCPU_NUM_GRID_ARGS;

/// Pointers become i64 addresses; tensors of pointers, tensors of addresses;
/// block pointers and tensor descriptors, their parts (several values).
class TritonTypeConverter : public mlir::TypeConverter {
public:
  explicit TritonTypeConverter(mlir::MLIRContext *context);
};

/// tt.func/call/return, get_program_id and get_num_programs.
void populateFuncConversionPatterns(const TritonTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
/// make_range, splat, unsplat, broadcast, expand_dims, reshape, trans, join,
/// split, cat, gather, histogram.
void populateShapeConversionPatterns(const TritonTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
/// load, store, atomic_rmw, atomic_cas. Loads read the bounds of the stores
/// that keep their dots' lanes in `laneBounds`, which must outlive the
/// conversion.
void populateMemoryConversionPatterns(const TritonTypeConverter &converter,
                                      const DotLaneBounds &laneBounds,
                                      mlir::RewritePatternSet &patterns);
/// make_tensor_ptr, advance, block-pointer load/store, tensor descriptors.
void populateBlockPointerConversionPatterns(const TritonTypeConverter &converter,
                                            mlir::RewritePatternSet &patterns);
/// addptr, int_to_ptr, ptr_to_int, bitcast, fp_to_fp, clampf, precise_*,
/// mulhiui, extern_elementwise, and non-tt ops whose types change.
void populateElementwiseConversionPatterns(const TritonTypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);
/// reduce, scan and dot; dots read their keeping stores' bounds in
/// `laneBounds`, which must outlive the conversion.
void populateReductionConversionPatterns(const TritonTypeConverter &converter,
                                         const DotLaneBounds &laneBounds,
                                         mlir::RewritePatternSet &patterns);
/// dot_scaled (microscaled formats, fp4 and fp6 included).
void populateDotScaledConversionPatterns(const TritonTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);

/// Which parameters of `kernel` (tt.func) a store, atomic or call may write
/// through: those its pointer is traced to, or every pointer and descriptor
/// parameter when it cannot be traced (BoundsCheck.cpp).
std::vector<bool> findWrittenParams(mlir::triton::FuncOp kernel);

/// tt.print (printf, one line per element) and tt.assert (runtime hook).
void populateDebugConversionPatterns(const TritonTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);

/// tt.extern_elementwise calls of CUDA libdevice names -> math / arith ops.
void populateExternElementwisePatterns(const TritonTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

} // namespace refcpu

#endif // REFCPU_CONVERSION_TRITONTOLINALG_TRITONTOLINALG_H
