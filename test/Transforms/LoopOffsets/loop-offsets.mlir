// RUN: refcpu-opt %s --refcpu-loop-offsets | FileCheck %s
// refcpu-loop-offsets: a loop-carried pointer (or integer) tensor that every
// iteration advances by a uniform amount is carried as a scalar offset from
// its initial value (i64 for pointers, the element type for integers). Inside
// the loop and after it the tensor is rebuilt as init + splat(offset), so the
// TTIR -> linalg pointer analysis sees an affine form of it (splat + range +
// splat) instead of an opaque block argument. The old advancing op is left
// dead for later cleanup.

// A pointer tensor advanced by splat(%step) (i32): the offset starts at 0,
// the yield adds the sign-extended step (addptr sign-extends its offsets),
// and the result after the loop is rebuilt from the final offset.
// CHECK-LABEL: tt.func @ptr_splat_step(
// CHECK-SAME: %{{[^:]+}}: !tt.ptr<f32>, %[[STEP:[^:]+]]: i32
// CHECK: %[[INIT:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[OFF:[a-z0-9_]+]] = %[[Z]]) -> (tensor<16xf32>, i64)
// CHECK-NEXT: %[[SO:.*]] = tt.splat %[[OFF]] : i64 -> tensor<16xi64>
// CHECK-NEXT: %[[PTRS:.*]] = tt.addptr %[[INIT]], %[[SO]] : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
// CHECK-NEXT: tt.load %[[PTRS]] : tensor<16x!tt.ptr<f32>>
// CHECK: %[[EXT:.*]] = arith.extsi %[[STEP]] : i32 to i64
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[EXT]] : i64
// CHECK-NEXT: scf.yield %{{.*}}, %[[NEXT]] : tensor<16xf32>, i64
// CHECK: %[[SR:.*]] = tt.splat %[[R]]#1 : i64 -> tensor<16xi64>
// CHECK-NEXT: %[[FINAL:.*]] = tt.addptr %[[INIT]], %[[SR]] : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
// CHECK-NEXT: tt.store %[[FINAL]], %[[R]]#0 : tensor<16x!tt.ptr<f32>>
tt.func @ptr_splat_step(%p: !tt.ptr<f32>, %step: i32, %k: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %init = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %res:2 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero, %ptrs = %init) -> (tensor<16xf32>, tensor<16x!tt.ptr<f32>>) : i32 {
    %x = tt.load %ptrs : tensor<16x!tt.ptr<f32>>
    %s = arith.addf %acc, %x : tensor<16xf32>
    %d = tt.splat %step : i32 -> tensor<16xi32>
    %next = tt.addptr %ptrs, %d : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    scf.yield %s, %next : tensor<16xf32>, tensor<16x!tt.ptr<f32>>
  }
  tt.store %res#1, %res#0 : tensor<16x!tt.ptr<f32>>
  tt.return %res#0 : tensor<16xf32>
}

// A pointer tensor advanced by a splat constant (dense<8> : i64): the step
// is the scalar constant 8, already i64, so no extension.
// CHECK-LABEL: tt.func @ptr_const_step(
// CHECK: %[[INIT:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: scf.for %{{.*}} iter_args(%[[OFF:[a-z0-9_]+]] = %[[Z]]) -> (i64)
// CHECK-NEXT: %[[SO:.*]] = tt.splat %[[OFF]] : i64 -> tensor<8xi64>
// CHECK-NEXT: %[[PTRS:.*]] = tt.addptr %[[INIT]], %[[SO]] : tensor<8x!tt.ptr<f16>>, tensor<8xi64>
// CHECK-NEXT: tt.store %[[PTRS]], %{{.*}} : tensor<8x!tt.ptr<f16>>
// CHECK: %[[C8:.*]] = arith.constant 8 : i64
// CHECK-NOT: arith.extsi
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[C8]] : i64
// CHECK-NEXT: scf.yield %[[NEXT]] : i64
tt.func @ptr_const_step(%p: !tt.ptr<f16>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %ps = tt.splat %p : !tt.ptr<f16> -> tensor<8x!tt.ptr<f16>>
  %init = tt.addptr %ps, %r : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  %v = arith.constant dense<1.000000e+00> : tensor<8xf16>
  %res = scf.for %i = %c0 to %k step %c1 iter_args(%ptrs = %init) -> (tensor<8x!tt.ptr<f16>>) : i32 {
    tt.store %ptrs, %v : tensor<8x!tt.ptr<f16>>
    %c8 = arith.constant dense<8> : tensor<8xi64>
    %next = tt.addptr %ptrs, %c8 : tensor<8x!tt.ptr<f16>>, tensor<8xi64>
    scf.yield %next : tensor<8x!tt.ptr<f16>>
  }
  tt.return
}

// An integer offset tensor advanced by arith.addi with splat(%step) (the iter
// arg on either side): the offset is an i32 scalar and the tensor is rebuilt
// with arith.addi, in the loop (feeding the addptr) and after it.
// CHECK-LABEL: tt.func @int_splat_step(
// CHECK-SAME: %{{[^:]+}}: !tt.ptr<f32>, %[[STEP:[^:]+]]: i32
// CHECK: %[[RANGE:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: %[[R:.*]] = scf.for %{{.*}} iter_args(%[[OFF:[a-z0-9_]+]] = %[[Z]]) -> (i32)
// CHECK-NEXT: %[[SO:.*]] = tt.splat %[[OFF]] : i32 -> tensor<16xi32>
// CHECK-NEXT: %[[OFFS:.*]] = arith.addi %[[RANGE]], %[[SO]] : tensor<16xi32>
// CHECK-NEXT: tt.addptr %{{.*}}, %[[OFFS]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[STEP]] : i32
// CHECK-NEXT: scf.yield %[[NEXT]] : i32
// CHECK: %[[SR:.*]] = tt.splat %[[R]] : i32 -> tensor<16xi32>
// CHECK-NEXT: arith.addi %[[RANGE]], %[[SR]] : tensor<16xi32>
tt.func @int_splat_step(%p: !tt.ptr<f32>, %step: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %v = arith.constant dense<2.000000e+00> : tensor<16xf32>
  %res = scf.for %i = %c0 to %k step %c1 iter_args(%offs = %r) -> (tensor<16xi32>) : i32 {
    %ptrs = tt.addptr %ps, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %ptrs, %v : tensor<16x!tt.ptr<f32>>
    %d = tt.splat %step : i32 -> tensor<16xi32>
    %next = arith.addi %d, %offs : tensor<16xi32>
    scf.yield %next : tensor<16xi32>
  }
  tt.return
}

// Left alone: %a advances by a non-uniform tensor (the range), and %b's next
// value does not come from %b at all. Both stay pointer tensors.
// CHECK-LABEL: tt.func @not_uniform(
// CHECK: %[[RANGE:.*]] = tt.make_range
// CHECK: %[[INIT:.*]] = tt.addptr %{{.*}}, %[[RANGE]]
// CHECK-NOT: arith.constant 0 : i64
// CHECK: scf.for %{{.*}} iter_args(%[[A:[a-z0-9_]+]] = %[[INIT]], %[[B:[a-z0-9_]+]] = %[[INIT]]) -> (tensor<16x!tt.ptr<f32>>, tensor<16x!tt.ptr<f32>>)
// CHECK-NEXT: tt.store %[[A]], %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %[[B]], %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: %[[NA:.*]] = tt.addptr %[[A]], %[[RANGE]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT: %[[NB:.*]] = tt.addptr %{{.*}}, %[[RANGE]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT: scf.yield %[[NA]], %[[NB]] : tensor<16x!tt.ptr<f32>>, tensor<16x!tt.ptr<f32>>
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func @not_uniform(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %init = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %v = arith.constant dense<2.000000e+00> : tensor<16xf32>
  %res:2 = scf.for %i = %c0 to %k step %c1 iter_args(%a = %init, %b = %init) -> (tensor<16x!tt.ptr<f32>>, tensor<16x!tt.ptr<f32>>) : i32 {
    tt.store %a, %v : tensor<16x!tt.ptr<f32>>
    tt.store %b, %v : tensor<16x!tt.ptr<f32>>
    %na = tt.addptr %a, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %nb = tt.addptr %qs, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    scf.yield %na, %nb : tensor<16x!tt.ptr<f32>>, tensor<16x!tt.ptr<f32>>
  }
  tt.return
}
