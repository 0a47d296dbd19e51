//===- MatmulVnni.cpp - int8 block products on AVX512_VNNI ----------------===//
//
// C += A * B for int8 A and B and an i32 C with vpdpbusd, on hosts without
// AMX: tiles of up to 8 rows x 32 columns of C in zmm accumulators, B
// packed per 32-column panel as k quads (once per launch where it is shared,
// PackCache.h).
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"

#include <algorithm>

#ifdef REFCPU_HAS_X86_KERNELS
using namespace refcpu::runtime;
using namespace refcpu::runtime::detail;

namespace {
/// Rows x (NV * 16) of C += A * B over k quads with vpdpbusd, which
/// multiplies unsigned by signed bytes: A's bytes are flipped to a + 128 and
/// `correction` (128 * B's column sums) is subtracted from C first, so the
/// i32 sums are exact modulo 2^32. A's row r holds its quads contiguously
/// from a + r * am; the panel holds, per quad, NV * 16 columns of 4 bytes.
template <int Rows, int NV>
REFCPU_AVX512VNNI void tileI8(int64_t quads, const int8_t *a, int64_t am,
                              const int8_t *panel, const int32_t *correction,
                              int32_t *c, int64_t cm, __mmask16 m0,
                              __mmask16 m1, bool zero) {
  __m512i acc0[Rows], acc1[Rows];
  __m512i corr0 = _mm512_loadu_si512(correction);
  __m512i corr1 = NV == 2 ? _mm512_loadu_si512(correction + kLanes)
                          : _mm512_setzero_si512();
  // C = A * B where `zero`: a zero mask loads zeros and reads nothing.
  __mmask16 c0 = zero ? 0 : m0, c1 = zero ? 0 : m1;
  for (int r = 0; r < Rows; ++r) {
    acc0[r] = _mm512_sub_epi32(_mm512_maskz_loadu_epi32(c0, c + r * cm), corr0);
    acc1[r] =
        NV == 2 ? _mm512_sub_epi32(
                      _mm512_maskz_loadu_epi32(c1, c + r * cm + kLanes), corr1)
                : _mm512_setzero_si512();
  }
  const __m512i flip = _mm512_set1_epi32(int(0x80808080u));
  for (int64_t q = 0; q < quads; ++q) {
    const int8_t *row = panel + q * NV * 4 * kLanes;
    __m512i b0 = _mm512_loadu_si512(row);
    __m512i b1 = NV == 2 ? _mm512_loadu_si512(row + 4 * kLanes)
                         : _mm512_setzero_si512();
    for (int r = 0; r < Rows; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + r * am + 4 * q, sizeof(quad));
      __m512i av = _mm512_xor_si512(_mm512_set1_epi32(quad), flip);
      acc0[r] = _mm512_dpbusd_epi32(acc0[r], av, b0);
      if (NV == 2)
        acc1[r] = _mm512_dpbusd_epi32(acc1[r], av, b1);
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

/// Packs columns [j, j + 16 * nv) of B as tileI8 reads them: per k quad q,
/// 16 * nv columns of (B[4q][col], .., B[4q + 3][col]), zero outside B;
/// and `correction`, 128 times each column's sum (mod 2^32).
REFCPU_AVX512VNNI void packQuadsVnni(MatrixRef<const int8_t> b, int64_t j,
                                     int nv, int64_t quads, int8_t *panel,
                                     int32_t *correction) {
  int64_t count = std::clamp<int64_t>(b.cols - j, 0, nv * kLanes);
  __m512i sums[2] = {_mm512_setzero_si512(), _mm512_setzero_si512()};
  const __m512i ones = _mm512_set1_epi8(1);
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
        _mm512_storeu_si512(panel + (q * nv + v) * kLanes * 4, quad);
        sums[v] = _mm512_dpbusd_epi32(sums[v], ones, quad);
      }
    }
  } else {
    for (int64_t q = 0; q < quads; ++q)
      for (int v = 0; v < nv; ++v) {
        alignas(64) int8_t quad[kLanes * 4];
        for (int64_t lane = 0; lane < kLanes; ++lane)
          for (int64_t t = 0; t < 4; ++t) {
            int64_t row = 4 * q + t, col = v * kLanes + lane;
            quad[lane * 4 + t] = row < b.rows && col < count ? b.at(row, j + col) : 0;
          }
        __m512i packed = _mm512_load_si512(quad);
        _mm512_storeu_si512(panel + (q * nv + v) * kLanes * 4, packed);
        sums[v] = _mm512_dpbusd_epi32(sums[v], ones, packed);
      }
  }
  for (int v = 0; v < nv; ++v)
    _mm512_storeu_si512(correction + v * kLanes, _mm512_slli_epi32(sums[v], 7));
}

} // namespace

/// Needs C's columns contiguous.
REFCPU_AVX512VNNI void detail::matmulAvx512Vnni(MatrixRef<const int8_t> a,
                                                MatrixRef<const int8_t> b,
                                                MatrixRef<int32_t> c,
                                                SharedPacks shared, bool zero) {
  int64_t k = a.cols, quads = (k + 3) / 4;
  // A zero byte past k adds 128 * 0 after the flip.
  auto [aQuads, am] = groupedRowsOfA(a, 4, scratchQuadsA);
  int nv = c.cols > kLanes ? 2 : 1;
  int64_t panelCols = nv * kLanes;
  // A panel: the quads, then the correction of its columns.
  int64_t quadBytes = quads * panelCols * 4;
  int64_t panelBytes = quadBytes + panelCols * sizeof(int32_t);
  auto packPanel = [&](int64_t j, int8_t *panel) {
    packQuadsVnni(b, j, nv, quads, panel,
                  reinterpret_cast<int32_t *>(panel + quadBytes));
  };
  // A shared B is packed whole, panel after panel, into the launch's cache.
  const int8_t *sharedB = shared.get<int8_t>(
      REFCPU_RT_SHARED_B, b, PackCache::Layout::I8QuadsB,
      roundUp(c.cols, panelCols) / panelCols * panelBytes, [&](int8_t *out) {
        for (int64_t j = 0; j < c.cols; j += panelCols)
          packPanel(j, out + j / panelCols * panelBytes);
      });
  int8_t *scratch = sharedB ? nullptr : reserve(scratchQuadsB, panelBytes);
  for (int64_t j = 0; j < c.cols; j += panelCols) {
    int64_t cols = std::min(panelCols, c.cols - j);
    const int8_t *panel = scratch;
    if (sharedB)
      panel = sharedB + j / panelCols * panelBytes;
    else
      packPanel(j, scratch);
    __mmask16 m0 = laneMask(cols), m1 = laneMask(cols - kLanes);
    const TileI8 *tiles = nv == 2 ? kTilesI8<2> : kTilesI8<1>;
    const auto *correction = reinterpret_cast<const int32_t *>(panel + quadBytes);
    for (int64_t i = 0; i < c.rows; i += kTileRows) {
      int64_t rows = std::min(kTileRows, c.rows - i);
      tiles[rows](quads, aQuads + i * am, am, panel, correction, &c.at(i, j),
                  c.rowStride, m0, m1, zero);
    }
  }
}
#endif // REFCPU_HAS_X86_KERNELS
