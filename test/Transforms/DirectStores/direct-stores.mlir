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
