#!/usr/bin/env bash
# Builds the libFuzzer target (ASan + UBSan, ./build-fuzz or $REFCPU_BUILD_DIR)
# and fuzzes TTIR compilation for SECONDS (default 600), starting from the
# corpus and lit inputs. New interesting inputs are kept in
# BUILD/tools/refcpu-fuzz/corpus; a crashing input is written to
# BUILD/fuzz-artifacts/ and the script exits non-zero.
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${REFCPU_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-600}
shift || true
REFCPU_BUILD_DIR=$build "$root/scripts/build.sh" \
  -DREFCPU_SANITIZE=address,undefined -DREFCPU_FUZZ=ON | tail -n 3
fuzz=$build/tools/refcpu-fuzz
mkdir -p "$fuzz/corpus" "$build/fuzz-artifacts"
jobs=${REFCPU_FUZZ_JOBS:-$(nproc)}
ASAN_OPTIONS=detect_leaks=1 "$build/bin/refcpu-fuzz" \
  -max_total_time="$seconds" -timeout=30 -rss_limit_mb=6144 -max_len=32768 \
  -print_final_stats=1 -fork="$jobs" -ignore_crashes=0 \
  -artifact_prefix="$build/fuzz-artifacts/" "$@" \
  "$fuzz/corpus" "$fuzz/seeds"
