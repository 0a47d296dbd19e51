//===- Matmul.h - Block matrix products for tt.dot ------------------------===//
//
// The fast preset turns each block product of a kernel (tt.dot after
// bufferization: C += A * B on small strided matrices) into a call of one of
// the refcpu_rt_matmul_* builtins (kernel_abi.h). They run register-tiled
// micro-kernels chosen once for the host CPU: AVX-512 FMA for f32,
// AMX's tdpbf16ps or AVX512_BF16's vdpbf16ps for bf16, f16 widened to f32 while it is packed,
// AVX512_VNNI's vpdpbusd for int8, AVX2 FMA for float types on hosts without
// AVX-512, and a portable loop nest on other CPUs.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_MATMUL_H
#define REFCPU_RUNTIME_MATMUL_H

#include <cstdint>

namespace refcpu::runtime {

/// A strided 2-D matrix; strides count elements.
template <typename T> struct MatrixRef {
  T *data;
  int64_t rows;
  int64_t cols;
  int64_t rowStride;
  int64_t colStride;

  T &at(int64_t row, int64_t col) const {
    return data[row * rowStride + col * colStride];
  }
};

/// The instruction sets the kernels are written for. Avx2 is AVX2 with FMA;
/// Avx512 is AVX512F, BW and VL; Avx512Bf16 and Avx512Vnni add AVX512_BF16
/// or AVX512_VNNI to it; AmxBf16 is Avx512Bf16 with AMX-TILE and AMX-BF16,
/// AmxInt8 Avx512 with AVX512_VBMI, AMX-TILE and AMX-INT8 (both AMX ones
/// also need, on Linux, the process's permission to use the tile data).
enum class MatmulIsa {
  Generic,
  Avx2,
  Avx512,
  Avx512Bf16,
  Avx512Vnni,
  AmxBf16,
  AmxInt8
};

/// Whether this host can run code written for `isa` (read once, from LLVM's
/// view of the host CPU: the features the JIT compiles kernels for).
bool hostSupports(MatmulIsa isa);

/// C += A * B with A of rows x k, B of k x cols and C of rows x cols: f32
/// products and sums for float types (each rounded to f32; the AVX512_BF16
/// kernel reads bf16 denormals as zero, as the GPU's tensor cores may),
/// exact i8 products summed in i32 with wrap-around. `isa` must be one the
/// host supports: Avx2 runs the AVX2 f32 kernel (other float types widened
/// to f32), Avx512 and up the AVX-512 kernels, AmxBf16 the AMX bf16 one,
/// AmxInt8 the AMX int8 one, Avx512Bf16 the bf16 one and Avx512Vnni the
/// int8 one; other types ignore what they have no kernel for.
/// `flags` are kernel_abi.h's: REFCPU_RT_SHARED_* names the operands whose
/// memory no program writes during the current launch before its product
/// (the kernels may take their packing from the launch's cache, PackCache.h,
/// instead of packing them again; outside a launch it has no effect), and
/// REFCPU_RT_ZERO_C makes it C = A * B, C's contents unread.
void matmulF32(MatrixRef<const float> a, MatrixRef<const float> b,
               MatrixRef<float> c, MatmulIsa isa, unsigned flags = 0);
void matmulBF16(MatrixRef<const uint16_t> a, MatrixRef<const uint16_t> b,
                MatrixRef<float> c, MatmulIsa isa, unsigned flags = 0);
void matmulF16(MatrixRef<const uint16_t> a, MatrixRef<const uint16_t> b,
               MatrixRef<float> c, MatmulIsa isa, unsigned flags = 0);
void matmulI8(MatrixRef<const int8_t> a, MatrixRef<const int8_t> b,
              MatrixRef<int32_t> c, MatmulIsa isa, unsigned flags = 0);

} // namespace refcpu::runtime

/// The parameters of one matrix of the builtins: MLIR's expanded rank-2
/// memref descriptor (allocated, aligned, offset, sizes, strides).
#define REFCPU_MATRIX_PARAMS(T, name)                                          \
  T *, T *name##Aligned, int64_t name##Offset, int64_t name##Rows,             \
      int64_t name##Cols, int64_t name##RowStride, int64_t name##ColStride
#define REFCPU_MATRIX(name)                                                    \
  {name##Aligned + name##Offset, name##Rows, name##Cols, name##RowStride,      \
   name##ColStride}

/// The builtins REFCPU_RT_MATMUL_* of kernel_abi.h, on the host's best
/// kernels.
extern "C" {
void refcpu_rt_matmul_f32(REFCPU_MATRIX_PARAMS(const float, a),
                          REFCPU_MATRIX_PARAMS(const float, b),
                          REFCPU_MATRIX_PARAMS(float, c), int32_t flags);
void refcpu_rt_matmul_bf16(REFCPU_MATRIX_PARAMS(const uint16_t, a),
                           REFCPU_MATRIX_PARAMS(const uint16_t, b),
                           REFCPU_MATRIX_PARAMS(float, c), int32_t flags);
void refcpu_rt_matmul_f16(REFCPU_MATRIX_PARAMS(const uint16_t, a),
                          REFCPU_MATRIX_PARAMS(const uint16_t, b),
                          REFCPU_MATRIX_PARAMS(float, c), int32_t flags);
void refcpu_rt_matmul_i8(REFCPU_MATRIX_PARAMS(const int8_t, a),
                         REFCPU_MATRIX_PARAMS(const int8_t, b),
                         REFCPU_MATRIX_PARAMS(int32_t, c), int32_t flags);
}

#endif // REFCPU_RUNTIME_MATMUL_H
