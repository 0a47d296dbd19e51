//===- Builtins.cpp - Symbols the runtime defines for JIT-compiled code ---===//

#include "Builtins.h"

#include "refcpu/Runtime/HalfFloat.h"
#include "refcpu/Runtime/Matmul.h"
#include "refcpu/Runtime/SpecialFunctions.h"
#include "refcpu/refcpu.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <cstring>

using namespace refcpu::runtime;

namespace {
template <typename To, typename From> To bitCast(From from) {
  static_assert(sizeof(To) == sizeof(From), "size mismatch");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// The helpers take and return _Float16 / __bf16 so that clang gives them the
// same calling convention (values in XMM registers) that LLVM assumes for the
// libcalls it emits.
_Float16 truncSFHF2(float value) {
  return bitCast<_Float16>(roundToHalfBits(value));
}
_Float16 truncDFHF2(double value) {
  return bitCast<_Float16>(roundToHalfBits(value));
}
float extendHFSF2(_Float16 value) {
  return halfBitsToFloat(bitCast<uint16_t>(value));
}
__bf16 truncSFBF2(float value) {
  return bitCast<__bf16>(roundToBFloat16Bits(value));
}
__bf16 truncDFBF2(double value) {
  return bitCast<__bf16>(roundToBFloat16Bits(value));
}

// libdevice's Bessel functions, in double precision whatever the caller's
// type (the compiler widens f32 operands): glibc's j0f..y1f are less
// accurate than rounding the double results. Wrapped so that generated code
// calls runtime symbols only, not libm's by name.
double besselJ0(double x) { return ::j0(x); }
double besselJ1(double x) { return ::j1(x); }
double besselY0(double x) { return ::y0(x); }
double besselY1(double x) { return ::y1(x); }

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

/// `memref.copy` between memrefs of any (equal) shape and any strides, with
/// the signature of MLIR's CRunnerUtils `memrefCopy`.
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
  llvm::SmallVector<int64_t, 8> index(rank, 0);
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
} // namespace

llvm::ArrayRef<BuiltinSymbol> refcpu::runtime::getBuiltinSymbols() {
  static const BuiltinSymbol symbols[] = {
      {REFCPU_RT_ASSERT_FAIL, reinterpret_cast<void *>(&refcpu_rt_assert_fail)},
      {REFCPU_RT_PARAM_EXTENT, reinterpret_cast<void *>(&refcpu_rt_param_extent)},
      {REFCPU_RT_PARAM_BASE, reinterpret_cast<void *>(&refcpu_rt_param_base)},
      {REFCPU_RT_BOUNDS_FAIL, reinterpret_cast<void *>(&refcpu_rt_bounds_fail)},
      {"__truncsfhf2", reinterpret_cast<void *>(&truncSFHF2)},
      {"__truncdfhf2", reinterpret_cast<void *>(&truncDFHF2)},
      {"__extendhfsf2", reinterpret_cast<void *>(&extendHFSF2)},
      {"__truncsfbf2", reinterpret_cast<void *>(&truncSFBF2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&truncDFBF2)},
      {"memrefCopy", reinterpret_cast<void *>(&memrefCopy)},
      {REFCPU_RT_BESSEL_J0, reinterpret_cast<void *>(&besselJ0)},
      {REFCPU_RT_BESSEL_J1, reinterpret_cast<void *>(&besselJ1)},
      {REFCPU_RT_BESSEL_Y0, reinterpret_cast<void *>(&besselY0)},
      {REFCPU_RT_BESSEL_Y1, reinterpret_cast<void *>(&besselY1)},
      {REFCPU_RT_BESSEL_I0, reinterpret_cast<void *>(&besselI0)},
      {REFCPU_RT_BESSEL_I1, reinterpret_cast<void *>(&besselI1)},
      {REFCPU_RT_MATMUL_F32, reinterpret_cast<void *>(&refcpu_rt_matmul_f32)},
      {REFCPU_RT_MATMUL_BF16, reinterpret_cast<void *>(&refcpu_rt_matmul_bf16)},
      {REFCPU_RT_MATMUL_F16, reinterpret_cast<void *>(&refcpu_rt_matmul_f16)},
      {REFCPU_RT_MATMUL_I8, reinterpret_cast<void *>(&refcpu_rt_matmul_i8)},
  };
  return symbols;
}
