//===- InPlaceReads.h - loads whose block can be read where it lies ------===//
//
// A strided load normally copies its block at its program point, because the
// kernel may store to the same memory later and bufferization cannot see
// that the two alias. Where nothing can write memory before the loaded
// tensor's last use, the copy is only a cost: the consumers can read the
// block through its view (a dot's or a reduction's operands, the elementwise
// ops before it).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_ANALYSIS_INPLACEREADS_H
#define REFCPU_ANALYSIS_INPLACEREADS_H

#include "mlir/IR/Operation.h"

namespace refcpu {

/// Whether the tensor that `load` (a tt.load or tt.descriptor_load) yields
/// may be read from the loaded memory itself: every use is a tt.dot,
/// tt.reduce, tt.scan or an arith/math elementwise op in the load's block
/// (ops whose results are new tensors, not views of the operand), and no op
/// may write memory (ops of unknown effects count as writing) from the load
/// to its last use when all uses are dots, reductions or scans, to the end
/// of the block otherwise: elementwise uses may be fused into later
/// consumers.
bool canReadInPlace(mlir::Operation *load);

} // namespace refcpu

#endif // REFCPU_ANALYSIS_INPLACEREADS_H
