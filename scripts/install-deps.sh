#!/usr/bin/env bash
# Installs everything refcpu needs to build and test on Debian 12 (as root or
# with sudo). LLVM/MLIR 22 come from Debian's archive (bookworm-security).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  cmake ninja-build g++ ccache zlib1g-dev libzstd-dev \
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22 lld-22 \
  googletest libgtest-dev gdb \
  python3-numpy python3-pytest python3-torch libopenblas0-pthread >/dev/null
