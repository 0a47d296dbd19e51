// RUN: refcpu-opt %s --refcpu-reduce-locality --split-input-file | FileCheck %s

// The loop of Triton's test_optimize_thread_locality (sum): per-lane partial
// sums in the loop, one reduction over the 16 lanes after it.
// CHECK-LABEL: tt.func @row_sums
// CHECK: %[[ZERO:.*]] = arith.constant dense<-0.000000e+00> : tensor<32x16xf32>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<32x16xf32>)
// CHECK:   %[[SPLIT:.*]] = tt.reshape %{{.*}} : tensor<32x128xf32> -> tensor<32x8x16xf32>
// CHECK:   %[[PART:.*]] = "tt.reduce"(%[[SPLIT]]) <{axis = 1 : i32}>
// CHECK:   }) : (tensor<32x8x16xf32>) -> tensor<32x16xf32>
// CHECK:   %[[NEXT:.*]] = arith.addf %[[ACC]], %[[PART]] : tensor<32x16xf32>
// CHECK:   scf.yield %[[NEXT]]
// CHECK: %[[TOTAL:.*]] = "tt.reduce"(%[[LOOP]]) <{axis = 1 : i32}>
// CHECK: }) : (tensor<32x16xf32>) -> tensor<32xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[INIT:.*]], %[[TOTAL]] : tensor<32xf32>
// CHECK: tt.store %{{.*}}, %[[SUM]]
tt.func @row_sums(%x: tensor<32x128x!tt.ptr<f32>>, %y: tensor<32x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0.000000e+00> : tensor<32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<32xf32>) : i32 {
    %v = tt.load %x : tensor<32x128x!tt.ptr<f32>>
    %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<32x128xf32>) -> tensor<32xf32>
    %next = arith.addf %acc, %s : tensor<32xf32>
    scf.yield %next : tensor<32xf32>
  }
  tt.store %y, %r : tensor<32x!tt.ptr<f32>>
  tt.return
}

// -----

// A 1-D block reduced to a scalar (max, operands swapped): the carried
// scalar becomes a tensor of lanes, starting at NaN, which maxnumf ignores;
// f64 fills 8 lanes.
// CHECK-LABEL: tt.func @running_max
// CHECK: arith.constant dense<0x7FF8000000000000> : tensor<8xf64>
// CHECK: scf.for {{.*}} -> (tensor<8xf64>)
// CHECK:   tt.reshape %{{.*}} : tensor<64xf64> -> tensor<8x8xf64>
// CHECK:   arith.maxnumf %{{.*}}, %{{.*}} : tensor<8xf64>
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 0 : i32}>
// CHECK: }) : (tensor<8xf64>) -> f64
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f64
tt.func @running_max(%x: tensor<64x!tt.ptr<f64>>, %y: !tt.ptr<f64>, %n: i32, %init: f64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (f64) : i32 {
    %v = tt.load %x : tensor<64x!tt.ptr<f64>>
    %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f64, %b: f64):
      %t = arith.maxnumf %a, %b : f64
      tt.reduce.return %t : f64
    }) : (tensor<64xf64>) -> f64
    %next = arith.maxnumf %s, %acc : f64
    scf.yield %next : f64
  }
  tt.store %y, %r : !tt.ptr<f64>
  tt.return
}

// -----

// Left alone: the block is no wider than one vector, the carried value is
// used inside the loop, the combiner differs from the fold, the reduced axis
// is not the innermost one.
// CHECK-LABEL: tt.func @left_alone
// CHECK: scf.for {{.*}} -> (f32, f32, f32, tensor<32xf32>)
// CHECK-NOT: x16xf32>
// CHECK: tt.return
tt.func @left_alone(%x: tensor<16x!tt.ptr<f32>>, %xs: tensor<64x32x!tt.ptr<f32>>, %y: !tt.ptr<f32>, %ys: tensor<32x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.000000e+00 : f32
  %zeros = arith.constant dense<0.000000e+00> : tensor<32xf32>
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%narrow = %zero, %used = %zero, %mixed = %zero, %outer = %zeros) -> (f32, f32, f32, tensor<32xf32>) : i32 {
    %v = tt.load %x : tensor<16x!tt.ptr<f32>>
    %s1 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<16xf32>) -> f32
    %n1 = arith.addf %narrow, %s1 : f32
    %w = tt.load %xs : tensor<64x32x!tt.ptr<f32>>
    %flat = tt.reshape %w : tensor<64x32xf32> -> tensor<2048xf32>
    %s2 = "tt.reduce"(%flat) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<2048xf32>) -> f32
    %n2 = arith.addf %used, %s2 : f32
    tt.store %y, %used : !tt.ptr<f32>
    %s3 = "tt.reduce"(%flat) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<2048xf32>) -> f32
    %n3 = arith.addf %mixed, %s3 : f32
    %s4 = "tt.reduce"(%w) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x32xf32>) -> tensor<32xf32>
    %n4 = arith.addf %outer, %s4 : tensor<32xf32>
    scf.yield %n1, %n2, %n3, %n4 : f32, f32, f32, tensor<32xf32>
  }
  tt.store %y, %r#0 : !tt.ptr<f32>
  tt.store %y, %r#1 : !tt.ptr<f32>
  tt.store %y, %r#2 : !tt.ptr<f32>
  tt.store %ys, %r#3 : tensor<32x!tt.ptr<f32>>
  tt.return
}
