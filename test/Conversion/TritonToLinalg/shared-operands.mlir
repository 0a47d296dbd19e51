// RUN: refcpu-opt %s --refcpu-triton-to-linalg='read-in-place=true' | FileCheck %s
// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s --check-prefix=OFF
// With read-in-place, a tt.dot that no write of its program can precede
// (mayRunAfterWrite: nothing that may write memory before it, in its block
// or an enclosing one, nor anywhere in an enclosing loop) becomes a product
// marked refcpu.shared_operands: what it reads of global memory is the same
// for every program, and the runtime may pack it once per launch.

// A write after the dot leaves it marked, also inside a loop that has none.
// CHECK-LABEL: func.func @writes_after
// CHECK: scf.for
// CHECK:   linalg.matmul {refcpu.shared_operands}
// CHECK: linalg.matmul {refcpu.shared_operands}
// OFF-LABEL: func.func @writes_after
// OFF-NOT: refcpu.shared_operands
tt.func @writes_after(%p: !tt.ptr<f32>, %x: f32, %n: i32) {
  %a = tt.splat %x : f32 -> tensor<16x16xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%c = %a) -> (tensor<16x16xf32>) : i32 {
    %d = tt.dot %a, %a, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %e = tt.dot %acc, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.store %p, %x : !tt.ptr<f32>
  tt.return
}

// A write before the dot, in its block or inside an scf.if before it.
// CHECK-LABEL: func.func @writes_before
// CHECK-NOT: refcpu.shared_operands
// CHECK: linalg.matmul ins
// CHECK: linalg.matmul ins
tt.func @writes_before(%p: !tt.ptr<f32>, %x: f32, %flag: i1) {
  %a = tt.splat %x : f32 -> tensor<16x16xf32>
  tt.store %p, %x : !tt.ptr<f32>
  %d = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  scf.if %flag {
    %e = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  }
  tt.return
}

// CHECK-LABEL: func.func @write_in_if_before
// CHECK-NOT: refcpu.shared_operands
// CHECK: linalg.matmul ins
tt.func @write_in_if_before(%p: !tt.ptr<f32>, %x: f32, %flag: i1) {
  %a = tt.splat %x : f32 -> tensor<16x16xf32>
  scf.if %flag {
    tt.store %p, %x : !tt.ptr<f32>
  }
  %d = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// A write later in the loop body comes before the next iteration's dot (a
// persistent kernel stores each tile in the loop that computes the next).
// CHECK-LABEL: func.func @write_later_in_loop
// CHECK-NOT: refcpu.shared_operands
// CHECK: linalg.matmul ins
tt.func @write_later_in_loop(%p: !tt.ptr<f32>, %x: f32, %n: i32) {
  %a = tt.splat %x : f32 -> tensor<16x16xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %d = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    tt.store %p, %x : !tt.ptr<f32>
  }
  tt.return
}

// An atomic is a write.
// CHECK-LABEL: func.func @atomic_before
// CHECK-NOT: refcpu.shared_operands
// CHECK: linalg.matmul ins
tt.func @atomic_before(%p: !tt.ptr<f32>, %x: f32) {
  %a = tt.splat %x : f32 -> tensor<16x16xf32>
  %old = tt.atomic_rmw fadd, relaxed, gpu, %p, %x : (!tt.ptr<f32>, f32) -> f32
  %d = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// A function that is not a kernel may be called after its caller wrote
// memory; so may a kernel that another function calls.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: refcpu.shared_operands
// CHECK: linalg.matmul ins
tt.func private @helper(%x: f32) attributes {noinline = true} {
  %a = tt.splat %x : f32 -> tensor<16x16xf32>
  %d = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// CHECK-LABEL: func.func @called_kernel
// CHECK-NOT: refcpu.shared_operands
// CHECK: linalg.matmul ins
tt.func public @called_kernel(%x: f32) {
  %a = tt.splat %x : f32 -> tensor<16x16xf32>
  %d = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// CHECK-LABEL: func.func @caller
tt.func public @caller(%p: !tt.ptr<f32>, %x: f32) {
  tt.store %p, %x : !tt.ptr<f32>
  tt.call @helper(%x) : (f32) -> ()
  tt.call @called_kernel(%x) : (f32) -> ()
  tt.return
}
