//===- PackCacheTest.cpp - Tests of the per-launch operand cache ----------===//

#include "PackCache.h"

#include "refcpu/Runtime/Launcher.h"

#include "gtest/gtest.h"

#include <cstring>
#include <functional>
#include <vector>

using namespace refcpu::runtime;

namespace {
PackCache::Key keyOf(const std::vector<float> &m, PackCache::Layout layout) {
  return {m.data(), 4, 4, 4, 1, layout};
}

TEST(PackCacheTest, PacksAKeyOnce) {
  PackCache cache;
  std::vector<float> m(16, 1.5f);
  int packs = 0;
  auto pack = [&](void *out) {
    ++packs;
    std::memcpy(out, m.data(), 64);
  };
  const void *first = cache.get(keyOf(m, PackCache::Layout::F32PanelsB), 64, pack);
  const void *second = cache.get(keyOf(m, PackCache::Layout::F32PanelsB), 64, pack);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first, second);
  EXPECT_EQ(packs, 1);
  EXPECT_EQ(static_cast<const float *>(first)[15], 1.5f);
  // Packings are 64-byte aligned for the kernels' aligned loads.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
  // Another layout of the same matrix is another packing.
  const void *other = cache.get(keyOf(m, PackCache::Layout::F32TilesA), 64, pack);
  EXPECT_NE(other, first);
  EXPECT_EQ(packs, 2);
}

TEST(PackCacheTest, RefusesPastItsBudget) {
  PackCache cache;
  std::vector<float> m(16);
  bool packed = false;
  EXPECT_EQ(cache.get(keyOf(m, PackCache::Layout::F32PanelsB),
                      PackCache::kBudget + 1, [&](void *) { packed = true; }),
            nullptr);
  EXPECT_FALSE(packed);
}

/// A packed entry whose only argument is a std::function of nothing.
void runProgram(void **args) {
  (*static_cast<std::function<void()> *>(args[0]))();
}

TEST(PackCacheTest, OneCachePerLaunch) {
  EXPECT_EQ(activePackCache(), nullptr);
  std::vector<PackCache *> seen;
  std::function<void()> program = [&] { seen.push_back(activePackCache()); };
  void *params[] = {&program};
  ASSERT_TRUE(launchGrid(runProgram, params, 1, {3, 1, 1}, 1).ok());
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_NE(seen[0], nullptr);
  EXPECT_EQ(seen[1], seen[0]);
  EXPECT_EQ(seen[2], seen[0]);
  EXPECT_EQ(activePackCache(), nullptr);
}
} // namespace
