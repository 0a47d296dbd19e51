// RUN: refcpu-opt %s --refcpu-triton-to-linalg='read-in-place=true' | FileCheck %s
// A dot whose result reaches memory only through one masked tt.store, lane
// for lane, computes only the rows and columns below that store's bounds:
// no other lane is ever stored (KeptLanes, refcpu/Analysis/TrimmedK.h).
// Its operand loads that only it reads leave A's rows (B's columns) past
// the bound unread: a block cut only there is read in place, and where the
// rows' index wraps (Triton's tutorial matmul takes `% M`), only the rows
// read must stay unwrapped for the in-place view.

// Rows taken `% m`, stored where the unwrapped row is below m: the view is
// exact when the first row's index is >= 0 and the last one below the
// store's bound (m - 16 * pid, clamped to the block) is below m, which holds
// for every program; the dot takes that many rows of A and of the
// accumulator.
// CHECK-LABEL: func.func @kept_wrapped(
// CHECK-SAME: %{{[^:]+}}: i64, %{{[^:]+}}: i64, %{{[^:]+}}: i64, %[[M:[^:]+]]: i32
// CHECK: %[[CLAMPED:.*]] = arith.minsi %[[BOUND:.*]], %{{.*}} : i64
// CHECK: %[[READ:.*]] = arith.maxsi %[[CLAMPED]], %{{.*}} : i64
// CHECK: %[[LASTLANE:.*]] = arith.subi %[[READ]], %{{.*}} : i64
// CHECK: %[[STEPS:.*]] = arith.muli %[[LASTLANE]], %{{.*}} : i64
// CHECK: %[[LAST:.*]] = arith.addi %[[FIRST:.*]], %[[STEPS]] : i64
// CHECK: %[[FIRST_OK:.*]] = arith.cmpi sge, %[[FIRST]], %{{.*}} : i64
// CHECK: %[[LAST_OK:.*]] = arith.cmpi slt, %[[LAST]], %{{.*}} : i64
// CHECK: %[[EXACT:.*]] = arith.andi %[[FIRST_OK]], %[[LAST_OK]] : i1
// CHECK: %[[A:.*]] = scf.if %[[EXACT]] -> (tensor<16x16xf32>) {
// CHECK-NOT: scf.if
// CHECK: bufferization.to_tensor %{{.*}} restrict : memref<16x16xf32, strided<[16, 1]>>
// CHECK: } else {
// CHECK: llvm.call @refcpu_rt_copy_wrapped({{.*}}, %[[BOUND]], {{.*}})
// CHECK: }
// CHECK: %[[ROWS:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[AS:.*]] = tensor.extract_slice %[[A]][0, 0] [%[[ROWS]], 16] [1, 1] : tensor<16x16xf32> to tensor<?x16xf32>
// CHECK: %[[CS:.*]] = tensor.extract_slice %[[ACC:.*]][0, 0] [%[[ROWS]], 16] [1, 1] : tensor<16x16xf32> to tensor<?x16xf32>
// CHECK: %[[P:.*]] = linalg.matmul {{.*}}ins(%[[AS]], %{{.*}} : tensor<?x16xf32>, tensor<16x16xf32>) outs(%[[CS]] : tensor<?x16xf32>)
// CHECK: tensor.insert_slice %[[P]] into %[[ACC]][0, 0] [%[[ROWS]], 16] [1, 1]
tt.func @kept_wrapped(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %m: i32) {
  %c16i = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16i : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs_m = arith.addi %sb, %r : tensor<16xi32>
  %sm = tt.splat %m : i32 -> tensor<16xi32>
  %am = arith.remsi %offs_m, %sm : tensor<16xi32>
  %rows = tt.expand_dims %am {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_a = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs_a : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ro2 = arith.muli %r2, %c16 : tensor<16x1xi32>
  %rb2 = tt.broadcast %ro2 : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_b = arith.addi %rb2, %cb : tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs_b : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %va = tt.load %ptrs_a : tensor<16x16x!tt.ptr<f32>>
  %vb = tt.load %ptrs_b : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %cm = tt.expand_dims %offs_m {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cmo = arith.muli %cm, %c16 : tensor<16x1xi32>
  %cmb = tt.broadcast %cmo : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_c = arith.addi %cmb, %cb : tensor<16x16xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_c = tt.addptr %pc, %offs_c : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %smm = tt.splat %m : i32 -> tensor<16x1xi32>
  %mrow = arith.cmpi slt, %cm, %smm : tensor<16x1xi32>
  %mask = tt.broadcast %mrow : tensor<16x1xi1> -> tensor<16x16xi1>
  tt.store %ptrs_c, %d, %mask : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// The same dot's result is also returned: every lane is seen, the dot
// computes them all, and the wrapped load checks all its rows.
// CHECK-LABEL: func.func @also_returned(
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
tt.func @also_returned(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %m: i32) -> tensor<16x16xf32> {
  %c16i = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16i : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs_m = arith.addi %sb, %r : tensor<16xi32>
  %sm = tt.splat %m : i32 -> tensor<16xi32>
  %am = arith.remsi %offs_m, %sm : tensor<16xi32>
  %rows = tt.expand_dims %am {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_a = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs_a : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ro2 = arith.muli %r2, %c16 : tensor<16x1xi32>
  %rb2 = tt.broadcast %ro2 : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_b = arith.addi %rb2, %cb : tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs_b : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %va = tt.load %ptrs_a : tensor<16x16x!tt.ptr<f32>>
  %vb = tt.load %ptrs_b : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %cm = tt.expand_dims %offs_m {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cmo = arith.muli %cm, %c16 : tensor<16x1xi32>
  %cmb = tt.broadcast %cmo : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_c = arith.addi %cmb, %cb : tensor<16x16xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_c = tt.addptr %pc, %offs_c : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %smm = tt.splat %m : i32 -> tensor<16x1xi32>
  %mrow = arith.cmpi slt, %cm, %smm : tensor<16x1xi32>
  %mask = tt.broadcast %mrow : tensor<16x1xi1> -> tensor<16x16xi1>
  tt.store %ptrs_c, %d, %mask : tensor<16x16x!tt.ptr<f32>>
  tt.return %d : tensor<16x16xf32>
}

// The same, with the pass's own markers already in the input: they are
// dropped, not trusted (their ids mean nothing to this run), and the dot
// computes every lane as above.
// CHECK-LABEL: func.func @input_markers(
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>)
tt.func @input_markers(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %m: i32) -> tensor<16x16xf32> {
  %c16i = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16i : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs_m = arith.addi %sb, %r : tensor<16xi32>
  %sm = tt.splat %m : i32 -> tensor<16xi32>
  %am = arith.remsi %offs_m, %sm : tensor<16xi32>
  %rows = tt.expand_dims %am {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_a = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs_a : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ro2 = arith.muli %r2, %c16 : tensor<16x1xi32>
  %rb2 = tt.broadcast %ro2 : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_b = arith.addi %rb2, %cb : tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs_b : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %va = tt.load %ptrs_a {refcpu.unread_past_store = [0, 0], refcpu.unread_past_bound = [1, 0]} : tensor<16x16x!tt.ptr<f32>>
  %vb = tt.load %ptrs_b {refcpu.unread_past_bound = [0, 0]} : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %d = tt.dot %va, %vb, %zero {refcpu.kept_by_store = 0 : i64} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %cm = tt.expand_dims %offs_m {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cmo = arith.muli %cm, %c16 : tensor<16x1xi32>
  %cmb = tt.broadcast %cmo : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_c = arith.addi %cmb, %cb : tensor<16x16xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_c = tt.addptr %pc, %offs_c : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %smm = tt.splat %m : i32 -> tensor<16x1xi32>
  %mrow = arith.cmpi slt, %cm, %smm : tensor<16x1xi32>
  %mask = tt.broadcast %mrow : tensor<16x1xi1> -> tensor<16x16xi1>
  tt.store %ptrs_c, %d, %mask : tensor<16x16x!tt.ptr<f32>>
  tt.return %d : tensor<16x16xf32>
}

// A's rows masked by the store's bound itself (zero padding): rows past it
// are neither read nor padded, so the block is read in place, no copy.
// CHECK-LABEL: func.func @kept_masked_rows(
// CHECK-NOT: scf.if
// CHECK-NOT: refcpu_rt_copy_box(
// CHECK: %[[A:.*]] = bufferization.to_tensor %{{.*}} restrict : memref<16x16xf32, strided<[16, 1]>>
// CHECK: tensor.extract_slice %[[A]][0, 0] [%{{.*}}, 16] [1, 1] : tensor<16x16xf32> to tensor<?x16xf32>
tt.func @kept_masked_rows(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %m: i32) {
  %c16i = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16i : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs_m = arith.addi %sb, %r : tensor<16xi32>
  %rows = tt.expand_dims %offs_m {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %smm = tt.splat %m : i32 -> tensor<16x1xi32>
  %mrow = arith.cmpi slt, %rows, %smm : tensor<16x1xi32>
  %mask = tt.broadcast %mrow : tensor<16x1xi1> -> tensor<16x16xi1>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %va = tt.load %ptrs_a, %mask, %zero : tensor<16x16x!tt.ptr<f32>>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ro2 = arith.muli %r2, %c16 : tensor<16x1xi32>
  %rb2 = tt.broadcast %ro2 : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_b = arith.addi %rb2, %cb : tensor<16x16xi32>
  %ptrs_b = tt.addptr %pb, %offs_b : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %vb = tt.load %ptrs_b : tensor<16x16x!tt.ptr<f32>>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_c = tt.addptr %pc, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %ptrs_c, %d, %mask : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// A's rows masked by another bound than the store's: the rows between the
// two must read as padding, so the load reads (and pads) them all; the dot
// still stops at the store's bound.
// CHECK-LABEL: func.func @mask_disagrees(
// CHECK: %[[A:.*]] = scf.if
// CHECK: llvm.call @refcpu_rt_copy_box(
// CHECK: tensor.extract_slice %[[A]][0, 0] [%{{.*}}, 16] [1, 1] : tensor<16x16xf32> to tensor<?x16xf32>
tt.func @mask_disagrees(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %m: i32, %m2: i32) {
  %c16i = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16i : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs_m = arith.addi %sb, %r : tensor<16xi32>
  %rows = tt.expand_dims %offs_m {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %smm = tt.splat %m : i32 -> tensor<16x1xi32>
  %mrow = arith.cmpi slt, %rows, %smm : tensor<16x1xi32>
  %mask = tt.broadcast %mrow : tensor<16x1xi1> -> tensor<16x16xi1>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %sm2 = tt.splat %m2 : i32 -> tensor<16x1xi32>
  %arow = arith.cmpi slt, %rows, %sm2 : tensor<16x1xi32>
  %amask = tt.broadcast %arow : tensor<16x1xi1> -> tensor<16x16xi1>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %va = tt.load %ptrs_a, %amask, %zero : tensor<16x16x!tt.ptr<f32>>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ro2 = arith.muli %r2, %c16 : tensor<16x1xi32>
  %rb2 = tt.broadcast %ro2 : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_b = arith.addi %rb2, %cb : tensor<16x16xi32>
  %ptrs_b = tt.addptr %pb, %offs_b : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %vb = tt.load %ptrs_b : tensor<16x16x!tt.ptr<f32>>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_c = tt.addptr %pc, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  tt.store %ptrs_c, %d, %mask : tensor<16x16x!tt.ptr<f32>>
  tt.return
}

// The store's bound moves with the loop around the dot: a row stored in a
// later iteration must hold every earlier one's product, so the dot computes
// all of them.
// CHECK-LABEL: func.func @bound_moves(
// CHECK: scf.for
// CHECK: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : tensor<16x16xf32>, tensor<16x16xf32>) outs(%{{.*}} : tensor<16x16xf32>)
tt.func @bound_moves(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %n: i32) {
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
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_c = tt.addptr %pc, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %va = tt.load %ptrs_a : tensor<16x16x!tt.ptr<f32>>
    %vb = tt.load %ptrs_b : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %va, %vb, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %si = tt.splat %i : i32 -> tensor<16x1xi32>
    %m = arith.cmpi slt, %rows, %si : tensor<16x1xi32>
    %mask = tt.broadcast %m : tensor<16x1xi1> -> tensor<16x16xi1>
    tt.store %ptrs_c, %d, %mask : tensor<16x16x!tt.ptr<f32>>
    scf.yield %d : tensor<16x16xf32>
  }
  tt.return
}

// A volatile load keeps one access per lane, as the kernel wrote it: its
// rows past the store's bound stay read (the wrap is checked over all of
// them), though the dot still computes only the kept rows.
// CHECK-LABEL: func.func @volatile_rows(
// CHECK-NOT: arith.minsi
// CHECK: llvm.load volatile
// CHECK: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<16x16xf32>)
tt.func @volatile_rows(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %m: i32) {
  %c16i = arith.constant 16 : i32
  %pid = tt.get_program_id x : i32
  %base = arith.muli %pid, %c16i : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %sb = tt.splat %base : i32 -> tensor<16xi32>
  %offs_m = arith.addi %sb, %r : tensor<16xi32>
  %sm = tt.splat %m : i32 -> tensor<16xi32>
  %am = arith.remsi %offs_m, %sm : tensor<16xi32>
  %rows = tt.expand_dims %am {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c16 = arith.constant dense<16> : tensor<16x1xi32>
  %ro = arith.muli %rows, %c16 : tensor<16x1xi32>
  %rb = tt.broadcast %ro : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs_a = arith.addi %rb, %cb : tensor<16x16xi32>
  %pa = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_a = tt.addptr %pa, %offs_a : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ro2 = arith.muli %r2, %c16 : tensor<16x1xi32>
  %rb2 = tt.broadcast %ro2 : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_b = arith.addi %rb2, %cb : tensor<16x16xi32>
  %pb = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_b = tt.addptr %pb, %offs_b : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %va = tt.load %ptrs_a {isVolatile = true} : tensor<16x16x!tt.ptr<f32>>
  %vb = tt.load %ptrs_b : tensor<16x16x!tt.ptr<f32>>
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %d = tt.dot %va, %vb, %zero : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %cm = tt.expand_dims %offs_m {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cmo = arith.muli %cm, %c16 : tensor<16x1xi32>
  %cmb = tt.broadcast %cmo : tensor<16x1xi32> -> tensor<16x16xi32>
  %offs_c = arith.addi %cmb, %cb : tensor<16x16xi32>
  %pc = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs_c = tt.addptr %pc, %offs_c : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %smm = tt.splat %m : i32 -> tensor<16x1xi32>
  %mrow = arith.cmpi slt, %cm, %smm : tensor<16x1xi32>
  %mask = tt.broadcast %mrow : tensor<16x1xi1> -> tensor<16x16xi1>
  tt.store %ptrs_c, %d, %mask : tensor<16x16x!tt.ptr<f32>>
  tt.return
}
