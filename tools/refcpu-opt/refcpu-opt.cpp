//===- refcpu-opt.cpp - MLIR optimizer driver with the tt dialect ---------===//
//
// mlir-opt with our tt dialect, every upstream dialect and pass, and
// refcpu's conversion passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  refcpu::registerPassesAndPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  refcpu::registerDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "refcpu optimizer driver\n", registry));
}
