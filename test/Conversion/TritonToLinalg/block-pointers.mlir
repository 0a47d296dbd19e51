// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// Block pointers and tensor descriptors are carried as their parts (base,
// shape, strides, then offsets or the NaN-padding flag), through loops too.
// Loads and stores are strided blocks: a memref view of the memory
// (memref.reinterpret_cast of the block's first element, with the block's
// strides), copied through the subview of the in-bounds box. The box of a
// checked dimension d is -offset_d <= i_d < shape_d - offset_d, clamped to the
// block; loads fill the buffer with the padding value only when the box
// misses part of the block. A stride known only at run time guards the view
// with `stride >= 0` and keeps the per-lane path (one address and mask per
// element) in the else branch. Gathers, scatters and descriptor_reduce stay
// per-lane.

// The block pointer becomes 6 loop-carried values (base, 2 shapes, 2 strides,
// 2 offsets); tt.advance adds to the offsets only. The strides are loop
// values, hence unknown: both are guarded.
// CHECK-LABEL: func.func @loop_carried(
// CHECK-SAME: %[[BASE:[^:]+]]: i64, %[[M:[^:]+]]: i64, %[[N:[^:]+]]: i64,
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: scf.for %{{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[B:[a-z0-9_]+]] = %[[BASE]], %[[S0:[a-z0-9_]+]] = %[[M]], %[[S1:[a-z0-9_]+]] = %[[N]], %[[T0:[a-z0-9_]+]] = %[[N]], %[[T1:[a-z0-9_]+]] = %[[C1]], %[[O0:[a-z0-9_]+]] = %[[C0]], %[[O1:[a-z0-9_]+]] = %[[C0]]) -> (tensor<2x4xf32>, i64, i64, i64, i64, i64, i32, i32)
// The block starts at base + (off0 * stride0 + off1 * stride1) * 4 bytes.
// CHECK: %[[E0:.*]] = arith.extsi %[[O0]] : i32 to i64
// CHECK: arith.muli %[[E0]], %[[T0]] : i64
// CHECK: %[[E1:.*]] = arith.extsi %[[O1]] : i32 to i64
// CHECK: arith.muli %[[E1]], %[[T1]] : i64
// Only dimension 1 is boundary-checked: it alone gets bounds.
// CHECK-NOT: arith.subi %[[S0]]
// CHECK: %[[LO1:.*]] = arith.subi %{{.*}}, %[[E1]] : i64
// CHECK: %[[HI1:.*]] = arith.subi %[[S1]], %[[E1]] : i64
// CHECK: %[[FIRST:.*]] = arith.addi %[[B]], %{{.*}} : i64
// CHECK: %[[NN0:.*]] = arith.cmpi sge, %[[T0]], %{{.*}} : i64
// CHECK: %[[NN1:.*]] = arith.cmpi sge, %[[T1]], %{{.*}} : i64
// CHECK: %[[GUARD:.*]] = arith.andi %[[NN0]], %[[NN1]] : i1
// CHECK: %[[X:.*]] = scf.if %[[GUARD]] -> (tensor<2x4xf32>) {
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2x4xf32>
// Dimension 0 is copied whole, dimension 1 within [lo1, hi1), which the
// runtime clamps; padding = zero: the rest of the block reads 0.
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[ROWS:.*]] = arith.constant 2 : i64
// CHECK: %[[COLS:.*]] = arith.constant 4 : i64
// CHECK: %[[SRC:.*]] = llvm.inttoptr %[[FIRST]] : i64 to !llvm.ptr
// CHECK: llvm.call @refcpu_rt_copy_box(%{{.*}}, %[[SRC]], %{{.*}}, %[[ONE]], %[[ROWS]], %[[COLS]], %[[ZERO]], %[[T0]], %[[T1]], %[[ZERO]], %[[ONE]], %[[ZERO]], %[[ROWS]], %[[LO1]], %[[HI1]], %{{.*}})
// CHECK: %[[LOADED:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<2x4xf32> to tensor<2x4xf32>
// CHECK: scf.yield %[[LOADED]] : tensor<2x4xf32>
// A negative stride takes the per-lane path; it checks dimension 1 only.
// CHECK: } else {
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<2x4xi64>, tensor<2x4xi1>)
// CHECK: linalg.index 0 : index
// CHECK-NOT: arith.cmpi
// CHECK: linalg.index 1 : index
// CHECK: %[[J:.*]] = arith.index_cast
// CHECK: arith.cmpi sge, %[[J]], %[[LO1]] : i64
// CHECK: arith.cmpi slt, %[[J]], %[[HI1]] : i64
// CHECK: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%[[ADDR]]#0, %[[ADDR]]#1 : tensor<2x4xi64>, tensor<2x4xi1>)
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64, refcpu.cold} : !llvm.ptr -> f32
// CHECK: arith.addf %{{.*}}, %[[X]] : tensor<2x4xf32>
// CHECK: %[[NO0:.*]] = arith.addi %[[O0]], %[[C0]] : i32
// CHECK: %[[NO1:.*]] = arith.addi %[[O1]], %[[C4]] : i32
// CHECK: scf.yield %{{.*}}, %[[B]], %[[S0]], %[[S1]], %[[T0]], %[[T1]], %[[NO0]], %[[NO1]] : tensor<2x4xf32>, i64, i64, i64, i64, i64, i32, i32
tt.func @loop_carried(%base: !tt.ptr<f32>, %m: i64, %n: i64) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c1 = arith.constant 1 : i64
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<2x4xf32>
  %b = tt.make_tensor_ptr %base, [%m, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<2x4xf32>>
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%acc = %zero, %p = %b) -> (tensor<2x4xf32>, !tt.ptr<tensor<2x4xf32>>) {
    %x = tt.load %p {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tt.ptr<tensor<2x4xf32>>
    %s = arith.addf %acc, %x : tensor<2x4xf32>
    %q = tt.advance %p, [%c0, %c4] : <tensor<2x4xf32>>
    scf.yield %s, %q : tensor<2x4xf32>, !tt.ptr<tensor<2x4xf32>>
  }
  tt.return %r#0 : tensor<2x4xf32>
}

// Without a boundary check the whole block is copied: no fill, no subview.
// The stride (1) is a constant, so it is static in the view type and there is
// no guard.
// CHECK-LABEL: func.func @unchecked_load(
// CHECK-NOT: scf.if
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<4xi32>
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [4], strides: [1] : memref<i32> to memref<4xi32, strided<[1]>>
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.subview
// CHECK: linalg.copy ins(%[[VIEW]] : memref<4xi32, strided<[1]>>) outs(%[[BUF]] : memref<4xi32>)
// CHECK-NEXT: %[[T:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<4xi32> to tensor<4xi32>
// CHECK-NEXT: return %[[T]] : tensor<4xi32>
tt.func @unchecked_load(%base: !tt.ptr<i32>, %m: i64) -> tensor<4xi32> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %b = tt.make_tensor_ptr %base, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<4xi32>>
  %x = tt.load %b : !tt.ptr<tensor<4xi32>>
  tt.return %x : tensor<4xi32>
}

// padding = nan: the runtime copies the in-bounds lanes of a block partly
// out of bounds and writes NaN's bits to the others.
// CHECK-LABEL: func.func @nan_padding(
// CHECK-SAME: %{{[^:]+}}: i64, %[[M:[^:]+]]: i64
// CHECK: %[[HI:.*]] = arith.subi %[[M]], %{{.*}} : i64
// CHECK: %[[NAN:.*]] = arith.constant 0x7E00 : f16
// CHECK: %[[FILL:.*]] = arith.select %{{.*}}, %[[NAN]], %{{.*}} : f16
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<4xf16>
// CHECK: %[[BITS16:.*]] = arith.bitcast %[[FILL]] : f16 to i16
// CHECK: %[[BITS:.*]] = arith.extui %[[BITS16]] : i16 to i64
// CHECK: llvm.call @refcpu_rt_copy_box(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[HI]], %[[BITS]])
// The stride is the constant 1: no guard, no per-lane fallback.
// CHECK-NOT: scf.if
// CHECK-NOT: llvm.load
tt.func @nan_padding(%base: !tt.ptr<f16>, %m: i64) -> tensor<4xf16> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %b = tt.make_tensor_ptr %base, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<4xf16>>
  %x = tt.load %b {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<4xf16>>
  tt.return %x : tensor<4xf16>
}

// A boundary-checked store writes only the in-bounds slice of the value.
// CHECK-LABEL: func.func @checked_store(
// CHECK-SAME: %[[BASE:[^:]+]]: i64, %[[M:[^:]+]]: i64, %[[V:[^:]+]]: tensor<4xf32>
// CHECK: %[[HI:.*]] = arith.subi %[[M]], %{{.*}} : i64
// CHECK: %[[FIRST:.*]] = arith.addi %[[BASE]], %{{.*}} : i64
// CHECK: llvm.inttoptr %[[FIRST]] : i64 to !llvm.ptr
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [4], strides: [1] : memref<f32> to memref<4xf32, strided<[1]>>
// CHECK: arith.minsi %[[HI]], %{{.*}} : i64
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[V]][%[[OFF:[a-z0-9_]+]]] [%[[SIZE:[a-z0-9_]+]]] [1] : tensor<4xf32> to tensor<?xf32>
// CHECK: %[[DST:.*]] = memref.subview %[[VIEW]][%[[OFF]]] [%[[SIZE]]] [1] : memref<4xf32, strided<[1]>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK: %[[SRC:.*]] = bufferization.to_buffer %[[SLICE]] read_only : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK: linalg.copy ins(%[[SRC]] : {{.*}}) outs(%[[DST]] : {{.*}})
// CHECK-NOT: llvm.store
tt.func @checked_store(%base: !tt.ptr<f32>, %m: i64, %v: tensor<4xf32>) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %b = tt.make_tensor_ptr %base, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<4xf32>>
  tt.store %b, %v {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<4xf32>>
  tt.return
}

// Descriptors check every dimension; the i32 shape is sign-extended; the
// loaded 1x8 block is reshaped to the 8-element result. The row stride %s is
// only known at run time, but the block has one row: its stride is irrelevant
// (0 in the view) and needs no guard.
// CHECK-LABEL: func.func @descriptor_load(
// CHECK-SAME: %[[BASE:[^:]+]]: i64, %[[M:[^:]+]]: i32, %[[N:[^:]+]]: i32, %[[S:[^:]+]]: i64, %[[X:[^:]+]]: i32
// CHECK-DAG: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK-DAG: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// The descriptor's padding flag is false (zero padding).
// CHECK: %[[ISNAN:.*]] = arith.constant false
// CHECK: %[[OFF0:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK: arith.muli %[[OFF0]], %[[S]] : i64
// CHECK: %[[HI0:.*]] = arith.subi %[[M64]], %[[OFF0]] : i64
// CHECK: %[[HI1:.*]] = arith.subi %[[N64]], %{{.*}} : i64
// CHECK: %[[PAD:.*]] = arith.select %[[ISNAN]], %{{.*}}, %{{.*}} : f32
// CHECK-NOT: scf.if %{{.*}} ->
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<1x8xf32>
// Rows [0, hi0) and columns [lo1, hi1) are copied (the runtime clamps them),
// every other lane of the 1 x 8 block gets the padding's bits.
// CHECK: %[[BITS32:.*]] = arith.bitcast %[[PAD]] : f32 to i32
// CHECK: %[[BITS:.*]] = arith.extui %[[BITS32]] : i32 to i64
// CHECK: llvm.call @refcpu_rt_copy_box(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[HI0]], %{{.*}}, %[[HI1]], %[[BITS]])
// CHECK: %[[BLOCK:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<1x8xf32> to tensor<1x8xf32>
// CHECK: tensor.collapse_shape %[[BLOCK]] {{\[}}[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
// CHECK-NOT: llvm.load
tt.func @descriptor_load(%base: !tt.ptr<f32>, %M: i32, %N: i32, %s: i64, %x: i32) -> tensor<8xf32> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %d = tt.make_tensor_descriptor %base, [%M, %N], [%s, %c1] : !tt.ptr<f32>, !tt.tensordesc<tensor<1x8xf32>>
  %t = tt.descriptor_load %d[%x, %c0] : !tt.tensordesc<tensor<1x8xf32>> -> tensor<8xf32>
  tt.return %t : tensor<8xf32>
}

// A 4x4 block with the run-time row stride %s: the view, with the stride in
// the view type as `?`, is taken when %s >= 0; otherwise one guarded store
// per element.
// CHECK-LABEL: func.func @descriptor_store(
// CHECK-SAME: %[[BASE:[^:]+]]: i64, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %[[S:[^:]+]]: i64, %{{[^:]+}}: i32, %[[V:[^:]+]]: tensor<4x4xi16>
// Element size 2 bytes.
// CHECK: %[[SIZE:.*]] = arith.constant 2 : i64
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %[[SIZE]] : i64
// CHECK: %[[FIRST:.*]] = arith.addi %[[BASE]], %[[BYTES]] : i64
// CHECK: %[[NN:.*]] = arith.cmpi sge, %[[S]], %{{.*}} : i64
// CHECK: scf.if %[[NN]] {
// CHECK: llvm.inttoptr %[[FIRST]] : i64 to !llvm.ptr
// CHECK: %[[IS:.*]] = arith.index_cast %[[S]] : i64 to index
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [4, 4], strides: [%[[IS]], 1] : memref<i16> to memref<4x4xi16, strided<[?, 1]>>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[V]][%[[O0:[a-z0-9_]+]], %[[O1:[a-z0-9_]+]]] [%[[Z0:[a-z0-9_]+]], %[[Z1:[a-z0-9_]+]]] [1, 1] : tensor<4x4xi16> to tensor<?x?xi16>
// CHECK: %[[DST:.*]] = memref.subview %[[VIEW]][%[[O0]], %[[O1]]] [%[[Z0]], %[[Z1]]] [1, 1]
// CHECK: %[[SRC:.*]] = bufferization.to_buffer %[[SLICE]] read_only
// CHECK: linalg.copy ins(%[[SRC]] : {{.*}}) outs(%[[DST]] : {{.*}})
// CHECK: } else {
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK: arith.addi %[[FIRST]], %{{.*}} : i64
// CHECK: scf.for %[[I:.*]] =
// CHECK: scf.for %[[J:.*]] =
// CHECK-DAG: %[[VI:.*]] = tensor.extract %[[V]][%[[I]], %[[J]]] : tensor<4x4xi16>
// CHECK-DAG: %[[MI:.*]] = tensor.extract %[[ADDR]]#1[%[[I]], %[[J]]] : tensor<4x4xi1>
// CHECK: scf.if %[[MI]] {
// CHECK: llvm.store %[[VI]], %{{.*}} {alignment = 2 : i64, refcpu.cold} : i16, !llvm.ptr
tt.func @descriptor_store(%base: !tt.ptr<i16>, %M: i32, %N: i32, %s: i64, %x: i32, %v: tensor<4x4xi16>) {
  %c1 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%M, %N], [%s, %c1] : !tt.ptr<i16>, !tt.tensordesc<tensor<4x4xi16>>
  tt.descriptor_store %d[%x, %x], %v : !tt.tensordesc<tensor<4x4xi16>>, tensor<4x4xi16>
  tt.return
}

// descriptor_reduce: one atomic per in-bounds element, at per-lane
// addresses (no view).
// CHECK-LABEL: func.func @descriptor_reduce_add(
// CHECK-NOT: memref.reinterpret_cast
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK: scf.for
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} acq_rel {alignment = 4 : i64} : !llvm.ptr, f32
tt.func @descriptor_reduce_add(%base: !tt.ptr<f32>, %M: i32, %s: i64, %v: tensor<8xf32>) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %d = tt.make_tensor_descriptor %base, [%M], [%c1] : !tt.ptr<f32>, !tt.tensordesc<tensor<8xf32>>
  tt.descriptor_reduce add, %d[%c0], %v : !tt.tensordesc<tensor<8xf32>>, tensor<8xf32>
  tt.return
}

// A select of two block pointers selects each of their parts; the access
// uses the selected parts (the selected stride guards the view).
// CHECK-LABEL: func.func @select_block_pointers
// CHECK-COUNT-2: arith.select %arg0
// CHECK: %[[STRIDE:.*]] = arith.select %arg0
// CHECK: %[[OFF:.*]] = arith.select %arg0, %{{.*}}, %{{.*}} : i32
// CHECK: arith.extsi %[[OFF]] : i32 to i64
// CHECK: arith.cmpi sge
// CHECK: scf.if
// CHECK: llvm.call @refcpu_rt_copy_box(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[STRIDE]],
tt.func @select_block_pointers(%c: i1, %p: !tt.ptr<f32>, %n: i64, %o: i32) -> tensor<4xf32> {
  %a = tt.make_tensor_ptr %p, [%n], [%n], [%o] {order = array<i32: 0>} : <tensor<4xf32>>
  %b = tt.advance %a, [%o] : <tensor<4xf32>>
  %s = arith.select %c, %a, %b : !tt.ptr<tensor<4xf32>>
  %x = tt.load %s {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<4xf32>>
  tt.return %x : tensor<4xf32>
}
