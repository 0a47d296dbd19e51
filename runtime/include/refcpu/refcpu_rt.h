/*===- refcpu_rt.h - the runtime of ahead-of-time compiled kernels -------===*
 *
 * librefcpu_rt.a runs kernels that refcpu-compile (or refcpu_compile_aot)
 * turned into object files: the grid launcher and its thread pool, the hooks
 * and builtins of kernel_abi.h. It needs no LLVM, MLIR or Python; a program
 * links it with -lpthread -lm (and -lmvec where the kernel was compiled for
 * a CPU with AVX2: glibc's vector math library). librefcpu.so exports the
 * same functions, so a kernel object also links against it.
 *
 * The header that refcpu-compile generates for a kernel declares a typed
 * `<kernel>_launch(grid, args...)` on top of refcpu_rt_launch. Plain C.
 *
 *===----------------------------------------------------------------------===*/

#ifndef REFCPU_REFCPU_RT_H
#define REFCPU_REFCPU_RT_H

#include "refcpu/kernel_abi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The number of programs along x, y and z; each in [1, 2^31 - 1]. */
typedef struct refcpu_grid {
  uint32_t x, y, z;
} refcpu_grid;

/* Runs `entry` once for every program of `grid`: args[i] points to the
 * storage of kernel parameter i (num_args of them, in signature order); the
 * runtime appends the grid arguments. `extents` is NULL or holds num_args
 * extents in bytes (0 = unknown; read by kernels compiled with bounds
 * checking). Threads: REFCPU_NUM_THREADS, else every core.
 * Returns REFCPU_OK, REFCPU_ERROR_INVALID_ARGUMENT (bad grid, NULL entry or
 * args) before anything runs, or REFCPU_ERROR_KERNEL (a tt.assert or bounds
 * check failed; see kernel_abi.h); refcpu_rt_last_error() then says why. */
REFCPU_EXPORT refcpu_status refcpu_rt_launch(refcpu_packed_entry entry,
                                             void *const *args,
                                             size_t num_args,
                                             const int64_t *extents,
                                             refcpu_grid grid);

/* The message of this thread's last failed refcpu_rt_launch ("" if none).
 * Valid until the thread's next launch. */
REFCPU_EXPORT const char *refcpu_rt_last_error(void);

/* The bits of `value` rounded to nearest even as IEEE half / bfloat16: how
 * f16 and bf16 scalar parameters are passed. */
REFCPU_EXPORT uint16_t refcpu_rt_f32_to_f16_bits(float value);
REFCPU_EXPORT uint16_t refcpu_rt_f32_to_bf16_bits(float value);

#ifdef __cplusplus
}
#endif

#endif /* REFCPU_REFCPU_RT_H */
