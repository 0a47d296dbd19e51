#!/usr/bin/env bash
# refcpu's linalg stage is standard MLIR: this lowers it to LLVM IR with
# upstream's mlir-opt and mlir-translate and upstream passes only. A tt op,
# a refcpu-only op or attribute, or a construct upstream's passes do not
# lower makes one of the tools fail, and the test with it.
#
#   lower-upstream.sh REFCPU_OPT MLIR_OPT MLIR_TRANSLATE KERNEL.ttir
#
# Each of the presets' linalg stages (refcpu-opt --refcpu-ttir-to-linalg,
# the stage refcpu-run --dump-dir writes as 2-linalg.mlir) is lowered with
# upstream's part of buildLinalgToLLVM (lib/Pipelines/Pipelines.cpp): the
# same one-shot-bufferize options, no refcpu pass and no buffer deallocation,
# which needs refcpu's memory effects of LLVM ops (docs/DESIGN.md).
set -euo pipefail
refcpu_opt=$1 mlir_opt=$2 mlir_translate=$3 kernel=$4

pipeline="builtin.module(
  one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops
                     function-boundary-type-conversion=identity-layout-map},
  convert-linalg-to-loops, expand-strided-metadata, lower-affine,
  convert-scf-to-cf, convert-math-to-llvm, convert-math-to-libm,
  finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm,
  convert-cf-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts)"

for options in "preset=reference" "preset=fast" "preset=fast check-bounds=true"; do
  echo "$kernel: $options"
  "$refcpu_opt" "$kernel" --refcpu-ttir-to-linalg="$options" |
    "$mlir_opt" --pass-pipeline="$pipeline" |
    "$mlir_translate" --mlir-to-llvmir >/dev/null
done
