// RUN: refcpu-opt %s --refcpu-matmul-to-runtime | FileCheck %s

// Each builtin is declared once, at the top of the module.
// CHECK-DAG: func.func private @refcpu_rt_matmul_f32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, i32)
// CHECK-DAG: func.func private @refcpu_rt_matmul_bf16(memref<?x?xbf16, strided<[?, ?], offset: ?>>, memref<?x?xbf16, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, i32)

// An f32 product calls the f32 kernel on casts to the dynamic strided type;
// a product not marked refcpu.shared_operands shares no operand.
// CHECK-LABEL: func.func @f32
// CHECK: %[[NONE:.*]] = arith.constant 0 : i32
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<32x16xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[B:.*]] = memref.cast %arg1 : memref<16x8xf32, strided<[1, 16]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[C:.*]] = memref.cast %arg2
// CHECK: call @refcpu_rt_matmul_f32(%[[A]], %[[B]], %[[C]], %[[NONE]])
// CHECK-NOT: linalg.matmul
func.func @f32(%a: memref<32x16xf32>, %b: memref<16x8xf32, strided<[1, 16]>>, %c: memref<32x8xf32>) {
  linalg.matmul ins(%a, %b : memref<32x16xf32>, memref<16x8xf32, strided<[1, 16]>>) outs(%c : memref<32x8xf32>)
  return
}

// bf16 and f16 operands with an f32 accumulator have kernels of their own;
// each builtin is declared once.
// CHECK-LABEL: func.func @half_types
// CHECK: call @refcpu_rt_matmul_bf16
// CHECK: call @refcpu_rt_matmul_f16
// CHECK: call @refcpu_rt_matmul_bf16
func.func @half_types(%a: memref<16x16xbf16>, %h: memref<16x16xf16>, %c: memref<16x16xf32>) {
  linalg.matmul ins(%a, %a : memref<16x16xbf16>, memref<16x16xbf16>) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%h, %h : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%a, %a : memref<16x16xbf16>, memref<16x16xbf16>) outs(%c : memref<16x16xf32>)
  return
}

// A batch product calls the kernel once per batch on rank-reducing subviews.
// CHECK-LABEL: func.func @batch
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c0
// CHECK: scf.for %[[I:.*]] = %c0{{.*}} to %[[N]] step %c1
// CHECK: memref.subview %{{.*}}[%[[I]], 0, 0] [1, %{{.*}}, %{{.*}}] [1, 1, 1] : memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: call @refcpu_rt_matmul_f32
// CHECK-NOT: linalg.batch_matmul
func.func @batch(%a: memref<4x16x32xf32>, %b: memref<4x32x16xf32>, %c: memref<4x16x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x16x32xf32>, memref<4x32x16xf32>) outs(%c : memref<4x16x16xf32>)
  return
}

// Types without a kernel and products on tensors keep their linalg op.
// i8 operands with an i32 accumulator have a kernel.
// CHECK-LABEL: func.func @int8
// CHECK: call @refcpu_rt_matmul_i8
func.func @int8(%a: memref<16x64xi8>, %b: memref<64x16xi8>, %c: memref<16x16xi32>) {
  linalg.matmul ins(%a, %b : memref<16x64xi8>, memref<64x16xi8>) outs(%c : memref<16x16xi32>)
  return
}

// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: call
// CHECK: linalg.matmul ins(%arg0, %arg0 : memref<8x8xf64>
// CHECK: linalg.matmul ins(%arg1, %arg1 : memref<8x8xi8>, memref<8x8xi8>) outs(%arg2 : memref<8x8xi64>)
// CHECK: linalg.matmul ins(%arg3, %arg3 : tensor<8x8xf32>
func.func @unchanged(%d: memref<8x8xf64>, %i: memref<8x8xi8>, %ci: memref<8x8xi64>, %t: tensor<8x8xf32>) -> tensor<8x8xf32> {
  linalg.matmul ins(%d, %d : memref<8x8xf64>, memref<8x8xf64>) outs(%d : memref<8x8xf64>)
  linalg.matmul ins(%i, %i : memref<8x8xi8>, memref<8x8xi8>) outs(%ci : memref<8x8xi64>)
  %r = linalg.matmul ins(%t, %t : tensor<8x8xf32>, tensor<8x8xf32>) outs(%t : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
