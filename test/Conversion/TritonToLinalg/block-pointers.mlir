// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// Block pointers and tensor descriptors are carried as their parts (base,
// shape, strides, then offsets or the NaN-padding flag), through loops too.
// Accesses compute a per-element address and in-bounds mask.

// The block pointer becomes 6 loop-carried values (base, 2 shapes, 2 strides,
// 2 offsets); tt.advance adds to the offsets only.
// CHECK-LABEL: func.func @loop_carried(
// CHECK-SAME: %[[BASE:[^:]+]]: i64, %[[M:[^:]+]]: i64, %[[N:[^:]+]]: i64,
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: scf.for %{{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[B:[a-z0-9_]+]] = %[[BASE]], %[[S0:[a-z0-9_]+]] = %[[M]], %[[S1:[a-z0-9_]+]] = %[[N]], %[[T0:[a-z0-9_]+]] = %[[N]], %[[T1:[a-z0-9_]+]] = %[[C1]], %[[O0:[a-z0-9_]+]] = %[[C0]], %[[O1:[a-z0-9_]+]] = %[[C0]]) -> (tensor<2x4xf32>, i64, i64, i64, i64, i64, i32, i32)
// Only dimension 1 is boundary-checked.
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<2x4xi64>, tensor<2x4xi1>)
// CHECK: %[[I0:.*]] = linalg.index 0 : index
// CHECK: %[[POS0:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: arith.muli %[[POS0]], %[[T0]] : i64
// CHECK-NOT: arith.cmpi {{.*}}%[[POS0]]
// CHECK: %[[I1:.*]] = linalg.index 1 : index
// CHECK: %[[POS1:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: arith.muli %[[POS1]], %[[T1]] : i64
// CHECK: arith.cmpi sge, %[[POS1]], %{{.*}} : i64
// CHECK: arith.cmpi slt, %[[POS1]], %[[S1]] : i64
// CHECK: %[[SIZE:.*]] = arith.constant 4 : i64
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %[[SIZE]] : i64
// CHECK: %[[A:.*]] = arith.addi %[[B]], %[[BYTES]] : i64
// CHECK: linalg.yield %[[A]], %{{.*}} : i64, i1
// padding = zero: masked-off lanes read 0.
// CHECK: linalg.generic {{.*}} ins(%[[ADDR]]#0, %[[ADDR]]#1 : tensor<2x4xi64>, tensor<2x4xi1>)
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: scf.if
// CHECK: llvm.load
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

// Without a boundary check the load is unmasked.
// CHECK-LABEL: func.func @unchecked_load(
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK-NOT: arith.cmpi
// CHECK: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%[[ADDR]]#0 : tensor<4xi64>)
// CHECK-NOT: scf.if
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
tt.func @unchecked_load(%base: !tt.ptr<i32>, %m: i64) -> tensor<4xi32> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %b = tt.make_tensor_ptr %base, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<4xi32>>
  %x = tt.load %b : !tt.ptr<tensor<4xi32>>
  tt.return %x : tensor<4xi32>
}

// padding = nan: masked-off lanes read a NaN-filled `other`.
// CHECK-LABEL: func.func @nan_padding(
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK: %[[NAN:.*]] = arith.constant 0x7E00 : f16
// CHECK: %[[FILL:.*]] = arith.select %{{.*}}, %[[NAN]], %{{.*}} : f16
// CHECK: %[[PAD:.*]] = linalg.fill ins(%[[FILL]] : f16)
// CHECK: linalg.generic {{.*}} ins(%[[ADDR]]#0, %[[ADDR]]#1, %[[PAD]] : tensor<4xi64>, tensor<4xi1>, tensor<4xf16>)
// CHECK: ^bb0(%{{.*}}: i64, %[[MI:.*]]: i1, %[[OI:.*]]: f16, %{{.*}}: f16):
// CHECK: scf.if %[[MI]] -> (f16) {
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr -> f16
// CHECK: } else {
// CHECK: scf.yield %[[OI]] : f16
tt.func @nan_padding(%base: !tt.ptr<f16>, %m: i64) -> tensor<4xf16> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %b = tt.make_tensor_ptr %base, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<4xf16>>
  %x = tt.load %b {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tt.ptr<tensor<4xf16>>
  tt.return %x : tensor<4xf16>
}

// A boundary-checked store skips out-of-bounds lanes.
// CHECK-LABEL: func.func @checked_store(
// CHECK-SAME: %[[BASE:[^:]+]]: i64, %[[M:[^:]+]]: i64, %[[V:[^:]+]]: tensor<4xf32>
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK: arith.cmpi slt, %{{.*}}, %[[M]] : i64
// CHECK: arith.addi %[[BASE]], %{{.*}} : i64
// CHECK: scf.for %[[I:.*]] =
// CHECK-DAG: %[[VI:.*]] = tensor.extract %[[V]][%[[I]]] : tensor<4xf32>
// CHECK-DAG: %[[AI:.*]] = tensor.extract %[[ADDR]]#0[%[[I]]] : tensor<4xi64>
// CHECK-DAG: %[[MI:.*]] = tensor.extract %[[ADDR]]#1[%[[I]]] : tensor<4xi1>
// CHECK: scf.if %[[MI]] {
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[AI]] : i64 to !llvm.ptr
// CHECK: llvm.store %[[VI]], %[[PTR]] {alignment = 4 : i64} : f32, !llvm.ptr
tt.func @checked_store(%base: !tt.ptr<f32>, %m: i64, %v: tensor<4xf32>) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %b = tt.make_tensor_ptr %base, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<4xf32>>
  tt.store %b, %v {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<4xf32>>
  tt.return
}

// Descriptors check every dimension; the i32 shape is sign-extended; the
// loaded 1x8 block is reshaped to the 8-element result.
// CHECK-LABEL: func.func @descriptor_load(
// CHECK-SAME: %[[BASE:[^:]+]]: i64, %[[M:[^:]+]]: i32, %[[N:[^:]+]]: i32, %[[S:[^:]+]]: i64, %[[X:[^:]+]]: i32
// CHECK-DAG: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK-DAG: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK: %[[OFF0:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK: %[[POS0:.*]] = arith.addi %[[OFF0]], %{{.*}} : i64
// CHECK: arith.muli %[[POS0]], %[[S]] : i64
// CHECK: arith.cmpi slt, %[[POS0]], %[[M64]] : i64
// CHECK: arith.cmpi slt, %{{.*}}, %[[N64]] : i64
// CHECK: linalg.yield
// CHECK: %[[BLOCK:.*]] = linalg.generic {{.*}} ins(%[[ADDR]]#0, %[[ADDR]]#1, %{{.*}} : tensor<1x8xi64>, tensor<1x8xi1>, tensor<1x8xf32>)
// CHECK: llvm.load
// CHECK: tensor.collapse_shape %[[BLOCK]] {{\[}}[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
tt.func @descriptor_load(%base: !tt.ptr<f32>, %M: i32, %N: i32, %s: i64, %x: i32) -> tensor<8xf32> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %d = tt.make_tensor_descriptor %base, [%M, %N], [%s, %c1] : !tt.ptr<f32>, !tt.tensordesc<tensor<1x8xf32>>
  %t = tt.descriptor_load %d[%x, %c0] : !tt.tensordesc<tensor<1x8xf32>> -> tensor<8xf32>
  tt.return %t : tensor<8xf32>
}

// CHECK-LABEL: func.func @descriptor_store(
// CHECK-SAME: %[[BASE:[^:]+]]: i64, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i64, %{{[^:]+}}: i32, %[[V:[^:]+]]: tensor<4x4xi16>
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK: %[[SIZE:.*]] = arith.constant 2 : i64
// CHECK: arith.muli %{{.*}}, %[[SIZE]] : i64
// CHECK: arith.addi %[[BASE]], %{{.*}} : i64
// CHECK: scf.for %[[I:.*]] =
// CHECK: scf.for %[[J:.*]] =
// CHECK-DAG: %[[VI:.*]] = tensor.extract %[[V]][%[[I]], %[[J]]] : tensor<4x4xi16>
// CHECK-DAG: %[[MI:.*]] = tensor.extract %[[ADDR]]#1[%[[I]], %[[J]]] : tensor<4x4xi1>
// CHECK: scf.if %[[MI]] {
// CHECK: llvm.store %[[VI]], %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr
tt.func @descriptor_store(%base: !tt.ptr<i16>, %M: i32, %N: i32, %s: i64, %x: i32, %v: tensor<4x4xi16>) {
  %c1 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%M, %N], [%s, %c1] : !tt.ptr<i16>, !tt.tensordesc<tensor<4x4xi16>>
  tt.descriptor_store %d[%x, %x], %v : !tt.tensordesc<tensor<4x4xi16>>, tensor<4x4xi16>
  tt.return
}

// descriptor_reduce: one atomic per in-bounds element.
// CHECK-LABEL: func.func @descriptor_reduce_add(
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

// A select of two block pointers selects each of their parts.
// CHECK-LABEL: func.func @select_block_pointers
// CHECK-COUNT-4: arith.select %arg0
tt.func @select_block_pointers(%c: i1, %p: !tt.ptr<f32>, %n: i64, %o: i32) -> tensor<4xf32> {
  %a = tt.make_tensor_ptr %p, [%n], [%n], [%o] {order = array<i32: 0>} : <tensor<4xf32>>
  %b = tt.advance %a, [%o] : <tensor<4xf32>>
  %s = arith.select %c, %a, %b : !tt.ptr<tensor<4xf32>>
  %x = tt.load %s {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<4xf32>>
  tt.return %x : tensor<4xf32>
}
