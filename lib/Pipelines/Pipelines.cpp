//===- Pipelines.cpp - refcpu pass pipelines ------------------------------===//
//
// The pass lists of DESIGN.md. TTIR -> linalg is refcpu's own conversion plus
// upstream elementwise-to-linalg; linalg -> LLVM is upstream passes only:
// bufferize, deallocate, linalg to loops, then every dialect to LLVM.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Pipelines/Pipelines.h"
#include "refcpu/Conversion/Passes.h"
#include "refcpu/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void refcpu::buildTTIROptimization(OpPassManager &pm, const PipelineOptions &options) {
  // Per-lane partial reductions reassociate floating-point sums, which the
  // reference preset, the plain path, does not do.
  if (options.preset == Preset::Fast)
    pm.addPass(createReduceLocality());
  // Pointer tensors that a loop advances uniformly become scalar offsets,
  // so that the conversion sees their accesses as strided blocks.
  pm.addPass(createLoopOffsets());
  // Then the blocks of a matmul's K loop have one form per iteration, and
  // U iterations' blocks can be loaded as one.
  if (options.preset == Preset::Fast)
    pm.addPass(createWidenKLoops());
}

void refcpu::buildTTIRToLinalg(OpPassManager &pm, const PipelineOptions &options) {
  TritonToLinalgOptions toLinalg;
  toLinalg.checkBounds = options.checkBounds;
  // The reference preset keeps the plain rule: every load copies its block.
  toLinalg.readInPlace = options.preset == Preset::Fast;
  pm.addPass(createTritonToLinalg(toLinalg));
  // Early returns (cf.cond_br, Triton's `return` inside `if`) become scf.if:
  // buffer deallocation does not handle unstructured branches.
  pm.addPass(createLiftControlFlowToSCFPass());
  // Tensor arith/math (the conversion keeps them) become linalg.generic,
  // which bufferizes and lowers to loops.
  pm.addPass(createConvertElementwiseToLinalgPass());
  // After that, every arith op is scalar: LLVM's undefined cases get the
  // GPU's results.
  pm.addPass(createArithSemantics());
  // Each access emits its own index arithmetic: fold and share it.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The address and mask blocks of a strided access are used only by its
  // per-lane fallback: computed there, they cost nothing when the view is
  // taken.
  pm.addPass(createControlFlowSinkPass());
}

void refcpu::buildLinalgToLLVM(OpPassManager &pm, const PipelineOptions &options) {
  // Address, mask and value chains run in their consumer's loop, not
  // through memory.
  if (options.preset == Preset::Fast)
    pm.addPass(createFuseElementwise());
  // Loop-carried blocks updated elementwise keep their buffer (before the
  // reshapes of collapse-dims hide which input is the carried block).
  if (options.preset == Preset::Fast)
    pm.addPass(createAccumulateInPlace());
  // After fusion, which would not fuse across the reshapes this adds.
  pm.addPass(createCollapseDims());
  // Folds the reshapes collapse-dims adds and what fusion leaves dead.
  pm.addPass(createCanonicalizerPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loop-carried tensors (dot accumulators, scans) may get a new buffer each
  // iteration; deallocation below frees the old one.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Folds the tensor <-> memref casts and copies bufferization leaves.
  pm.addPass(createCanonicalizerPass());
  // Blocks that fit go to the stack frame before deallocation sees them.
  if (options.preset == Preset::Fast) {
    pm.addPass(createStackBuffers());
    // Stored elementwise results skip their scratch buffer where no input
    // overlaps the output (checked at run time).
    pm.addPass(createDirectStores());
    // Launches that store more than the caches hold write around them.
    pm.addPass(createStreamingStores());
  }
  // Frees the heap buffers (it needs registerLLVMOpEffects for atomics).
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // The deallocation's bufferization.dealloc ops become memref ops.
  pm.addPass(createConvertBufferizationToMemRefPass());
  if (options.preset == Preset::Fast) {
    // Block products run on the runtime's register-tiled kernels.
    pm.addPass(createMatmulToRuntime());
    // The generic memrefCopy of strided copies is slow: loops instead.
    pm.addPass(createCopiesToLoops());
    // Reductions of small blocks as vector ops, lowered to one vector op
    // per row of the block before anything else becomes loops.
    pm.addPass(createVectorizeReductions());
    pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
    pm.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
  }
  // Scalar loops over memrefs, which LLVM's loop vectorizer takes.
  pm.addPass(createConvertLinalgToLoopsPass());
  // Except the loops of per-lane fallbacks, which run only when a run-time
  // check fails: LLVM neither unrolls nor vectorizes them (compile time).
  pm.addPass(createColdLoops());
  // Folds constant loop bounds and the loops' index arithmetic.
  pm.addPass(createCanonicalizerPass());
  // Views become explicit offset, size and stride arithmetic (affine.apply).
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Float max / min become compare + select: LLVM's intrinsics for them gave
  // wrong reductions on AVX-512. f32 -> bf16 rounding becomes integer
  // arithmetic (round to nearest even, NaN -> 0x7fc0, as torch rounds):
  // LLVM calls __truncsfbf2 per element on hosts without AVX512_BF16, and
  // on those with it vectorizes vcvtneps2bf16 four lanes at a time, which
  // also flushes subnormals that the GPU and torch keep.
  arith::ArithExpandOpsPassOptions expandOptions;
  expandOptions.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expandOptions));
  pm.addPass(createSCFToControlFlowPass());
  // Before math -> LLVM, which would make exp a libm call.
  if (options.preset == Preset::Fast)
    pm.addPass(createFastMath());
  // Math with an LLVM intrinsic becomes it; the rest calls libm (math on
  // vectors, one call per lane through vector.extract / insert).
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Triton treats combiners as associative: the lanes of a vectorized
  // reduction are folded as a tree.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.reassociateFPReductions = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  // Upstream's conversions to the LLVM dialect, one dialect each.
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  // Triton's loop annotations (disable_licm) reach LLVM IR from llvm.br.
  pm.addPass(createLoopAnnotations());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  // The casts the conversions left between their type systems cancel out.
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Folds what the conversions left before translation to LLVM IR.
  pm.addPass(createCanonicalizerPass());
  if (options.debug) {
    // One source line per op, then the scopes: translation to LLVM IR emits
    // op locations only inside functions with a DISubprogram. Full
    // emission, not line tables only: compileTTIR adds variables for the
    // kernel's arguments, program ids included.
    pm.addPass(createDebugLocations());
    LLVM::DIScopeForLLVMFuncOpPassOptions scope;
    scope.emissionKind = LLVM::DIEmissionKind::Full;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scope));
  }
}
