// RUN: refcpu-opt %s --refcpu-matmul-to-runtime --canonicalize | FileCheck %s
// RUN: refcpu-opt %s --refcpu-matmul-to-runtime | FileCheck %s --check-prefix=RAW
// A product marked refcpu.shared_operands passes REFCPU_RT_SHARED_A (1)
// and REFCPU_RT_SHARED_B (2) for the operands that view global memory (a
// memref the conversion built from an LLVM pointer) rather than a buffer of
// the program (alloc, alloca). Where an scf.if chooses between the two, it
// is extended to yield which one it chose.

// A views global memory, B is a buffer: 1.
// CHECK-LABEL: func.func @global_a
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: call @refcpu_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]])
func.func @global_a(%address: i64, %c: memref<16x16xf32>) {
  %u = ub.poison : !llvm.struct<(ptr, ptr, i64)>
  %p = llvm.inttoptr %address : i64 to !llvm.ptr
  %d0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, ptr, i64)>
  %d1 = llvm.insertvalue %p, %d0[1] : !llvm.struct<(ptr, ptr, i64)>
  %base = builtin.unrealized_conversion_cast %d1 : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
  %a = memref.reinterpret_cast %base to offset: [0], sizes: [16, 16], strides: [16, 1] : memref<f32> to memref<16x16xf32>
  %b = memref.alloca() : memref<16x16xf32>
  linalg.matmul {refcpu.shared_operands} ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  return
}

// B is the view in one branch and a copy in the other: the scf.if yields
// an i1 that says which, and the product passes 2 or 0.
// RAW-LABEL: func.func @view_or_copy
// RAW: %[[B:.*]]:2 = scf.if %{{.*}} -> (memref<16x16xf32, strided<[?, 1]>>, i1) {
// RAW:   %[[IN:.*]] = arith.constant true
// RAW:   scf.yield %{{.*}}, %[[IN]]
// RAW: } else {
// RAW:   memref.alloc
// RAW:   %[[OUT:.*]] = arith.constant false
// RAW:   scf.yield %{{.*}}, %[[OUT]]
// RAW: }
// RAW: %[[S:.*]] = arith.select %[[B]]#1, %{{.*}}, %{{.*}} : i32
// RAW: %[[FLAGS:.*]] = arith.ori %{{.*}}, %[[S]] : i32
// RAW: call @refcpu_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[FLAGS]])
// Folded, the flag is the branch condition.
// CHECK-LABEL: func.func @view_or_copy(
// CHECK-SAME: %[[ARG:[^:]*]]: i1
// CHECK: %[[S:.*]] = arith.select %[[ARG]], %c2_i32, %c0_i32 : i32
// CHECK: call @refcpu_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[S]])
func.func @view_or_copy(%address: i64, %stride: index, %inside: i1, %a: memref<16x16xf32>, %c: memref<16x16xf32>) {
  %u = ub.poison : !llvm.struct<(ptr, ptr, i64)>
  %p = llvm.inttoptr %address : i64 to !llvm.ptr
  %d0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, ptr, i64)>
  %d1 = llvm.insertvalue %p, %d0[1] : !llvm.struct<(ptr, ptr, i64)>
  %base = builtin.unrealized_conversion_cast %d1 : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
  %b = scf.if %inside -> (memref<16x16xf32, strided<[?, 1]>>) {
    %view = memref.reinterpret_cast %base to offset: [0], sizes: [16, 16], strides: [%stride, 1] : memref<f32> to memref<16x16xf32, strided<[?, 1]>>
    scf.yield %view : memref<16x16xf32, strided<[?, 1]>>
  } else {
    %copy = memref.alloc() : memref<16x16xf32>
    %cast = memref.cast %copy : memref<16x16xf32> to memref<16x16xf32, strided<[?, 1]>>
    scf.yield %cast : memref<16x16xf32, strided<[?, 1]>>
  }
  linalg.matmul {refcpu.shared_operands} ins(%a, %b : memref<16x16xf32>, memref<16x16xf32, strided<[?, 1]>>) outs(%c : memref<16x16xf32>)
  return
}

// Unmarked, a view of global memory is not shared.
// CHECK-LABEL: func.func @unmarked
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: call @refcpu_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]])
func.func @unmarked(%address: i64, %c: memref<16x16xf32>) {
  %u = ub.poison : !llvm.struct<(ptr, ptr, i64)>
  %p = llvm.inttoptr %address : i64 to !llvm.ptr
  %d0 = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr, ptr, i64)>
  %d1 = llvm.insertvalue %p, %d0[1] : !llvm.struct<(ptr, ptr, i64)>
  %base = builtin.unrealized_conversion_cast %d1 : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
  %a = memref.reinterpret_cast %base to offset: [0], sizes: [16, 16], strides: [16, 1] : memref<f32> to memref<16x16xf32>
  linalg.matmul ins(%a, %a : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  return
}
