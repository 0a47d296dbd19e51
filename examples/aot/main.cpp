//===- main.cpp - Run ahead-of-time compiled Triton kernels ---------------===//
//
// Runs vector_add and matmul_f32 (Triton's TTIR compiled by refcpu-compile)
// on inputs made here and checks them against plain C++ loops. Exits 0 only
// when every result matches and a bad grid is refused with a message.
//
//===----------------------------------------------------------------------===//

#include "matmul_f32.h"
#include "vector_add.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

extern "C" refcpu_status add_from_c(const float *x, const float *y, float *out,
                                    int n);

namespace {
int failures = 0;

void check(bool ok, const char *what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  failures += !ok;
}

float input(int i, int salt) {
  return static_cast<float>((i * 37 + salt * 11) % 101) / 50.0f - 1.0f;
}

void testVectorAdd() {
  const int n = 100003; // Not a multiple of the kernel's block of 1024.
  std::vector<float> x(n), y(n), out(n, -1.0f), outC(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = input(i, 1);
    y[i] = input(i, 2);
  }
  refcpu_grid grid = {(n + 1023) / 1024, 1, 1};
  refcpu_status status =
      vector_add_launch(grid, x.data(), y.data(), out.data(), n);
  check(status == REFCPU_OK, "vector_add launch");
  check(add_from_c(x.data(), y.data(), outC.data(), n) == REFCPU_OK,
        "vector_add launch from C");
  bool same = true;
  for (int i = 0; i < n; ++i)
    same &= out[i] == x[i] + y[i] && outC[i] == out[i];
  check(same, "vector_add result");

  refcpu_grid empty = {0, 1, 1};
  status = vector_add_launch(empty, x.data(), y.data(), out.data(), n);
  check(status == REFCPU_ERROR_INVALID_ARGUMENT &&
            std::string(refcpu_rt_last_error()).find("grid (0, 1, 1)") == 0,
        "a bad grid is refused");
  std::printf("  message: %s\n", refcpu_rt_last_error());
}

void testMatmul() {
  // The sizes of the corpus case the TTIR comes from (strides along the
  // contiguous dimension were specialized to 1; blocks are 32 x 32 x 32).
  const int m = 193, n = 130, k = 277;
  std::vector<float> a(m * k), b(k * n), c(m * n, 0.0f);
  for (int i = 0; i < m * k; ++i)
    a[i] = input(i, 3);
  for (int i = 0; i < k * n; ++i)
    b[i] = input(i, 4);
  refcpu_grid grid = {(m + 31) / 32, (n + 31) / 32, 1};
  check(matmul_f32_launch(grid, a.data(), b.data(), c.data(), m, n, k, k, n,
                          n) == REFCPU_OK,
        "matmul_f32 launch");
  double worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double expected = 0;
      for (int p = 0; p < k; ++p)
        expected += double(a[i * k + p]) * b[p * n + j];
      worst = std::fmax(worst, std::fabs(c[i * n + j] - expected));
    }
  std::printf("  largest error: %g\n", worst);
  check(worst < 1e-3, "matmul_f32 result");
}
} // namespace

int main() {
  testVectorAdd();
  testMatmul();
  return failures == 0 ? 0 : 1;
}
