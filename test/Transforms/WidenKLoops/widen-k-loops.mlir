// RUN: refcpu-opt %s --refcpu-loop-offsets '--refcpu-widen-k-loops=depths=64' | FileCheck %s
// refcpu-widen-k-loops: a K loop of 16-deep blocks, depth 64, becomes a main
// loop over groups of U = 4 iterations that loads 64-deep blocks and makes
// one tt.dot of them, then the original loop for the iterations left.

// Triton's tutorial form: pointers advanced by BK * stride (carried as
// scalar offsets after refcpu-loop-offsets), masks `k < K - i * BK`.
// CHECK-LABEL: tt.func @carried_offsets(
// CHECK-SAME: %[[A:[^:]+]]: !tt.ptr<f32>, %[[B:[^:]+]]: !tt.ptr<f32>, %[[SAM:[^:]+]]: i32, %[[SBK:[^:]+]]: i32, %[[K:[^:]+]]: i32, %[[N:[^:]+]]: i32
// The groups of 4 iterations, none when 64 * |stride_bk| would not fit in
// 31 bits.
// CHECK: arith.subi %[[N]], %{{.*}} : i32
// CHECK: %[[GROUPS:.*]] = arith.divsi %{{.*}}, %[[C4:.*]] : i32
// CHECK: arith.extsi %[[SBK]] : i32 to i64
// CHECK: %[[FITS:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK: %[[G:.*]] = arith.select %[[FITS]], %[[GROUPS]], %{{.*}} : i32
// CHECK: %[[MUL:.*]] = arith.muli %[[G]], %[[C4]] : i32
// CHECK: %[[MAIN:.*]] = arith.addi %{{.*}}, %[[MUL]] : i32
// The loop-invariant part of the wide addresses goes before the loop.
// CHECK: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK: %[[R:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[MAIN]] step %[[C4]] iter_args(
// CHECK-DAG: %[[WA:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64x!tt.ptr<f32>>
// CHECK-DAG: %[[WB:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16x!tt.ptr<f32>>
// CHECK: tt.dot %[[WA]], %[[WB]], %{{.*}} : tensor<16x64xf32> * tensor<64x16xf32> -> tensor<16x16xf32>
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: scf.yield
// The rest, as it was.
// CHECK: scf.for %{{.*}} = %[[MAIN]] to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[R]]#0, %{{.*}} = %[[R]]#1, %{{.*}} = %[[R]]#2)
// CHECK: tt.dot %{{.*}} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
tt.func @carried_offsets(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %sam: i32, %sbk: i32, %K: i32, %n: i32) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %sams = tt.splat %sam : i32 -> tensor<16x1xi32>
  %aoff = arith.muli %rows, %sams : tensor<16x1xi32>
  %aoffb = tt.broadcast %aoff : tensor<16x1xi32> -> tensor<16x16xi32>
  %colsb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %aidx = arith.addi %aoffb, %colsb : tensor<16x16xi32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ap = tt.addptr %as, %aidx : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %sbks = tt.splat %sbk : i32 -> tensor<16x1xi32>
  %boff = arith.muli %rows, %sbks : tensor<16x1xi32>
  %boffb = tt.broadcast %boff : tensor<16x1xi32> -> tensor<16x16xi32>
  %bidx = arith.addi %boffb, %colsb : tensor<16x16xi32>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %bp = tt.addptr %bs, %bidx : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %da = arith.constant dense<16> : tensor<16x16xi32>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %ap, %pb = %bp, %acc = %zero) -> (tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>) : i32 {
    %done = arith.muli %i, %c16 : i32
    %left = arith.subi %K, %done : i32
    %lefta = tt.splat %left : i32 -> tensor<1x16xi32>
    %ma = arith.cmpi slt, %cols, %lefta : tensor<1x16xi32>
    %mab = tt.broadcast %ma : tensor<1x16xi1> -> tensor<16x16xi1>
    %x = tt.load %pa, %mab, %zero : tensor<16x16x!tt.ptr<f32>>
    %leftb = tt.splat %left : i32 -> tensor<16x1xi32>
    %mb = arith.cmpi slt, %rows, %leftb : tensor<16x1xi32>
    %mbb = tt.broadcast %mb : tensor<16x1xi1> -> tensor<16x16xi1>
    %y = tt.load %pb, %mbb, %zero : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %x, %y, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %na = tt.addptr %pa, %da : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %db = arith.muli %sbk, %c16 : i32
    %dbs = tt.splat %db : i32 -> tensor<16x16xi32>
    %nb = tt.addptr %pb, %dbs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    scf.yield %na, %nb, %d : tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>
  }
  tt.return %res#2 : tensor<16x16xf32>
}

// Addresses and masks computed from the induction variable itself
// (`offs_k = k + arange(BK)`, `for k in range(0, K, BK)`): the step is BK.
// CHECK-LABEL: tt.func @induction_variable(
// CHECK: scf.for %{{.*}} step %[[C64:.*]] iter_args(
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x64x!tt.ptr<f32>>
// CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16x!tt.ptr<f32>>
// CHECK: tt.dot %{{.*}} : tensor<16x64xf32> * tensor<64x16xf32> -> tensor<16x16xf32>
// CHECK: scf.for
// CHECK: tt.dot %{{.*}} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
tt.func @induction_variable(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %K: i32) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %Ks = tt.splat %K : i32 -> tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %Kr = tt.splat %K : i32 -> tensor<16x1xi32>
  %arow = arith.muli %rows, %Kr : tensor<16x1xi32>
  %arowb = tt.broadcast %arow : tensor<16x1xi32> -> tensor<16x16xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %colsb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %res = scf.for %k = %c0 to %K step %c16 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %ks = tt.splat %k : i32 -> tensor<16xi32>
    %offk = arith.addi %ks, %r : tensor<16xi32>
    %inK = arith.cmpi slt, %offk, %Ks : tensor<16xi32>
    %kc = tt.expand_dims %offk {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %kcb = tt.broadcast %kc : tensor<1x16xi32> -> tensor<16x16xi32>
    %aidx = arith.addi %arowb, %kcb : tensor<16x16xi32>
    %pa = tt.addptr %as, %aidx : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %mc = tt.expand_dims %inK {axis = 0 : i32} : tensor<16xi1> -> tensor<1x16xi1>
    %mcb = tt.broadcast %mc : tensor<1x16xi1> -> tensor<16x16xi1>
    %x = tt.load %pa, %mcb, %zero : tensor<16x16x!tt.ptr<f32>>
    %kr = tt.expand_dims %offk {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %brow = arith.muli %kr, %Kr : tensor<16x1xi32>
    %browb = tt.broadcast %brow : tensor<16x1xi32> -> tensor<16x16xi32>
    %bidx = arith.addi %browb, %colsb : tensor<16x16xi32>
    %pb = tt.addptr %bs, %bidx : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %mr = tt.expand_dims %inK {axis = 1 : i32} : tensor<16xi1> -> tensor<16x1xi1>
    %mrb = tt.broadcast %mr : tensor<16x1xi1> -> tensor<16x16xi1>
    %y = tt.load %pb, %mrb, %zero : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %x, %y, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  tt.return %res : tensor<16x16xf32>
}

// Loops left alone: the wide blocks would not be the next iterations'.
// CHECK-LABEL: tt.func @left_alone(
// CHECK-NOT: tensor<16x64x
// CHECK-NOT: tensor<64x16x
// CHECK: tt.return
tt.func @left_alone(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %out: !tt.ptr<f32>, %K: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rowsb = tt.broadcast %rows : tensor<16x1xi32> -> tensor<16x16xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %colsb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %c16s = arith.constant dense<16> : tensor<16x16xi32>
  %arow = arith.muli %rowsb, %c16s : tensor<16x16xi32>
  %aidx = arith.addi %arow, %colsb : tensor<16x16xi32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ap = tt.addptr %as, %aidx : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %bp = tt.addptr %bs, %aidx : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %op = tt.addptr %os, %aidx : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %Ks = tt.splat %K : i32 -> tensor<1x16xi32>
  %kmask = arith.cmpi slt, %cols, %Ks : tensor<1x16xi32>
  %kmaskb = tt.broadcast %kmask : tensor<1x16xi1> -> tensor<16x16xi1>
  // The mask does not move with the blocks.
  %r1:3 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %ap, %pb = %bp, %acc = %zero) -> (tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>) : i32 {
    %x = tt.load %pa, %kmaskb, %zero : tensor<16x16x!tt.ptr<f32>>
    %y = tt.load %pb : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %x, %y, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %na = tt.addptr %pa, %c16s : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %nb = tt.addptr %pb, %c16s : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    scf.yield %na, %nb, %d : tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>
  }
  // A store in the body.
  %r2:3 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %ap, %pb = %bp, %acc = %zero) -> (tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>) : i32 {
    %x = tt.load %pa : tensor<16x16x!tt.ptr<f32>>
    %y = tt.load %pb : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %x, %y, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    tt.store %op, %d : tensor<16x16x!tt.ptr<f32>>
    %na = tt.addptr %pa, %c16s : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %nb = tt.addptr %pb, %c16s : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    scf.yield %na, %nb, %d : tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>
  }
  // The K offsets wrap (`% 8`): lanes 8-15 repeat lanes 0-7.
  %c8s = arith.constant dense<8> : tensor<1x16xi32>
  %wrapped = arith.remsi %cols, %c8s : tensor<1x16xi32>
  %wrappedb = tt.broadcast %wrapped : tensor<1x16xi32> -> tensor<16x16xi32>
  %widx = arith.addi %arow, %wrappedb : tensor<16x16xi32>
  %wp = tt.addptr %as, %widx : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %r3:3 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %wp, %pb = %bp, %acc = %zero) -> (tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>) : i32 {
    %x = tt.load %pa : tensor<16x16x!tt.ptr<f32>>
    %y = tt.load %pb : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %x, %y, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %na = tt.addptr %pa, %c16s : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %nb = tt.addptr %pb, %c16s : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    scf.yield %na, %nb, %d : tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>
  }
  // A advances by 8 columns per iteration, half its block.
  %c8v = arith.constant dense<8> : tensor<16x16xi32>
  %r4:3 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %ap, %pb = %bp, %acc = %zero) -> (tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>) : i32 {
    %x = tt.load %pa : tensor<16x16x!tt.ptr<f32>>
    %y = tt.load %pb : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %x, %y, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    %na = tt.addptr %pa, %c8v : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %nb = tt.addptr %pb, %c16s : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    scf.yield %na, %nb, %d : tensor<16x16x!tt.ptr<f32>>, tensor<16x16x!tt.ptr<f32>>, tensor<16x16xf32>
  }
  tt.store %op, %r1#2 : tensor<16x16x!tt.ptr<f32>>
  tt.store %op, %r2#2 : tensor<16x16x!tt.ptr<f32>>
  tt.store %op, %r3#2 : tensor<16x16x!tt.ptr<f32>>
  tt.store %op, %r4#2 : tensor<16x16x!tt.ptr<f32>>
  tt.return
}
