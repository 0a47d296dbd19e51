//===- SpecialFunctionsTest.cpp - Tests of the runtime's Bessel I0/I1 -----===//
//
// Checked against libstdc++'s std::cyl_bessel_i (C++17 special functions),
// an implementation independent of the runtime's power series.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/SpecialFunctions.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace refcpu::runtime;

namespace {
TEST(SpecialFunctions, MatchesStdCylBesselI) {
  for (double x = 0.0; x <= 200.0; x += 0.37) {
    double i0 = std::cyl_bessel_i(0.0, x);
    double i1 = std::cyl_bessel_i(1.0, x);
    EXPECT_NEAR(besselI0(x), i0, 1e-13 * i0) << "x = " << x;
    EXPECT_NEAR(besselI1(x), i1, 1e-13 * i1 + 1e-300) << "x = " << x;
  }
}

TEST(SpecialFunctions, Symmetry) {
  for (double x : {0.5, 3.25, 40.0}) {
    EXPECT_EQ(besselI0(-x), besselI0(x));
    EXPECT_EQ(besselI1(-x), -besselI1(x));
  }
  EXPECT_EQ(besselI0(0.0), 1.0);
  EXPECT_EQ(besselI1(0.0), 0.0);
}

TEST(SpecialFunctions, SpecialValues) {
  EXPECT_TRUE(std::isnan(besselI0(NAN)));
  EXPECT_TRUE(std::isnan(besselI1(NAN)));
  EXPECT_EQ(besselI0(-INFINITY), INFINITY);
  EXPECT_EQ(besselI1(-INFINITY), -INFINITY);
  // I0(713) ~ 1.4e308 still fits a double; I0(714) does not.
  EXPECT_TRUE(std::isfinite(besselI0(713.0)));
  EXPECT_EQ(besselI0(714.5), INFINITY);
  EXPECT_EQ(besselI1(-714.5), -INFINITY);
}
} // namespace
