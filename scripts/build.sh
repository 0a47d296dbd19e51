#!/usr/bin/env bash
# Configures and builds refcpu into ./build (or $REFCPU_BUILD_DIR) with
# clang-22, lld, Ninja and ccache (whose cache lives outside the tree).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${REFCPU_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  "$@"
cmake --build "$build"
