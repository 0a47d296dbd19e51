// RUN: refcpu-opt %s --refcpu-vectorize-reductions | FileCheck %s
// RUN: refcpu-opt %s --refcpu-vectorize-reductions=max-elements=512 | FileCheck %s --check-prefix=SMALL

#rows = affine_map<(d0, d1) -> (d0, d1)>
#lanes = affine_map<(d0, d1) -> (d1)>
#all = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
#first = affine_map<(d0, d1) -> (d0)>

// Rows of partial results folded into one row: a vector.multi_reduction
// across the rows. Past max-elements the op stays as it is.
// CHECK-LABEL: func.func @partial_rows
// CHECK: %[[ROWS:.*]] = vector.transfer_read %{{.*}} : memref<15x64xf32, strided<[64, 1], offset: 64>>, vector<15x64xf32>
// CHECK: %[[ACC:.*]] = vector.transfer_read %{{.*}} : memref<64xf32>, vector<64xf32>
// CHECK: %[[SUM:.*]] = vector.multi_reduction <add>, %[[ROWS]], %[[ACC]] [0] : vector<15x64xf32> to vector<64xf32>
// CHECK: vector.transfer_write %[[SUM]]
// CHECK-NOT: linalg.generic
// SMALL-LABEL: func.func @partial_rows
// SMALL: linalg.generic
// SMALL-NOT: vector.
// SMALL-LABEL: func.func @lanes_to_scalar
func.func @partial_rows(%x: memref<16x64xf32>, %acc: memref<64xf32>) {
  %rest = memref.subview %x[1, 0] [15, 64] [1, 1] : memref<16x64xf32> to memref<15x64xf32, strided<[64, 1], offset: 64>>
  linalg.generic {indexing_maps = [#rows, #lanes], iterator_types = ["reduction", "parallel"]}
      ins(%rest : memref<15x64xf32, strided<[64, 1], offset: 64>>) outs(%acc : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// The lanes folded into a scalar: a vector.reduction LLVM may reassociate.
// CHECK-LABEL: func.func @lanes_to_scalar
// CHECK: %[[V:.*]] = vector.transfer_read %{{.*}} : memref<63xf32>, vector<63xf32>
// CHECK: vector.reduction <maxnumf>, %[[V]], %{{.*}} fastmath<reassoc> : vector<63xf32> into f32
// CHECK-NOT: vector.multi_reduction
func.func @lanes_to_scalar(%x: memref<63xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [#all, #scalar], iterator_types = ["reduction"]}
      ins(%x : memref<63xf32>) outs(%acc : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maxnumf %out, %in : f32
    linalg.yield %m : f32
  }
  return
}

// A combiner that is no reduction kind (argmax's pair), a dynamic shape, a
// reduction after a parallel dimension (lowered through transposes) and
// bools (a byte each in memory, bit-packed in a vector) stay on loops.
// CHECK-LABEL: func.func @not_vectorized
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @not_vectorized(%x: memref<64xf32>, %i: memref<64xi32>, %m: memref<f32>,
                          %mi: memref<i32>, %d: memref<?xf32>,
                          %rows: memref<32x15xf32>, %sums: memref<32xf32>,
                          %bools: memref<64xi1>, %parity: memref<i1>) {
  linalg.generic {indexing_maps = [#all, #scalar], iterator_types = ["reduction"]}
      ins(%bools : memref<64xi1>) outs(%parity : memref<i1>) {
  ^bb0(%in: i1, %out: i1):
    %p = arith.xori %out, %in : i1
    linalg.yield %p : i1
  }
  linalg.generic {indexing_maps = [#rows, #first], iterator_types = ["parallel", "reduction"]}
      ins(%rows : memref<32x15xf32>) outs(%sums : memref<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#all, #all, #scalar, #scalar], iterator_types = ["reduction"]}
      ins(%x, %i : memref<64xf32>, memref<64xi32>) outs(%m, %mi : memref<f32>, memref<i32>) {
  ^bb0(%v: f32, %vi: i32, %best: f32, %besti: i32):
    %gt = arith.cmpf ogt, %v, %best : f32
    %nb = arith.select %gt, %v, %best : f32
    %ni = arith.select %gt, %vi, %besti : i32
    linalg.yield %nb, %ni : f32, i32
  }
  linalg.generic {indexing_maps = [#all, #scalar], iterator_types = ["reduction"]}
      ins(%d : memref<?xf32>) outs(%m : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}
