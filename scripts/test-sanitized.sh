#!/usr/bin/env bash
# Builds refcpu with AddressSanitizer + UndefinedBehaviorSanitizer and the
# libFuzzer target (./build-sanitize or $REFCPU_BUILD_DIR) and runs the whole
# test suite there: every ctest of the normal build (the Python tests with
# the sanitizer runtime preloaded) plus a 60-second fuzz run of TTIR
# compilation (ctest fuzz.compile-ttir). Any sanitizer report fails its test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${REFCPU_BUILD_DIR:-$root/build-sanitize}
REFCPU_BUILD_DIR=$build "$root/scripts/build.sh" \
  -DREFCPU_SANITIZE=address,undefined -DREFCPU_FUZZ=ON
ctest --test-dir "$build" --output-on-failure -j2
