//===- PackCache.h - Operands packed once per launch -------------*- C++ -*-===//
//
// Internal to runtime/lib. The block-product kernels pack their operands
// (copy them into the layouts their tiles read) on every call. In a matmul
// kernel each program packs its row block of A and column block of B, which
// N / BN and M / BM programs of the launch read alike: a launch of the
// tutorial matmul packs each operand 8 times at 1024^3 with 128 x 128
// blocks. Where the compiler found that no write of a program precedes its
// product (kSharedOperandsAttr) and an operand is a view of global memory,
// the kernel asks the launch's PackCache for that operand's packing: the
// first program to ask packs it into the cache, the others read it there.
// Programs are unordered, so they may read the operand as another program
// left it at any time during the launch, as on the GPU; the cache never
// outlives the launch.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_LIB_PACKCACHE_H
#define REFCPU_RUNTIME_LIB_PACKCACHE_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace refcpu::runtime {

/// Where every packing starts, in the launch's cache and in the kernels'
/// per-thread scratch: a packed row of 64 bytes (a zmm load, an AMX tile row)
/// must not straddle two cache lines.
constexpr size_t kPackAlignment = 64;

/// The packed operands of one launch, shared by its worker threads.
class PackCache {
public:
  /// The layouts the kernels pack an operand into.
  enum class Layout : uint8_t {
    F32TilesA,  // f32 A, per 128 k as [8-row tile][k][8]
    F16TilesA,  // f16 A widened, the same
    F32PanelsB, // f32 B, per 128 k as [32-column panel][k][32]
    F16PanelsB, // f16 B widened, the same
    Bf16PairsB, // bf16 B as [16 or 32 columns][k pair][column][2]
    I8QuadsB,   // int8 B as [32 columns][k quad][column][4], column sums
    AmxBf16B,   // bf16 B as AMX's B tiles read it
    AmxI8B,     // int8 B as AMX's B tiles read it
  };

  /// An operand: its matrix (strides in elements) and its layout.
  struct Key {
    const void *data;
    int64_t rows, cols, rowStride, colStride;
    Layout layout;
    bool operator==(const Key &other) const {
      return data == other.data && rows == other.rows && cols == other.cols &&
             rowStride == other.rowStride && colStride == other.colStride &&
             layout == other.layout;
    }
  };

  /// Total bytes one launch may cache; past it, kernels pack privately.
  static constexpr size_t kBudget = size_t(512) << 20;

  /// `key`'s packing of `bytes` bytes (64-byte aligned): packed by `pack`
  /// (called with the buffer) on first use. Null while another thread
  /// packs it, or when the budget is spent or memory is short: the caller
  /// then packs into its own scratch.
  template <typename Pack>
  const void *get(const Key &key, size_t bytes, Pack &&pack) {
    auto [entry, claimed] = claim(key, bytes);
    if (!entry)
      return nullptr;
    if (claimed) {
      pack(entry->data);
      entry->ready.store(true, std::memory_order_release);
      return entry->data;
    }
    return entry->ready.load(std::memory_order_acquire) ? entry->data
                                                        : nullptr;
  }

  ~PackCache();

private:
  struct Entry {
    std::byte *data = nullptr;
    std::atomic<bool> ready{false};
  };
  struct KeyHash {
    size_t operator()(const Key &key) const;
  };

  /// The entry of `key`, and whether this call created it (and must pack
  /// it); {null, false} when a new entry would pass the budget or cannot
  /// be allocated.
  std::pair<Entry *, bool> claim(const Key &key, size_t bytes);

  std::mutex mutex;
  std::unordered_map<Key, std::unique_ptr<Entry>, KeyHash> entries;
  size_t totalBytes = 0;
  /// Entries are carved from slabs, which go back to a process-wide pool
  /// when the launch ends: fresh memory for every launch would cost a page
  /// fault per 4 KiB, as much as the packing it saves.
  std::vector<std::pair<std::byte *, size_t>> slabs;
  size_t slabUsed = 0;
};

/// The cache of the launch whose programs this thread runs, or null outside
/// a launch (Launcher.cpp).
PackCache *activePackCache();

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_LIB_PACKCACHE_H
