// RUN: refcpu-opt %s --refcpu-copies-to-loops | FileCheck %s

// A copy from a buffer of dynamic layout becomes linalg.copy (loops), not a
// call of the generic memrefCopy.
// CHECK-LABEL: func.func @dynamic_layout
// CHECK: linalg.copy ins(%{{.*}} : memref<64xf32, strided<[?], offset: ?>>) outs(%{{.*}} : memref<64xf32>)
// CHECK-NOT: memref.copy
func.func @dynamic_layout(%a: memref<64xf32, strided<[?], offset: ?>>, %b: memref<64xf32>) {
  memref.copy %a, %b : memref<64xf32, strided<[?], offset: ?>> to memref<64xf32>
  return
}

// Strided static layouts that are not contiguous are loops too.
// CHECK-LABEL: func.func @static_strided
// CHECK: linalg.copy
func.func @static_strided(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}

// Copies between contiguous buffers stay memref.copy (memcpy).
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<64xf32> to memref<64xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<4x16xf32, strided<[16, 1], offset: 16>> to memref<4x16xf32>
// CHECK-NOT: linalg.copy
func.func @contiguous(%a: memref<64xf32>, %b: memref<64xf32>,
                      %c: memref<4x16xf32, strided<[16, 1], offset: 16>>, %d: memref<4x16xf32>) {
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  memref.copy %c, %d : memref<4x16xf32, strided<[16, 1], offset: 16>> to memref<4x16xf32>
  return
}
