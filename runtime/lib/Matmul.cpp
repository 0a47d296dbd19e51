//===- Matmul.cpp - Register-tiled block matrix products ------------------===//
//
// C += A * B for the block products of tt.dot. The AVX-512 kernels keep a
// tile of up to 8 rows x 32 columns of C in zmm accumulators over the k of
// a call: each step loads one row of a 32-column panel of B and broadcasts
// one element of A per tile row. When C has more than one row tile, A and
// B are first packed per 128 k (A as [k][8] per tile, B's panels
// contiguous), since the rows of a wide matrix evict one another from L1;
// a single row tile reads them in place. Edge columns use masked loads and
// stores, edge rows a tile with fewer rows. f16 runs on the same kernel,
// widened while it is packed. AVX512_BF16's vdpbf16ps consumes k in pairs:
// B is packed as [k / 2][column][2] and each pair of A is one 32-bit
// broadcast; int8 runs the same way on AVX512_VNNI's vpdpbusd with k in
// quads (MatmulVnni.cpp). Hosts with AVX2 and FMA but not AVX-512 run the
// f32 kernel with 6 x 16 tiles in ymm registers (other types widened to f32
// for it). On hosts with AMX (and the OS's permission), bf16 and int8 run on
// the AMX kernels of MatmulAmx.cpp. Target attributes let one binary carry
// every kernel; the host's features pick one at run time.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/Matmul.h"

#include "HostFeatures.h"
#include "MatmulKernels.h"
#include "refcpu/Runtime/HalfFloat.h"

#include <algorithm>
#include <initializer_list>
#include <type_traits>

using namespace refcpu::runtime;
using namespace refcpu::runtime::detail;

namespace {
/// Packed operands (see Scratch).
thread_local Scratch<float> scratchA, scratchB;
thread_local Scratch<uint16_t> scratchPairsA, scratchPairsB;

/// Copies `m` into `buffer` as a row-major f32 matrix.
template <typename T, typename Widen>
MatrixRef<const float> widen(MatrixRef<const T> m, Scratch<float> &buffer,
                             Widen widenElement) {
  float *out = reserve(buffer, m.rows * m.cols);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j)
      out[i * m.cols + j] = widenElement(m.at(i, j));
  return {out, m.rows, m.cols, m.cols, 1};
}

float identity(float value) { return value; }

/// The portable kernel: k outside the column loop, which is contiguous (and
/// vectorized by the compiler) when B's and C's columns are.
void matmulGeneric(MatrixRef<const float> a, MatrixRef<const float> b,
                   MatrixRef<float> c) {
  for (int64_t i = 0; i < c.rows; ++i) {
    float *__restrict crow = &c.at(i, 0);
    for (int64_t k = 0; k < a.cols; ++k) {
      float av = a.at(i, k);
      const float *__restrict brow = &b.at(k, 0);
      if (c.colStride == 1 && b.colStride == 1) {
        for (int64_t j = 0; j < c.cols; ++j)
          crow[j] += av * brow[j];
      } else {
        for (int64_t j = 0; j < c.cols; ++j)
          crow[j * c.colStride] += av * brow[j * b.colStride];
      }
    }
  }
}

/// C's elements set to zero: a product with REFCPU_RT_ZERO_C on a kernel
/// that adds to C.
template <typename T> void zeroMatrix(MatrixRef<T> c) {
  for (int64_t i = 0; i < c.rows; ++i) {
    if (c.colStride == 1) {
      std::memset(&c.at(i, 0), 0, c.cols * sizeof(T));
      continue;
    }
    for (int64_t j = 0; j < c.cols; ++j)
      c.at(i, j) = T(0);
  }
}

/// The portable int8 kernel; unsigned arithmetic wraps as the i32 sum must.
void matmulGenericI8(MatrixRef<const int8_t> a, MatrixRef<const int8_t> b,
                     MatrixRef<int32_t> c) {
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t k = 0; k < a.cols; ++k) {
      uint32_t av = static_cast<uint32_t>(int32_t(a.at(i, k)));
      for (int64_t j = 0; j < c.cols; ++j) {
        int32_t &out = c.at(i, j);
        out = static_cast<int32_t>(static_cast<uint32_t>(out) +
                                   av * static_cast<uint32_t>(int32_t(b.at(k, j))));
      }
    }
}

#ifdef REFCPU_HAS_X86_KERNELS
#define REFCPU_AVX2 __attribute__((target("avx2,fma")))

/// Rows of an AVX2 tile: 6 x 16 f32 are 12 ymm accumulators of the 16, with
/// two for the B row and one for the broadcast.
constexpr int64_t kAvx2TileRows = 6;
constexpr int64_t kAvx2Lanes = 8;
constexpr int64_t kAvx2TileCols = 2 * kAvx2Lanes;

/// The lanes of the first `count` columns, for vmaskmovps.
REFCPU_AVX2 __m256i laneMaskAvx2(int64_t count) {
  count = std::clamp<int64_t>(count, 0, kAvx2Lanes);
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(count)), lanes);
}

/// Rows x 16 of C += A * B over k steps, as tileF32 below with 8-lane
/// vectors; B's row p starts at b + p * bk and is contiguous. Only edge
/// tiles (Masked) use vmaskmovps: its two masks would take the last free
/// registers of a full tile.
template <bool Masked>
REFCPU_AVX2 __m256 loadAvx2(const float *p, __m256i mask) {
  return Masked ? _mm256_maskload_ps(p, mask) : _mm256_loadu_ps(p);
}

template <int Rows, bool Masked>
REFCPU_AVX2 void tileAvx2(int64_t k, const float *a, int64_t am, int64_t ak,
                          const float *b, int64_t bk, float *c, int64_t cm,
                          __m256i m0, __m256i m1, bool zero) {
  __m256 acc0[Rows], acc1[Rows];
  for (int r = 0; r < Rows; ++r) {
    acc0[r] = zero ? _mm256_setzero_ps() : loadAvx2<Masked>(c + r * cm, m0);
    acc1[r] = zero ? _mm256_setzero_ps()
                   : loadAvx2<Masked>(c + r * cm + kAvx2Lanes, m1);
  }
  for (int64_t p = 0; p < k; ++p) {
    __m256 b0 = loadAvx2<Masked>(b + p * bk, m0);
    __m256 b1 = loadAvx2<Masked>(b + p * bk + kAvx2Lanes, m1);
    for (int r = 0; r < Rows; ++r) {
      __m256 av = _mm256_broadcast_ss(a + r * am + p * ak);
      acc0[r] = _mm256_fmadd_ps(av, b0, acc0[r]);
      acc1[r] = _mm256_fmadd_ps(av, b1, acc1[r]);
    }
  }
  for (int r = 0; r < Rows; ++r) {
    if (Masked) {
      _mm256_maskstore_ps(c + r * cm, m0, acc0[r]);
      _mm256_maskstore_ps(c + r * cm + kAvx2Lanes, m1, acc1[r]);
    } else {
      _mm256_storeu_ps(c + r * cm, acc0[r]);
      _mm256_storeu_ps(c + r * cm + kAvx2Lanes, acc1[r]);
    }
  }
}

using TileAvx2 = void (*)(int64_t, const float *, int64_t, int64_t,
                          const float *, int64_t, float *, int64_t, __m256i,
                          __m256i, bool);

template <bool Masked>
constexpr TileAvx2 kTilesAvx2[kAvx2TileRows + 1] = {
    nullptr,
    tileAvx2<1, Masked>,
    tileAvx2<2, Masked>,
    tileAvx2<3, Masked>,
    tileAvx2<4, Masked>,
    tileAvx2<5, Masked>,
    tileAvx2<6, Masked>};

/// Needs B's and C's columns contiguous; `zero`: C = A * B.
REFCPU_AVX2 void matmulAvx2(MatrixRef<const float> a, MatrixRef<const float> b,
                            MatrixRef<float> c, bool zero) {
  for (int64_t j = 0; j < c.cols; j += kAvx2TileCols) {
    int64_t cols = std::min(kAvx2TileCols, c.cols - j);
    __m256i m0 = laneMaskAvx2(cols), m1 = laneMaskAvx2(cols - kAvx2Lanes);
    const TileAvx2 *tiles =
        cols == kAvx2TileCols ? kTilesAvx2<false> : kTilesAvx2<true>;
    for (int64_t i = 0; i < c.rows; i += kAvx2TileRows) {
      int64_t rows = std::min(kAvx2TileRows, c.rows - i);
      tiles[rows](a.cols, &a.at(i, 0), a.rowStride, a.colStride, &b.at(0, j),
                  b.rowStride, &c.at(i, j), c.rowStride, m0, m1, zero);
    }
  }
}

/// Rows x (NV * 16) of C += A * B over k steps; B's row p starts at
/// b + p * bk and is contiguous, A's element (r, p) is a[r * am + p * ak].
/// Packed operands (A as [k][8], B as [k][32]) have those strides as
/// constants, so that the loop does no address arithmetic for them.
template <int Rows, int NV, bool Packed>
REFCPU_AVX512 void tileF32(int64_t k, const float *a, int64_t am, int64_t ak,
                           const float *b, int64_t bk, float *c, int64_t cm,
                           __mmask16 m0, __mmask16 m1, bool zero) {
  if (Packed) {
    am = 1;
    ak = kTileRows;
    bk = kTileCols;
  }
  // A zero mask loads zeros and reads nothing.
  __mmask16 c0 = zero ? 0 : m0, c1 = zero ? 0 : m1;
  __m512 acc0[Rows], acc1[Rows];
  for (int r = 0; r < Rows; ++r) {
    acc0[r] = _mm512_maskz_loadu_ps(c0, c + r * cm);
    acc1[r] = NV == 2 ? _mm512_maskz_loadu_ps(c1, c + r * cm + kLanes)
                      : _mm512_setzero_ps();
  }
  for (int64_t p = 0; p < k; ++p) {
    // A packed panel is zero past B's columns.
    __m512 b0 = Packed ? _mm512_loadu_ps(b + p * bk)
                       : _mm512_maskz_loadu_ps(m0, b + p * bk);
    __m512 b1 = NV != 2  ? _mm512_setzero_ps()
                : Packed ? _mm512_loadu_ps(b + p * bk + kLanes)
                         : _mm512_maskz_loadu_ps(m1, b + p * bk + kLanes);
    for (int r = 0; r < Rows; ++r) {
      __m512 av = _mm512_set1_ps(a[r * am + p * ak]);
      acc0[r] = _mm512_fmadd_ps(av, b0, acc0[r]);
      if (NV == 2)
        acc1[r] = _mm512_fmadd_ps(av, b1, acc1[r]);
    }
  }
  for (int r = 0; r < Rows; ++r) {
    _mm512_mask_storeu_ps(c + r * cm, m0, acc0[r]);
    if (NV == 2)
      _mm512_mask_storeu_ps(c + r * cm + kLanes, m1, acc1[r]);
  }
}

using TileF32 = void (*)(int64_t, const float *, int64_t, int64_t,
                         const float *, int64_t, float *, int64_t, __mmask16,
                         __mmask16, bool);

template <int NV, bool Packed>
constexpr TileF32 kTilesF32[kTileRows + 1] = {
    nullptr,
    tileF32<1, NV, Packed>, tileF32<2, NV, Packed>, tileF32<3, NV, Packed>,
    tileF32<4, NV, Packed>, tileF32<5, NV, Packed>, tileF32<6, NV, Packed>,
    tileF32<7, NV, Packed>, tileF32<8, NV, Packed>};

/// k per packed panel: 128 x 32 f32 of B (16 KiB) stay in L1 while the row
/// tiles of C pass over them.
constexpr int64_t kPanelDepth = 128;

thread_local Scratch<float> scratchPanelA, scratchPanelB;

/// 8 or 16 elements (the first `mask` lanes) as f32: f32 as they are, f16
/// widened by vcvtph2ps.
REFCPU_AVX512 __m256 load8(const float *p) { return _mm256_loadu_ps(p); }
REFCPU_AVX512 __m256 load8(const uint16_t *p) {
  return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}
REFCPU_AVX512 __m512 load16(__mmask16 mask, const float *p) {
  return _mm512_maskz_loadu_ps(mask, p);
}
REFCPU_AVX512 __m512 load16(__mmask16 mask, const uint16_t *p) {
  return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(mask, p));
}
float toFloat(float value) { return value; }
float toFloat(uint16_t half) { return halfBitsToFloat(half); }

/// Copies rows [i, i + 8) x columns [p0, p0 + depth) of A (f32, or f16
/// widened) to `out` as [depth][8] f32, zero past A's rows; 8 x 8 blocks are
/// transposed in ymm registers where the rows are whole and contiguous.
template <typename T>
REFCPU_AVX512 void packTileA(MatrixRef<const T> a, int64_t i, int64_t p0,
                             int64_t depth, float *out) {
  int64_t p = 0;
  if (i + kTileRows <= a.rows && a.colStride == 1) {
    for (; p + 8 <= depth; p += 8) {
      __m256 r[8], t[8], u[8];
      for (int row = 0; row < 8; ++row)
        r[row] = load8(&a.at(i + row, p0 + p));
      for (int pair = 0; pair < 4; ++pair) {
        t[2 * pair] = _mm256_unpacklo_ps(r[2 * pair], r[2 * pair + 1]);
        t[2 * pair + 1] = _mm256_unpackhi_ps(r[2 * pair], r[2 * pair + 1]);
      }
      for (int half = 0; half < 2; ++half) {
        __m256 *s = t + 4 * half, *d = u + 4 * half;
        d[0] = _mm256_shuffle_ps(s[0], s[2], _MM_SHUFFLE(1, 0, 1, 0));
        d[1] = _mm256_shuffle_ps(s[0], s[2], _MM_SHUFFLE(3, 2, 3, 2));
        d[2] = _mm256_shuffle_ps(s[1], s[3], _MM_SHUFFLE(1, 0, 1, 0));
        d[3] = _mm256_shuffle_ps(s[1], s[3], _MM_SHUFFLE(3, 2, 3, 2));
      }
      // u[0..3] hold columns 0-3 (low lanes) and 4-7 (high lanes) of rows
      // 0-3, u[4..7] the same of rows 4-7.
      for (int col = 0; col < 4; ++col) {
        _mm256_storeu_ps(out + (p + col) * kTileRows,
                         _mm256_permute2f128_ps(u[col], u[4 + col], 0x20));
        _mm256_storeu_ps(out + (p + 4 + col) * kTileRows,
                         _mm256_permute2f128_ps(u[col], u[4 + col], 0x31));
      }
    }
  }
  for (; p < depth; ++p)
    for (int64_t row = 0; row < kTileRows; ++row)
      out[p * kTileRows + row] =
          i + row < a.rows ? toFloat(a.at(i + row, p0 + p)) : 0.0f;
}

/// Copies rows [p0, p0 + depth) x columns [j, j + 32) of B (f32, or f16
/// widened) to `out` as [depth][32] f32, zero past B's columns.
template <typename T>
REFCPU_AVX512 void packPanelB(MatrixRef<const T> b, int64_t p0, int64_t depth,
                              int64_t j, float *out) {
  __mmask16 m0 = laneMask(b.cols - j), m1 = laneMask(b.cols - j - kLanes);
  for (int64_t p = 0; p < depth; ++p) {
    const T *row = &b.at(p0 + p, j);
    _mm512_storeu_ps(out + p * kTileCols, load16(m0, row));
    _mm512_storeu_ps(out + p * kTileCols + kLanes, load16(m1, row + kLanes));
  }
}

/// Needs B's and C's columns contiguous. With more than one row tile, A and
/// B are packed per k panel: each 32-column panel of B into consecutive
/// rows, each 8-row tile of A as [k][8], so that the tiles read consecutive
/// cache lines. Read in place, their rows are often 4 KiB apart (a
/// 1024-wide matrix), all in one L1 set, and evict one another. f16 is
/// always packed, widened to f32 in registers on the way. A shared operand
/// is packed whole, k panel after k panel, into the launch's cache. `zero`:
/// C = A * B, the first k panel's tiles starting from zero.
template <typename T>
REFCPU_AVX512 void matmulAvx512(MatrixRef<const T> a, MatrixRef<const T> b,
                                MatrixRef<float> c, SharedPacks shared,
                                bool zero) {
  constexpr bool isF32 = std::is_same_v<T, float>;
  bool pack = !isF32 || c.rows > kTileRows;
  int64_t tileRows = roundUp(c.rows, kTileRows);
  int64_t panelCols = roundUp(c.cols, kTileCols);
  const float *sharedA = nullptr, *sharedB = nullptr;
  if (pack) {
    sharedA = shared.get<float>(
        REFCPU_RT_SHARED_A, a, isF32 ? PackCache::Layout::F32TilesA : PackCache::Layout::F16TilesA,
        tileRows * a.cols, [&](float *out) {
          for (int64_t p0 = 0; p0 < a.cols; p0 += kPanelDepth) {
            int64_t depth = std::min(kPanelDepth, a.cols - p0);
            for (int64_t i = 0; i < tileRows; i += kTileRows)
              packTileA(a, i, p0, depth, out + tileRows * p0 + i * depth);
          }
        });
    sharedB = shared.get<float>(
        REFCPU_RT_SHARED_B, b, isF32 ? PackCache::Layout::F32PanelsB : PackCache::Layout::F16PanelsB,
        panelCols * a.cols, [&](float *out) {
          for (int64_t p0 = 0; p0 < a.cols; p0 += kPanelDepth) {
            int64_t depth = std::min(kPanelDepth, a.cols - p0);
            for (int64_t j = 0; j < c.cols; j += kTileCols)
              packPanelB(b, p0, depth, j, out + panelCols * p0 + j * depth);
          }
        });
  }
  float *panelA = pack && !sharedA
                      ? reserve(scratchPanelA, tileRows * kPanelDepth)
                      : nullptr;
  float *panelB =
      pack && !sharedB ? reserve(scratchPanelB, kPanelDepth * kTileCols) : nullptr;
  for (int64_t p0 = 0; p0 < a.cols; p0 += kPanelDepth) {
    int64_t depth = std::min(kPanelDepth, a.cols - p0);
    const float *aPanel = sharedA ? sharedA + tileRows * p0 : panelA;
    if (panelA)
      for (int64_t i = 0; i < tileRows; i += kTileRows)
        packTileA(a, i, p0, depth, panelA + i * depth);
    for (int64_t j = 0; j < c.cols; j += kTileCols) {
      int64_t cols = std::min(kTileCols, c.cols - j);
      __mmask16 m0 = laneMask(cols), m1 = laneMask(cols - kLanes);
      const float *bPanel = panelB;
      int64_t bk = kTileCols;
      if (sharedB) {
        bPanel = sharedB + panelCols * p0 + j * depth;
      } else if (panelB) {
        packPanelB(b, p0, depth, j, panelB);
      } else if constexpr (isF32) {
        bPanel = &b.at(p0, j);
        bk = b.rowStride;
      }
      const TileF32 *tiles =
          pack ? (cols > kLanes ? kTilesF32<2, true> : kTilesF32<1, true>)
               : (cols > kLanes ? kTilesF32<2, false> : kTilesF32<1, false>);
      for (int64_t i = 0; i < c.rows; i += kTileRows) {
        const float *aTile = pack ? aPanel + i * depth : nullptr;
        if constexpr (isF32)
          if (!pack)
            aTile = &a.at(i, p0);
        tiles[std::min(kTileRows, c.rows - i)](
            depth, aTile, a.rowStride, a.colStride, bPanel, bk, &c.at(i, j),
            c.rowStride, m0, m1, zero && p0 == 0);
      }
    }
  }
}

/// Rows x (NV * 16) of C += A * B over k pairs (C = A * B where `zero`). A's
/// row r holds its pairs contiguously from a + r * am; the panel holds, per
/// pair, NV * 16 columns of two bf16 (k even, k odd).
template <int Rows, int NV>
REFCPU_AVX512BF16 void tileBf16(int64_t pairs, const uint16_t *a, int64_t am,
                                const uint16_t *panel, float *c, int64_t cm,
                                __mmask16 m0, __mmask16 m1, bool zero) {
  __mmask16 c0 = zero ? 0 : m0, c1 = zero ? 0 : m1;
  __m512 acc0[Rows], acc1[Rows];
  for (int r = 0; r < Rows; ++r) {
    acc0[r] = _mm512_maskz_loadu_ps(c0, c + r * cm);
    acc1[r] = NV == 2 ? _mm512_maskz_loadu_ps(c1, c + r * cm + kLanes)
                      : _mm512_setzero_ps();
  }
  for (int64_t p = 0; p < pairs; ++p) {
    const uint16_t *row = panel + p * NV * kTileCols;
    __m512bh b0 = (__m512bh)_mm512_loadu_si512(row);
    __m512bh b1 = NV == 2 ? (__m512bh)_mm512_loadu_si512(row + kTileCols)
                          : (__m512bh)_mm512_setzero_si512();
    for (int r = 0; r < Rows; ++r) {
      uint32_t pair;
      std::memcpy(&pair, a + r * am + 2 * p, sizeof(pair));
      __m512bh av = (__m512bh)_mm512_set1_epi32(static_cast<int>(pair));
      acc0[r] = _mm512_dpbf16_ps(acc0[r], av, b0);
      if (NV == 2)
        acc1[r] = _mm512_dpbf16_ps(acc1[r], av, b1);
    }
  }
  for (int r = 0; r < Rows; ++r) {
    _mm512_mask_storeu_ps(c + r * cm, m0, acc0[r]);
    if (NV == 2)
      _mm512_mask_storeu_ps(c + r * cm + kLanes, m1, acc1[r]);
  }
}

using TileBf16 = void (*)(int64_t, const uint16_t *, int64_t, const uint16_t *,
                          float *, int64_t, __mmask16, __mmask16, bool);

template <int NV> constexpr TileBf16 kTilesBf16[kTileRows + 1] = {
    nullptr,           tileBf16<1, NV>, tileBf16<2, NV>, tileBf16<3, NV>,
    tileBf16<4, NV>,   tileBf16<5, NV>, tileBf16<6, NV>, tileBf16<7, NV>,
    tileBf16<8, NV>};

/// Needs C's columns contiguous; `zero`: C = A * B.
REFCPU_AVX512BF16 void matmulAvx512Bf16(MatrixRef<const uint16_t> a,
                                        MatrixRef<const uint16_t> b,
                                        MatrixRef<float> c, SharedPacks shared,
                                        bool zero) {
  int64_t k = a.cols, pairs = (k + 1) / 2;
  auto [aPairs, am] = groupedRowsOfA(a, 2, scratchPairsA);
  int nv = c.cols > kLanes ? 2 : 1;
  int64_t panelCols = nv * kLanes, panelSize = pairs * panelCols * 2;
  // A shared B is packed whole, panel after panel, into the launch's cache.
  const uint16_t *sharedB = shared.get<uint16_t>(
      REFCPU_RT_SHARED_B, b, PackCache::Layout::Bf16PairsB,
      roundUp(c.cols, panelCols) / panelCols * panelSize, [&](uint16_t *out) {
        packPairs(b, 0, nv, roundUp(c.cols, panelCols) / panelCols, panelSize,
                  out);
      });
  uint16_t *scratch = sharedB ? nullptr : reserve(scratchPairsB, panelSize);
  for (int64_t j = 0; j < c.cols; j += panelCols) {
    int64_t cols = std::min(panelCols, c.cols - j);
    const uint16_t *panel = scratch;
    if (sharedB)
      panel = sharedB + j / panelCols * panelSize;
    else
      packPairs(b, j, nv, 1, panelSize, scratch);
    __mmask16 m0 = laneMask(cols), m1 = laneMask(cols - kLanes);
    const TileBf16 *tiles = nv == 2 ? kTilesBf16<2> : kTilesBf16<1>;
    for (int64_t i = 0; i < c.rows; i += kTileRows) {
      int64_t rows = std::min(kTileRows, c.rows - i);
      tiles[rows](pairs, aPairs + i * am, am, panel, &c.at(i, j), c.rowStride,
                  m0, m1, zero);
    }
  }
}
/// amxPermitted, asked once per process.
bool amxPermittedOnce() {
  static const bool permitted = amxPermitted();
  return permitted;
}
#endif // REFCPU_HAS_X86_KERNELS

/// f32 products on the best kernel `isa` allows for these strides.
/// `shared` names the operands that are the kernel's own (not copies);
/// `zero`: C = A * B.
void matmulWidened(MatrixRef<const float> a, MatrixRef<const float> b,
                   MatrixRef<float> c, MatmulIsa isa, SharedPacks shared,
                   bool zero) {
#ifdef REFCPU_HAS_X86_KERNELS
  if (isa != MatmulIsa::Generic && c.colStride == 1) {
    if (b.colStride != 1) {
      b = widen(b, scratchB, identity);
      shared.operands &= ~unsigned(REFCPU_RT_SHARED_B);
    }
    if (isa == MatmulIsa::Avx2)
      matmulAvx2(a, b, c, zero);
    else
      matmulAvx512(a, b, c, shared, zero);
    return;
  }
#endif
  (void)isa;
  (void)shared;
  if (zero)
    zeroMatrix(c);
  matmulGeneric(a, b, c);
}

/// Whether the product needs no kernel: C is empty, or k is (C then stays,
/// or becomes zero under REFCPU_RT_ZERO_C).
template <typename T>
bool isTrivial(MatrixRef<T> c, int64_t k, unsigned flags) {
  if (c.rows == 0 || c.cols == 0)
    return true;
  if (k != 0)
    return false;
  if (flags & REFCPU_RT_ZERO_C)
    zeroMatrix(c);
  return true;
}
} // namespace

#ifdef REFCPU_HAS_X86_KERNELS
REFCPU_AVX512BF16 void detail::packPairs(MatrixRef<const uint16_t> b, int64_t j,
                                         int nv, int64_t panels,
                                         int64_t panelStride, uint16_t *out) {
  int64_t pairs = (b.rows + 1) / 2, panelCols = nv * kLanes;
  if (b.colStride != 1) {
    for (int64_t q = 0; q < panels; ++q)
      for (int64_t p = 0; p < pairs; ++p)
        for (int64_t lane = 0; lane < panelCols; ++lane)
          for (int64_t half = 0; half < 2; ++half) {
            int64_t row = 2 * p + half, col = j + q * panelCols + lane;
            out[q * panelStride + p * 2 * panelCols + 2 * lane + half] =
                row < b.rows && col < b.cols ? b.at(row, col) : 0;
          }
    return;
  }
  // Two rows of 32 bf16 become 32 pairs, element l of the even row next to
  // element l of the odd one: vpermt2w takes indices below 32 from the
  // first operand and the others from the second.
  alignas(64) uint16_t low[kTileCols], high[kTileCols];
  for (int64_t lane = 0; lane < kLanes; ++lane) {
    low[2 * lane] = lane;
    low[2 * lane + 1] = kTileCols + lane;
    high[2 * lane] = kLanes + lane;
    high[2 * lane + 1] = kTileCols + kLanes + lane;
  }
  const __m512i lowIndex = _mm512_load_si512(low);
  const __m512i highIndex = _mm512_load_si512(high);
  // In row order: each pair of rows is read whole, left to right, and
  // written into every panel. Read panel by panel instead, one 64-byte strip
  // per row at B's row stride, the tutorial's 512 x 128 blocks of B packed
  // at 14-34 GB/s on the 2-core EPYC (row strides of 2048 to 512 elements),
  // 28-40 GB/s in row order.
  for (int64_t p = 0; p < pairs; ++p) {
    const uint16_t *even = &b.at(2 * p, j);
    const uint16_t *odd = 2 * p + 1 < b.rows ? even + b.rowStride : nullptr;
    for (int64_t q = 0; q < panels; ++q) {
      int64_t col = q * panelCols;
      int64_t count = std::clamp<int64_t>(b.cols - j - col, 0, panelCols);
      __mmask32 mask =
          count == kTileCols ? ~__mmask32(0) : (__mmask32(1) << count) - 1;
      __m512i evenRow = _mm512_maskz_loadu_epi16(mask, even + col);
      __m512i oddRow = odd ? _mm512_maskz_loadu_epi16(mask, odd + col)
                           : _mm512_setzero_si512();
      uint16_t *panel = out + q * panelStride + p * 2 * panelCols;
      _mm512_storeu_si512(panel,
                          _mm512_permutex2var_epi16(evenRow, lowIndex, oddRow));
      if (nv == 2)
        _mm512_storeu_si512(panel + kTileCols, _mm512_permutex2var_epi16(
                                                   evenRow, highIndex, oddRow));
    }
  }
}
#endif

bool refcpu::runtime::hostSupports(MatmulIsa isa) {
#ifdef REFCPU_HAS_X86_KERNELS
  const HostFeatures &host = getHostFeatures();
  switch (isa) {
  case MatmulIsa::Generic:
    return true;
  case MatmulIsa::Avx2:
    return host.avx2 && host.fma;
  case MatmulIsa::Avx512:
    return host.avx512;
  case MatmulIsa::Avx512Bf16:
    return host.avx512bf16;
  case MatmulIsa::Avx512Vnni:
    return host.avx512vnni;
  case MatmulIsa::AmxBf16:
    return host.avx512bf16 && host.amxBf16 && amxPermittedOnce();
  case MatmulIsa::AmxInt8:
    return host.amxInt8 && amxPermittedOnce();
  }
  return false;
#else
  return isa == MatmulIsa::Generic;
#endif
}

namespace {
/// The first of `preferred` the host supports, else Generic.
MatmulIsa pickIsa(std::initializer_list<MatmulIsa> preferred) {
  for (MatmulIsa isa : preferred)
    if (hostSupports(isa))
      return isa;
  return MatmulIsa::Generic;
}
} // namespace

void refcpu::runtime::matmulF32(MatrixRef<const float> a,
                                MatrixRef<const float> b, MatrixRef<float> c,
                                MatmulIsa isa, unsigned flags) {
  if (!isTrivial(c, a.cols, flags))
    matmulWidened(a, b, c, isa, SharedPacks::forLaunch(flags),
                  flags & REFCPU_RT_ZERO_C);
}

void refcpu::runtime::matmulBF16(MatrixRef<const uint16_t> a,
                                 MatrixRef<const uint16_t> b,
                                 MatrixRef<float> c, MatmulIsa isa,
                                 unsigned flags) {
  if (isTrivial(c, a.cols, flags))
    return;
  bool zero = flags & REFCPU_RT_ZERO_C;
#ifdef REFCPU_HAS_X86_KERNELS
  if (isa == MatmulIsa::AmxBf16) {
    matmulAmxBf16(a, b, c, SharedPacks::forLaunch(flags), zero);
    return;
  }
  if (isa == MatmulIsa::Avx512Bf16 && c.colStride == 1) {
    matmulAvx512Bf16(a, b, c, SharedPacks::forLaunch(flags), zero);
    return;
  }
#endif
  matmulWidened(widen(a, scratchA, bfloat16BitsToFloat),
                widen(b, scratchB, bfloat16BitsToFloat), c, isa, {}, zero);
}

void refcpu::runtime::matmulF16(MatrixRef<const uint16_t> a,
                                MatrixRef<const uint16_t> b, MatrixRef<float> c,
                                MatmulIsa isa, unsigned flags) {
  if (isTrivial(c, a.cols, flags))
    return;
  bool zero = flags & REFCPU_RT_ZERO_C;
#ifdef REFCPU_HAS_X86_KERNELS
  if (isa == MatmulIsa::Avx512 && b.colStride == 1 && c.colStride == 1) {
    matmulAvx512(a, b, c, SharedPacks::forLaunch(flags), zero);
    return;
  }
#endif
  matmulWidened(widen(a, scratchA, halfBitsToFloat),
                widen(b, scratchB, halfBitsToFloat), c, isa, {}, zero);
}

void refcpu::runtime::matmulI8(MatrixRef<const int8_t> a,
                               MatrixRef<const int8_t> b, MatrixRef<int32_t> c,
                               MatmulIsa isa, unsigned flags) {
  if (isTrivial(c, a.cols, flags))
    return;
  bool zero = flags & REFCPU_RT_ZERO_C;
#ifdef REFCPU_HAS_X86_KERNELS
  if (isa == MatmulIsa::AmxInt8) {
    matmulAmxI8(a, b, c, SharedPacks::forLaunch(flags), zero);
    return;
  }
  if (isa == MatmulIsa::Avx512Vnni && c.colStride == 1) {
    matmulAvx512Vnni(a, b, c, SharedPacks::forLaunch(flags), zero);
    return;
  }
#endif
  (void)isa;
  if (zero)
    zeroMatrix(c);
  matmulGenericI8(a, b, c);
}

extern "C" {
void refcpu_rt_matmul_f32(REFCPU_MATRIX_PARAMS(const float, a),
                          REFCPU_MATRIX_PARAMS(const float, b),
                          REFCPU_MATRIX_PARAMS(float, c), int32_t flags) {
  static const MatmulIsa isa = pickIsa({MatmulIsa::Avx512, MatmulIsa::Avx2});
  matmulF32(REFCPU_MATRIX(a), REFCPU_MATRIX(b), REFCPU_MATRIX(c), isa, flags);
}

void refcpu_rt_matmul_bf16(REFCPU_MATRIX_PARAMS(const uint16_t, a),
                           REFCPU_MATRIX_PARAMS(const uint16_t, b),
                           REFCPU_MATRIX_PARAMS(float, c), int32_t flags) {
  static const MatmulIsa isa =
      pickIsa({MatmulIsa::AmxBf16, MatmulIsa::Avx512Bf16, MatmulIsa::Avx512,
               MatmulIsa::Avx2});
  matmulBF16(REFCPU_MATRIX(a), REFCPU_MATRIX(b), REFCPU_MATRIX(c), isa, flags);
}

void refcpu_rt_matmul_f16(REFCPU_MATRIX_PARAMS(const uint16_t, a),
                          REFCPU_MATRIX_PARAMS(const uint16_t, b),
                          REFCPU_MATRIX_PARAMS(float, c), int32_t flags) {
  static const MatmulIsa isa = pickIsa({MatmulIsa::Avx512, MatmulIsa::Avx2});
  matmulF16(REFCPU_MATRIX(a), REFCPU_MATRIX(b), REFCPU_MATRIX(c), isa, flags);
}

void refcpu_rt_matmul_i8(REFCPU_MATRIX_PARAMS(const int8_t, a),
                         REFCPU_MATRIX_PARAMS(const int8_t, b),
                         REFCPU_MATRIX_PARAMS(int32_t, c), int32_t flags) {
  static const MatmulIsa isa =
      pickIsa({MatmulIsa::AmxInt8, MatmulIsa::Avx512Vnni});
  matmulI8(REFCPU_MATRIX(a), REFCPU_MATRIX(b), REFCPU_MATRIX(c), isa, flags);
}
}
