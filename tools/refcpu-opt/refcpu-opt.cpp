//===- refcpu-opt.cpp - MLIR optimizer driver with the tt dialect ---------===//
//
// mlir-opt with our tt dialect, every upstream dialect and pass, and
// refcpu's conversion passes and pipelines. The input passes refcpu's input
// limits (nesting, size) before MLIR's parser sees it, as in compileTTIR.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Pipelines/Pipelines.h"
#include "refcpu/Target/InputLimits.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  refcpu::registerPassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  refcpu::registerDialects(registry);
  auto [inputName, outputName] = mlir::registerAndParseCLIOptions(
      argc, argv, "refcpu optimizer driver\n", registry);

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputName, &message);
  if (!input) {
    llvm::errs() << message << "\n";
    return 1;
  }
  if (llvm::Error err = refcpu::checkInputLimits(input->getBuffer(), inputName)) {
    llvm::errs() << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputName, &message);
  if (!output) {
    llvm::errs() << message << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     mlir::MlirOptMainConfig::createFromCLOptions())))
    return 1;
  output->keep();
  return 0;
}
