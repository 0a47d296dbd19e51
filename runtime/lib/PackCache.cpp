//===- PackCache.cpp - Operands packed once per launch --------------------===//

#include "PackCache.h"

#include <functional>
#include <new>

using namespace refcpu::runtime;

namespace {
/// Slabs are 2 MiB (one huge page where the kernel backs them so), or one
/// entry's size when it is larger.
constexpr size_t kSlabBytes = size_t(2) << 20;

/// At most this much of ended launches' slabs is kept: enough for the
/// operands of a 2048^3 f32 product. Larger launches fault in fresh pages,
/// a smaller share of their time.
constexpr size_t kKeptBytes = size_t(64) << 20;

/// Slabs of ended launches, for the next ones.
struct SlabPool {
  std::mutex mutex;
  std::vector<std::pair<std::byte *, size_t>> free;
  size_t freeBytes = 0;

  /// A slab of at least `bytes`, or null if memory is short.
  std::pair<std::byte *, size_t> take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      for (size_t i = 0; i < free.size(); ++i)
        if (free[i].second >= bytes) {
          auto slab = free[i];
          free.erase(free.begin() + i);
          freeBytes -= slab.second;
          return slab;
        }
    }
    size_t size = std::max(bytes, kSlabBytes);
    auto *data = new (std::align_val_t(kPackAlignment), std::nothrow)
        std::byte[size];
    return {data, data ? size : 0};
  }

  void give(std::pair<std::byte *, size_t> slab) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (freeBytes + slab.second <= kKeptBytes) {
        free.push_back(slab);
        freeBytes += slab.second;
        return;
      }
    }
    ::operator delete[](slab.first, std::align_val_t(kPackAlignment));
  }
};

SlabPool &getSlabPool() {
  // Never destroyed: launches may end while the process exits.
  static SlabPool *pool = new SlabPool;
  return *pool;
}
} // namespace

size_t PackCache::KeyHash::operator()(const Key &key) const {
  size_t hash = std::hash<const void *>()(key.data);
  for (int64_t value : {key.rows, key.cols, key.rowStride, key.colStride,
                        int64_t(key.layout)})
    hash = hash * 1000003u ^ std::hash<int64_t>()(value);
  return hash;
}

std::pair<PackCache::Entry *, bool> PackCache::claim(const Key &key,
                                                      size_t bytes) {
  bytes = (bytes + kPackAlignment - 1) / kPackAlignment * kPackAlignment;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = entries.find(key);
  if (found != entries.end())
    return {found->second.get(), false};
  if (bytes > kBudget - totalBytes)
    return {nullptr, false};
  if (slabs.empty() || slabs.back().second - slabUsed < bytes) {
    auto slab = getSlabPool().take(bytes);
    if (!slab.first)
      return {nullptr, false};
    slabs.push_back(slab);
    slabUsed = 0;
  }
  auto entry = std::make_unique<Entry>();
  entry->data = slabs.back().first + slabUsed;
  slabUsed += bytes;
  totalBytes += bytes;
  Entry *result = entry.get();
  entries.emplace(key, std::move(entry));
  return {result, true};
}

PackCache::~PackCache() {
  for (auto slab : slabs)
    getSlabPool().give(slab);
}
