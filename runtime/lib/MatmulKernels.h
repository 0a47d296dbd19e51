//===- MatmulKernels.h - What the block-product kernels share ----*- C++ -*-===//
//
// Internal to runtime/lib: the tile shape of the AVX-512 kernels, scratch
// buffers, and the kernels Matmul.cpp dispatches to in other files.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_LIB_MATMULKERNELS_H
#define REFCPU_RUNTIME_LIB_MATMULKERNELS_H

#include "PackCache.h"
#include "refcpu/Runtime/Matmul.h"
#include "refcpu/kernel_abi.h"

#include <cstdint>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#define REFCPU_HAS_X86_KERNELS 1
#endif

#define REFCPU_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))
#define REFCPU_AVX512BF16                                                      \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))
#define REFCPU_AVX512VNNI                                                      \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
#define REFCPU_AMX_BF16                                                        \
  __attribute__((target(                                                       \
      "amx-tile,amx-bf16,avx512f,avx512bw,avx512vl,avx512bf16")))
#define REFCPU_AMX_INT8                                                        \
  __attribute__((target("amx-tile,amx-int8,avx512f,avx512bw,avx512vl,"      \
                        "avx512vbmi")))

namespace refcpu::runtime::detail {

/// Rows of a register tile: 8 x 32 f32 are 16 accumulators, half the zmm
/// registers, leaving room for the B row and the broadcasts.
constexpr int64_t kTileRows = 8;
/// Columns per vector and per tile.
constexpr int64_t kLanes = 16;
constexpr int64_t kTileCols = 2 * kLanes;

/// Allocates on kPackAlignment boundaries; malloc aligns to 16 bytes only.
template <typename T> struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{kPackAlignment};
  CacheLineAllocator() = default;
  template <typename U> CacheLineAllocator(const CacheLineAllocator<U> &) {}
  T *allocate(size_t count) {
    return static_cast<T *>(::operator new(count * sizeof(T), kAlignment));
  }
  void deallocate(T *data, size_t) { ::operator delete(data, kAlignment); }
  bool operator==(const CacheLineAllocator &) const { return true; }
  bool operator!=(const CacheLineAllocator &) const { return false; }
};

/// Per-thread scratch of the kernels: programs run concurrently and a block
/// product must not allocate each time.
template <typename T> using Scratch = std::vector<T, CacheLineAllocator<T>>;

/// `buffer` grown to hold `count` elements.
template <typename T> T *reserve(Scratch<T> &buffer, int64_t count) {
  if (buffer.size() < static_cast<size_t>(count))
    buffer.resize(count);
  return buffer.data();
}

inline int64_t roundUp(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// A's rows with contiguous k in groups of `group` (the pairs or quads a
/// kernel broadcasts): A itself when its k are contiguous and a multiple of
/// `group` in number, else a copy in `scratch` with zeros past k. Returns
/// the rows' data and stride.
template <typename T>
std::pair<const T *, int64_t> groupedRowsOfA(MatrixRef<const T> a,
                                             int64_t group,
                                             Scratch<T> &scratch) {
  if (a.colStride == 1 && a.cols % group == 0)
    return {&a.at(0, 0), a.rowStride};
  int64_t padded = roundUp(a.cols, group);
  T *copy = reserve(scratch, a.rows * padded);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t p = 0; p < padded; ++p)
      copy[i * padded + p] = p < a.cols ? a.at(i, p) : T(0);
  return {copy, padded};
}

/// The operands a product may pack once per launch: REFCPU_RT_SHARED_A and
/// REFCPU_RT_SHARED_B bits, as the builtins' `shared` (kernel_abi.h).
struct SharedPacks {
  PackCache *cache = nullptr;
  unsigned operands = 0;

  /// The shared operands of a builtin's `flags`.
  static SharedPacks forLaunch(unsigned flags) {
    unsigned operands = flags & (REFCPU_RT_SHARED_A | REFCPU_RT_SHARED_B);
    return {operands ? activePackCache() : nullptr, operands};
  }

  /// Operand `which` (REFCPU_RT_SHARED_A or _B), `m`, packed in `layout` as `count`
  /// elements of T by pack(T *) on first use in the launch; null when the
  /// operand is not shared or the cache has no packing for it now.
  template <typename T, typename E, typename Pack>
  const T *get(unsigned which, MatrixRef<const E> m, PackCache::Layout layout,
               int64_t count, Pack &&pack) const {
    if (!cache || !(operands & which))
      return nullptr;
    PackCache::Key key{m.data,      m.rows,      m.cols,
                       m.rowStride, m.colStride, layout};
    return static_cast<const T *>(cache->get(
        key, count * sizeof(T), [&](void *out) { pack(static_cast<T *>(out)); }));
  }

  /// As get(), else packed by pack(T *) into `scratch`.
  template <typename T, typename E, typename Pack>
  const T *getOrPack(unsigned which, MatrixRef<const E> m,
                     PackCache::Layout layout, int64_t count,
                     Scratch<T> &scratch, Pack &&pack) const {
    if (const T *packed = get<T>(which, m, layout, count, pack))
      return packed;
    T *out = reserve(scratch, count);
    pack(out);
    return out;
  }
};

#ifdef REFCPU_HAS_X86_KERNELS
/// The lanes of the first `count` columns of a 16-lane vector.
REFCPU_AVX512 inline __mmask16 laneMask(int64_t count) {
  if (count <= 0)
    return 0;
  return count >= kLanes ? __mmask16(0xFFFF) : __mmask16((1u << count) - 1);
}

/// Packs `panels` panels of 16 * nv columns of B, from column j, as the
/// bf16 tiles read them: panel q at out + q * panelStride holds, per k pair
/// p, its columns' (B[2p][col], B[2p + 1][col]), zero outside B.
REFCPU_AVX512BF16 void packPairs(MatrixRef<const uint16_t> b, int64_t j, int nv,
                                 int64_t panels, int64_t panelStride,
                                 uint16_t *out);

/// C += A * B (C = A * B where `zero`) with vpdpbusd (MatmulVnni.cpp);
/// needs C's columns contiguous.
REFCPU_AVX512VNNI void matmulAvx512Vnni(MatrixRef<const int8_t> a,
                                        MatrixRef<const int8_t> b,
                                        MatrixRef<int32_t> c,
                                        SharedPacks shared, bool zero);

/// C += A * B (C = A * B where `zero`) on AMX (MatmulAmx.cpp); any strides.
REFCPU_AMX_BF16 void matmulAmxBf16(MatrixRef<const uint16_t> a,
                                   MatrixRef<const uint16_t> b,
                                   MatrixRef<float> c, SharedPacks shared,
                                   bool zero);
REFCPU_AMX_INT8 void matmulAmxI8(MatrixRef<const int8_t> a,
                                 MatrixRef<const int8_t> b,
                                 MatrixRef<int32_t> c, SharedPacks shared,
                                 bool zero);

/// Linux lets a process use AMX's tile data only once it asked for it.
bool amxPermitted();
#endif

} // namespace refcpu::runtime::detail

#endif // REFCPU_RUNTIME_LIB_MATMULKERNELS_H
