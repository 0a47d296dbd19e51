//===- MatmulAmx.cpp - Block products on AMX tiles ------------------------===//
//
// bf16 (tdpbf16ps) and int8 (tdpbssd) block products on AMX: 32 x 32 blocks
// of C in four tiles (tmm0-3), two A tiles (tmm4-5) and two B tiles (tmm6-7)
// per 64 bytes of k. B is packed once per call (once per launch where it
// is shared, PackCache.h) in the layout the B tiles read (k pairs for
// bf16, quads for int8); each 32-row block of A then meets every column
// block, its B panel streamed from L2. The bf16 kernel loads B's tiles with
// tileloaddt1 (the hint that they are not reused soon): a 512-deep block of
// A (32 KiB) and a B panel as deep do not fit in L1 together, and plain
// loads of B evict A before its next column block (streamed, the loop ran
// 3-24 % faster in one-core launches on the 16-core host). int8's blocks of
// that depth take half the bytes and fit together. Blocks of A and C are
// used in place where they are whole; edge blocks (a dot that computes only
// the lanes its store keeps ends in them) are copied, zero-padded. A K that
// is no whole number of tile steps (a masked last K block that the dot
// stops at, TrimmedK) copies only its last step of A.
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

/// Rows [i, i + 32) of A as the AMX kernels read their tiles, `step` k per
/// tile row: k below `inPlaceK` at `data` (row stride `stride`), the rest at
/// `tail` (row stride `step`). Rows that are all in A with contiguous k are
/// read in place up to the last whole step; only a K that is no whole number
/// of steps leaves a partial step, copied zero-padded into `tail` (32 x
/// step). Other blocks (the edge rows, strided k) are copied whole,
/// zero-padded, into `edge` (32 x kPadded).
template <typename T> struct RowBlockOfA {
  RowBlockOfA(MatrixRef<const T> a, int64_t i, int64_t kPadded, int64_t step,
              T *edge, T *tailCopy)
      : step(step) {
    if (a.colStride == 1 && i + kAmxBlock <= a.rows) {
      data = &a.at(i, 0);
      stride = a.rowStride;
      inPlaceK = a.cols / step * step;
      if (inPlaceK < kPadded) {
        copyRows(a, i, inPlaceK, step, tailCopy);
        tail = tailCopy;
      }
      return;
    }
    copyRows(a, i, 0, kPadded, edge);
    data = edge;
    stride = kPadded;
    inPlaceK = kPadded;
  }
  /// The 32 rows of the tiles at k = p.
  const T *at(int64_t p) const {
    return p < inPlaceK ? data + p : tail + (p - inPlaceK);
  }
  /// Their row stride, in elements.
  int64_t strideAt(int64_t p) const { return p < inPlaceK ? stride : step; }

private:
  const T *data = nullptr, *tail = nullptr;
  int64_t step, stride = 0, inPlaceK = 0;

  /// Columns [k0, k0 + width) of rows [i, i + 32) into `out` (32 x width),
  /// zero outside A.
  static void copyRows(MatrixRef<const T> a, int64_t i, int64_t k0,
                       int64_t width, T *out) {
    for (int64_t r = 0; r < kAmxBlock; ++r) {
      T *row = out + r * width;
      int64_t copied =
          i + r < a.rows ? std::clamp<int64_t>(a.cols - k0, 0, width) : 0;
      if (copied && a.colStride == 1)
        std::memcpy(row, &a.at(i + r, k0), copied * sizeof(T));
      else
        for (int64_t p = 0; p < copied; ++p)
          row[p] = a.at(i + r, k0 + p);
      std::memset(row + copied, 0, (width - copied) * sizeof(T));
    }
  }
};

/// The 32 x 32 block of C at (i, j) as four tiles load and store it: in
/// place when it lies in C with contiguous columns, else a zero-padded copy
/// in `edge` (32 x 32) that writeBack() stores into C (not read from C where
/// the product is stored, `zero`). Edge blocks are copied a row at a time: a
/// kept-lanes dot (KeptLanes) has one in every row or column block of its
/// edge programs.
template <typename T> struct BlockOfC {
  BlockOfC(MatrixRef<T> c, int64_t i, int64_t j, T *edge, bool zero)
      : c(c), i(i), j(j), rows(std::min(kAmxBlock, c.rows - i)),
        cols(std::min(kAmxBlock, c.cols - j)), data(&c.at(i, j)),
        stride(c.rowStride),
        inPlace(c.colStride == 1 && rows == kAmxBlock && cols == kAmxBlock) {
    if (inPlace)
      return;
    data = edge;
    stride = kAmxBlock;
    // A stored product's tiles start from zero and are stored whole.
    if (zero)
      return;
    copyRows(/*toC=*/false);
    // Only the lanes past C are zeroed: an edge block of a kept-lanes dot
    // often lacks just a few columns.
    for (int64_t r = 0; r < kAmxBlock; ++r) {
      int64_t copied = r < rows ? cols : 0;
      std::memset(edge + r * kAmxBlock + copied, 0,
                  (kAmxBlock - copied) * sizeof(T));
    }
  }
  void writeBack() {
    if (!inPlace)
      copyRows(/*toC=*/true);
  }
  MatrixRef<T> c;
  int64_t i, j, rows, cols;
  T *data;
  int64_t stride;
  bool inPlace;

private:
  void copyRows(bool toC) {
    for (int64_t r = 0; r < rows; ++r) {
      T *inEdge = data + r * kAmxBlock;
      if (c.colStride == 1) {
        T *inC = &c.at(i + r, j);
        std::memcpy(toC ? inC : inEdge, toC ? inEdge : inC, cols * sizeof(T));
        continue;
      }
      for (int64_t col = 0; col < cols; ++col) {
        T &inC = c.at(i + r, j + col);
        (toC ? inC : inEdge[col]) = toC ? inEdge[col] : inC;
      }
    }
  }
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

/// Tiles 0-3 as the 32 x 32 block of C, loaded from `block`, or zero where
/// the product is stored (`zero`).
template <typename T>
__attribute__((target("amx-tile"))) void loadBlockOfC(const BlockOfC<T> &block,
                                                      bool zero) {
  if (zero) {
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    return;
  }
  const T *c0 = block.data, *c1 = c0 + kAmxRows * block.stride;
  const int64_t cBytes = block.stride * sizeof(T);
  _tile_loadd(0, c0, cBytes);
  _tile_loadd(1, c0 + kAmxRows, cBytes);
  _tile_loadd(2, c1, cBytes);
  _tile_loadd(3, c1 + kAmxRows, cBytes);
}

/// Tiles 0-3 stored into `block`, and the block into C.
template <typename T>
__attribute__((target("amx-tile"))) void storeBlockOfC(BlockOfC<T> &block) {
  T *c0 = block.data, *c1 = c0 + kAmxRows * block.stride;
  const int64_t cBytes = block.stride * sizeof(T);
  _tile_stored(0, c0, cBytes);
  _tile_stored(1, c0 + kAmxRows, cBytes);
  _tile_stored(2, c1, cBytes);
  _tile_stored(3, c1 + kAmxRows, cBytes);
  block.writeBack();
}

thread_local Scratch<uint16_t> scratchAmxA, scratchAmxTailA, scratchAmxB;
thread_local Scratch<float> scratchAmxC;
} // namespace

/// Needs nothing of the strides: a 32-row block of A is used in place when
/// its k are contiguous (but for a partial last k step), a 32 x 32 block of
/// C when it lies in C with contiguous columns; edge blocks are copied,
/// zero-padded.
REFCPU_AMX_BF16 void detail::matmulAmxBf16(MatrixRef<const uint16_t> a,
                                           MatrixRef<const uint16_t> b,
                                           MatrixRef<float> c,
                                           SharedPacks shared, bool zero) {
  int64_t kPadded = roundUp(a.cols, kAmxBlock);
  int64_t rows = roundUp(c.rows, kAmxBlock), cols = roundUp(c.cols, kAmxBlock);
  uint16_t *edgeA = reserve(scratchAmxA, kAmxBlock * kPadded);
  uint16_t *tailA = reserve(scratchAmxTailA, kAmxBlock * kAmxBlock);
  float *edgeC = reserve(scratchAmxC, kAmxBlock * kAmxBlock);
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
    packPairs(b, 0, 2, cols / kAmxBlock, panelSize, panels);
    for (int64_t j = 0; j < cols; j += kAmxBlock)
      std::memset(panels + j / kAmxBlock * panelSize + pairs * 2 * kTileCols, 0,
                  (paddedPairs - pairs) * 2 * kTileCols * sizeof(uint16_t));
  };
  const uint16_t *panels = shared.getOrPack<uint16_t>(
      REFCPU_RT_SHARED_B, b, PackCache::Layout::AmxBf16B,
      panelSize * (cols / kAmxBlock), scratchAmxB, packB);
  const int64_t bBytes = 2 * kTileCols * 2;
  for (int64_t i = 0; i < rows; i += kAmxBlock) {
    RowBlockOfA<uint16_t> rowsOfA(a, i, kPadded, kAmxBlock, edgeA, tailA);
    for (int64_t j = 0; j < cols; j += kAmxBlock) {
      const uint16_t *panel = panels + j / kAmxBlock * panelSize;
      BlockOfC<float> block(c, i, j, edgeC, zero);
      loadBlockOfC(block, zero);
      for (int64_t p = 0; p < kPadded; p += kAmxBlock) {
        const uint16_t *a0 = rowsOfA.at(p);
        const int64_t am = rowsOfA.strideAt(p), aBytes = am * 2;
        _tile_loadd(4, a0, aBytes);
        _tile_loadd(5, a0 + kAmxRows * am, aBytes);
        const uint16_t *b0 = panel + (p / 2) * 2 * kTileCols;
        _tile_stream_loadd(6, b0, bBytes);
        _tile_stream_loadd(7, b0 + kTileCols, bBytes);
        _tile_dpbf16ps(0, 4, 6);
        _tile_dpbf16ps(1, 4, 7);
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
      }
      storeBlockOfC(block);
    }
  }
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

thread_local Scratch<int8_t> scratchAmxI8A, scratchAmxI8TailA, scratchAmxI8B;
thread_local Scratch<int32_t> scratchAmxI8C;
} // namespace

/// As matmulAmxBf16, with int8 operands (tdpbssd: signed products, summed
/// in int32 with wrap-around) and k in quads.
REFCPU_AMX_INT8 void detail::matmulAmxI8(MatrixRef<const int8_t> a,
                                         MatrixRef<const int8_t> b,
                                         MatrixRef<int32_t> c,
                                         SharedPacks shared, bool zero) {
  int64_t kPadded = roundUp(a.cols, kAmxInt8Depth);
  int64_t rows = roundUp(c.rows, kAmxBlock), cols = roundUp(c.cols, kAmxBlock);
  int8_t *edgeA = reserve(scratchAmxI8A, kAmxBlock * kPadded);
  int8_t *tailA = reserve(scratchAmxI8TailA, kAmxBlock * kAmxInt8Depth);
  int32_t *edgeC = reserve(scratchAmxI8C, kAmxBlock * kAmxBlock);
  configureTiles();
  int64_t quads = kPadded / 4, panelSize = quads * kTileCols * 4;
  auto packB = [&](int8_t *panels) {
    for (int64_t j = 0; j < cols; j += kAmxBlock)
      packQuads(b, j, quads, panels + j / kAmxBlock * panelSize);
  };
  const int8_t *panels = shared.getOrPack<int8_t>(
      REFCPU_RT_SHARED_B, b, PackCache::Layout::AmxI8B,
      panelSize * (cols / kAmxBlock), scratchAmxI8B, packB);
  const int64_t bBytes = kTileCols * 4;
  for (int64_t i = 0; i < rows; i += kAmxBlock) {
    RowBlockOfA<int8_t> rowsOfA(a, i, kPadded, kAmxInt8Depth, edgeA, tailA);
    for (int64_t j = 0; j < cols; j += kAmxBlock) {
      const int8_t *panel = panels + j / kAmxBlock * panelSize;
      BlockOfC<int32_t> block(c, i, j, edgeC, zero);
      loadBlockOfC(block, zero);
      for (int64_t p = 0; p < kPadded; p += kAmxInt8Depth) {
        const int8_t *a0 = rowsOfA.at(p);
        const int64_t am = rowsOfA.strideAt(p);
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
      storeBlockOfC(block);
    }
  }
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
