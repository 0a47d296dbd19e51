// RUN: refcpu-opt %s --refcpu-matmul-to-runtime | FileCheck %s
// An accumulator filled with zeros for a loop's products alone is filled
// only where needed: a flag in the frame, set at the fill, makes the first
// product that runs store its result (REFCPU_RT_ZERO_C, 4), and the fill
// runs after the loop where no product ran.

// The product writes the whole buffer.
// CHECK-LABEL: func.func @whole
// CHECK: %[[FLAG:.*]] = memref.alloca() : memref<i1>
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<16x16xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: memref.store %[[TRUE]], %[[FLAG]][]
// CHECK: scf.for
// CHECK:   %[[SET:.*]] = memref.load %[[FLAG]][]
// CHECK-NOT: scf.if
// CHECK:   %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK:   %[[ZERO_C:.*]] = arith.select %[[SET]], %[[FOUR]], %{{.*}} : i32
// CHECK:   %[[FLAGS:.*]] = arith.ori %{{.*}}, %[[ZERO_C]] : i32
// CHECK:   call @refcpu_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[FLAGS]])
// CHECK:   %[[FALSE:.*]] = arith.constant false
// CHECK:   memref.store %[[FALSE]], %[[FLAG]][]
// CHECK: }
// CHECK: %[[UNFILLED:.*]] = memref.load %[[FLAG]][]
// CHECK: scf.if %[[UNFILLED]] {
// CHECK:   linalg.fill ins(%{{.*}} : f32) outs(%[[ACC]] : memref<16x16xf32>)
// CHECK: }
// CHECK: memref.copy %[[ACC]], %arg1
func.func @whole(%a: memref<16x16xf32>, %out: memref<16x16xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %acc = memref.alloca() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<16x16xf32>)
  scf.for %i = %c0 to %n step %c1 {
    linalg.matmul ins(%a, %a : memref<16x16xf32>, memref<16x16xf32>) outs(%acc : memref<16x16xf32>)
  }
  memref.copy %acc, %out : memref<16x16xf32> to memref<16x16xf32>
  return
}

// The products (two loops, as refcpu-widen-k-loops leaves them) write the
// lanes a store keeps: a subview of the buffer. While the flag is set, one
// that writes less than all of it fills the buffer first. The fill here is
// bufferization's copy of a zero constant.
// CHECK-LABEL: func.func @kept_lanes
// CHECK: %[[FLAG:.*]] = memref.alloca() : memref<i1>
// CHECK: %[[ZEROS:.*]] = memref.get_global @zeros
// CHECK: memref.store %{{.*}}, %[[FLAG]][]
// CHECK: scf.for
// CHECK:   %[[VIEW:.*]] = memref.subview %[[ACC:.*]][0, 0] [%arg2, 16] [1, 1]
// CHECK:   %[[SET:.*]] = memref.load %[[FLAG]][]
// CHECK:   %[[PARTIAL:.*]] = arith.cmpi ne, %arg2, %{{.*}} : index
// CHECK:   %[[FILL:.*]] = arith.andi %[[SET]], %[[PARTIAL]] : i1
// CHECK:   scf.if %[[FILL]] {
// CHECK:     memref.copy %[[ZEROS]], %[[ACC]]
// CHECK:   }
// CHECK:   arith.select %[[SET]]
// CHECK:   call @refcpu_rt_matmul_bf16
// CHECK:   memref.store %{{.*}}, %[[FLAG]][]
// CHECK: scf.for
// CHECK:   memref.load %[[FLAG]][]
// CHECK:   call @refcpu_rt_matmul_bf16
// CHECK:   memref.store %{{.*}}, %[[FLAG]][]
// CHECK: scf.if
// CHECK:   memref.copy %[[ZEROS]], %[[ACC]]
memref.global "private" constant @zeros : memref<16x16xf32> = dense<0.000000e+00>
func.func @kept_lanes(%a: memref<16x16xbf16>, %out: memref<16x16xf32>, %rows: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zeros = memref.get_global @zeros : memref<16x16xf32>
  %acc = memref.alloca() : memref<16x16xf32>
  memref.copy %zeros, %acc : memref<16x16xf32> to memref<16x16xf32>
  scf.for %i = %c0 to %n step %c1 {
    %view = memref.subview %acc[0, 0] [%rows, 16] [1, 1] : memref<16x16xf32> to memref<?x16xf32, strided<[16, 1]>>
    %av = memref.subview %a[0, 0] [%rows, 16] [1, 1] : memref<16x16xbf16> to memref<?x16xbf16, strided<[16, 1]>>
    linalg.matmul ins(%av, %a : memref<?x16xbf16, strided<[16, 1]>>, memref<16x16xbf16>) outs(%view : memref<?x16xf32, strided<[16, 1]>>)
  }
  scf.for %i = %c0 to %n step %c1 {
    %view = memref.subview %acc[0, 0] [%rows, 16] [1, 1] : memref<16x16xf32> to memref<?x16xf32, strided<[16, 1]>>
    %av = memref.subview %a[0, 0] [%rows, 16] [1, 1] : memref<16x16xbf16> to memref<?x16xbf16, strided<[16, 1]>>
    linalg.matmul ins(%av, %a : memref<?x16xbf16, strided<[16, 1]>>, memref<16x16xbf16>) outs(%view : memref<?x16xf32, strided<[16, 1]>>)
  }
  memref.copy %acc, %out : memref<16x16xf32> to memref<16x16xf32>
  return
}

// The buffer is read between the fill and the last product; a fill of -0.0
// is not one the kernels' zero accumulators reproduce; a product into a
// subview off the buffer's origin leaves the rest to other writes. These
// keep their fill and pass no REFCPU_RT_ZERO_C.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: memref<i1>
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: linalg.fill
// CHECK: scf.for
// CHECK: linalg.fill
// CHECK-NOT: arith.select
// CHECK: return
func.func @kept(%a: memref<16x16xf32>, %out: memref<16x16xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  %negative = arith.constant -0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %read = memref.alloca() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%read : memref<16x16xf32>)
  scf.for %i = %c0 to %n step %c1 {
    linalg.matmul ins(%a, %a : memref<16x16xf32>, memref<16x16xf32>) outs(%read : memref<16x16xf32>)
    memref.copy %read, %out : memref<16x16xf32> to memref<16x16xf32>
  }
  %signed = memref.alloca() : memref<16x16xf32>
  linalg.fill ins(%negative : f32) outs(%signed : memref<16x16xf32>)
  scf.for %i = %c0 to %n step %c1 {
    linalg.matmul ins(%a, %a : memref<16x16xf32>, memref<16x16xf32>) outs(%signed : memref<16x16xf32>)
  }
  %offset = memref.alloca() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%offset : memref<16x16xf32>)
  %view = memref.subview %offset[8, 0] [8, 16] [1, 1] : memref<16x16xf32> to memref<8x16xf32, strided<[16, 1], offset: 128>>
  %half = memref.subview %a[0, 0] [8, 16] [1, 1] : memref<16x16xf32> to memref<8x16xf32, strided<[16, 1]>>
  linalg.matmul ins(%half, %a : memref<8x16xf32, strided<[16, 1]>>, memref<16x16xf32>) outs(%view : memref<8x16xf32, strided<[16, 1], offset: 128>>)
  memref.copy %signed, %out : memref<16x16xf32> to memref<16x16xf32>
  memref.copy %offset, %out : memref<16x16xf32> to memref<16x16xf32>
  return
}

// The buffer is read between the fill and the product through an alias that
// an scf.if made before the fill: the fill stays.
// CHECK-LABEL: func.func @aliased
// CHECK-NOT: memref<i1>
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @refcpu_rt_matmul_f32
func.func @aliased(%a: memref<16x16xf32>, %out: memref<16x16xf32>, %c: i1) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloca() : memref<16x16xf32>
  %alias = scf.if %c -> memref<16x16xf32> {
    scf.yield %acc : memref<16x16xf32>
  } else {
    scf.yield %out : memref<16x16xf32>
  }
  linalg.fill ins(%zero : f32) outs(%acc : memref<16x16xf32>)
  memref.copy %alias, %out : memref<16x16xf32> to memref<16x16xf32>
  linalg.matmul ins(%a, %a : memref<16x16xf32>, memref<16x16xf32>) outs(%acc : memref<16x16xf32>)
  return
}
