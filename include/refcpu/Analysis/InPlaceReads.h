//===- InPlaceReads.h - loads whose block can be read where it lies ------===//
//
// A strided load normally copies its block at its program point, because the
// kernel may store to the same memory later and bufferization cannot see
// that the two alias. Where nothing can write memory before the last op
// that reads the loaded tensor, the copy is only a cost: the consumers can
// read the block through its view (a dot's or a reduction's operands, the
// elementwise ops computing what is stored).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_ANALYSIS_INPLACEREADS_H
#define REFCPU_ANALYSIS_INPLACEREADS_H

#include "mlir/IR/Operation.h"

#include "llvm/ADT/StringRef.h"

namespace refcpu {

/// Whether the tensor that `load` (a tt.load or tt.descriptor_load) yields
/// may be read from the loaded memory itself. Its uses, in the load's block,
/// must be arith/math elementwise ops (transitively: the closure), tt.dot,
/// tt.reduce and tt.scan of closure values, and tt.store of a closure value
/// (not of the loaded tensor itself, and only as the stored value). No op
/// may write memory (ops of unknown effects count as writing) from the load
/// to the last closure op, dot, reduction or scan: those read the block
/// where they stand or, fused, inside their consumers, while a store of a
/// closure value copies a block materialized before it.
bool canReadInPlace(mlir::Operation *load);

/// Whether an op that may write memory (ops of unknown effects count as
/// writing) can run before `op` in the same program: an op before it in its
/// block or in an enclosing block, or anywhere in an enclosing region that
/// may run more than once (a loop body) or has several blocks, or before a
/// call of its function (any function but a kernel that nothing calls).
bool mayRunAfterWrite(mlir::Operation *op);

/// Marks a tt.dot, then the linalg product it becomes, that no write of its
/// program can precede (!mayRunAfterWrite). The operands it reads in place
/// then hold the same values for every program of the launch that reads
/// them: programs are unordered, so what another program writes may or may
/// not be seen, as on the GPU. The runtime may pack such an operand once
/// per launch and share it between programs.
constexpr llvm::StringLiteral kSharedOperandsAttr = "refcpu.shared_operands";

} // namespace refcpu

#endif // REFCPU_ANALYSIS_INPLACEREADS_H
