// RUN: refcpu-opt %s --refcpu-fuse-elementwise | FileCheck %s

#map = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>

// A single-use producer fuses into its elementwise consumer.
// CHECK-LABEL: func.func @chain
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// A producer feeding a matmul stays outside it (it would run once per K step).
// CHECK-LABEL: func.func @into_matmul
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.matmul
func.func @into_matmul(%x: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %a = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.exp %in : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// An expensive producer with two users is not copied into both.
// CHECK-LABEL: func.func @shared
// CHECK: math.exp
// CHECK-NOT: math.exp
func.func @shared(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = math.exp %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %c = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.addf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %b, %c : tensor<8xf32>, tensor<8xf32>
}

// A per-lane load may not move past a store: x = load(p); store(p); x + 1
// must add to the old values, so the load stays a generic of its own before
// the store, and the add reads its result.
// CHECK-LABEL: func.func @load_then_store
// CHECK: %[[X:.*]] = linalg.generic
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<8xf32>)
// CHECK: arith.addf
func.func @load_then_store(%addr: tensor<8xi64>, %p: !llvm.ptr) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%addr : tensor<8xi64>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: i64, %out: f32):
    %ptr = llvm.inttoptr %a : i64 to !llvm.ptr
    %v = llvm.load %ptr : !llvm.ptr -> f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.addf %in, %one : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// With no write in between, the load fuses into its user.
// CHECK-LABEL: func.func @load_no_store
// CHECK: linalg.generic
// CHECK: llvm.load
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
func.func @load_no_store(%addr: tensor<8xi64>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%addr : tensor<8xi64>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: i64, %out: f32):
    %ptr = llvm.inttoptr %a : i64 to !llvm.ptr
    %v = llvm.load %ptr : !llvm.ptr -> f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.addf %in, %one : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}
