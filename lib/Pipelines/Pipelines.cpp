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
  pm.addPass(createLoopOffsets());
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
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createArithSemantics());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void refcpu::buildLinalgToLLVM(OpPassManager &pm, const PipelineOptions &options) {
  if (options.preset == Preset::Fast)
    pm.addPass(createFuseElementwise());
  // After fusion, which would not fuse across the reshapes this adds.
  pm.addPass(createCollapseDims());
  pm.addPass(createCanonicalizerPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loop-carried tensors (dot accumulators, scans) may get a new buffer each
  // iteration; deallocation below frees the old one.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  if (options.preset == Preset::Fast)
    pm.addPass(createStackBuffers());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
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
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createSCFToControlFlowPass());
  if (options.preset == Preset::Fast)
    pm.addPass(createFastMath());
  // Triton treats combiners as associative: the lanes of a vectorized
  // reduction are folded as a tree.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.reassociateFPReductions = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  // Triton's loop annotations (disable_licm) reach LLVM IR from llvm.br.
  pm.addPass(createLoopAnnotations());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
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
