//===- Launcher.cpp - Run a packed kernel entry over a grid ---------------===//
//
// Workers share one atomic program counter and take chunks of consecutive
// (linearized, x fastest) program indices, so uneven programs balance out.
// The assert hook reaches the launch it belongs to through a thread-local
// pointer that every worker sets while it runs programs.
//
// A failure reports the lowest-numbered failing program, whatever the thread
// count: a failure at index f lowers the launch's limit to f, workers skip
// programs at or above the limit but finish those below it, so the error is
// the one a sequential run in program order would report first.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/Launcher.h"

#include "refcpu/Runtime/Status.h"
#include "refcpu/refcpu.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

using namespace refcpu::runtime;

namespace {
/// Above this many programs the linear program counter could overflow.
constexpr uint64_t kMaxPrograms = uint64_t(1) << 62;

/// Chunks are small enough to balance uneven programs and large enough that
/// the shared counter is not contended on tiny ones.
constexpr uint64_t kMaxChunk = 64;
constexpr uint64_t kChunksPerThread = 16;

/// State shared by the workers of one launch.
struct LaunchState {
  PackedEntry entry;
  llvm::ArrayRef<void *> params;
  llvm::ArrayRef<int64_t> extents;
  Grid grid;
  uint64_t numPrograms;
  uint64_t chunk;
  std::atomic<uint64_t> next{0};
  /// Programs at or above this index are not run: numPrograms, or the index
  /// of the lowest program that failed so far.
  std::atomic<uint64_t> limit;
  std::mutex failureMutex;
  std::string failure; // The limit program's failure; guarded by failureMutex.
};

/// The launch whose programs this thread is running, and the linear index of
/// the program it runs, for the hooks below.
thread_local LaunchState *activeLaunch = nullptr;
thread_local uint64_t activeProgram = 0;

/// Takes chunks of programs until none are left or a program failed.
void runPrograms(LaunchState &state) {
  LaunchState *outer = activeLaunch;
  uint64_t outerProgram = activeProgram;
  activeLaunch = &state;

  const Grid &grid = state.grid;
  int32_t ids[6] = {static_cast<int32_t>(grid.x), static_cast<int32_t>(grid.y),
                    static_cast<int32_t>(grid.z), 0, 0, 0};
  llvm::SmallVector<void *, 16> args(state.params.begin(), state.params.end());
  for (int32_t &id : ids)
    args.push_back(&id);

  while (true) {
    uint64_t begin = state.next.fetch_add(state.chunk, std::memory_order_relaxed);
    if (begin >= state.limit.load(std::memory_order_relaxed))
      break;
    uint64_t end = std::min(begin + state.chunk, state.numPrograms);
    uint64_t x = begin % grid.x;
    uint64_t y = (begin / grid.x) % grid.y;
    uint64_t z = begin / (uint64_t(grid.x) * grid.y);
    for (uint64_t index = begin; index < end; ++index) {
      if (index >= state.limit.load(std::memory_order_relaxed))
        break;
      activeProgram = index;
      ids[3] = static_cast<int32_t>(x);
      ids[4] = static_cast<int32_t>(y);
      ids[5] = static_cast<int32_t>(z);
      state.entry(args.data());
      if (++x == grid.x) {
        x = 0;
        if (++y == grid.y) {
          y = 0;
          ++z;
        }
      }
    }
  }
  activeLaunch = outer;
  activeProgram = outerProgram;
}

/// A pool with exactly `numWorkers` threads, created on first use. Pools are
/// never destroyed: a launch on another thread may still use one while static
/// destructors run at exit.
llvm::StdThreadPool &getPool(unsigned numWorkers) {
  static std::mutex mutex;
  static auto *pools =
      new std::map<unsigned, std::unique_ptr<llvm::StdThreadPool>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<llvm::StdThreadPool> &pool = (*pools)[numWorkers];
  if (!pool)
    pool = std::make_unique<llvm::StdThreadPool>(
        llvm::hardware_concurrency(numWorkers));
  return *pool;
}
} // namespace

llvm::Error refcpu::runtime::checkGrid(Grid grid) {
  const uint32_t dims[3] = {grid.x, grid.y, grid.z};
  const char *names[3] = {"x", "y", "z"};
  for (int axis = 0; axis < 3; ++axis) {
    if (dims[axis] == 0 || dims[axis] > kMaxGridDim)
      return makeStatusError(
          REFCPU_ERROR_INVALID_ARGUMENT,
          llvm::formatv("grid ({0}, {1}, {2}): {3} must be in [1, {4}]", grid.x,
                        grid.y, grid.z, names[axis], kMaxGridDim));
  }
  if (grid.getNumPrograms() > kMaxPrograms ||
      uint64_t(grid.x) * grid.y > kMaxPrograms)
    return makeStatusError(
        REFCPU_ERROR_INVALID_ARGUMENT,
        llvm::formatv("grid ({0}, {1}, {2}) has more than 2^62 programs",
                      grid.x, grid.y, grid.z));
  return llvm::Error::success();
}

unsigned refcpu::runtime::getDefaultNumThreads() {
  if (const char *env = std::getenv("REFCPU_NUM_THREADS")) {
    unsigned value;
    if (!llvm::StringRef(env).trim().getAsInteger(10, value) && value > 0)
      return value;
  }
  // hardware_concurrency() reads sysfs: 9 us, most of a one-program launch
  // (measured on this project's 2-core machine). The count is read once.
  static const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return cores;
}

llvm::Error refcpu::runtime::launchGrid(PackedEntry entry,
                                        llvm::ArrayRef<void *> params,
                                        Grid grid, unsigned numThreads,
                                        llvm::ArrayRef<int64_t> extents) {
  if (llvm::Error err = checkGrid(grid))
    return err;
  if (!entry)
    return makeStatusError(REFCPU_ERROR_INVALID_ARGUMENT, "null kernel entry");

  LaunchState state;
  state.entry = entry;
  state.params = params;
  state.extents = extents;
  state.grid = grid;
  state.numPrograms = grid.getNumPrograms();
  state.limit.store(state.numPrograms, std::memory_order_relaxed);
  unsigned threads = static_cast<unsigned>(
      std::min<uint64_t>(std::max(numThreads, 1u), state.numPrograms));
  state.chunk = threads == 1
                    ? state.numPrograms
                    : std::clamp<uint64_t>(
                          state.numPrograms / (threads * kChunksPerThread), 1,
                          kMaxChunk);

  if (threads == 1) {
    runPrograms(state);
  } else {
    // The calling thread is one of the workers.
    llvm::StdThreadPool &pool = getPool(threads - 1);
    llvm::ThreadPoolTaskGroup group(pool);
    for (unsigned i = 1; i < threads; ++i)
      group.async([&state] { runPrograms(state); });
    runPrograms(state);
    group.wait();
  }

  if (state.limit.load() < state.numPrograms)
    return makeStatusError(REFCPU_ERROR_KERNEL, state.failure);
  return llvm::Error::success();
}

namespace {
/// Records `text` as the failure of the running program unless a program
/// with a lower index failed, or an earlier failure of the same program was
/// recorded; prints it and aborts outside a launch.
void recordFailure(std::string text) {
  LaunchState *state = activeLaunch;
  if (!state) {
    std::fprintf(stderr, "refcpu: %s\n", text.c_str());
    std::abort();
  }
  std::lock_guard<std::mutex> lock(state->failureMutex);
  if (activeProgram < state->limit.load()) {
    state->failure = std::move(text);
    state->limit.store(activeProgram);
  }
}
} // namespace

extern "C" void refcpu_rt_assert_fail(const char *message, const char *file,
                                      int32_t line, int32_t pidx, int32_t pidy,
                                      int32_t pidz) {
  recordFailure(llvm::formatv(
      "{0}:{1}: program ({2}, {3}, {4}): assertion failed: {5}",
      file ? file : "<unknown>", line, pidx, pidy, pidz,
      message ? message : ""));
}

extern "C" int64_t refcpu_rt_param_extent(int32_t param) {
  LaunchState *state = activeLaunch;
  if (!state || param < 0 || static_cast<size_t>(param) >= state->extents.size())
    return 0;
  return state->extents[param];
}

extern "C" int64_t refcpu_rt_param_base(int32_t param) {
  LaunchState *state = activeLaunch;
  if (!state || param < 0 || static_cast<size_t>(param) >= state->params.size())
    return 0;
  // Every parameter's storage is an 8-byte slot (PackedArgs); a pointer
  // parameter's slot holds the address it was launched with.
  int64_t base;
  std::memcpy(&base, state->params[param], sizeof(base));
  return base;
}

extern "C" void refcpu_rt_bounds_fail(const char *kernel, const char *op,
                                      const char *file, int32_t line,
                                      int32_t pidx, int32_t pidy, int32_t pidz,
                                      int32_t param, const char *name,
                                      int64_t offset, int64_t bytes) {
  std::string where = llvm::formatv(
      "{0}:{1}: program ({2}, {3}, {4}) of {5}: {6} out of bounds: ",
      file ? file : "<unknown>", line, pidx, pidy, pidz,
      kernel ? kernel : "<kernel>", op ? op : "access");
  if (param < 0) {
    recordFailure(where + llvm::formatv("{0} bytes at address {1:x}, which is "
                                        "in no pointer argument (the pointer "
                                        "could not be traced to one)",
                                        bytes, static_cast<uint64_t>(offset))
                              .str());
    return;
  }
  recordFailure(where + llvm::formatv("{0} bytes at byte offset {1} of argument "
                                      "{2} ({3}), whose extent is {4} bytes",
                                      bytes, offset, param, name ? name : "?",
                                      refcpu_rt_param_extent(param))
                            .str());
}
