//===- HostFeatures.cpp - The x86 features this process may use -----------===//
//
// Bit positions are those of Intel's SDM, volume 2 (CPUID) and volume 1
// (XCR0 state components).
//
//===----------------------------------------------------------------------===//

#include "HostFeatures.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

using namespace refcpu::runtime;

namespace {
#if defined(__x86_64__)
bool bit(unsigned value, unsigned index) { return (value >> index) & 1u; }

HostFeatures detect() {
  HostFeatures features;
  unsigned eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
    return features;
  bool osxsave = bit(ecx, 27), avx = bit(ecx, 28), fma = bit(ecx, 12);
  if (!osxsave || !avx)
    return features;
  unsigned xcr0Low, xcr0High;
  __asm__("xgetbv" : "=a"(xcr0Low), "=d"(xcr0High) : "c"(0));
  // SSE and AVX state; opmask, upper ZMM0-15 and ZMM16-31; tile config and
  // tile data.
  bool ymmState = (xcr0Low & 0x6u) == 0x6u;
  bool zmmState = ymmState && (xcr0Low & 0xe0u) == 0xe0u;
  bool tileState = (xcr0Low & 0x60000u) == 0x60000u;
  if (!ymmState)
    return features;
  unsigned maxLeaf = __get_cpuid_max(0, nullptr);
  if (maxLeaf < 7)
    return features;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  unsigned leaf7Ebx = ebx, leaf7Ecx = ecx, leaf7Edx = edx;
  __cpuid_count(7, 1, eax, ebx, ecx, edx);
  unsigned leaf7s1Eax = eax;

  features.avx2 = bit(leaf7Ebx, 5);
  features.fma = fma;
  features.avx512 = zmmState && bit(leaf7Ebx, 16) && bit(leaf7Ebx, 30) &&
                    bit(leaf7Ebx, 31);
  features.avx512bf16 = features.avx512 && bit(leaf7s1Eax, 5);
  features.avx512vnni = features.avx512 && bit(leaf7Ecx, 11);
  features.amxBf16 = tileState && bit(leaf7Edx, 24) && bit(leaf7Edx, 22);
  features.amxInt8 = tileState && bit(leaf7Edx, 24) && bit(leaf7Edx, 25) &&
                     features.avx512 && bit(leaf7Ecx, 1);
  return features;
}
#else
HostFeatures detect() { return {}; }
#endif
} // namespace

const HostFeatures &refcpu::runtime::getHostFeatures() {
  static const HostFeatures features = detect();
  return features;
}
