//===- Builtins.cpp - Symbols the runtime defines for compiled code -------===//
//
// Each builtin is a global function under the name generated code calls it
// by, so that an ahead-of-time compiled object resolves it from
// librefcpu_rt.a at link time; the JIT defines the same addresses as
// absolute symbols. The compiler-rt and MLIR names are weak: a program that
// also links libgcc's or MLIR's definitions keeps them without a clash.
//
//===----------------------------------------------------------------------===//

#include "Builtins.h"

#include "refcpu/Runtime/HalfFloat.h"
#include "refcpu/Runtime/Matmul.h"
#include "refcpu/Runtime/SpecialFunctions.h"
#include "refcpu/refcpu_rt.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace refcpu::runtime;

namespace {
template <typename To, typename From> To bitCast(From from) {
  static_assert(sizeof(To) == sizeof(From), "size mismatch");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

} // namespace

#define REFCPU_WEAK_SYMBOL(name) __asm__(name) __attribute__((weak))

// The helpers take and return _Float16 / __bf16 so that clang gives them the
// same calling convention (values in XMM registers) that LLVM assumes for the
// libcalls it emits.
_Float16 truncSFHF2(float value) REFCPU_WEAK_SYMBOL("__truncsfhf2");
_Float16 truncSFHF2(float value) {
  return bitCast<_Float16>(roundToHalfBits(value));
}
_Float16 truncDFHF2(double value) REFCPU_WEAK_SYMBOL("__truncdfhf2");
_Float16 truncDFHF2(double value) {
  return bitCast<_Float16>(roundToHalfBits(value));
}
float extendHFSF2(_Float16 value) REFCPU_WEAK_SYMBOL("__extendhfsf2");
float extendHFSF2(_Float16 value) {
  return halfBitsToFloat(bitCast<uint16_t>(value));
}
__bf16 truncSFBF2(float value) REFCPU_WEAK_SYMBOL("__truncsfbf2");
__bf16 truncSFBF2(float value) {
  return bitCast<__bf16>(roundToBFloat16Bits(value));
}
__bf16 truncDFBF2(double value) REFCPU_WEAK_SYMBOL("__truncdfbf2");
__bf16 truncDFBF2(double value) {
  return bitCast<__bf16>(roundToBFloat16Bits(value));
}

// libdevice's Bessel functions, in double precision whatever the caller's
// type (the compiler widens f32 operands): glibc's j0f..y1f are less
// accurate than rounding the double results. Wrapped so that generated code
// calls runtime symbols only, not libm's by name.
extern "C" {
double refcpu_rt_bessel_j0(double x) { return ::j0(x); }
double refcpu_rt_bessel_j1(double x) { return ::j1(x); }
double refcpu_rt_bessel_y0(double x) { return ::y0(x); }
double refcpu_rt_bessel_y1(double x) { return ::y1(x); }
double refcpu_rt_bessel_i0(double x) { return besselI0(x); }
double refcpu_rt_bessel_i1(double x) { return besselI1(x); }

uint16_t refcpu_rt_f32_to_f16_bits(float value) {
  return roundToHalfBits(value);
}
uint16_t refcpu_rt_f32_to_bf16_bits(float value) {
  return roundToBFloat16Bits(value);
}
}

namespace {

/// The parts of a ranked descriptor that a copy needs.
struct StridedView {
  char *data;
  const int64_t *sizes;
  const int64_t *strides;

  StridedView(const UnrankedMemRef &memref, int64_t elementSize) {
    auto *fields = static_cast<char *>(memref.descriptor);
    char *aligned;
    int64_t offset;
    std::memcpy(&aligned, fields + sizeof(void *), sizeof(aligned));
    std::memcpy(&offset, fields + 2 * sizeof(void *), sizeof(offset));
    data = aligned + offset * elementSize;
    sizes = reinterpret_cast<const int64_t *>(fields + 2 * sizeof(void *) +
                                              sizeof(int64_t));
    strides = sizes + memref.rank;
  }
};

} // namespace

/// `memref.copy` between memrefs of any (equal) shape and any strides, with
/// the signature of MLIR's CRunnerUtils `memrefCopy`.
void memrefCopy(int64_t elementSize, UnrankedMemRef *source,
                UnrankedMemRef *dest) REFCPU_WEAK_SYMBOL("memrefCopy");
void memrefCopy(int64_t elementSize, UnrankedMemRef *source,
                UnrankedMemRef *dest) {
  int64_t rank = source->rank;
  StridedView from(*source, elementSize);
  StridedView to(*dest, elementSize);
  if (rank == 0) {
    std::memcpy(to.data, from.data, elementSize);
    return;
  }
  for (int64_t dim = 0; dim < rank; ++dim)
    if (from.sizes[dim] == 0)
      return;

  // Copy runs of the innermost dimension: one memcpy when both sides are
  // contiguous there, element by element otherwise.
  int64_t inner = rank - 1;
  bool contiguous = from.strides[inner] == 1 && to.strides[inner] == 1;
  int64_t innerSize = from.sizes[inner];
  std::vector<int64_t> index(rank, 0);
  char *src = from.data;
  char *dst = to.data;
  while (true) {
    if (contiguous) {
      std::memmove(dst, src, innerSize * elementSize);
    } else {
      for (int64_t i = 0; i < innerSize; ++i)
        std::memmove(dst + i * to.strides[inner] * elementSize,
                     src + i * from.strides[inner] * elementSize, elementSize);
    }
    // Advance the outer dimensions like an odometer.
    int64_t dim = inner - 1;
    for (; dim >= 0; --dim) {
      src += from.strides[dim] * elementSize;
      dst += to.strides[dim] * elementSize;
      if (++index[dim] < from.sizes[dim])
        break;
      src -= from.strides[dim] * from.sizes[dim] * elementSize;
      dst -= to.strides[dim] * from.sizes[dim] * elementSize;
      index[dim] = 0;
    }
    if (dim < 0)
      return;
  }
}

const std::vector<BuiltinSymbol> &refcpu::runtime::getBuiltinSymbols() {
  static const std::vector<BuiltinSymbol> symbols = {
      {REFCPU_RT_ASSERT_FAIL, reinterpret_cast<void *>(&refcpu_rt_assert_fail)},
      {REFCPU_RT_PARAM_EXTENT,
       reinterpret_cast<void *>(&refcpu_rt_param_extent)},
      {REFCPU_RT_PARAM_BASE, reinterpret_cast<void *>(&refcpu_rt_param_base)},
      {REFCPU_RT_BOUNDS_FAIL, reinterpret_cast<void *>(&refcpu_rt_bounds_fail)},
      {"__truncsfhf2", reinterpret_cast<void *>(&truncSFHF2)},
      {"__truncdfhf2", reinterpret_cast<void *>(&truncDFHF2)},
      {"__extendhfsf2", reinterpret_cast<void *>(&extendHFSF2)},
      {"__truncsfbf2", reinterpret_cast<void *>(&truncSFBF2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&truncDFBF2)},
      {"memrefCopy", reinterpret_cast<void *>(&memrefCopy)},
      {REFCPU_RT_BESSEL_J0, reinterpret_cast<void *>(&refcpu_rt_bessel_j0)},
      {REFCPU_RT_BESSEL_J1, reinterpret_cast<void *>(&refcpu_rt_bessel_j1)},
      {REFCPU_RT_BESSEL_Y0, reinterpret_cast<void *>(&refcpu_rt_bessel_y0)},
      {REFCPU_RT_BESSEL_Y1, reinterpret_cast<void *>(&refcpu_rt_bessel_y1)},
      {REFCPU_RT_BESSEL_I0, reinterpret_cast<void *>(&refcpu_rt_bessel_i0)},
      {REFCPU_RT_BESSEL_I1, reinterpret_cast<void *>(&refcpu_rt_bessel_i1)},
      {REFCPU_RT_MATMUL_F32, reinterpret_cast<void *>(&refcpu_rt_matmul_f32)},
      {REFCPU_RT_MATMUL_BF16, reinterpret_cast<void *>(&refcpu_rt_matmul_bf16)},
      {REFCPU_RT_MATMUL_F16, reinterpret_cast<void *>(&refcpu_rt_matmul_f16)},
      {REFCPU_RT_MATMUL_I8, reinterpret_cast<void *>(&refcpu_rt_matmul_i8)},
      {REFCPU_RT_COPY_BOX, reinterpret_cast<void *>(&refcpu_rt_copy_box)},
      {REFCPU_RT_COPY_WRAPPED,
       reinterpret_cast<void *>(&refcpu_rt_copy_wrapped)},
  };
  return symbols;
}
