// RUN: refcpu-opt %s --refcpu-triton-to-linalg='read-in-place=true' | FileCheck %s
// A dot whose operands' masks bound K by the same value, both padded with
// zero (Triton's masked K loop: `offs_k < K - k * BLOCK_K`, other=0), stops
// at that bound: each lane past it would add 0 * 0. Its loads leave those
// lanes unread, so a block that only the K bound cuts is read in place, no
// copy (refcpu/Analysis/TrimmedK.h).

// A's columns and B's rows below k; A has no `other` (read as zero).
// CHECK-LABEL: func.func @trimmed(
// CHECK-SAME: %{{[^:]+}}: i64, %{{[^:]+}}: i64, %[[K:[^:]+]]: i32
// CHECK-NOT: refcpu_rt_copy_box(
// CHECK-NOT: scf.if
// CHECK: %[[A:.*]] = bufferization.to_tensor %{{.*}} restrict : memref<16x16xf32, strided<[16, 1]>> to tensor<16x16xf32>
// CHECK: %[[B:.*]] = bufferization.to_tensor %{{.*}} restrict : memref<16x16xf32, strided<[16, 1]>> to tensor<16x16xf32>
// CHECK: %[[K64:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK: %[[UPPER:.*]] = arith.minsi %[[K64]], %{{.*}} : i64
// CHECK: %[[LANES:.*]] = arith.maxsi %[[UPPER]], %{{.*}} : i64
// CHECK: %[[N:.*]] = arith.index_cast %[[LANES]] : i64 to index
// CHECK: %[[AS:.*]] = tensor.extract_slice %[[A]][0, 0] [16, %[[N]]] [1, 1] : tensor<16x16xf32> to tensor<16x?xf32>
// CHECK: %[[BS:.*]] = tensor.extract_slice %[[B]][0, 0] [%[[N]], 16] [1, 1] : tensor<16x16xf32> to tensor<?x16xf32>
// CHECK: linalg.matmul {{.*}}ins(%[[AS]], %[[BS]] : tensor<16x?xf32>, tensor<?x16xf32>)
tt.func @trimmed(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %k: i32, %k2: i32) -> (tensor<16x16xf32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ka = tt.splat %k : i32 -> tensor<1x16xi32>
  %ma = arith.cmpi slt, %cols, %ka : tensor<1x16xi32>
  %mask_a = tt.broadcast %ma : tensor<1x16xi1> -> tensor<16x16xi1>
  %kb = tt.splat %k : i32 -> tensor<16x1xi32>
  %mb = arith.cmpi slt, %rows, %kb : tensor<16x1xi32>
  %mask_b = tt.broadcast %mb : tensor<16x1xi1> -> tensor<16x16xi1>
  %va = tt.load %ptrs_a, %mask_a : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %vb = tt.load %ptrs_b, %mask_b, %zero : tensor<16x16x!tt.ptr<f32>>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}


// B's mask also holds a uniform flag: where it fails, the whole block reads
// zero, which empties its columns (hi_1 = 0), not its rows: rows past k are
// left unread, and a block cut in columns is copied and padded.
// CHECK-LABEL: func.func @trimmed_under_flag(
// CHECK-SAME: %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i32, %[[FLAG:[^:]+]]: i1
// CHECK: %[[COLS:.*]] = arith.select %[[FLAG]], %{{.*}}, %{{.*}} : i64
// CHECK: %[[B:.*]] = scf.if
// CHECK: llvm.call @refcpu_rt_copy_box({{.*}}, %[[COLS]], %{{.*}})
// CHECK: tensor.extract_slice %[[B]][0, 0] [%{{.*}}, 16] [1, 1] : tensor<16x16xf32> to tensor<?x16xf32>
tt.func @trimmed_under_flag(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %k: i32, %flag: i1) -> (tensor<16x16xf32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ka = tt.splat %k : i32 -> tensor<1x16xi32>
  %ma = arith.cmpi slt, %cols, %ka : tensor<1x16xi32>
  %mask_a = tt.broadcast %ma : tensor<1x16xi1> -> tensor<16x16xi1>
  %kb = tt.splat %k : i32 -> tensor<16x1xi32>
  %mb = arith.cmpi slt, %rows, %kb : tensor<16x1xi32>
  %mbb = tt.broadcast %mb : tensor<16x1xi1> -> tensor<16x16xi1>
  %flags = tt.splat %flag : i1 -> tensor<16x16xi1>
  %mask_b = arith.andi %mbb, %flags : tensor<16x16xi1>
  %va = tt.load %ptrs_a, %mask_a : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %vb = tt.load %ptrs_b, %mask_b, %zero : tensor<16x16x!tt.ptr<f32>>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// A's lanes past k read 1.0, not zero: K is kept (only zero padding on both
// sides is trimmed).
// CHECK-LABEL: func.func @padded_with_one(
// CHECK: refcpu_rt_copy_box(
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
tt.func @padded_with_one(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %k: i32, %k2: i32) -> (tensor<16x16xf32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ka = tt.splat %k : i32 -> tensor<1x16xi32>
  %ma = arith.cmpi slt, %cols, %ka : tensor<1x16xi32>
  %mask_a = tt.broadcast %ma : tensor<1x16xi1> -> tensor<16x16xi1>
  %kb = tt.splat %k : i32 -> tensor<16x1xi32>
  %mb = arith.cmpi slt, %rows, %kb : tensor<16x1xi32>
  %mask_b = tt.broadcast %mb : tensor<16x1xi1> -> tensor<16x16xi1>
  %other = arith.constant dense<1.000000e+00> : tensor<16x16xf32>
  %va = tt.load %ptrs_a, %mask_a, %other : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %vb = tt.load %ptrs_b, %mask_b, %zero : tensor<16x16x!tt.ptr<f32>>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// A and B are bounded by different values: the products in between are kept.
// CHECK-LABEL: func.func @two_bounds(
// CHECK: refcpu_rt_copy_box(
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
tt.func @two_bounds(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %k: i32, %k2: i32) -> (tensor<16x16xf32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ka = tt.splat %k : i32 -> tensor<1x16xi32>
  %ma = arith.cmpi slt, %cols, %ka : tensor<1x16xi32>
  %mask_a = tt.broadcast %ma : tensor<1x16xi1> -> tensor<16x16xi1>
  %kb = tt.splat %k2 : i32 -> tensor<16x1xi32>
  %mb = arith.cmpi slt, %rows, %kb : tensor<16x1xi32>
  %mask_b = tt.broadcast %mb : tensor<16x1xi1> -> tensor<16x16xi1>
  %va = tt.load %ptrs_a, %mask_a : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %vb = tt.load %ptrs_b, %mask_b, %zero : tensor<16x16x!tt.ptr<f32>>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// A is returned too, so its lanes past k are read: padded, and K is kept.
// CHECK-LABEL: func.func @operand_also_returned(
// CHECK: refcpu_rt_copy_box(
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
tt.func @operand_also_returned(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %k: i32, %k2: i32) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ka = tt.splat %k : i32 -> tensor<1x16xi32>
  %ma = arith.cmpi slt, %cols, %ka : tensor<1x16xi32>
  %mask_a = tt.broadcast %ma : tensor<1x16xi1> -> tensor<16x16xi1>
  %kb = tt.splat %k : i32 -> tensor<16x1xi32>
  %mb = arith.cmpi slt, %rows, %kb : tensor<16x1xi32>
  %mask_b = tt.broadcast %mb : tensor<16x1xi1> -> tensor<16x16xi1>
  %va = tt.load %ptrs_a, %mask_a : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %vb = tt.load %ptrs_b, %mask_b, %zero : tensor<16x16x!tt.ptr<f32>>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return %d, %va : tensor<16x16xf32>, tensor<16x16xf32>
}
