// RUN: refcpu-opt %s --refcpu-collapse-dims --canonicalize | FileCheck %s

// An elementwise op on 2x2x2x2 runs as one loop of 16.
// CHECK-LABEL: func.func @elementwise
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : tensor<2x2x2x2xi32> into tensor<16xi32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: tensor.expand_shape
func.func @elementwise(%a: tensor<2x2x2x2xi32>, %b: tensor<2x2x2x2xi32>) -> tensor<2x2x2x2xi32> {
  %e = tensor.empty() : tensor<2x2x2x2xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<2x2x2x2xi32>, tensor<2x2x2x2xi32>) outs(%e : tensor<2x2x2x2xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %s = arith.xori %x, %y : i32
    linalg.yield %s : i32
  } -> tensor<2x2x2x2xi32>
  return %r : tensor<2x2x2x2xi32>
}

// A reduction over a middle axis keeps three loops: the ones before it, the
// axis, the ones after it.
// CHECK-LABEL: func.func @reduce_middle
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3, 4]] : tensor<2x2x2x2x2xi32> into tensor<4x2x4xi32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
func.func @reduce_middle(%a: tensor<2x2x2x2x2xi32>, %init: tensor<2x2x2x2xi32>) -> tensor<2x2x2x2xi32> {
  %r = linalg.reduce ins(%a : tensor<2x2x2x2x2xi32>) outs(%init : tensor<2x2x2x2xi32>) dimensions = [2]
    (%x: i32, %acc: i32) {
      %s = arith.xori %x, %acc : i32
      linalg.yield %s : i32
    }
  return %r : tensor<2x2x2x2xi32>
}

// Operands that index loops in another order keep them apart.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
func.func @transposed(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  return %r : tensor<8x4xf32>
}
