// RUN: refcpu-opt %s --refcpu-direct-stores | FileCheck %s
// refcpu-direct-stores: an elementwise generic that fills a scratch buffer
// copied into a view writes the view itself, on the copied part of its
// inputs, when a run-time check finds every input disjoint from the view or
// the view itself; otherwise the generic and the copy run as before.

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @vector_add(
// CHECK-SAME: %[[X:[^:]+]]: memref<1024xf32, strided<[1]>>, %[[Y:[^:]+]]: memref<1024xf32, strided<[1]>>, %[[OUT:[^:]+]]: memref<1024xf32, strided<[1]>>, %[[N:[^:]+]]: index
// CHECK: %[[T:.*]] = memref.alloca() : memref<1024xf32>
// CHECK: %[[D:.*]] = memref.subview %[[OUT]][0] [%[[N]]] [1]
// CHECK: %[[XP:.*]] = memref.subview %[[X]][0] [%[[N]]] [1]
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: arith.cmpi ule
// CHECK: %[[YP:.*]] = memref.subview %[[Y]][0] [%[[N]]] [1]
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[XP]], %[[YP]] : {{.*}}) outs(%[[D]] : {{.*}})
// CHECK: } else {
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[X]], %[[Y]] : {{.*}}) outs(%[[T]] : memref<1024xf32>)
// CHECK: %[[S:.*]] = memref.subview %[[T]][0] [%[[N]]] [1]
// CHECK-NEXT: linalg.copy ins(%[[S]] : {{.*}}) outs(%[[D]] : {{.*}})
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @vector_add(%x: memref<1024xf32, strided<[1]>>, %y: memref<1024xf32, strided<[1]>>, %out: memref<1024xf32, strided<[1]>>, %n: index) {
  %t = memref.alloca() : memref<1024xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : memref<1024xf32, strided<[1]>>, memref<1024xf32, strided<[1]>>) outs(%t : memref<1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  %d = memref.subview %out[0] [%n] [1] : memref<1024xf32, strided<[1]>> to memref<?xf32, strided<[1]>>
  %part = memref.subview %t[0] [%n] [1] : memref<1024xf32> to memref<?xf32, strided<[1]>>
  linalg.copy ins(%part : memref<?xf32, strided<[1]>>) outs(%d : memref<?xf32, strided<[1]>>)
  return
}

// A row-broadcast input is sliced along the rows only; a whole scratch
// buffer copied needs no slice of it.
// CHECK-LABEL: func.func @scale_rows(
// CHECK-SAME: %[[X:[^:]+]]: memref<4x8xf32>, %[[S:[^:]+]]: memref<4xf32>, %[[OUT:[^:]+]]: memref<4x8xf32, strided<[?, 1]>>
// CHECK: %[[XP:.*]] = memref.subview %[[X]][0, 0] [4, 8] [1, 1]
// CHECK: %[[SP:.*]] = memref.subview %[[S]][0] [4] [1]
// CHECK: scf.if
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[XP]], %[[SP]] : {{.*}}) outs(%[[OUT]] : {{.*}})
func.func @scale_rows(%x: memref<4x8xf32>, %s: memref<4xf32>, %out: memref<4x8xf32, strided<[?, 1]>>) {
  %t = memref.alloca() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<4x8xf32>, memref<4xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  linalg.copy ins(%t : memref<4x8xf32>) outs(%out : memref<4x8xf32, strided<[?, 1]>>)
  return
}

// Left alone: a write between the generic and the copy (it could be to an
// input), and a generic that reads its output.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: scf.if
// CHECK: return
func.func @left_alone(%x: memref<8xf32>, %out: memref<8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %t = memref.alloca() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  memref.store %v, %x[%c0] : memref<8xf32>
  linalg.copy ins(%t : memref<8xf32>) outs(%out : memref<8xf32>)
  %u = memref.alloca() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<8xf32>) outs(%u : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.addf %a, %o : f32
    linalg.yield %n : f32
  }
  linalg.copy ins(%u : memref<8xf32>) outs(%out : memref<8xf32>)
  return
}

// Triton's store of a converted dot result (the tutorial matmul): the block
// is converted on a 1-D collapse of its buffer (refcpu-collapse-dims) before
// an scf.if whose strided branch copies part of it to rows of C and whose
// other branch reads it lane by lane. The converting generic gets its rows
// back and moves into both branches; the strided one writes C directly.
// CHECK-LABEL: func.func @store_converted_block(
// CHECK-SAME: %[[ACC:[^:]+]]: memref<4x8xf32>, %[[OUT:[^:]+]]: memref<4x8xbf16, strided<[?, 1]>>, %[[M:[^:]+]]: index, %[[N:[^:]+]]: index, %[[STRIDED:[^:]+]]: i1
// CHECK: %[[T:.*]] = memref.alloca() : memref<4x8xbf16>
// CHECK-NOT: linalg.generic
// CHECK: scf.if %[[STRIDED]] {
// CHECK: %[[D:.*]] = memref.subview %[[OUT]][0, 0] [%[[M]], %[[N]]] [1, 1]
// CHECK: %[[AP:.*]] = memref.subview %[[ACC]][0, 0] [%[[M]], %[[N]]] [1, 1]
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[AP]] : {{.*}}) outs(%[[D]] : {{.*}})
// CHECK: } else {
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[ACC]] : memref<4x8xf32>) outs(%[[T]] : memref<4x8xbf16>)
// CHECK: linalg.copy
// CHECK: } else {
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[ACC]] : memref<4x8xf32>) outs(%[[T]] : memref<4x8xbf16>)
// CHECK: memref.collapse_shape %[[T]]
// CHECK: memref.store
func.func @store_converted_block(%acc: memref<4x8xf32>, %out: memref<4x8xbf16, strided<[?, 1]>>, %m: index, %n: index, %strided: i1) {
  %t = memref.alloca() : memref<4x8xbf16>
  %acc1 = memref.collapse_shape %acc [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  %t1 = memref.collapse_shape %t [[0, 1]] : memref<4x8xbf16> into memref<32xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%acc1 : memref<32xf32>) outs(%t1 : memref<32xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %c = arith.truncf %a : f32 to bf16
    linalg.yield %c : bf16
  }
  scf.if %strided {
    %part = memref.subview %t[0, 0] [%m, %n] [1, 1] : memref<4x8xbf16> to memref<?x?xbf16, strided<[8, 1]>>
    %d = memref.subview %out[0, 0] [%m, %n] [1, 1] : memref<4x8xbf16, strided<[?, 1]>> to memref<?x?xbf16, strided<[?, 1]>>
    linalg.copy ins(%part : memref<?x?xbf16, strided<[8, 1]>>) outs(%d : memref<?x?xbf16, strided<[?, 1]>>)
  } else {
    %flat = memref.collapse_shape %t [[0, 1]] : memref<4x8xbf16> into memref<32xbf16>
    %c0 = arith.constant 0 : index
    %v = memref.load %flat[%c0] : memref<32xbf16>
    memref.store %v, %out[%c0, %c0] : memref<4x8xbf16, strided<[?, 1]>>
  }
  return
}

// A generic that also writes memory of its own stays where it is: moved into
// the branches, it would not run on a path that does not read its buffer.
// CHECK-LABEL: func.func @writer_with_side_effect(
// CHECK: memref.alloca
// CHECK-NEXT: linalg.generic
// CHECK: memref.store
// CHECK: scf.if
// CHECK-NOT: linalg.generic
// CHECK: linalg.copy
func.func @writer_with_side_effect(%x: memref<4x8xf32>, %out: memref<4x8xf32, strided<[?, 1]>>, %log: memref<1xf32>, %m: index, %strided: i1) {
  %t = memref.alloca() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c0 = arith.constant 0 : index
    memref.store %a, %log[%c0] : memref<1xf32>
    linalg.yield %a : f32
  }
  scf.if %strided {
    %part = memref.subview %t[0, 0] [%m, 8] [1, 1] : memref<4x8xf32> to memref<?x8xf32, strided<[8, 1]>>
    %d = memref.subview %out[0, 0] [%m, 8] [1, 1] : memref<4x8xf32, strided<[?, 1]>> to memref<?x8xf32, strided<[?, 1]>>
    linalg.copy ins(%part : memref<?x8xf32, strided<[8, 1]>>) outs(%d : memref<?x8xf32, strided<[?, 1]>>)
  }
  return
}
