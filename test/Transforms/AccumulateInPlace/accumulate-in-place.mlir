// RUN: refcpu-opt %s --refcpu-accumulate-in-place | FileCheck %s

#map = affine_map<(d0) -> (d0)>

// acc += x in a loop: the carried block becomes the update's destination,
// read through the output argument, so bufferization keeps the loop's
// buffer instead of allocating one per iteration.
// CHECK-LABEL: func.func @loop_accumulator
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X:[^ ]*]] : tensor<16xf32>) outs(%[[ACC]] : tensor<16xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: scf.yield %[[SUM]]
func.func @loop_accumulator(%init: tensor<16xf32>, %x: tensor<16xf32>, %n: index) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<16xf32>) {
    %e = tensor.empty() : tensor<16xf32>
    %sum = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
        ins(%acc, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<16xf32>
    scf.yield %sum : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// The carried block is read again after the update: writing into it would
// make bufferization copy it first, so the update keeps its fresh tensor.
// CHECK-LABEL: func.func @accumulator_read_twice
// CHECK: %[[E:.*]] = tensor.empty()
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16xf32>, tensor<16xf32>) outs(%[[E]] : tensor<16xf32>)
func.func @accumulator_read_twice(%init: tensor<16xf32>, %x: tensor<16xf32>, %n: index) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<16xf32>) {
    %e = tensor.empty() : tensor<16xf32>
    %sum = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
        ins(%acc, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<16xf32>
    %e2 = tensor.empty() : tensor<16xf32>
    %both = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
        ins(%sum, %acc : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.maximumf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<16xf32>
    scf.yield %both : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// Outside a loop, or where the output is read, nothing changes.
// CHECK-LABEL: func.func @not_carried
// CHECK: %[[E:.*]] = tensor.empty()
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<16xf32>)
func.func @not_carried(%a: tensor<16xf32>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %sum : tensor<16xf32>
}
