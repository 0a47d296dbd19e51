/*===- refcpu.h - refcpu C API: compile TTIR and launch it on the CPU -----===*
 *
 * The stable, versioned interface of refcpu. Everything a host program (the
 * Python package, refcpu-run, a C++ application) needs to compile a Triton
 * kernel from TTIR text and launch it over a grid. The header is plain C and
 * includes nothing from the compiler. What compiled kernels and the runtime
 * agree on (argument kinds, grid arguments, entry points, runtime hooks) is
 * in refcpu/kernel_abi.h, which this header includes.
 *
 *===----------------------------------------------------------------------===*/

#ifndef REFCPU_REFCPU_H
#define REFCPU_REFCPU_H

#include "refcpu/kernel_abi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* refcpu_status (the status codes of every function that can fail) is
 * defined in kernel_abi.h, which the ahead-of-time runtime shares. */

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
  /* Non-zero: debug mode. The TTIR's op locations (Python file:line in
   * Triton's output) become a DWARF line table, the kernel's arguments and
   * program ids DWARF variables; nothing is optimized (LLVM IR as
   * translated, code generation at level none) and the JIT registers the
   * code with gdb through its JIT interface, so that breakpoints at kernel
   * lines hit. TTIR without locations maps to the lines of its own text
   * (source_name).
   * Defaults to the environment variable REFCPU_DEBUG (set and not "0").
   * The field took what was tail padding (sizeof is unchanged): a caller
   * built before it has it set by refcpu_compile_options_init. */
  int debug;
  /* The CPU refcpu_compile_aot generates code for, as LLVM names it
   * ("skylake-avx512", "x86-64-v3"); NULL = the host's CPU with all its
   * features. refcpu_kernel_create runs code on this host only and refuses
   * it. */
  const char *target_cpu;
} refcpu_compile_options;

typedef struct refcpu_kernel refcpu_kernel;

/* Compiles TTIR text ahead of time: writes a relocatable ELF object
 * (position-independent) to `object_path` and, when `header_path` is not
 * NULL, a C header declaring the kernel's typed launch function
 * `<kernel>_launch(refcpu_grid, <parameters>)`. The object links with
 * librefcpu_rt.a (refcpu/refcpu_rt.h) and needs no LLVM. A file is replaced
 * only when it was written whole. Errors as for refcpu_kernel_create. */
REFCPU_EXPORT refcpu_status refcpu_compile_aot(
    const char *ttir, size_t ttir_size, const refcpu_compile_options *options,
    const char *object_path, const char *header_path, char **error);

/* Version of this header's ABI; a library refuses callers of another one. */
REFCPU_EXPORT int refcpu_abi_version(void);
REFCPU_EXPORT const char *refcpu_version_string(void);

/* Fills `options` with defaults (fast preset, no dump, bounds checking and
 * debug mode from the environment). */
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
/* 1 when the kernel was compiled with bounds checking (it reads the
 * extent_bytes of its pointer arguments), 0 when not (callers may leave
 * extent_bytes 0), -1 for a NULL kernel. */
REFCPU_EXPORT int refcpu_kernel_checks_bounds(const refcpu_kernel *kernel);
/* The name of parameter `index` as the TTIR spells it ("x_ptr" for
 * `%x_ptr: !tt.ptr<f32>`), or "arg<index>" where the text gives none; NULL
 * for an index out of range. Callers use it to name arguments in messages.
 * The string belongs to the kernel and lives until refcpu_kernel_destroy. */
REFCPU_EXPORT const char *refcpu_kernel_param_name(const refcpu_kernel *kernel,
                                                   size_t index);
/* The TTIR type of parameter `index` as MLIR prints it ("!tt.ptr<f32>",
 * "i32"); NULL for an index out of range. Owned by the kernel, as above. */
REFCPU_EXPORT const char *refcpu_kernel_param_type(const refcpu_kernel *kernel,
                                                   size_t index);
/* The pointee type of pointer parameter `index` as MLIR prints it ("f32",
 * "bf16", "i8"); NULL for a parameter that is no !tt.ptr (a tensor
 * descriptor included) or an index out of range. Callers use it to refuse
 * arrays of another element type. Owned by the kernel, as above. */
REFCPU_EXPORT const char *
refcpu_kernel_param_pointee_type(const refcpu_kernel *kernel, size_t index);

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

#ifdef __cplusplus
}
#endif

#endif /* REFCPU_REFCPU_H */
