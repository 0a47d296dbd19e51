/* Launches vector_add from C, through the same generated header. */
#include "vector_add.h"

refcpu_status add_from_c(const float *x, const float *y, float *out, int n) {
  /* vector_add.ttir was compiled with BLOCK = 1024. */
  refcpu_grid grid = {(uint32_t)((n + 1023) / 1024), 1, 1};
  return vector_add_launch(grid, x, y, out, n);
}
