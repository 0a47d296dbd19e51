/*===- kernel_abi.h - the contract between compiled kernels and runtime --===*
 *
 * Versioned by REFCPU_ABI_VERSION; owned by the runtime. The compiler
 * includes this header to emit code that follows it (it never mirrors these
 * facts), and refcpu.h includes it for the launch API. Plain C.
 *
 * A compiled kernel takes its TTIR parameters in signature order (pointers as
 * base addresses, scalars by value) followed by REFCPU_NUM_GRID_ARGS i32
 * values: num_programs x, y, z and program_id x, y, z. The runtime calls it
 * through its packed entry, the symbol `<kernel>` REFCPU_PACKED_ENTRY_SUFFIX,
 * of type refcpu_packed_entry: args[i] points to the storage of argument i.
 * Compiled code may call the hooks below and the builtins named here; the
 * runtime defines every one of them (librefcpu_rt.a under these names for
 * object files, the JIT as absolute symbols). What the version promises is
 * in docs/DESIGN.md ("Stability").
 *
 *===----------------------------------------------------------------------===*/

#ifndef REFCPU_KERNEL_ABI_H
#define REFCPU_KERNEL_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REFCPU_ABI_VERSION 4

#if defined(__GNUC__)
#define REFCPU_EXPORT __attribute__((visibility("default")))
#else
#define REFCPU_EXPORT
#endif

/* Status codes returned by every function that can fail. */
typedef enum refcpu_status {
  REFCPU_OK = 0,
  REFCPU_ERROR_INVALID_ARGUMENT = 1, /* bad argument count/type, null ptr, grid */
  REFCPU_ERROR_COMPILE = 2,          /* TTIR did not parse, verify or lower */
  REFCPU_ERROR_JIT = 3,              /* code generation or symbol lookup failed */
  REFCPU_ERROR_KERNEL = 4,           /* the kernel failed at run time (tt.assert) */
} refcpu_status;

/* The type of one kernel parameter, as the TTIR signature declares it. */
typedef enum refcpu_arg_kind {
  REFCPU_ARG_PTR = 0, /* !tt.ptr<T>: value.ptr, extent_bytes may be 0 */
  REFCPU_ARG_I1 = 1,
  REFCPU_ARG_I8 = 2,
  REFCPU_ARG_I16 = 3,
  REFCPU_ARG_I32 = 4,
  REFCPU_ARG_I64 = 5,
  REFCPU_ARG_F16 = 6,  /* value.f is converted (round to nearest even) */
  REFCPU_ARG_BF16 = 7, /* value.f is converted (round to nearest even) */
  REFCPU_ARG_F32 = 8,
  REFCPU_ARG_F64 = 9,
} refcpu_arg_kind;

/* The trailing i32 arguments of every compiled kernel. */
#define REFCPU_NUM_GRID_ARGS 6

/* The packed entry: `void entry(void **args)`, named after the kernel. */
typedef void (*refcpu_packed_entry)(void **args);
#define REFCPU_PACKED_ENTRY_SUFFIX ".refcpu_packed"

/* The names compiled code calls the hooks and builtins by. */
#define REFCPU_RT_ASSERT_FAIL "refcpu_rt_assert_fail"
#define REFCPU_RT_PARAM_EXTENT "refcpu_rt_param_extent"
#define REFCPU_RT_PARAM_BASE "refcpu_rt_param_base"
#define REFCPU_RT_BOUNDS_FAIL "refcpu_rt_bounds_fail"
/* libdevice's Bessel functions, double -> double. */
#define REFCPU_RT_BESSEL_J0 "refcpu_rt_bessel_j0"
#define REFCPU_RT_BESSEL_J1 "refcpu_rt_bessel_j1"
#define REFCPU_RT_BESSEL_Y0 "refcpu_rt_bessel_y0"
#define REFCPU_RT_BESSEL_Y1 "refcpu_rt_bessel_y1"
#define REFCPU_RT_BESSEL_I0 "refcpu_rt_bessel_i0"
#define REFCPU_RT_BESSEL_I1 "refcpu_rt_bessel_i1"
/* Block matrix products (the fast preset's tt.dot): C += A * B with A of
 * M x K, B of K x N and C of M x N; A and B f32, bf16 or f16 with an f32 C,
 * or i8 with an i32 C, as the name says. Each matrix is passed as MLIR's
 * expanded rank-2 memref descriptor: allocated pointer, aligned pointer,
 * offset, size 0, size 1, stride 0, stride 1 (offset and strides in elements),
 * then an i32 of flags. REFCPU_RT_SHARED_* bits name the operands that are
 * views of global memory in a product no write of its program precedes: every
 * program of the launch reads such an operand alike, so the runtime packs it
 * once per launch. REFCPU_RT_ZERO_C says that C is not read: the product is
 * stored, C = A * B (the first product of a loop into a zero accumulator). */
#define REFCPU_RT_MATMUL_F32 "refcpu_rt_matmul_f32"
#define REFCPU_RT_MATMUL_BF16 "refcpu_rt_matmul_bf16"
#define REFCPU_RT_MATMUL_F16 "refcpu_rt_matmul_f16"
#define REFCPU_RT_MATMUL_I8 "refcpu_rt_matmul_i8"
#define REFCPU_RT_SHARED_A 1
#define REFCPU_RT_SHARED_B 2
#define REFCPU_RT_ZERO_C 4
/* A block load whose index along one lane dimension was taken % modulus and
 * wrapped: void(void *dst, const void *src, i64 element_size, i64 rows,
 * i64 cols, i64 row_stride, i64 col_stride, i64 row_lo, i64 row_hi,
 * i64 col_lo, i64 col_hi, i64 wrap_dim, i64 index, i64 step, i64 modulus,
 * i64 scale, i64 padding). Copies lanes [row_lo, row_hi) x [col_lo, col_hi)
 * (clamped to the block) of the rows x cols block at src (strides in
 * elements; a rank-1 block is one row) into dst (rows x cols, contiguous):
 * lane l along wrap_dim has the index index + l * step (step > 0), and the
 * element sits q * |modulus| * scale elements before where the unwrapped
 * block places it, q being the lane's index / |modulus| truncated (0 for a
 * zero modulus). Every other lane of dst is written with padding as
 * REFCPU_RT_COPY_BOX writes it. */
#define REFCPU_RT_COPY_WRAPPED "refcpu_rt_copy_wrapped"
/* A block load partly out of bounds: void(void *dst, const void *src,
 * i64 element_size, i64 batches, i64 rows, i64 cols, i64 batch_stride,
 * i64 row_stride, i64 col_stride, i64 batch_lo, i64 batch_hi, i64 row_lo,
 * i64 row_hi, i64 col_lo, i64 col_hi, i64 padding). Copies lanes
 * [batch_lo, batch_hi) x [row_lo, row_hi) x [col_lo, col_hi) (clamped to the
 * block) of the batches x rows x cols block at src (strides in elements; a
 * block of lower rank has leading unit dimensions) into dst (contiguous) and
 * writes every other lane of dst with the element whose bits are padding's
 * low element_size bytes (1, 2, 4 or 8). */
#define REFCPU_RT_COPY_BOX "refcpu_rt_copy_box"

/* Functions the runtime provides to compiled kernels.
 *
 * refcpu_rt_assert_fail: a kernel calls it when a tt.assert condition is false
 * in program (pidx, pidy, pidz), then carries on with that program. A launch
 * reports the failure of its lowest-numbered failing program (linear index,
 * x fastest; that program's first failure), whatever the thread count:
 * programs below it all run, programs above it not yet started are skipped,
 * and refcpu_kernel_launch returns REFCPU_ERROR_KERNEL with the message
 * "FILE:LINE: program (x, y, z): assertion failed: MESSAGE". Called outside a
 * launch, it prints that message and aborts. */
REFCPU_EXPORT void refcpu_rt_assert_fail(const char *message, const char *file,
                                         int32_t line, int32_t pidx,
                                         int32_t pidy, int32_t pidz);

/* Bounds checking (check_bounds):
 * refcpu_rt_param_extent returns the extent in bytes of pointer parameter
 * `param` of the running launch, 0 when unknown (a raw address) or outside a
 * launch; refcpu_rt_param_base the address it was launched with (0 outside a
 * launch), which accesses in called functions are checked against.
 * refcpu_rt_bounds_fail records, like a failed assert, that `op` at
 * FILE:LINE of `kernel` in program (pidx, pidy, pidz) would access `bytes`
 * bytes at byte offset `offset` of parameter `param` (`name`), or, with
 * `param` -1, at address `offset`, which no parameter it could be traced to
 * holds. */
REFCPU_EXPORT int64_t refcpu_rt_param_extent(int32_t param);
REFCPU_EXPORT int64_t refcpu_rt_param_base(int32_t param);
REFCPU_EXPORT void refcpu_rt_bounds_fail(const char *kernel, const char *op,
                                         const char *file, int32_t line,
                                         int32_t pidx, int32_t pidy,
                                         int32_t pidz, int32_t param,
                                         const char *name, int64_t offset,
                                         int64_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* REFCPU_KERNEL_ABI_H */
