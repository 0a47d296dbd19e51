// RUN: refcpu-opt %s --refcpu-triton-to-linalg='read-in-place=true' | FileCheck %s
// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s --check-prefix=COPY
// With read-in-place, a load whose only uses are elementwise arith/math ops
// and the tt.dot, tt.reduce, tt.scan and tt.store of their results, with
// nothing that may write memory before the last op that reads it, reads a
// block that is wholly in bounds through its view (a non-writable
// bufferization.to_tensor of it) and copies only a partial block. Any other
// load, and every load without the option, copies.

// The two operands of a dot: each an scf.if that copies a partial block (a
// call of the runtime's padded copy) and otherwise yields the view itself
// (inside the guard on the run-time stride's sign). The copy is cast to the
// view's layout, so that both branches bufferize to one buffer type with
// its unit stride.
// CHECK-LABEL: func.func @dot_operands(
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [16, 16], strides: [%{{.*}}, 1]
// CHECK: scf.if %{{.*}} -> (tensor<16x16xf32>) {
// CHECK:   %[[ALLOC:.*]] = memref.alloc() : memref<16x16xf32>
// CHECK:   %[[BUF:.*]] = memref.cast %[[ALLOC]] : memref<16x16xf32> to memref<16x16xf32, strided<[?, 1]>>
// CHECK:   llvm.call @refcpu_rt_copy_box(
// CHECK:   %[[COPIED:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
// CHECK:   scf.yield %[[COPIED]]
// CHECK: } else {
// CHECK:   %[[IN:.*]] = bufferization.to_tensor %[[VIEW]] restrict : memref<16x16xf32, strided<[?, 1]>> to tensor<16x16xf32>
// CHECK:   scf.yield %[[IN]]
// CHECK: }
// CHECK: bufferization.to_tensor %{{.*}} restrict :
// CHECK: linalg.matmul
// COPY-LABEL: func.func @dot_operands(
// COPY-NOT: to_tensor %{{.*}} restrict :
// COPY: linalg.matmul
tt.func @dot_operands(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %n: i32, %stride: i32) -> tensor<16x16xf32> {
  %r_a = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows_a = tt.expand_dims %r_a {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols_a = tt.expand_dims %r_a {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ss_a = tt.splat %stride : i32 -> tensor<16x1xi32>
  %ro_a = arith.muli %rows_a, %ss_a : tensor<16x1xi32>
  %rb_a = tt.broadcast %ro_a : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb_a = tt.broadcast %cols_a : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_a = arith.addi %rb_a, %cb_a : tensor<16x16xi32>
  %ps_a = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %ps_a, %offs_a : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ns_a = tt.splat %n : i32 -> tensor<16x1xi32>
  %m1_a = arith.cmpi slt, %rows_a, %ns_a : tensor<16x1xi32>
  %mask_a = tt.broadcast %m1_a : tensor<16x1xi1> -> tensor<16x16xi1>
  %r_b = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows_b = tt.expand_dims %r_b {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols_b = tt.expand_dims %r_b {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ss_b = tt.splat %stride : i32 -> tensor<16x1xi32>
  %ro_b = arith.muli %rows_b, %ss_b : tensor<16x1xi32>
  %rb_b = tt.broadcast %ro_b : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb_b = tt.broadcast %cols_b : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_b = arith.addi %rb_b, %cb_b : tensor<16x16xi32>
  %ps_b = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %ps_b, %offs_b : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ns_b = tt.splat %n : i32 -> tensor<16x1xi32>
  %m1_b = arith.cmpi slt, %rows_b, %ns_b : tensor<16x1xi32>
  %mask_b = tt.broadcast %m1_b : tensor<16x1xi1> -> tensor<16x16xi1>
  %va = tt.load %ptrs_a, %mask_a : tensor<16x16x!tt.ptr<f32>>
  %vb = tt.load %ptrs_b, %mask_b : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// A store between the load and its use: the load must copy.
// CHECK-LABEL: func.func @store_before_use(
// CHECK-NOT: to_tensor %{{.*}} restrict :
// CHECK: return
tt.func @store_before_use(%a: !tt.ptr<f32>, %n: i32, %stride: i32) -> tensor<16x16xf32> {
  %r_a = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows_a = tt.expand_dims %r_a {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols_a = tt.expand_dims %r_a {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ss_a = tt.splat %stride : i32 -> tensor<16x1xi32>
  %ro_a = arith.muli %rows_a, %ss_a : tensor<16x1xi32>
  %rb_a = tt.broadcast %ro_a : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb_a = tt.broadcast %cols_a : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_a = arith.addi %rb_a, %cb_a : tensor<16x16xi32>
  %ps_a = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps_a, %offs_a : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ns_a = tt.splat %n : i32 -> tensor<16x1xi32>
  %m1_a = arith.cmpi slt, %rows_a, %ns_a : tensor<16x1xi32>
  %mask = tt.broadcast %m1_a : tensor<16x1xi1> -> tensor<16x16xi1>
  %v = tt.load %ptrs, %mask : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  tt.store %ptrs, %zero, %mask : tensor<16x16x!tt.ptr<f32>>
  %w = arith.addf %v, %v : tensor<16x16xf32>
  tt.return %w : tensor<16x16xf32>
}

// A use that is not a dot or an elementwise op (here the return) copies.
// CHECK-LABEL: func.func @returned(
// CHECK-NOT: to_tensor %{{.*}} restrict :
// CHECK: return
tt.func @returned(%a: !tt.ptr<f32>, %n: i32, %stride: i32) -> tensor<16x16xf32> {
  %r_a = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows_a = tt.expand_dims %r_a {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols_a = tt.expand_dims %r_a {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ss_a = tt.splat %stride : i32 -> tensor<16x1xi32>
  %ro_a = arith.muli %rows_a, %ss_a : tensor<16x1xi32>
  %rb_a = tt.broadcast %ro_a : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb_a = tt.broadcast %cols_a : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_a = arith.addi %rb_a, %cb_a : tensor<16x16xi32>
  %ps_a = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps_a, %offs_a : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ns_a = tt.splat %n : i32 -> tensor<16x1xi32>
  %m1_a = arith.cmpi slt, %rows_a, %ns_a : tensor<16x1xi32>
  %mask = tt.broadcast %m1_a : tensor<16x1xi1> -> tensor<16x16xi1>
  %v = tt.load %ptrs, %mask : tensor<16x16x!tt.ptr<f32>>
  tt.return %v : tensor<16x16xf32>
}

// An elementwise use before a store still copies: refcpu-fuse-elementwise
// may recompute the use inside a consumer after the store.
// CHECK-LABEL: func.func @elementwise_then_store(
// CHECK-NOT: to_tensor %{{.*}} restrict :
// CHECK: return
tt.func @elementwise_then_store(%a: !tt.ptr<f32>, %n: i32, %stride: i32) -> tensor<16x16xf32> {
  %r_a = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows_a = tt.expand_dims %r_a {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols_a = tt.expand_dims %r_a {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ss_a = tt.splat %stride : i32 -> tensor<16x1xi32>
  %ro_a = arith.muli %rows_a, %ss_a : tensor<16x1xi32>
  %rb_a = tt.broadcast %ro_a : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb_a = tt.broadcast %cols_a : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_a = arith.addi %rb_a, %cb_a : tensor<16x16xi32>
  %ps_a = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps_a, %offs_a : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ns_a = tt.splat %n : i32 -> tensor<16x1xi32>
  %m1_a = arith.cmpi slt, %rows_a, %ns_a : tensor<16x1xi32>
  %mask = tt.broadcast %m1_a : tensor<16x1xi1> -> tensor<16x16xi1>
  %v = tt.load %ptrs, %mask : tensor<16x16x!tt.ptr<f32>>
  %w = arith.addf %v, %v : tensor<16x16xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  tt.store %ptrs, %zero, %mask : tensor<16x16x!tt.ptr<f32>>
  %x = arith.mulf %w, %w : tensor<16x16xf32>
  tt.return %x : tensor<16x16xf32>
}

// A reduction reads its operand where it stands: a store after it does not
// force a copy.
// CHECK-LABEL: func.func @reduce_then_store(
// CHECK: scf.if %{{.*}} -> (tensor<64xf32>) {
// CHECK: } else {
// CHECK:   bufferization.to_tensor %{{.*}} restrict : memref<64xf32, strided<[1]>> to tensor<64xf32>
// CHECK: linalg.reduce
// COPY-LABEL: func.func @reduce_then_store(
// COPY-NOT: to_tensor %{{.*}} restrict :
// COPY: linalg.reduce
tt.func @reduce_then_store(%a: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
  %ps = tt.splat %a : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %sum = arith.addf %x, %y : f32
    tt.reduce.return %sum : f32
  }) : (tensor<64xf32>) -> f32
  tt.store %out, %s : !tt.ptr<f32>
  tt.return
}

// The sum of two loads stored: both read in place, the sum is materialized
// before the store writes (vector_add).
// CHECK-LABEL: func.func @elementwise_stored(
// CHECK-COUNT-2: bufferization.to_tensor %{{.*}} restrict : memref<64xf32, strided<[1]>> to tensor<64xf32>
// COPY-LABEL: func.func @elementwise_stored(
// COPY-NOT: to_tensor %{{.*}} restrict :
// COPY: return
tt.func @elementwise_stored(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %pa2 = tt.addptr %pa, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %pb2 = tt.addptr %pb, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %va = tt.load %pa2, %mask : tensor<64x!tt.ptr<f32>>
  %vb = tt.load %pb2, %mask : tensor<64x!tt.ptr<f32>>
  %sum = arith.addf %va, %vb : tensor<64xf32>
  %po = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %po2 = tt.addptr %po, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %po2, %sum, %mask : tensor<64x!tt.ptr<f32>>
  tt.return
}

// The loaded block itself stored (a copy from view to view, which may
// overlap) and a value computed after a store still copy.
// CHECK-LABEL: func.func @stored_as_loaded(
// CHECK-NOT: to_tensor %{{.*}} restrict :
// CHECK: return
tt.func @stored_as_loaded(%a: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %pa2 = tt.addptr %pa, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %va = tt.load %pa2 : tensor<64x!tt.ptr<f32>>
  %po = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %po2 = tt.addptr %po, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %po2, %va : tensor<64x!tt.ptr<f32>>
  %vb = tt.load %pa2 : tensor<64x!tt.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  tt.store %po2, %one : tensor<64x!tt.ptr<f32>>
  %w = arith.addf %vb, %one : tensor<64xf32>
  tt.store %pa2, %w : tensor<64x!tt.ptr<f32>>
  tt.return
}
