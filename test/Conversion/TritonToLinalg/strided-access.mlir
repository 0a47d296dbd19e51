// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// The structured access path. A pointer tensor built as splat(p) plus an
// affine function of the lane indices, with a mask that bounds each lane
// index by scalars, is a strided block: it is read and written through a
// memref view of the memory,
//   memref.reinterpret_cast (first element's address) to the block shape
// and only the in-bounds box (memref.subview) is copied. Everything else
// (gathers, other masks, a non-uniform `other`, negative strides, fp8,
// volatile) keeps the general path: one i64 address (and mask) per lane.

// Vector-add style: offs = pid * 16 + arange(16), mask offs < n, other 1.5.
// The block starts at p + pid * 16 elements; the runtime copies lanes
// i < n - pid * 16 into a buffer and writes `other`'s bits to the rest
// (refcpu_rt_copy_box: a rank-1 block is one matrix of one row of 16).
// CHECK-LABEL: func.func @masked_load(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[N:[^:]+]]: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %[[PID:[^:]+]]: i32
// CHECK: %[[START:.*]] = arith.muli %[[PID]], %{{.*}} : i32
// CHECK: %[[START64:.*]] = arith.extsi %[[START]] : i32 to i64
// CHECK: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[START64]], %[[C4]] : i64
// CHECK: %[[FIRST:.*]] = arith.addi %[[P]], %[[BYTES]] : i64
// CHECK: %[[UNIT:.*]] = arith.constant 1 : i64
// hi = -(start - n)
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[NEGN:.*]] = arith.muli %{{.*}}, %[[N64]] : i64
// CHECK: %[[DIFF:.*]] = arith.addi %{{.*}}, %[[NEGN]] : i64
// CHECK: %[[HI:.*]] = arith.muli %{{.*}}, %[[DIFF]] : i64
// CHECK: %[[OTHER:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<16xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[C16:.*]] = arith.constant 16 : i64
// CHECK: %[[DST:.*]] = llvm.inttoptr
// CHECK: %[[SRC:.*]] = llvm.inttoptr %[[FIRST]] : i64 to !llvm.ptr
// CHECK: %[[ESIZE:.*]] = arith.constant 4 : i64
// CHECK: %[[BITS32:.*]] = arith.bitcast %[[OTHER]] : f32 to i32
// CHECK: %[[BITS:.*]] = arith.extui %[[BITS32]] : i32 to i64
// CHECK: llvm.call @refcpu_rt_copy_box(%[[DST]], %[[SRC]], %[[ESIZE]], %[[ONE]], %[[ONE]], %[[C16]], %[[ZERO]], %[[ZERO]], %[[UNIT]], %[[ZERO]], %[[ONE]], %[[ZERO]], %[[ONE]], %[[ZERO]], %[[HI]], %[[BITS]])
// CHECK: %[[R:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<16xf32> to tensor<16xf32>
// CHECK: return %[[R]] : tensor<16xf32>
// CHECK-NOT: llvm.load
tt.func @masked_load(%p: !tt.ptr<f32>, %n: i32) -> tensor<16xf32> {
  %pid = tt.get_program_id x : i32
  %c16 = arith.constant 16 : i32
  %start = arith.muli %pid, %c16 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %s = tt.splat %start : i32 -> tensor<16xi32>
  %offs = arith.addi %s, %r : tensor<16xi32>
  %ns = tt.splat %n : i32 -> tensor<16xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %other = arith.constant dense<1.500000e+00> : tensor<16xf32>
  %v = tt.load %ptrs, %mask, %other : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// An unmasked store copies the whole value into the view: no slice, no
// subview, no per-lane loop.
// CHECK-LABEL: func.func @unmasked_store(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[V:[^:]+]]: tensor<16xi32>
// CHECK: %[[FIRST:.*]] = arith.addi %[[P]], %{{.*}} : i64
// CHECK: llvm.inttoptr %[[FIRST]] : i64 to !llvm.ptr
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [16], strides: [1] : memref<i32> to memref<16xi32, strided<[1]>>
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: memref.subview
// CHECK: %[[SRC:.*]] = bufferization.to_buffer %[[V]] read_only : tensor<16xi32> to memref<16xi32, strided<[?], offset: ?>>
// CHECK: linalg.copy ins(%[[SRC]] : memref<16xi32, strided<[?], offset: ?>>) outs(%[[VIEW]] : memref<16xi32, strided<[1]>>)
// CHECK-NOT: scf.for
// CHECK-NOT: llvm.store
tt.func @unmasked_store(%p: !tt.ptr<i32>, %v: tensor<16xi32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %ptrs = tt.addptr %ps, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  tt.store %ptrs, %v : tensor<16x!tt.ptr<i32>>
  tt.return
}

// 2-D: p + rm[:, None] * stride + rn[None, :], mask (rm < m) & (rn < n)
// through expand_dims + broadcast. The row stride is a kernel argument, so
// the view is taken only when stride >= 0; a negative stride uses the
// per-lane path, which checks the same row and column bounds.
// CHECK-LABEL: func.func @load_2d(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[STRIDE:[^:]+]]: i32, %[[M:[^:]+]]: i32, %[[N:[^:]+]]: i32
// CHECK: %[[FIRST:.*]] = arith.addi %[[P]], %{{.*}} : i64
// CHECK: %[[S64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
// CHECK: %[[UNIT:.*]] = arith.constant 1 : i64
// CHECK: %[[HI0:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK: %[[HI1:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[GUARD:.*]] = arith.cmpi sge, %[[S64]], %{{.*}} : i64
// CHECK: %[[R:.*]] = scf.if %[[GUARD]] -> (tensor<8x16xf16>) {
// The runtime copies the in-bounds rows [0, m) x columns [0, n) of the
// 8 x 16 block (row stride `stride`) and zeroes the rest: no `other`.
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<8x16xf16>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[C8:.*]] = arith.constant 8 : i64
// CHECK: %[[C16:.*]] = arith.constant 16 : i64
// CHECK: %[[DST:.*]] = llvm.inttoptr
// CHECK: %[[SRC:.*]] = llvm.inttoptr %[[FIRST]] : i64 to !llvm.ptr
// CHECK: %[[ESIZE:.*]] = arith.constant 2 : i64
// CHECK: %[[BITS:.*]] = arith.constant 0 : i64
// CHECK: llvm.call @refcpu_rt_copy_box(%[[DST]], %[[SRC]], %[[ESIZE]], %[[ONE]], %[[C8]], %[[C16]], %[[ZERO]], %[[S64]], %[[UNIT]], %[[ZERO]], %[[ONE]], %[[ZERO]], %[[HI0]], %[[ZERO]], %[[HI1]], %[[BITS]])
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<8x16xf16> to tensor<8x16xf16>
// CHECK: scf.yield %[[T]] : tensor<8x16xf16>
// CHECK: } else {
// CHECK: %[[ADDR:.*]]:2 = linalg.generic
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: arith.muli %[[I]], %[[S64]] : i64
// CHECK: arith.cmpi slt, %[[I]], %[[HI0]] : i64
// CHECK: %[[J:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: arith.cmpi slt, %[[J]], %[[HI1]] : i64
// CHECK: arith.addi %[[FIRST]], %{{.*}} : i64
// CHECK: linalg.generic {{.*}} ins(%[[ADDR]]#0, %[[ADDR]]#1 : tensor<8x16xi64>, tensor<8x16xi1>)
// CHECK: scf.if %{{.*}} -> (f16) {
// The fallback's accesses are marked for refcpu-cold-loops.
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64, refcpu.cold} : !llvm.ptr -> f16
// CHECK: return %[[R]] : tensor<8x16xf16>
tt.func @load_2d(%p: !tt.ptr<f16>, %stride: i32, %m: i32, %n: i32) -> tensor<8x16xf16> {
  %rm = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %rn = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ss = tt.splat %stride : i32 -> tensor<8x1xi32>
  %rows = arith.muli %rm2, %ss : tensor<8x1xi32>
  %rowsb = tt.broadcast %rows : tensor<8x1xi32> -> tensor<8x16xi32>
  %colsb = tt.broadcast %rn2 : tensor<1x16xi32> -> tensor<8x16xi32>
  %offs = arith.addi %rowsb, %colsb : tensor<8x16xi32>
  %ps = tt.splat %p : !tt.ptr<f16> -> tensor<8x16x!tt.ptr<f16>>
  %ptrs = tt.addptr %ps, %offs : tensor<8x16x!tt.ptr<f16>>, tensor<8x16xi32>
  %ms = tt.splat %m : i32 -> tensor<8x1xi32>
  %mrow = arith.cmpi slt, %rm2, %ms : tensor<8x1xi32>
  %ns = tt.splat %n : i32 -> tensor<1x16xi32>
  %mcol = arith.cmpi slt, %rn2, %ns : tensor<1x16xi32>
  %mrowb = tt.broadcast %mrow : tensor<8x1xi1> -> tensor<8x16xi1>
  %mcolb = tt.broadcast %mcol : tensor<1x16xi1> -> tensor<8x16xi1>
  %mask = arith.andi %mrowb, %mcolb : tensor<8x16xi1>
  %v = tt.load %ptrs, %mask : tensor<8x16x!tt.ptr<f16>>
  tt.return %v : tensor<8x16xf16>
}

// A splat i1 mask is all lanes or none: the box is [0, c ? 16 : 0).
// CHECK-LABEL: func.func @uniform_mask(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[C:[^:]+]]: i1, %[[V:[^:]+]]: tensor<16xf32>
// CHECK: %[[C16:.*]] = arith.constant 16 : i64
// CHECK: %[[C0:.*]] = arith.constant 0 : i64
// CHECK: %[[HI:.*]] = arith.select %[[C]], %[[C16]], %[[C0]] : i64
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [16], strides: [1] : memref<f32> to memref<16xf32, strided<[1]>>
// CHECK: arith.minsi %[[HI]], %{{.*}} : i64
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[V]][%[[OFF:[a-z0-9_]+]]] [%[[SIZE:[a-z0-9_]+]]] [1] : tensor<16xf32> to tensor<?xf32>
// CHECK: %[[DST:.*]] = memref.subview %[[VIEW]][%[[OFF]]] [%[[SIZE]]] [1]
// CHECK: %[[SRC:.*]] = bufferization.to_buffer %[[SLICE]] read_only
// CHECK: linalg.copy ins(%[[SRC]] : {{.*}}) outs(%[[DST]] : {{.*}})
// CHECK-NOT: llvm.store
tt.func @uniform_mask(%p: !tt.ptr<f32>, %c: i1, %v: tensor<16xf32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %m = tt.splat %c : i1 -> tensor<16xi1>
  tt.store %ptrs, %v, %m : tensor<16x!tt.ptr<f32>>
  tt.return
}

// A lower bound, offs >= lo: the runtime copies lanes [lo, 16) (it clamps
// lo to the block) and zeroes the rest.
// CHECK-LABEL: func.func @lower_bound(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[LO:[^:]+]]: i32
// CHECK: %[[L:.*]] = arith.extsi %[[LO]] : i32 to i64
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<16xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : i64
// CHECK: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: %[[C16:.*]] = arith.constant 16 : i64
// CHECK: llvm.call @refcpu_rt_copy_box(%{{.*}}, %{{.*}}, %{{.*}}, %[[C1]], %[[C1]], %[[C16]], %[[C0]], %[[C0]], %{{.*}}, %[[C0]], %[[C1]], %[[C0]], %[[C1]], %[[L]], %[[C16]], %{{.*}})
// CHECK-NOT: llvm.load
tt.func @lower_bound(%p: !tt.ptr<f32>, %lo: i32) -> tensor<16xf32> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %los = tt.splat %lo : i32 -> tensor<16xi32>
  %m = arith.cmpi sge, %r, %los : tensor<16xi32>
  %v = tt.load %ptrs, %m : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// A block of rank 3 (a batched matmul's) is copied by the runtime as
// batches x rows x cols: columns [0, n) of every row of both matrices.
// CHECK-LABEL: func.func @masked_load_3d(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[N:[^:]+]]: i32
// CHECK: %[[HI:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2x4x8xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : i64
// CHECK: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: %[[C2:.*]] = arith.constant 2 : i64
// CHECK: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: %[[C8:.*]] = arith.constant 8 : i64
// CHECK: llvm.call @refcpu_rt_copy_box(%{{.*}}, %{{.*}}, %{{.*}}, %[[C2]], %[[C4]], %[[C8]], %{{.*}}, %{{.*}}, %{{.*}}, %[[C0]], %[[C2]], %[[C0]], %[[C4]], %[[C0]], %[[HI]], %{{.*}})
// CHECK-NOT: linalg.copy
// CHECK-NOT: llvm.load
tt.func @masked_load_3d(%p: !tt.ptr<f32>, %n: i32) -> tensor<2x4x8xf32> {
  %ri = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %rj = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %rk = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %i1 = tt.expand_dims %ri {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %i2 = tt.expand_dims %i1 {axis = 2 : i32} : tensor<2x1xi32> -> tensor<2x1x1xi32>
  %j1 = tt.expand_dims %rj {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %j2 = tt.expand_dims %j1 {axis = 2 : i32} : tensor<1x4xi32> -> tensor<1x4x1xi32>
  %k1 = tt.expand_dims %rk {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %k2 = tt.expand_dims %k1 {axis = 0 : i32} : tensor<1x8xi32> -> tensor<1x1x8xi32>
  %c32 = arith.constant dense<32> : tensor<2x1x1xi32>
  %c8 = arith.constant dense<8> : tensor<1x4x1xi32>
  %io = arith.muli %i2, %c32 : tensor<2x1x1xi32>
  %jo = arith.muli %j2, %c8 : tensor<1x4x1xi32>
  %iob = tt.broadcast %io : tensor<2x1x1xi32> -> tensor<2x4x8xi32>
  %job = tt.broadcast %jo : tensor<1x4x1xi32> -> tensor<2x4x8xi32>
  %kb = tt.broadcast %k2 : tensor<1x1x8xi32> -> tensor<2x4x8xi32>
  %ij = arith.addi %iob, %job : tensor<2x4x8xi32>
  %offs = arith.addi %ij, %kb : tensor<2x4x8xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<2x4x8x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<2x4x8x!tt.ptr<f32>>, tensor<2x4x8xi32>
  %ns = tt.splat %n : i32 -> tensor<1x1x8xi32>
  %mk = arith.cmpi slt, %k2, %ns : tensor<1x1x8xi32>
  %m = tt.broadcast %mk : tensor<1x1x8xi1> -> tensor<2x4x8xi1>
  %v = tt.load %ptrs, %m : tensor<2x4x8x!tt.ptr<f32>>
  tt.return %v : tensor<2x4x8xf32>
}

// Blocks of rank 4 have no runtime copy: the buffer is filled with the
// padding where the clamped box [0, 1) x [0, 2) x [0, 4) x [0, clamp(n))
// misses part of it, then the box is copied from the view.
// CHECK-LABEL: func.func @masked_load_4d(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[N:[^:]+]]: i32
// CHECK: %[[HI:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<1x2x4x8xf32>
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1, 2, 4, 8], strides: [{{.*}}, 32, 8, 1]
// CHECK: %[[C0:.*]] = arith.constant 0 : i64
// CHECK: %[[C8:.*]] = arith.constant 8 : i64
// CHECK: %[[A:.*]] = arith.minsi %[[HI]], %[[C8]] : i64
// CHECK: %[[END:.*]] = arith.maxsi %[[A]], %[[C0]] : i64
// CHECK: %[[LEN:.*]] = arith.subi %[[END]], %[[C0]] : i64
// CHECK: %[[PARTIAL:.*]] = arith.cmpi ne, %[[LEN]], %[[C8]] : i64
// CHECK: %[[SIZE:.*]] = arith.index_cast %[[LEN]] : i64 to index
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.if %[[PARTIAL]] {
// CHECK-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[BUF]] : memref<1x2x4x8xf32>)
// CHECK-NEXT: }
// CHECK: %[[SRC:.*]] = memref.subview %[[VIEW]][0, 0, 0, %{{.*}}] [1, 2, 4, %[[SIZE]]] [1, 1, 1, 1]
// CHECK: %[[DST:.*]] = memref.subview %[[BUF]][0, 0, 0, %{{.*}}] [1, 2, 4, %[[SIZE]]] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%[[SRC]] : {{.*}}) outs(%[[DST]] : {{.*}})
// CHECK-NOT: refcpu_rt_copy_box(
// CHECK-NOT: llvm.load
tt.func @masked_load_4d(%p: !tt.ptr<f32>, %n: i32) -> tensor<1x2x4x8xf32> {
  %ri = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %rj = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %rk = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %i1 = tt.expand_dims %ri {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %i2 = tt.expand_dims %i1 {axis = 2 : i32} : tensor<2x1xi32> -> tensor<2x1x1xi32>
  %j1 = tt.expand_dims %rj {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %j2 = tt.expand_dims %j1 {axis = 2 : i32} : tensor<1x4xi32> -> tensor<1x4x1xi32>
  %k1 = tt.expand_dims %rk {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %k2 = tt.expand_dims %k1 {axis = 0 : i32} : tensor<1x8xi32> -> tensor<1x1x8xi32>
  %c32 = arith.constant dense<32> : tensor<2x1x1xi32>
  %c8 = arith.constant dense<8> : tensor<1x4x1xi32>
  %io = arith.muli %i2, %c32 : tensor<2x1x1xi32>
  %jo = arith.muli %j2, %c8 : tensor<1x4x1xi32>
  %iob = tt.broadcast %io : tensor<2x1x1xi32> -> tensor<2x4x8xi32>
  %job = tt.broadcast %jo : tensor<1x4x1xi32> -> tensor<2x4x8xi32>
  %kb = tt.broadcast %k2 : tensor<1x1x8xi32> -> tensor<2x4x8xi32>
  %ij = arith.addi %iob, %job : tensor<2x4x8xi32>
  %offs3 = arith.addi %ij, %kb : tensor<2x4x8xi32>
  %offs = tt.expand_dims %offs3 {axis = 0 : i32} : tensor<2x4x8xi32> -> tensor<1x2x4x8xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1x2x4x8x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<1x2x4x8x!tt.ptr<f32>>, tensor<1x2x4x8xi32>
  %ns = tt.splat %n : i32 -> tensor<1x1x8xi32>
  %mk = arith.cmpi slt, %k2, %ns : tensor<1x1x8xi32>
  %mk4 = tt.expand_dims %mk {axis = 0 : i32} : tensor<1x1x8xi1> -> tensor<1x1x1x8xi1>
  %m = tt.broadcast %mk4 : tensor<1x1x1x8xi1> -> tensor<1x2x4x8xi1>
  %v = tt.load %ptrs, %m : tensor<1x2x4x8x!tt.ptr<f32>>
  tt.return %v : tensor<1x2x4x8xf32>
}

// A gather: the loaded indices are strided (a view), but the pointers built
// from them are not: the second load reads per lane.
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[IDX:[^:]+]]: i64
// CHECK: %[[IFIRST:.*]] = arith.addi %[[IDX]], %{{.*}} : i64
// CHECK: llvm.inttoptr %[[IFIRST]] : i64 to !llvm.ptr
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [16], strides: [1] : memref<i32> to memref<16xi32, strided<[1]>>
// CHECK: %[[I:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<16xi32> to tensor<16xi32>
// CHECK-NOT: memref.reinterpret_cast
// CHECK: %[[PS:.*]] = linalg.fill ins(%[[P]] : i64)
// CHECK: %[[IE:.*]] = arith.extsi %[[I]] : tensor<16xi32> to tensor<16xi64>
// CHECK: %[[IB:.*]] = arith.muli %[[IE]], %{{.*}} : tensor<16xi64>
// CHECK: %[[ADDR:.*]] = arith.addi %[[PS]], %[[IB]] : tensor<16xi64>
// CHECK: linalg.generic {{.*}} ins(%[[ADDR]] : tensor<16xi64>)
// CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NOT: memref.reinterpret_cast
tt.func @gather(%p: !tt.ptr<f32>, %idx: !tt.ptr<i32>) -> tensor<16xf32> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %is = tt.splat %idx : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %iptrs = tt.addptr %is, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  %i = tt.load %iptrs : tensor<16x!tt.ptr<i32>>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %i : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %ptrs : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// offsets = 15 - arange(16): affine with the constant stride -1. A memref
// view may not have a negative stride (its lowering's offset arithmetic is
// nuw), and a constant needs no run-time guard: per-lane addresses
// first + i * -1 * 4, where first = p + 15 * 4.
// CHECK-LABEL: func.func @negative_stride(
// CHECK-SAME: %[[P:[^:]+]]: i64
// CHECK-NOT: memref.reinterpret_cast
// CHECK: %[[C15:.*]] = arith.constant 15 : i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[C15]], %{{.*}} : i64
// CHECK: %[[FIRST:.*]] = arith.addi %[[P]], %[[BYTES]] : i64
// CHECK: %[[CM1:.*]] = arith.constant -1 : i64
// CHECK-NOT: scf.if
// CHECK: %[[ADDR:.*]] = linalg.generic
// CHECK: arith.muli %{{.*}}, %[[CM1]] : i64
// CHECK: arith.addi %[[FIRST]], %{{.*}} : i64
// CHECK: linalg.generic {{.*}} ins(%[[ADDR]] : tensor<16xi64>)
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NOT: memref.reinterpret_cast
tt.func @negative_stride(%p: !tt.ptr<f32>) -> tensor<16xf32> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %c15 = arith.constant dense<15> : tensor<16xi32>
  %rev = arith.subi %c15, %r : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %rev : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %ptrs : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// A non-uniform `other` cannot be a fill value: per-lane, each masked-off
// lane reads its own `other` element.
// CHECK-LABEL: func.func @nonuniform_other(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[N:[^:]+]]: i32, %[[O:[^:]+]]: tensor<16xf32>
// CHECK-NOT: memref.reinterpret_cast
// CHECK: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<16xi32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[M]], %[[O]] : tensor<16xi64>, tensor<16xi1>, tensor<16xf32>)
// CHECK: ^bb0(%{{.*}}: i64, %[[MI:.*]]: i1, %[[OI:.*]]: f32, %{{.*}}: f32):
// CHECK: scf.if %[[MI]] -> (f32) {
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: } else {
// CHECK: scf.yield %[[OI]] : f32
// CHECK-NOT: memref.reinterpret_cast
tt.func @nonuniform_other(%p: !tt.ptr<f32>, %n: i32, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %ns = tt.splat %n : i32 -> tensor<16xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<16xi32>
  %v = tt.load %ptrs, %m, %o : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// A mask that is not a box (every other lane) keeps the per-lane path even
// though the pointers are strided: the mask tensor gates each load.
// CHECK-LABEL: func.func @parity_mask(
// CHECK-NOT: memref.reinterpret_cast
// CHECK: %[[REM:.*]] = arith.remsi %{{.*}}, %{{.*}} : tensor<16xi32>
// CHECK: %[[M:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : tensor<16xi32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[M]] : tensor<16xi64>, tensor<16xi1>)
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NOT: memref.reinterpret_cast
tt.func @parity_mask(%p: !tt.ptr<f32>) -> tensor<16xf32> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %c2 = arith.constant dense<2> : tensor<16xi32>
  %c0 = arith.constant dense<0> : tensor<16xi32>
  %rem = arith.remsi %r, %c2 : tensor<16xi32>
  %m = arith.cmpi eq, %rem, %c0 : tensor<16xi32>
  %v = tt.load %ptrs, %m : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// A volatile load keeps one access per element, as the kernel wrote it.
// CHECK-LABEL: func.func @volatile_load(
// CHECK-NOT: memref.reinterpret_cast
// CHECK: llvm.load volatile %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NOT: memref.reinterpret_cast
tt.func @volatile_load(%p: !tt.ptr<f32>) -> tensor<16xf32> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %ptrs {isVolatile = true} : tensor<16x!tt.ptr<f32>>
  tt.return %v : tensor<16xf32>
}

// fp8 has no LLVM type a memref could hold: per-lane i8 loads, bitcast.
// CHECK-LABEL: func.func @fp8_load(
// CHECK-NOT: memref.reinterpret_cast
// CHECK: %[[B:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: arith.bitcast %[[B]] : i8 to f8E4M3FN
// CHECK-NOT: memref.reinterpret_cast
tt.func @fp8_load(%p: !tt.ptr<f8E4M3FN>) -> tensor<16xf8E4M3FN> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f8E4M3FN> -> tensor<16x!tt.ptr<f8E4M3FN>>
  %ptrs = tt.addptr %ps, %r : tensor<16x!tt.ptr<f8E4M3FN>>, tensor<16xi32>
  %v = tt.load %ptrs : tensor<16x!tt.ptr<f8E4M3FN>>
  tt.return %v : tensor<16xf8E4M3FN>
}

// i1 stays per lane: each bool occupies a byte in memory, while a vectorized
// copy of a memref of i1 would move packed bits.
// CHECK-LABEL: func.func @bool_load(
// CHECK-NOT: memref.reinterpret_cast
// CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i1
// CHECK-NOT: memref.reinterpret_cast
tt.func @bool_load(%p: !tt.ptr<i1>) -> tensor<16xi1> {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<i1> -> tensor<16x!tt.ptr<i1>>
  %ptrs = tt.addptr %ps, %r : tensor<16x!tt.ptr<i1>>, tensor<16xi32>
  %v = tt.load %ptrs : tensor<16x!tt.ptr<i1>>
  tt.return %v : tensor<16xi1>
}

// Offsets wrapped with `% n` are taken as unwrapped while no lane wraps:
// 0 <= pid * 16 and pid * 16 + 15 < n is checked at run time. When it fails,
// the runtime copies the block (refcpu_rt_copy_wrapped: the lanes whose
// index pid * 16 + i has the same quotient by n are a strided block of their
// own): a buffer, its address, the block's base, element size, rows and
// columns (one row here), strides, bounds, the wrapped dimension (the
// columns), index, step, modulus, scale and the padding's bits.
// CHECK-LABEL: func.func @wrapped(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[N:[^:]+]]: i32
// CHECK: %[[LO:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[NONNEG:.*]] = arith.cmpi sge, %[[LO]], %{{.*}} : i64
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[BELOW:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK: %[[EXACT:.*]] = arith.andi %[[NONNEG]], %[[BELOW]] : i1
// CHECK: %[[BASE:.*]] = arith.addi %[[P]], %{{.*}} : i64
// CHECK: scf.if %[[EXACT]] -> (tensor<16xf32>) {
// CHECK: memref.reinterpret_cast
// CHECK: linalg.copy
// CHECK: } else {
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<16xf32>
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[ADDR64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: %[[DST:.*]] = llvm.inttoptr %[[ADDR64]] : i64 to !llvm.ptr
// CHECK: %[[SRC:.*]] = llvm.inttoptr %[[BASE]] : i64 to !llvm.ptr
// CHECK: llvm.call @refcpu_rt_copy_wrapped(%[[DST]], %[[SRC]], %c4_i64{{.*}}, %c1_i64{{.*}}, %c16_i64{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64{{.*}}, %[[LO]], %c1_i64{{.*}}, %[[N64]], %c1_i64{{.*}}, %c0_i64{{.*}})
// CHECK: bufferization.to_tensor %[[BUF]]
// CHECK-NOT: llvm.load
// CHECK: return
tt.func @wrapped(%p: !tt.ptr<f32>, %n: i32) -> tensor<16xf32> {
  %c16 = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs = arith.addi %sb, %r : tensor<16xi32>
  %sn = tt.splat %n : i32 -> tensor<16xi32>
  %w = arith.remsi %offs, %sn : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %w : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %x = tt.load %ptrs : tensor<16x!tt.ptr<f32>>
  tt.return %x : tensor<16xf32>
}

// The tutorial matmul's rows of A: the wrapped dimension is the rows (0),
// whose index moves the address by the row stride (the scale). A stride
// known only at run time may be negative, which no view describes: then
// the load runs per lane.
// CHECK-LABEL: func.func @wrapped_rows(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[N:[^:]+]]: i32, %[[S:[^:]+]]: i32
// CHECK: %[[LO:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[S64:.*]] = arith.extsi %[[S]] : i32 to i64
// CHECK: %[[STRIDE_OK:.*]] = arith.cmpi sge, %[[S64]], %{{.*}} : i64
// CHECK: scf.if %[[STRIDE_OK]] -> (tensor<16x8xf32>) {
// CHECK: scf.if
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [16, 8], strides: [%{{.*}}, 1]
// CHECK: } else {
// CHECK: llvm.call @refcpu_rt_copy_wrapped(%{{.*}}, %{{.*}}, %c4_i64{{.*}}, %c16_i64{{.*}}, %c8_i64{{.*}}, %[[S64]], %c1_i64{{.*}}, %{{.*}}, %c16_i64{{.*}}, %{{.*}}, %c8_i64{{.*}}, %c0_i64{{.*}}, %[[LO]], %c1_i64{{.*}}, %[[N64]], %[[S64]], %c0_i64{{.*}})
// CHECK: } else {
// CHECK: llvm.load
tt.func @wrapped_rows(%p: !tt.ptr<f32>, %n: i32, %stride: i32) -> tensor<16x8xf32> {
  %c16 = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs = arith.addi %sb, %r : tensor<16xi32>
  %sn = tt.splat %n : i32 -> tensor<16xi32>
  %w = arith.remsi %offs, %sn : tensor<16xi32>
  %rows = tt.expand_dims %w {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ss = tt.splat %stride : i32 -> tensor<16x1xi32>
  %roff = arith.muli %rows, %ss : tensor<16x1xi32>
  %rb = tt.broadcast %roff : tensor<16x1xi32> -> tensor<16x8xi32>
  %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %cols = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tt.broadcast %cols : tensor<1x8xi32> -> tensor<16x8xi32>
  %offsets = arith.addi %rb, %cb : tensor<16x8xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offsets : tensor<16x8x!tt.ptr<f32>>, tensor<16x8xi32>
  %x = tt.load %ptrs : tensor<16x8x!tt.ptr<f32>>
  tt.return %x : tensor<16x8xf32>
}

// A wrapped block whose columns a mask bounds: the runtime pads the lanes
// past the bound itself (the padding's bits, 1.5 as f32, are its last
// argument), so the kernel fills nothing before the call.
// CHECK-LABEL: func.func @wrapped_rows_padded(
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[PAD:.*]] = arith.extui %[[BITS]] : i32 to i64
// CHECK: } else {
// CHECK-NOT: linalg.fill
// CHECK: llvm.call @refcpu_rt_copy_wrapped({{.*}}, %[[PAD]])
tt.func @wrapped_rows_padded(%p: !tt.ptr<f32>, %n: i32, %k: i32) -> tensor<16x8xf32> {
  %c16 = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs = arith.addi %sb, %r : tensor<16xi32>
  %sn = tt.splat %n : i32 -> tensor<16xi32>
  %w = arith.remsi %offs, %sn : tensor<16xi32>
  %rows = tt.expand_dims %w {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c8 = arith.constant dense<8> : tensor<16x1xi32>
  %roff = arith.muli %rows, %c8 : tensor<16x1xi32>
  %rb = tt.broadcast %roff : tensor<16x1xi32> -> tensor<16x8xi32>
  %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %cols = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tt.broadcast %cols : tensor<1x8xi32> -> tensor<16x8xi32>
  %offsets = arith.addi %rb, %cb : tensor<16x8xi32>
  %sk = tt.splat %k : i32 -> tensor<1x8xi32>
  %m1 = arith.cmpi slt, %cols, %sk : tensor<1x8xi32>
  %mask = tt.broadcast %m1 : tensor<1x8xi1> -> tensor<16x8xi1>
  %other = arith.constant dense<1.5> : tensor<16x8xf32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offsets : tensor<16x8x!tt.ptr<f32>>, tensor<16x8xi32>
  %x = tt.load %ptrs, %mask, %other : tensor<16x8x!tt.ptr<f32>>
  tt.return %x : tensor<16x8xf32>
}

// Rows and columns both wrapped: no single wrapped dimension to copy
// pieces along, so a failed check runs the load per lane.
// CHECK-LABEL: func.func @wrapped_twice(
// CHECK: scf.if
// CHECK: memref.reinterpret_cast
// CHECK: } else {
// CHECK-NOT: refcpu_rt_copy_wrapped
// CHECK: llvm.load
tt.func @wrapped_twice(%p: !tt.ptr<f32>, %n: i32) -> tensor<16x16xf32> {
  %c16 = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs = arith.addi %sb, %r : tensor<16xi32>
  %sn = tt.splat %n : i32 -> tensor<16xi32>
  %w = arith.remsi %offs, %sn : tensor<16xi32>
  %rows = tt.expand_dims %w {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c16t = arith.constant dense<16> : tensor<16x1xi32>
  %roff = arith.muli %rows, %c16t : tensor<16x1xi32>
  %rb = tt.broadcast %roff : tensor<16x1xi32> -> tensor<16x16xi32>
  %cols = tt.expand_dims %w {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offsets = arith.addi %rb, %cb : tensor<16x16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offsets : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %x = tt.load %ptrs : tensor<16x16x!tt.ptr<f32>>
  tt.return %x : tensor<16x16xf32>
}
