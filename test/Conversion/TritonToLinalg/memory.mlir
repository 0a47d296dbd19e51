// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// The general memory path: each lane accesses its own i64 address, and a
// masked-off lane touches no memory. The pointer tensors here are function
// arguments, with no splat + make_range form for the pointer analysis to
// see, so they stay on this path; strided-access.mlir covers the structured
// (memref view) path.

// CHECK-LABEL: func.func @load_mask_other(
// CHECK-SAME: %[[P:[^:]+]]: tensor<4xi64>, %[[M:[^:]+]]: tensor<4xi1>, %[[O:[^:]+]]: tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[P]], %[[M]], %[[O]] : tensor<4xi64>, tensor<4xi1>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: ^bb0(%[[A:.*]]: i64, %[[MI:.*]]: i1, %[[OI:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[V:.*]] = scf.if %[[MI]] -> (f32) {
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr
// CHECK: %[[L:.*]] = llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: scf.yield %[[L]] : f32
// CHECK: } else {
// CHECK: scf.yield %[[OI]] : f32
// CHECK: linalg.yield %[[V]] : f32
tt.func @load_mask_other(%p: tensor<4x!tt.ptr<f32>>, %m: tensor<4xi1>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %v = tt.load %p, %m, %o : tensor<4x!tt.ptr<f32>>
  tt.return %v : tensor<4xf32>
}

// Without `other`, masked-off lanes read zero.
// CHECK-LABEL: func.func @load_mask_only(
// CHECK: ^bb0(%{{.*}}: i64, %[[MI:.*]]: i1, %{{.*}}: f16):
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: scf.if %[[MI]] -> (f16) {
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK: } else {
// CHECK: scf.yield %[[ZERO]] : f16
tt.func @load_mask_only(%p: tensor<4x!tt.ptr<f16>>, %m: tensor<4xi1>) -> tensor<4xf16> {
  %v = tt.load %p, %m : tensor<4x!tt.ptr<f16>>
  tt.return %v : tensor<4xf16>
}

// CHECK-LABEL: func.func @load_scalar_volatile(
// CHECK-SAME: %[[P:[^:]+]]: i64
// CHECK-NOT: scf.if
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[P]] : i64 to !llvm.ptr
// CHECK: %[[V:.*]] = llvm.load volatile %[[PTR]] {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: return %[[V]] : i64
tt.func @load_scalar_volatile(%p: !tt.ptr<i64>) -> i64 {
  %v = tt.load %p {isVolatile = true} : !tt.ptr<i64>
  tt.return %v : i64
}

// A store is a loop nest over the lanes.
// CHECK-LABEL: func.func @store_masked(
// CHECK-SAME: %[[P:[^:]+]]: tensor<2x4xi64>, %[[V:[^:]+]]: tensor<2x4xf32>, %[[M:[^:]+]]: tensor<2x4xi1>
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C2]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[C4]]
// CHECK-DAG: %[[VI:.*]] = tensor.extract %[[V]][%[[I]], %[[J]]] : tensor<2x4xf32>
// CHECK-DAG: %[[AI:.*]] = tensor.extract %[[P]][%[[I]], %[[J]]] : tensor<2x4xi64>
// CHECK-DAG: %[[MI:.*]] = tensor.extract %[[M]][%[[I]], %[[J]]] : tensor<2x4xi1>
// CHECK: scf.if %[[MI]] {
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[AI]] : i64 to !llvm.ptr
// CHECK: llvm.store %[[VI]], %[[PTR]] {alignment = 4 : i64} : f32, !llvm.ptr
tt.func @store_masked(%p: tensor<2x4x!tt.ptr<f32>>, %v: tensor<2x4xf32>, %m: tensor<2x4xi1>) {
  tt.store %p, %v, %m : tensor<2x4x!tt.ptr<f32>>
  tt.return
}

// CHECK-LABEL: func.func @store_scalar(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[V:[^:]+]]: i8
// CHECK-NOT: scf.
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[P]] : i64 to !llvm.ptr
// CHECK: llvm.store %[[V]], %[[PTR]] {alignment = 1 : i64} : i8, !llvm.ptr
tt.func @store_scalar(%p: !tt.ptr<i8>, %v: i8) {
  tt.store %p, %v : !tt.ptr<i8>
  tt.return
}

// One atomic per unmasked lane; the old values are collected into a tensor.
// CHECK-LABEL: func.func @atomic_rmw_fadd(
// CHECK-SAME: %[[P:[^:]+]]: tensor<4xi64>, %[[V:[^:]+]]: tensor<4xf32>, %[[M:[^:]+]]: tensor<4xi1>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<4xf32>)
// CHECK-DAG: %[[AI:.*]] = tensor.extract %[[P]][%[[I]]] : tensor<4xi64>
// CHECK-DAG: %[[VI:.*]] = tensor.extract %[[V]][%[[I]]] : tensor<4xf32>
// CHECK-DAG: %[[MI:.*]] = tensor.extract %[[M]][%[[I]]] : tensor<4xi1>
// CHECK: %[[OLD:.*]] = scf.if %[[MI]] -> (f32) {
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[AI]] : i64 to !llvm.ptr
// CHECK: %[[RMW:.*]] = llvm.atomicrmw fadd %[[PTR]], %[[VI]] acq_rel {alignment = 4 : i64} : !llvm.ptr, f32
// CHECK: scf.yield %[[RMW]] : f32
// CHECK: tensor.insert %[[OLD]] into %[[ACC]][%[[I]]] : tensor<4xf32>
// CHECK: return %[[R]]
tt.func @atomic_rmw_fadd(%p: tensor<4x!tt.ptr<f32>>, %v: tensor<4xf32>, %m: tensor<4xi1>) -> tensor<4xf32> {
  %a = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>, tensor<4xi1>) -> tensor<4xf32>
  tt.return %a : tensor<4xf32>
}

// Each RMW kind and memory semantic maps to its LLVM counterpart.
// CHECK-LABEL: func.func @atomic_rmw_kinds(
// CHECK-NOT: scf.if
// CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} monotonic {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: llvm.atomicrmw umin %{{.*}}, %{{.*}} acquire {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: llvm.atomicrmw xchg %{{.*}}, %{{.*}} release {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: llvm.atomicrmw _xor %{{.*}}, %{{.*}} acq_rel {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic {alignment = 8 : i64} : !llvm.ptr, i64
// CHECK: llvm.atomicrmw _and %{{.*}}, %{{.*}} monotonic {alignment = 8 : i64} : !llvm.ptr, i64
// CHECK: llvm.atomicrmw _or %{{.*}}, %{{.*}} monotonic {alignment = 8 : i64} : !llvm.ptr, i64
// CHECK: llvm.atomicrmw min %{{.*}}, %{{.*}} monotonic {alignment = 8 : i64} : !llvm.ptr, i64
// CHECK: llvm.atomicrmw umax %{{.*}}, %{{.*}} monotonic {alignment = 8 : i64} : !llvm.ptr, i64
tt.func @atomic_rmw_kinds(%p: !tt.ptr<i32>, %v: i32, %q: !tt.ptr<i64>, %w: i64) -> (i32, i32, i32, i32, i64, i64, i64, i64, i64) {
  %a = tt.atomic_rmw max, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  %b = tt.atomic_rmw umin, acquire, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  %c = tt.atomic_rmw exch, release, cta, %p, %v : (!tt.ptr<i32>, i32) -> i32
  %d = tt.atomic_rmw xor, acq_rel, sys, %p, %v : (!tt.ptr<i32>, i32) -> i32
  %e = tt.atomic_rmw add, relaxed, gpu, %q, %w : (!tt.ptr<i64>, i64) -> i64
  %f = tt.atomic_rmw and, relaxed, gpu, %q, %w : (!tt.ptr<i64>, i64) -> i64
  %g = tt.atomic_rmw or, relaxed, gpu, %q, %w : (!tt.ptr<i64>, i64) -> i64
  %h = tt.atomic_rmw min, relaxed, gpu, %q, %w : (!tt.ptr<i64>, i64) -> i64
  %i = tt.atomic_rmw umax, relaxed, gpu, %q, %w : (!tt.ptr<i64>, i64) -> i64
  tt.return %a, %b, %c, %d, %e, %f, %g, %h, %i : i32, i32, i32, i32, i64, i64, i64, i64, i64
}

// CHECK-LABEL: func.func @atomic_cas(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[C:[^:]+]]: i32, %[[V:[^:]+]]: i32
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[P]] : i64 to !llvm.ptr
// CHECK: %[[X:.*]] = llvm.cmpxchg %[[PTR]], %[[C]], %[[V]] acq_rel acquire {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: %[[OLD:.*]] = llvm.extractvalue %[[X]][0] : !llvm.struct<(i32, i1)>
// CHECK: return %[[OLD]] : i32
tt.func @atomic_cas(%p: !tt.ptr<i32>, %c: i32, %v: i32) -> i32 {
  %a = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return %a : i32
}

// Floats are exchanged as integers; a release CAS fails with monotonic.
// CHECK-LABEL: func.func @atomic_cas_f32(
// CHECK: scf.for
// CHECK: %[[CI:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[VI:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[X:.*]] = llvm.cmpxchg %{{.*}}, %[[CI]], %[[VI]] release monotonic {alignment = 4 : i64} : !llvm.ptr, i32
// CHECK: %[[OLD:.*]] = llvm.extractvalue %[[X]][0] : !llvm.struct<(i32, i1)>
// CHECK: %[[F:.*]] = arith.bitcast %[[OLD]] : i32 to f32
// CHECK: tensor.insert %[[F]]
tt.func @atomic_cas_f32(%p: tensor<4x!tt.ptr<f32>>, %c: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<4xf32> {
  %a = tt.atomic_cas release, gpu, %p, %c, %v : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  tt.return %a : tensor<4xf32>
}
