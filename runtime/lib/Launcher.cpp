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
// No LLVM here: ahead-of-time compiled kernels link this file through
// librefcpu_rt.a. The pool is the runtime's own.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/Launcher.h"

#include "PackCache.h"

#include "refcpu/refcpu_rt.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace refcpu::runtime;

namespace {
/// Above this many programs the linear program counter could overflow.
constexpr uint64_t kMaxPrograms = uint64_t(1) << 62;

/// Chunks are small enough to balance uneven programs and large enough that
/// the shared counter is not contended on tiny ones.
constexpr uint64_t kMaxChunk = 64;
constexpr uint64_t kChunksPerThread = 16;

/// printf into a std::string.
__attribute__((format(printf, 1, 2))) std::string format(const char *fmt,
                                                         ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  int size = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string text(size > 0 ? size : 0, '\0');
  if (size > 0)
    std::vsnprintf(text.data(), text.size() + 1, fmt, args);
  va_end(args);
  return text;
}

/// State shared by the workers of one launch.
struct LaunchState {
  PackedEntry entry;
  void *const *params;
  size_t numParams;
  const int64_t *extents; // numParams of them, or null.
  Grid grid;
  uint64_t numPrograms;
  uint64_t chunk;
  std::atomic<uint64_t> next{0};
  /// Programs at or above this index are not run: numPrograms, or the index
  /// of the lowest program that failed so far.
  std::atomic<uint64_t> limit;
  std::mutex failureMutex;
  std::string failure; // The limit program's failure; guarded by failureMutex.
  PackCache packs;
};

/// The launch whose programs this thread is running, and the linear index of
/// the program it runs, for the hooks below.
thread_local LaunchState *activeLaunch = nullptr;
thread_local uint64_t activeProgram = 0;

} // namespace

PackCache *refcpu::runtime::activePackCache() {
  return activeLaunch ? &activeLaunch->packs : nullptr;
}

namespace {
/// Takes chunks of programs until none are left or a program failed.
void runPrograms(LaunchState &state) {
  LaunchState *outer = activeLaunch;
  uint64_t outerProgram = activeProgram;
  activeLaunch = &state;

  const Grid &grid = state.grid;
  int32_t ids[6] = {static_cast<int32_t>(grid.x), static_cast<int32_t>(grid.y),
                    static_cast<int32_t>(grid.z), 0, 0, 0};
  std::vector<void *> args(state.params, state.params + state.numParams);
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
  // Kernels may store with non-temporal stores (refcpu-streaming-stores),
  // which x86 does not order with the release that ends this worker's part
  // of the launch: the fence makes them visible first.
#if defined(__x86_64__)
  __builtin_ia32_sfence();
#endif
  activeLaunch = outer;
  activeProgram = outerProgram;
}

/// Worker threads that run queued tasks, started once and reused by every
/// launch. Launches from several threads may share a pool.
class ThreadPool {
public:
  explicit ThreadPool(unsigned numWorkers) {
    for (unsigned i = 0; i < numWorkers; ++i)
      workers.emplace_back([this] { work(); });
  }

  /// Queues `copies` runs of `task`. One lock and one wake-up of every
  /// worker, instead of a lock and a wake-up per task: the launching
  /// thread, which runs programs too, starts on them sooner.
  void run(const std::function<void()> &task, unsigned copies) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      tasks.insert(tasks.end(), copies, task);
    }
    if (copies == 1)
      wakeup.notify_one();
    else
      wakeup.notify_all();
  }

private:
  void work() {
    while (true) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wakeup.wait(lock, [this] { return !tasks.empty(); });
        task = std::move(tasks.front());
        tasks.pop_front();
      }
      task();
    }
  }

  std::mutex mutex;
  std::condition_variable wakeup;
  std::deque<std::function<void()>> tasks;
  std::vector<std::thread> workers;
};

/// A pool with exactly `numWorkers` threads, created on first use. Pools are
/// never destroyed (their threads are detached at exit): a launch on another
/// thread may still use one while static destructors run.
ThreadPool &getPool(unsigned numWorkers) {
  static std::mutex mutex;
  static auto *pools = new std::map<unsigned, ThreadPool *>();
  std::lock_guard<std::mutex> lock(mutex);
  ThreadPool *&pool = (*pools)[numWorkers];
  if (!pool)
    pool = new ThreadPool(numWorkers);
  return *pool;
}

/// Counts finished tasks of one launch, which waits for all of them.
class Completion {
public:
  void finish() {
    std::lock_guard<std::mutex> lock(mutex);
    ++finished;
    done.notify_all();
  }

  void wait(unsigned count) {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return finished == count; });
  }

private:
  std::mutex mutex;
  std::condition_variable done;
  unsigned finished = 0;
};
} // namespace

LaunchStatus refcpu::runtime::checkGrid(Grid grid) {
  const uint32_t dims[3] = {grid.x, grid.y, grid.z};
  const char *names[3] = {"x", "y", "z"};
  for (int axis = 0; axis < 3; ++axis) {
    if (dims[axis] == 0 || dims[axis] > kMaxGridDim)
      return {REFCPU_ERROR_INVALID_ARGUMENT,
              format("grid (%u, %u, %u): %s must be in [1, %u]", grid.x,
                     grid.y, grid.z, names[axis], kMaxGridDim)};
  }
  if (grid.getNumPrograms() > kMaxPrograms ||
      uint64_t(grid.x) * grid.y > kMaxPrograms)
    return {REFCPU_ERROR_INVALID_ARGUMENT,
            format("grid (%u, %u, %u) has more than 2^62 programs", grid.x,
                   grid.y, grid.z)};
  return {};
}

unsigned refcpu::runtime::getDefaultNumThreads() {
  if (const char *env = std::getenv("REFCPU_NUM_THREADS")) {
    // A decimal count, optionally surrounded by blanks; anything else (a
    // sign, a suffix, 0, an overflow) keeps the default.
    while (std::isspace(static_cast<unsigned char>(*env)))
      ++env;
    char *end = nullptr;
    unsigned long value = std::isdigit(static_cast<unsigned char>(*env))
                              ? std::strtoul(env, &end, 10)
                              : 0;
    while (end && std::isspace(static_cast<unsigned char>(*end)))
      ++end;
    if (end && *end == '\0' && value > 0 && value <= 4096)
      return static_cast<unsigned>(value);
  }
  // hardware_concurrency() reads sysfs: 9 us, most of a one-program launch
  // (measured on this project's 2-core machine). The count is read once.
  static const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return cores;
}

LaunchStatus refcpu::runtime::launchGrid(PackedEntry entry,
                                         void *const *params, size_t numParams,
                                         Grid grid, unsigned numThreads,
                                         const int64_t *extents) {
  LaunchStatus gridStatus = checkGrid(grid);
  if (!gridStatus.ok())
    return gridStatus;
  if (!entry)
    return {REFCPU_ERROR_INVALID_ARGUMENT, "null kernel entry"};
  if (!params && numParams != 0)
    return {REFCPU_ERROR_INVALID_ARGUMENT, "null kernel arguments"};

  LaunchState state;
  state.entry = entry;
  state.params = params;
  state.numParams = numParams;
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
    ThreadPool &pool = getPool(threads - 1);
    Completion completion;
    pool.run(
        [&state, &completion] {
          runPrograms(state);
          completion.finish();
        },
        threads - 1);
    runPrograms(state);
    completion.wait(threads - 1);
  }

  if (state.limit.load() < state.numPrograms)
    return {REFCPU_ERROR_KERNEL, state.failure};
  return {};
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
  recordFailure(format("%s:%d: program (%d, %d, %d): assertion failed: %s",
                       file ? file : "<unknown>", line, pidx, pidy, pidz,
                       message ? message : ""));
}

extern "C" int64_t refcpu_rt_param_extent(int32_t param) {
  LaunchState *state = activeLaunch;
  if (!state || !state->extents || param < 0 ||
      static_cast<size_t>(param) >= state->numParams)
    return 0;
  return state->extents[param];
}

extern "C" int64_t refcpu_rt_param_base(int32_t param) {
  LaunchState *state = activeLaunch;
  if (!state || param < 0 || static_cast<size_t>(param) >= state->numParams)
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
  std::string where = format(
      "%s:%d: program (%d, %d, %d) of %s: %s out of bounds: ",
      file ? file : "<unknown>", line, pidx, pidy, pidz,
      kernel ? kernel : "<kernel>", op ? op : "access");
  if (param < 0) {
    recordFailure(where + format("%lld bytes at address 0x%llx, which is in "
                                 "no pointer argument (the pointer could not "
                                 "be traced to one)",
                                 static_cast<long long>(bytes),
                                 static_cast<unsigned long long>(offset)));
    return;
  }
  recordFailure(where + format("%lld bytes at byte offset %lld of argument %d "
                               "(%s), whose extent is %lld bytes",
                               static_cast<long long>(bytes),
                               static_cast<long long>(offset), param,
                               name ? name : "?",
                               static_cast<long long>(
                                   refcpu_rt_param_extent(param))));
}

namespace {
/// The message of the calling thread's last failed refcpu_rt_launch.
thread_local std::string lastError;
} // namespace

extern "C" refcpu_status refcpu_rt_launch(refcpu_packed_entry entry,
                                          void *const *args, size_t num_args,
                                          const int64_t *extents,
                                          refcpu_grid grid) {
  LaunchStatus status =
      launchGrid(entry, args, num_args, Grid{grid.x, grid.y, grid.z},
                 getDefaultNumThreads(), extents);
  lastError = std::move(status.message);
  return status.status;
}

extern "C" const char *refcpu_rt_last_error(void) { return lastError.c_str(); }
