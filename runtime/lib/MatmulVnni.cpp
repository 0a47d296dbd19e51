//===- MatmulVnni.cpp - int8 block products on AVX512_VNNI ----------------===//
//
// C += A * B for int8 A and B and an i32 C with vpdpbusd, on hosts without
// AMX: tiles of up to 8 rows x 32 columns of C in zmm accumulators, B
// packed per 32-column panel as k quads of unsigned (flipped) bytes (once
// per launch where it is shared, PackCache.h), corrected by A's row sums.
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"

#include <algorithm>

#ifdef REFCPU_HAS_X86_KERNELS
using namespace refcpu::runtime;
using namespace refcpu::runtime::detail;

namespace {
/// Rows x (NV * 16) of C += A * B over k quads with vpdpbusd, which
/// multiplies unsigned by signed bytes: B's bytes were flipped to b + 128
/// when it was packed, and `correction` (128 times each row's sum of A) is
/// subtracted from C first, so the i32 sums are exact modulo 2^32. Flipping
/// A's broadcast bytes instead (with B's column sums) took a vpxord per row
/// and k quad: one core of the 2-core Zen 4 EPYC ran the tutorial's i8 at
/// 694-703 us (128 x 256 x 64 blocks, 512^3), now 632-648, and 5822-5916 us
/// (128 x 128 x 64, 1024^3), now 5405-5449. A's row r holds its quads
/// contiguously from a + r * am; the panel holds, per quad, NV * 16 columns
/// of 4 bytes.
template <int Rows, int NV>
REFCPU_AVX512VNNI void tileI8(int64_t quads, const int8_t *a, int64_t am,
                              const int8_t *panel, const int32_t *correction,
                              int32_t *c, int64_t cm, __mmask16 m0,
                              __mmask16 m1, bool zero) {
  __m512i acc0[Rows], acc1[Rows];
  // C = A * B where `zero`: a zero mask loads zeros and reads nothing.
  __mmask16 c0 = zero ? 0 : m0, c1 = zero ? 0 : m1;
  for (int r = 0; r < Rows; ++r) {
    __m512i corr = _mm512_set1_epi32(correction[r]);
    acc0[r] = _mm512_sub_epi32(_mm512_maskz_loadu_epi32(c0, c + r * cm), corr);
    acc1[r] = NV == 2
                  ? _mm512_sub_epi32(
                        _mm512_maskz_loadu_epi32(c1, c + r * cm + kLanes), corr)
                  : _mm512_setzero_si512();
  }
  for (int64_t q = 0; q < quads; ++q) {
    const int8_t *row = panel + q * NV * 4 * kLanes;
    __m512i b0 = _mm512_loadu_si512(row);
    __m512i b1 = NV == 2 ? _mm512_loadu_si512(row + 4 * kLanes)
                         : _mm512_setzero_si512();
    for (int r = 0; r < Rows; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + r * am + 4 * q, sizeof(quad));
      __m512i av = _mm512_set1_epi32(quad);
      acc0[r] = _mm512_dpbusd_epi32(acc0[r], b0, av);
      if (NV == 2)
        acc1[r] = _mm512_dpbusd_epi32(acc1[r], b1, av);
    }
  }
  for (int r = 0; r < Rows; ++r) {
    _mm512_mask_storeu_epi32(c + r * cm, m0, acc0[r]);
    if (NV == 2)
      _mm512_mask_storeu_epi32(c + r * cm + kLanes, m1, acc1[r]);
  }
}

using TileI8 = void (*)(int64_t, const int8_t *, int64_t, const int8_t *,
                        const int32_t *, int32_t *, int64_t, __mmask16,
                        __mmask16, bool);

template <int NV> constexpr TileI8 kTilesI8[kTileRows + 1] = {
    nullptr,         tileI8<1, NV>, tileI8<2, NV>, tileI8<3, NV>,
    tileI8<4, NV>,   tileI8<5, NV>, tileI8<6, NV>, tileI8<7, NV>,
    tileI8<8, NV>};

thread_local Scratch<int8_t> scratchQuadsA, scratchQuadsB;
thread_local Scratch<int32_t> scratchRowSums;

/// Packs columns [j, j + 16 * nv) of B as tileI8 reads them: per k quad q,
/// 16 * nv columns of (B[4q][col], .., B[4q + 3][col]), each byte flipped
/// to b + 128, unsigned (what lies outside B is multiplied by A's zeros past
/// k, or lands in columns past C).
REFCPU_AVX512VNNI void packQuadsVnni(MatrixRef<const int8_t> b, int64_t j,
                                     int nv, int64_t quads, int8_t *panel) {
  int64_t count = std::clamp<int64_t>(b.cols - j, 0, nv * kLanes);
  const __m512i flip = _mm512_set1_epi8(int8_t(0x80));
  if (b.colStride == 1) {
    __mmask32 mask = count == kTileCols ? ~__mmask32(0)
                                        : (__mmask32(1) << count) - 1;
    for (int64_t q = 0; q < quads; ++q) {
      // Each row's 32 bytes widened to words, two rows to one word per
      // column, then two of those to one dword (quad) per column.
      __m512i row[4];
      for (int t = 0; t < 4; ++t)
        row[t] = 4 * q + t < b.rows
                     ? _mm512_cvtepu8_epi16(
                           _mm256_maskz_loadu_epi8(mask, &b.at(4 * q + t, j)))
                     : _mm512_setzero_si512();
      __m512i low = _mm512_or_si512(row[0], _mm512_slli_epi16(row[1], 8));
      __m512i high = _mm512_or_si512(row[2], _mm512_slli_epi16(row[3], 8));
      __m256i halves[2][2] = {
          {_mm512_castsi512_si256(low), _mm512_extracti64x4_epi64(low, 1)},
          {_mm512_castsi512_si256(high), _mm512_extracti64x4_epi64(high, 1)}};
      for (int v = 0; v < nv; ++v) {
        __m512i quad = _mm512_or_si512(
            _mm512_cvtepu16_epi32(halves[0][v]),
            _mm512_slli_epi32(_mm512_cvtepu16_epi32(halves[1][v]), 16));
        _mm512_storeu_si512(panel + (q * nv + v) * kLanes * 4,
                            _mm512_xor_si512(quad, flip));
      }
    }
    return;
  }
  for (int64_t q = 0; q < quads; ++q)
    for (int v = 0; v < nv; ++v) {
      int8_t *quad = panel + (q * nv + v) * kLanes * 4;
      for (int64_t lane = 0; lane < kLanes; ++lane)
        for (int64_t t = 0; t < 4; ++t) {
          int64_t row = 4 * q + t, col = v * kLanes + lane;
          int8_t value = row < b.rows && col < count ? b.at(row, j + col) : 0;
          quad[lane * 4 + t] = int8_t(uint8_t(value) ^ 0x80);
        }
    }
}

/// 128 times the sum of each of `rows` rows of `quads` k quads at a (row
/// stride am), into `out` (mod 2^32): tileI8's correction.
REFCPU_AVX512VNNI void rowCorrections(const int8_t *a, int64_t am, int64_t rows,
                                      int64_t quads, int32_t *out) {
  const __m512i ones = _mm512_set1_epi8(1);
  int64_t bytes = 4 * quads;
  for (int64_t r = 0; r < rows; ++r) {
    __m512i sums = _mm512_setzero_si512();
    for (int64_t p = 0; p < bytes; p += 64) {
      __mmask64 mask =
          bytes - p >= 64 ? ~__mmask64(0) : (__mmask64(1) << (bytes - p)) - 1;
      sums = _mm512_dpbusd_epi32(sums, ones,
                                 _mm512_maskz_loadu_epi8(mask, a + r * am + p));
    }
    out[r] = int32_t(uint32_t(_mm512_reduce_add_epi32(sums)) << 7);
  }
}

} // namespace

/// Needs C's columns contiguous.
REFCPU_AVX512VNNI void detail::matmulAvx512Vnni(MatrixRef<const int8_t> a,
                                                MatrixRef<const int8_t> b,
                                                MatrixRef<int32_t> c,
                                                SharedPacks shared, bool zero) {
  int64_t k = a.cols, quads = (k + 3) / 4;
  // A's zero bytes past k add nothing, to the product or to its row sum.
  auto [aQuads, am] = groupedRowsOfA(a, 4, scratchQuadsA);
  int32_t *correction = reserve(scratchRowSums, c.rows);
  rowCorrections(aQuads, am, c.rows, quads, correction);
  int nv = c.cols > kLanes ? 2 : 1;
  int64_t panelCols = nv * kLanes, panelBytes = quads * panelCols * 4;
  // A shared B is packed whole, panel after panel, into the launch's cache.
  const int8_t *sharedB = shared.get<int8_t>(
      REFCPU_RT_SHARED_B, b, PackCache::Layout::I8QuadsB,
      roundUp(c.cols, panelCols) / panelCols * panelBytes, [&](int8_t *out) {
        for (int64_t j = 0; j < c.cols; j += panelCols)
          packQuadsVnni(b, j, nv, quads, out + j / panelCols * panelBytes);
      });
  int8_t *scratch = sharedB ? nullptr : reserve(scratchQuadsB, panelBytes);
  for (int64_t j = 0; j < c.cols; j += panelCols) {
    int64_t cols = std::min(panelCols, c.cols - j);
    const int8_t *panel = scratch;
    if (sharedB)
      panel = sharedB + j / panelCols * panelBytes;
    else
      packQuadsVnni(b, j, nv, quads, scratch);
    __mmask16 m0 = laneMask(cols), m1 = laneMask(cols - kLanes);
    const TileI8 *tiles = nv == 2 ? kTilesI8<2> : kTilesI8<1>;
    for (int64_t i = 0; i < c.rows; i += kTileRows) {
      int64_t rows = std::min(kTileRows, c.rows - i);
      tiles[rows](quads, aQuads + i * am, am, panel, correction + i,
                  &c.at(i, j), c.rowStride, m0, m1, zero);
    }
  }
}
#endif // REFCPU_HAS_X86_KERNELS
