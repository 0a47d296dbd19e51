//===- SpecialFunctions.cpp - Special functions libm lacks ----------------===//
//
// I0 and I1 are summed from their power series,
//
//   I0(x) = sum_k q^k / (k!)^2,   I1(x) = (x/2) sum_k q^k / (k! (k+1)!),
//   q = x^2 / 4,
//
// whose terms are all positive, so the sum loses no digits to cancellation:
// its relative error is a few ulps per term, about 1e-13 for the ~500 terms
// the largest finite results need. That is far inside what f32 and f64
// callers compare against (torch.special.i0/i1 use Chebyshev fits).
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/SpecialFunctions.h"

#include <cmath>

namespace {
/// Beyond this |x| both functions overflow a double (I0(x) ~ e^x /
/// sqrt(2 pi x) passes DBL_MAX near x = 713.99).
constexpr double kOverflowBound = 720.0;

/// sum_k q^k / (k! (k + order)!) for order 0 or 1, |x| < kOverflowBound.
double besselISeries(double x, int order) {
  double q = 0.25 * x * x;
  double term = 1.0;
  double sum = 1.0;
  // Terms grow until k ~ |x|/2 and then fall off; stop when they no longer
  // change the sum. 2,000 terms bound the loop for every |x| < 720.
  for (int k = 1; k < 2000; ++k) {
    term *= q / (double(k) * double(k + order));
    double next = sum + term;
    if (next == sum)
      break;
    sum = next;
  }
  return sum;
}
} // namespace

double refcpu::runtime::besselI0(double x) {
  if (std::isnan(x))
    return x;
  double ax = std::fabs(x);
  if (ax >= kOverflowBound)
    return INFINITY;
  return besselISeries(ax, 0);
}

double refcpu::runtime::besselI1(double x) {
  if (std::isnan(x))
    return x;
  if (std::fabs(x) >= kOverflowBound)
    return std::copysign(INFINITY, x);
  return 0.5 * x * besselISeries(x, 1);
}
