// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// Pointers whose pointee is itself a pointer (tl.pointer_type of a pointer
// type): a pointer is an 8-byte i64 address when loaded, swapped or stepped.

// CHECK-LABEL: func.func @load_pointer(
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> i64
tt.func @load_pointer(%p: tensor<4x!tt.ptr<!tt.ptr<f32>>>) -> tensor<4x!tt.ptr<f32>> {
  %v = tt.load %p : tensor<4x!tt.ptr<!tt.ptr<f32>>>
  tt.return %v : tensor<4x!tt.ptr<f32>>
}

// CHECK-LABEL: func.func @addptr_pointer(
// CHECK: %[[SIZE:.*]] = arith.constant 8 : i64
// CHECK: arith.muli %{{.*}}, %[[SIZE]] : i64
tt.func @addptr_pointer(%p: !tt.ptr<!tt.ptr<f32>>, %i: i32) -> !tt.ptr<!tt.ptr<f32>> {
  %q = tt.addptr %p, %i : !tt.ptr<!tt.ptr<f32>>, i32
  tt.return %q : !tt.ptr<!tt.ptr<f32>>
}

// CHECK-LABEL: func.func @atomic_cas_pointer(
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} acq_rel acquire {alignment = 8 : i64} : !llvm.ptr, i64
tt.func @atomic_cas_pointer(%p: !tt.ptr<!tt.ptr<f32>>, %c: !tt.ptr<f32>, %v: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %a = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<!tt.ptr<f32>>, !tt.ptr<f32>, !tt.ptr<f32>) -> !tt.ptr<f32>
  tt.return %a : !tt.ptr<f32>
}
