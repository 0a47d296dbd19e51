//===- MatmulAmx.cpp - Block products on AMX tiles ------------------------===//
//
// bf16 (tdpbf16ps) and int8 (tdpbssd) block products on AMX: 32 x 32 blocks
// of C in four tiles (tmm0-3), two A tiles (tmm4-5) and two B tiles (tmm6-7)
// per 64 bytes of k. B is packed once per call (once per launch where it
// is shared, PackCache.h) in the layout the B tiles read (k pairs for
// bf16, quads for int8); each 32-row block of A then stays
// in L1 while it meets every column block, and only C comes from L2. A and C
// are used in place when they fill whole tiles, else copied zero-padded.
//
//===----------------------------------------------------------------------===//

#include "MatmulKernels.h"

#include <algorithm>

#ifdef REFCPU_HAS_X86_KERNELS
#include <sys/syscall.h>
#include <unistd.h>

using namespace refcpu::runtime;
using namespace refcpu::runtime::detail;

namespace {

/// AMX tiles are 16 rows of 64 bytes: 16 f32 of C, 32 bf16 (16 k pairs) of A,
/// or 16 k pairs of 16 columns of B.
constexpr int64_t kAmxRows = 16;
/// The kernel computes 32 x 32 blocks of C (tmm0-3) from two A tiles
/// (tmm4-5) and two B tiles (tmm6-7) per 32 k.
constexpr int64_t kAmxBlock = 32;

/// The palette-1 configuration of the eight tiles, all 16 x 64 bytes.
struct alignas(64) AmxConfig {
  uint8_t palette = 1;
  uint8_t startRow = 0;
  uint8_t reserved[14] = {};
  uint16_t bytesPerRow[16] = {};
  uint8_t rows[16] = {};
};

/// A as the AMX kernels read its tiles: in place when its k are contiguous
/// and fill `kPadded` and it has `rows` rows, else a zero-padded copy in
/// `scratch`. Returns the data and its row stride.
template <typename T>
std::pair<const T *, int64_t> tileRowsOfA(MatrixRef<const T> a, int64_t rows,
                                          int64_t kPadded,
                                          Scratch<T> &scratch) {
  if (a.colStride == 1 && a.cols == kPadded && a.rows == rows)
    return {&a.at(0, 0), a.rowStride};
  T *copy = reserve(scratch, rows * kPadded);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t p = 0; p < kPadded; ++p)
      copy[i * kPadded + p] = i < a.rows && p < a.cols ? a.at(i, p) : T(0);
  return {copy, kPadded};
}

/// C as whole 32 x 32 blocks of AMX tiles: in place when its columns are
/// contiguous and it fills them, else a zero-padded copy in `scratch` that
/// writeBack() stores into C.
template <typename T> struct TiledC {
  TiledC(MatrixRef<T> c, int64_t rows, int64_t cols, Scratch<T> &scratch)
      : c(c), data(&c.at(0, 0)), stride(c.rowStride),
        inPlace(c.colStride == 1 && c.rows == rows && c.cols == cols) {
    if (inPlace)
      return;
    data = reserve(scratch, rows * cols);
    stride = cols;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        data[i * cols + j] = i < c.rows && j < c.cols ? c.at(i, j) : T(0);
  }
  void writeBack() {
    if (!inPlace)
      for (int64_t i = 0; i < c.rows; ++i)
        for (int64_t j = 0; j < c.cols; ++j)
          c.at(i, j) = data[i * stride + j];
  }
  MatrixRef<T> c;
  T *data;
  int64_t stride;
  bool inPlace;
};

/// Configures the eight tiles as 16 rows of 64 bytes. Other code on this
/// thread (a PyTorch kernel) may have changed the configuration since the
/// last product.
__attribute__((target("amx-tile"))) void configureTiles() {
  AmxConfig config;
  for (int t = 0; t < 8; ++t) {
    config.bytesPerRow[t] = 64;
    config.rows[t] = kAmxRows;
  }
  _tile_loadconfig(&config);
}

thread_local Scratch<uint16_t> scratchAmxA, scratchAmxB;
thread_local Scratch<float> scratchAmxC;
} // namespace

/// Needs nothing of the strides: A is used in place only when its k are
/// contiguous and it fills whole tiles, C only when it fills whole blocks
/// with contiguous columns; otherwise each is copied, zero-padded.
REFCPU_AMX_BF16 void detail::matmulAmxBf16(MatrixRef<const uint16_t> a,
                                           MatrixRef<const uint16_t> b,
                                           MatrixRef<float> c,
                                           SharedPacks shared) {
  int64_t kPadded = roundUp(a.cols, kAmxBlock);
  int64_t rows = roundUp(c.rows, kAmxBlock), cols = roundUp(c.cols, kAmxBlock);
  auto [aTiles, am] = tileRowsOfA(a, rows, kPadded, scratchAmxA);
  TiledC<float> tiledC(c, rows, cols, scratchAmxC);
  float *cTiles = tiledC.data;
  int64_t cm = tiledC.stride;
  configureTiles();
  // All of B is packed first, packPairs' panel per 32 columns: per k pair,
  // 64 bf16 (two B tiles side by side), zero past B's k, rows padded with
  // zeros to whole tiles. Then each 32-row block of A stays in L1 while it
  // meets every column block; one block product's C is usually larger than
  // L1 and only C comes from L2.
  // A shared B is packed into the launch's cache instead.
  int64_t pairs = (b.rows + 1) / 2, paddedPairs = kPadded / 2;
  int64_t panelSize = paddedPairs * 2 * kTileCols;
  auto packB = [&](uint16_t *panels) {
    for (int64_t j = 0; j < cols; j += kAmxBlock) {
      uint16_t *panel = panels + j / kAmxBlock * panelSize;
      packPairs(b, j, 2, panel);
      std::memset(panel + pairs * 2 * kTileCols, 0,
                  (paddedPairs - pairs) * 2 * kTileCols * sizeof(uint16_t));
    }
  };
  const uint16_t *panels = shared.getOrPack<uint16_t>(
      REFCPU_RT_SHARED_B, b, PackCache::Layout::AmxBf16B,
      panelSize * (cols / kAmxBlock), scratchAmxB, packB);
  const int64_t aBytes = am * 2, cBytes = cm * 4, bBytes = 2 * kTileCols * 2;
  for (int64_t i = 0; i < rows; i += kAmxBlock) {
    for (int64_t j = 0; j < cols; j += kAmxBlock) {
      const uint16_t *panel = panels + j / kAmxBlock * panelSize;
      float *c0 = cTiles + i * cm + j, *c1 = c0 + kAmxRows * cm;
      _tile_loadd(0, c0, cBytes);
      _tile_loadd(1, c0 + kAmxRows, cBytes);
      _tile_loadd(2, c1, cBytes);
      _tile_loadd(3, c1 + kAmxRows, cBytes);
      for (int64_t p = 0; p < kPadded; p += kAmxBlock) {
        const uint16_t *a0 = aTiles + i * am + p;
        _tile_loadd(4, a0, aBytes);
        _tile_loadd(5, a0 + kAmxRows * am, aBytes);
        const uint16_t *b0 = panel + (p / 2) * 2 * kTileCols;
        _tile_loadd(6, b0, bBytes);
        _tile_loadd(7, b0 + kTileCols, bBytes);
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
      }
      _tile_stored(0, c0, cBytes);
      _tile_stored(1, c0 + kAmxRows, cBytes);
      _tile_stored(2, c1, cBytes);
      _tile_stored(3, c1 + kAmxRows, cBytes);
    }
  }
  tiledC.writeBack();
}

namespace {
/// k per A tile row and per B tile (16 quads) of the int8 kernel.
constexpr int64_t kAmxInt8Depth = 64;

/// Packs columns [j, j + 32) of B as tdpbssd's B tiles read them: per k quad
/// q, 32 columns of (B[4q][col], .., B[4q + 3][col]), zero outside B, for
/// `quads` quads.
REFCPU_AMX_INT8 void packQuads(MatrixRef<const int8_t> b, int64_t j,
                               int64_t quads, int8_t *panel) {
  int64_t count = std::clamp<int64_t>(b.cols - j, 0, kTileCols);
  if (b.colStride != 1) {
    for (int64_t q = 0; q < quads; ++q)
      for (int64_t col = 0; col < kTileCols; ++col)
        for (int64_t t = 0; t < 4; ++t) {
          int64_t row = 4 * q + t;
          panel[(q * kTileCols + col) * 4 + t] =
              row < b.rows && col < count ? b.at(row, j + col) : 0;
        }
    return;
  }
  // Rows 4q and 4q + 1 side by side in one zmm, rows 4q + 2 and 4q + 3 in
  // another; vpermt2b picks byte t of column c from row t's half.
  alignas(64) uint8_t low[64], high[64];
  for (int c = 0; c < 16; ++c)
    for (int t = 0; t < 4; ++t) {
      low[c * 4 + t] = uint8_t(t * 32 + c);
      high[c * 4 + t] = uint8_t(t * 32 + 16 + c);
    }
  const __m512i lowIndex = _mm512_load_si512(low);
  const __m512i highIndex = _mm512_load_si512(high);
  __mmask32 mask = count == kTileCols ? ~__mmask32(0)
                                      : (__mmask32(1) << count) - 1;
  for (int64_t q = 0; q < quads; ++q) {
    __m256i row[4];
    for (int t = 0; t < 4; ++t)
      row[t] = 4 * q + t < b.rows
                   ? _mm256_maskz_loadu_epi8(mask, &b.at(4 * q + t, j))
                   : _mm256_setzero_si256();
    __m512i rows01 =
        _mm512_inserti64x4(_mm512_castsi256_si512(row[0]), row[1], 1);
    __m512i rows23 =
        _mm512_inserti64x4(_mm512_castsi256_si512(row[2]), row[3], 1);
    int8_t *out = panel + q * kTileCols * 4;
    _mm512_storeu_si512(out, _mm512_permutex2var_epi8(rows01, lowIndex, rows23));
    _mm512_storeu_si512(out + 64,
                        _mm512_permutex2var_epi8(rows01, highIndex, rows23));
  }
}

thread_local Scratch<int8_t> scratchAmxI8A, scratchAmxI8B;
thread_local Scratch<int32_t> scratchAmxI8C;
} // namespace

/// As matmulAmxBf16, with int8 operands (tdpbssd: signed products, summed
/// in int32 with wrap-around) and k in quads.
REFCPU_AMX_INT8 void detail::matmulAmxI8(MatrixRef<const int8_t> a,
                                         MatrixRef<const int8_t> b,
                                         MatrixRef<int32_t> c,
                                         SharedPacks shared) {
  int64_t kPadded = roundUp(a.cols, kAmxInt8Depth);
  int64_t rows = roundUp(c.rows, kAmxBlock), cols = roundUp(c.cols, kAmxBlock);
  auto [aTiles, am] = tileRowsOfA(a, rows, kPadded, scratchAmxI8A);
  TiledC<int32_t> tiledC(c, rows, cols, scratchAmxI8C);
  int32_t *cTiles = tiledC.data;
  int64_t cm = tiledC.stride;
  configureTiles();
  int64_t quads = kPadded / 4, panelSize = quads * kTileCols * 4;
  auto packB = [&](int8_t *panels) {
    for (int64_t j = 0; j < cols; j += kAmxBlock)
      packQuads(b, j, quads, panels + j / kAmxBlock * panelSize);
  };
  const int8_t *panels = shared.getOrPack<int8_t>(
      REFCPU_RT_SHARED_B, b, PackCache::Layout::AmxI8B,
      panelSize * (cols / kAmxBlock), scratchAmxI8B, packB);
  const int64_t cBytes = cm * 4, bBytes = kTileCols * 4;
  for (int64_t i = 0; i < rows; i += kAmxBlock) {
    for (int64_t j = 0; j < cols; j += kAmxBlock) {
      const int8_t *panel = panels + j / kAmxBlock * panelSize;
      int32_t *c0 = cTiles + i * cm + j, *c1 = c0 + kAmxRows * cm;
      _tile_loadd(0, c0, cBytes);
      _tile_loadd(1, c0 + kAmxRows, cBytes);
      _tile_loadd(2, c1, cBytes);
      _tile_loadd(3, c1 + kAmxRows, cBytes);
      for (int64_t p = 0; p < kPadded; p += kAmxInt8Depth) {
        const int8_t *a0 = aTiles + i * am + p;
        _tile_loadd(4, a0, am);
        _tile_loadd(5, a0 + kAmxRows * am, am);
        const int8_t *b0 = panel + (p / 4) * kTileCols * 4;
        _tile_loadd(6, b0, bBytes);
        _tile_loadd(7, b0 + kLanes * 4, bBytes);
        _tile_dpbssd(0, 4, 6);
        _tile_dpbssd(1, 4, 7);
        _tile_dpbssd(2, 5, 6);
        _tile_dpbssd(3, 5, 7);
      }
      _tile_stored(0, c0, cBytes);
      _tile_stored(1, c0 + kAmxRows, cBytes);
      _tile_stored(2, c1, cBytes);
      _tile_stored(3, c1 + kAmxRows, cBytes);
    }
  }
  tiledC.writeBack();
}

/// Linux lets a process use AMX's tile data only once it asked for it.
bool detail::amxPermitted() {
#ifdef __linux__
  constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}
#endif // REFCPU_HAS_X86_KERNELS
