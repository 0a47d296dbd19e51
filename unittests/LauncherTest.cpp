//===- LauncherTest.cpp - Tests of the grid launcher and assert hook ------===//
//
// The entries here are plain C++ functions with the packed signature: args[0]
// points to a pointer to the test's state, args[1..3] to num_programs x, y, z
// and args[4..6] to program_id x, y, z.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/Launcher.h"
#include "refcpu/Runtime/Status.h"
#include "refcpu/refcpu.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

using namespace refcpu::runtime;

namespace {
struct ProgramRecord {
  std::array<int32_t, 3> numPrograms;
  std::array<int32_t, 3> programId;
};

struct RecordState {
  std::mutex mutex;
  std::vector<ProgramRecord> records;
};

template <typename State> State &stateOf(void **args) {
  return **static_cast<State **>(args[0]);
}

int32_t gridValue(void **args, int index) {
  return *static_cast<int32_t *>(args[1 + index]);
}

void recordProgram(void **args) {
  RecordState &state = stateOf<RecordState>(args);
  ProgramRecord record;
  for (int i = 0; i < 3; ++i) {
    record.numPrograms[i] = gridValue(args, i);
    record.programId[i] = gridValue(args, 3 + i);
  }
  std::lock_guard<std::mutex> lock(state.mutex);
  state.records.push_back(record);
}

struct CountState {
  Grid grid;
  std::vector<std::atomic<int>> counts;
  explicit CountState(Grid grid) : grid(grid), counts(grid.getNumPrograms()) {}
};

void countProgram(void **args) {
  CountState &state = stateOf<CountState>(args);
  int64_t x = gridValue(args, 3), y = gridValue(args, 4), z = gridValue(args, 5);
  state.counts[(z * state.grid.y + y) * state.grid.x + x].fetch_add(1);
}

/// Fails its assertion in program x == 3 (and in every program when the
/// state's `failAll` is set); program x == `slowX` first sleeps, so that
/// other workers fail before it does.
struct AssertState {
  std::atomic<int> programsRun{0};
  bool failAll = false;
  int32_t slowX = -1;
};

void assertProgram(void **args) {
  AssertState &state = stateOf<AssertState>(args);
  state.programsRun.fetch_add(1);
  int32_t x = gridValue(args, 3);
  if (x == state.slowX)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (state.failAll || x == 3)
    refcpu_rt_assert_fail("x != 3", "kernel.py", 12, x, gridValue(args, 4),
                          gridValue(args, 5));
}

/// Launches `entry` with `state` as the only parameter and returns the status
/// and message.
template <typename State>
std::pair<refcpu_status, std::string> launch(void (*entry)(void **),
                                             State &state, Grid grid,
                                             unsigned numThreads) {
  State *statePtr = &state;
  void *params[] = {&statePtr};
  LaunchStatus status = launchGrid(entry, params, 1, grid, numThreads);
  return {status.status, status.message};
}

TEST(LauncherTest, SerialRunsInOrderXFastest) {
  RecordState state;
  Grid grid{3, 2, 2};
  EXPECT_EQ(launch(recordProgram, state, grid, 1).first, REFCPU_OK);
  ASSERT_EQ(state.records.size(), 12u);
  size_t index = 0;
  for (int32_t z = 0; z < 2; ++z)
    for (int32_t y = 0; y < 2; ++y)
      for (int32_t x = 0; x < 3; ++x) {
        const ProgramRecord &record = state.records[index++];
        EXPECT_EQ(record.programId, (std::array<int32_t, 3>{x, y, z}));
        EXPECT_EQ(record.numPrograms, (std::array<int32_t, 3>{3, 2, 2}));
      }
}

TEST(LauncherTest, EveryProgramRunsOnceWithManyThreads) {
  for (unsigned threads : {2u, 3u, 8u, 64u}) {
    Grid grid{37, 11, 5};
    CountState state(grid);
    EXPECT_EQ(launch(countProgram, state, grid, threads).first, REFCPU_OK);
    for (size_t i = 0; i < state.counts.size(); ++i)
      ASSERT_EQ(state.counts[i].load(), 1) << "program " << i << " with "
                                           << threads << " threads";
  }
}

TEST(LauncherTest, MoreThreadsThanPrograms) {
  Grid grid{2, 1, 1};
  CountState state(grid);
  EXPECT_EQ(launch(countProgram, state, grid, 16).first, REFCPU_OK);
  EXPECT_EQ(state.counts[0].load(), 1);
  EXPECT_EQ(state.counts[1].load(), 1);
}

TEST(LauncherTest, RejectsBadGridsBeforeRunning) {
  Grid zero{4, 0, 1};
  CountState state(Grid{1, 1, 1});
  auto [status, message] = launch(countProgram, state, zero, 1);
  EXPECT_EQ(status, REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message, "grid (4, 0, 1): y must be in [1, 2147483647]");

  Grid huge{1, 1, 2147483648u};
  std::tie(status, message) = launch(countProgram, state, huge, 4);
  EXPECT_EQ(status, REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message, "grid (1, 1, 2147483648): z must be in [1, 2147483647]");
  EXPECT_EQ(state.counts[0].load(), 0);

  EXPECT_TRUE(checkGrid(Grid{kMaxGridDim, 1, 1}).ok());
}

TEST(LauncherTest, AssertStopsASerialLaunch) {
  AssertState state;
  auto [status, message] = launch(assertProgram, state, Grid{10, 2, 1}, 1);
  EXPECT_EQ(status, REFCPU_ERROR_KERNEL);
  EXPECT_EQ(message,
            "kernel.py:12: program (3, 0, 0): assertion failed: x != 3");
  // Programs 0..3 ran; the failing one finishes, the rest are skipped.
  EXPECT_EQ(state.programsRun.load(), 4);
}

TEST(LauncherTest, AssertStopsAThreadedLaunch) {
  AssertState state;
  state.failAll = true;
  const unsigned threads = 4;
  auto [status, message] =
      launch(assertProgram, state, Grid{1000, 10, 1}, threads);
  EXPECT_EQ(status, REFCPU_ERROR_KERNEL);
  EXPECT_EQ(message,
            "kernel.py:12: program (0, 0, 0): assertion failed: x != 3");
  // Every worker stops after its first (failing) program.
  EXPECT_LE(state.programsRun.load(), static_cast<int>(threads));
}

TEST(LauncherTest, ThreadedFailureReportsTheLowestProgram) {
  // Program 0 fails last in time; the others fail while it sleeps. The
  // report is still program 0's, as a serial launch would give.
  AssertState state;
  state.failAll = true;
  state.slowX = 0;
  auto [status, message] = launch(assertProgram, state, Grid{1000, 1, 1}, 4);
  EXPECT_EQ(status, REFCPU_ERROR_KERNEL);
  EXPECT_EQ(message,
            "kernel.py:12: program (0, 0, 0): assertion failed: x != 3");
}

TEST(LauncherTest, LaunchesAfterAFailureStartClean) {
  AssertState failing;
  EXPECT_EQ(launch(assertProgram, failing, Grid{5, 1, 1}, 2).first,
            REFCPU_ERROR_KERNEL);
  CountState state(Grid{5, 1, 1});
  EXPECT_EQ(launch(countProgram, state, Grid{5, 1, 1}, 2).first, REFCPU_OK);
}

TEST(LauncherDeathTest, AssertOutsideALaunchAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(refcpu_rt_assert_fail("boom", "k.py", 3, 1, 2, 3),
               "refcpu: k.py:3: program \\(1, 2, 3\\): assertion failed: boom");
}

TEST(LauncherTest, DefaultThreadsFollowTheEnvironment) {
  const char *saved = std::getenv("REFCPU_NUM_THREADS");
  std::string savedValue = saved ? saved : "";
  setenv("REFCPU_NUM_THREADS", "3", 1);
  EXPECT_EQ(getDefaultNumThreads(), 3u);
  setenv("REFCPU_NUM_THREADS", "1", 1);
  EXPECT_EQ(getDefaultNumThreads(), 1u);
  unsetenv("REFCPU_NUM_THREADS");
  unsigned hardware = getDefaultNumThreads();
  EXPECT_GE(hardware, 1u);
  for (const char *bad : {"0", "many", "-2", ""}) {
    setenv("REFCPU_NUM_THREADS", bad, 1);
    EXPECT_EQ(getDefaultNumThreads(), hardware) << "'" << bad << "'";
  }
  if (saved)
    setenv("REFCPU_NUM_THREADS", savedValue.c_str(), 1);
  else
    unsetenv("REFCPU_NUM_THREADS");
}
} // namespace
