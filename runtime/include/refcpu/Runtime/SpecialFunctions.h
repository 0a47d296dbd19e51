//===- SpecialFunctions.h - Special functions libm lacks --------*- C++ -*-===//
//
// libdevice's modified Bessel functions of the first kind (__nv_cyl_bessel_i0
// and _i1) have no libm counterpart; generated code calls these through the
// runtime's builtins.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_SPECIALFUNCTIONS_H
#define REFCPU_RUNTIME_SPECIALFUNCTIONS_H

namespace refcpu::runtime {

/// I0(x), the modified Bessel function of the first kind of order 0: even,
/// I0(±inf) = inf, NaN for NaN, inf where the value overflows a double.
double besselI0(double x);

/// I1(x), the modified Bessel function of the first kind of order 1: odd,
/// I1(±inf) = ±inf, NaN for NaN.
double besselI1(double x);

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_SPECIALFUNCTIONS_H
