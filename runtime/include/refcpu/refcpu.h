/*===- refcpu.h - refcpu C API: compile TTIR and launch it on the CPU -----===*
 *
 * The stable, versioned interface of refcpu. Everything a host program (the
 * Python package, refcpu-run, a C++ application) needs to compile a Triton
 * kernel from TTIR text and launch it over a grid. The header is plain C and
 * includes nothing from the compiler.
 *
 * Kernel ABI (REFCPU_ABI_VERSION 1): the compiled kernel takes its TTIR
 * parameters in signature order (pointers as base addresses, scalars by value)
 * followed by six i32 values: num_programs x, y, z and program_id x, y, z. It
 * is called through a packed entry `void entry(void **args)` where args[i]
 * points to the storage of argument i.
 *
 *===----------------------------------------------------------------------===*/

#ifndef REFCPU_REFCPU_H
#define REFCPU_REFCPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REFCPU_ABI_VERSION 1

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

/* One launch argument. Integer kinds read value.i, float kinds value.f. */
typedef struct refcpu_arg {
  refcpu_arg_kind kind;
  union {
    void *ptr;
    int64_t i;
    double f;
  } value;
  /* For pointers: size of the buffer in bytes when known, 0 when unknown. */
  uint64_t extent_bytes;
} refcpu_arg;

/* Code generation presets (see DESIGN.md). */
typedef enum refcpu_preset {
  REFCPU_PRESET_FAST = 0,
  REFCPU_PRESET_REFERENCE = 1,
} refcpu_preset;

typedef struct refcpu_compile_options {
  /* Must be sizeof(refcpu_compile_options): lets the struct grow. */
  size_t struct_size;
  refcpu_preset preset;
  /* Name of the kernel (tt.func public) to compile; NULL = the only public one. */
  const char *kernel_name;
  /* When non-NULL, the IR after each stage is written into this directory. */
  const char *dump_dir;
  /* The file name diagnostics give the TTIR text; NULL = "kernel.ttir". */
  const char *source_name;
  /* Non-zero: every load, store and atomic through a pointer tensor or
   * scalar pointer is checked against the extent (refcpu_arg.extent_bytes)
   * of the argument it derives from before it happens; lanes outside are
   * not accessed and the launch fails with REFCPU_ERROR_KERNEL. Defaults to
   * the environment variable REFCPU_CHECK_BOUNDS (set and not "0"). */
  int check_bounds;
} refcpu_compile_options;

typedef struct refcpu_kernel refcpu_kernel;

/* Version of this header's ABI; a library refuses callers of another one. */
REFCPU_EXPORT int refcpu_abi_version(void);
REFCPU_EXPORT const char *refcpu_version_string(void);

/* Fills `options` with defaults (fast preset, no dump). */
REFCPU_EXPORT void refcpu_compile_options_init(refcpu_compile_options *options);

/* Compiles TTIR text (not necessarily NUL-terminated). On failure returns a
 * non-zero status and, when `error` is non-NULL, a message that the caller
 * frees with refcpu_free_error. `options` may be NULL for defaults. */
REFCPU_EXPORT refcpu_status refcpu_kernel_create(
    const char *ttir, size_t ttir_size, const refcpu_compile_options *options,
    refcpu_kernel **kernel, char **error);

REFCPU_EXPORT void refcpu_kernel_destroy(refcpu_kernel *kernel);

/* The kernel's name and its TTIR parameters (without the six grid values).
 * refcpu_kernel_param_kind returns (refcpu_arg_kind)-1 for an index out of
 * range. */
REFCPU_EXPORT const char *refcpu_kernel_name(const refcpu_kernel *kernel);
REFCPU_EXPORT size_t refcpu_kernel_num_params(const refcpu_kernel *kernel);
REFCPU_EXPORT refcpu_arg_kind refcpu_kernel_param_kind(const refcpu_kernel *kernel,
                                                      size_t index);
/* 1 when the kernel may write through pointer parameter `index` (a store,
 * atomic or call uses a pointer derived from it, or one refcpu cannot trace
 * to a parameter), 0 when it only reads, -1 for an index out of range.
 * Callers use it to refuse read-only memory for written parameters. */
REFCPU_EXPORT int refcpu_kernel_param_written(const refcpu_kernel *kernel,
                                             size_t index);

/* Runs programs (0..gx-1, 0..gy-1, 0..gz-1) on the thread pool
 * (REFCPU_NUM_THREADS threads, default all cores; 1 = serially in order).
 * Arguments are checked against the signature before anything runs: a wrong
 * count, a kind mismatch, a null pointer or an empty/oversized grid returns
 * REFCPU_ERROR_INVALID_ARGUMENT and touches no memory. */
REFCPU_EXPORT refcpu_status refcpu_kernel_launch(refcpu_kernel *kernel,
                                                 const refcpu_arg *args,
                                                 size_t num_args, uint32_t gx,
                                                 uint32_t gy, uint32_t gz,
                                                 char **error);

REFCPU_EXPORT void refcpu_free_error(char *error);

/* Kernel ABI: functions the runtime provides to compiled kernels.
 *
 * refcpu_rt_assert_fail: a kernel calls it when a tt.assert condition is false
 * in program (pidx, pidy, pidz), then carries on with that program. The first
 * failure of a launch is recorded, programs not yet started are skipped and
 * refcpu_kernel_launch returns REFCPU_ERROR_KERNEL with the message
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

#endif /* REFCPU_REFCPU_H */
