//===- Launcher.h - Run a packed kernel entry over a grid -------*- C++ -*-===//
//
// A launch runs one program per grid point (x, y, z) on a thread pool. Every
// worker appends the six grid i32s of the kernel ABI (num_programs x, y, z,
// program_id x, y, z) to its own copy of the argument pointers, then calls the
// packed entry. Programs are handed out dynamically in chunks.
//
// Part of librefcpu_rt.a, which ahead-of-time compiled kernels link: no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_LAUNCHER_H
#define REFCPU_RUNTIME_LAUNCHER_H

#include "refcpu/kernel_abi.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace refcpu::runtime {

/// Launch grid: the number of programs along x, y and z.
struct Grid {
  uint32_t x = 1, y = 1, z = 1;

  uint64_t getNumPrograms() const { return uint64_t(x) * y * z; }
};

/// A kernel's packed entry: args[i] points to the storage of argument i.
using PackedEntry = refcpu_packed_entry;

/// The outcome of a launch: REFCPU_OK, or a failure and its message.
struct LaunchStatus {
  refcpu_status status = REFCPU_OK;
  std::string message;

  bool ok() const { return status == REFCPU_OK; }
};

/// Largest number of programs along one axis (program ids are i32).
constexpr uint32_t kMaxGridDim = 2147483647u;

/// Checks that every axis of `grid` is in [1, kMaxGridDim]; fails with
/// REFCPU_ERROR_INVALID_ARGUMENT.
LaunchStatus checkGrid(Grid grid);

/// The thread count of launches: REFCPU_NUM_THREADS when it is a positive
/// integer, otherwise std::thread::hardware_concurrency().
unsigned getDefaultNumThreads();

/// Runs `entry` once for every program of `grid`, with the `numParams`
/// `params` (pointers to the storage of the TTIR parameters) followed by the
/// six grid i32s.
///
/// With `numThreads` == 1 the programs run on the calling thread in order, x
/// fastest, then y, then z. Otherwise up to `numThreads` threads (the caller
/// and pool workers) take programs dynamically; each runs exactly once.
///
/// When a program calls refcpu_rt_assert_fail, programs not yet started are
/// skipped and the result is REFCPU_ERROR_KERNEL with the first recorded
/// failure. A bad grid or a null entry is REFCPU_ERROR_INVALID_ARGUMENT,
/// returned before anything runs.
///
/// `extents` (null, or `numParams` of them) holds the extent in bytes of
/// each parameter (0 for scalars and unknown extents), which bounds-checked
/// kernels read through refcpu_rt_param_extent.
LaunchStatus launchGrid(PackedEntry entry, void *const *params,
                        size_t numParams, Grid grid, unsigned numThreads,
                        const int64_t *extents = nullptr);

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_LAUNCHER_H
