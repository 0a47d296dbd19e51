//===- Registration.cpp - dialects and passes refcpu uses -----------------===//

#include "refcpu/Conversion/Passes.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"
#include "refcpu/Pipelines/Pipelines.h"
#include "refcpu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

using namespace mlir;

void refcpu::registerDialects(DialectRegistry &registry) {
  registry.insert<triton::TTDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  func::registerInlinerExtension(registry);
  registerLLVMOpEffects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

namespace {
/// PipelineOptions as textual pipeline options, e.g.
/// `--refcpu-ttir-to-linalg='preset=fast check-bounds=true'`. The default
/// preset is the reference one: the plain path, which most lit tests check.
struct RegisteredPipelineOptions
    : public PassPipelineOptions<RegisteredPipelineOptions> {
  Option<refcpu::Preset> preset{
      *this, "preset", llvm::cl::desc("code generation preset"),
      llvm::cl::init(refcpu::Preset::Reference),
      llvm::cl::values(
          clEnumValN(refcpu::Preset::Fast, "fast", "optimized"),
          clEnumValN(refcpu::Preset::Reference, "reference",
                     "plain linalg -> loops pipeline"))};
  Option<bool> checkBounds{*this, "check-bounds",
                           llvm::cl::desc("check every access against its "
                                          "argument's extent"),
                           llvm::cl::init(false)};
  Option<bool> debug{*this, "debug",
                     llvm::cl::desc("give every llvm.func a DWARF scope, so "
                                    "that op locations become a line table"),
                     llvm::cl::init(false)};

  refcpu::PipelineOptions get() const { return {preset, checkBounds, debug}; }
};
} // namespace

void refcpu::registerPassesAndPipelines() {
  registerRefcpuConversionPasses();
  registerRefcpuTransformsPasses();
  PassPipelineRegistration<RegisteredPipelineOptions>(
      "refcpu-ttir-to-linalg",
      "Lower TTIR to func/linalg/tensor/scf/arith/math (the tt-level "
      "optimizations of the preset, then the conversion)",
      [](OpPassManager &pm, const RegisteredPipelineOptions &registered) {
        buildTTIROptimization(pm, registered.get());
        buildTTIRToLinalg(pm, registered.get());
      });
  PassPipelineRegistration<RegisteredPipelineOptions>(
      "refcpu-linalg-to-llvm",
      "Lower structured tensor IR to the LLVM dialect",
      [](OpPassManager &pm, const RegisteredPipelineOptions &registered) {
        buildLinalgToLLVM(pm, registered.get());
      });
}
