// RUN: refcpu-opt %s --refcpu-streaming-stores | FileCheck %s
// RUN: refcpu-opt %s --refcpu-streaming-stores --refcpu-fast-math --convert-vector-to-llvm | FileCheck %s --check-prefix=LLVM
// refcpu-streaming-stores: a 1-D elementwise generic writing a global view
// stores 64-byte vectors non-temporally when the launch stores at least
// min-bytes through it; the lanes before the view's first 64-byte boundary
// and after its last whole vector, and smaller launches, run the generic.

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
!desc = !llvm.struct<(ptr, ptr, i64)>

// CHECK-LABEL: func.func @vector_add(
// CHECK-SAME: %[[NX:[^:]+]]: i32, %[[NY:[^:]+]]: i32, %[[NZ:[^:]+]]: i32,
// CHECK: %[[N:.*]] = memref.dim %[[DST:.*]], %c0
// CHECK: %[[B:.*]] = arith.muli %[[N]], %c4
// CHECK: arith.index_cast %[[NX]]
// CHECK: arith.index_cast %[[NY]]
// CHECK: arith.index_cast %[[NZ]]
// CHECK: %[[LARGE:.*]] = arith.cmpi sge, %{{.*}}, %c33554432
// CHECK: scf.if %[[LARGE]] {
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: %[[HEAD:.*]] = arith.minui %[[N]],
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<?xf32, strided<[1], offset: ?>>)
// CHECK: scf.for %[[I:.*]] = %[[HEAD]] to %[[END:.*]] step %c16 {
// CHECK-NEXT: %[[X:.*]] = vector.load %{{.*}}[%[[I]]] : memref<?xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NEXT: %[[Y:.*]] = vector.load %{{.*}}[%[[I]]] : memref<?xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] fastmath<contract> : vector<16xf32>
// CHECK-NEXT: vector.store %[[S]], %[[DST]][%[[I]]] {alignment = 64 : i64, nontemporal = true}
// CHECK: linalg.generic
// CHECK: } else {
// CHECK-NEXT: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// LLVM-LABEL: func.func @vector_add(
// LLVM: llvm.store %{{.*}}, %{{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
func.func @vector_add(%xd: !desc, %yd: !desc, %od: !desc, %n: index, %nx: i32, %ny: i32, %nz: i32, %px: i32, %py: i32, %pz: i32) {
  %x0 = builtin.unrealized_conversion_cast %xd : !desc to memref<f32>
  %y0 = builtin.unrealized_conversion_cast %yd : !desc to memref<f32>
  %o0 = builtin.unrealized_conversion_cast %od : !desc to memref<f32>
  %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
  %y = memref.reinterpret_cast %y0 to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
  %o = memref.reinterpret_cast %o0 to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : memref<?xf32, strided<[1], offset: ?>>, memref<?xf32, strided<[1], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b fastmath<contract> : f32
    linalg.yield %s : f32
  }
  return
}

// Scalars, constants and values of the enclosing code become splats; a
// bf16 output stores 32 lanes at a time.
// CHECK-LABEL: func.func @scale_to_bf16(
// CHECK-SAME: %[[F:[^:]+]]: f32,
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c32 {
// CHECK-NEXT: %[[X:.*]] = vector.load %{{.*}}[%[[I]]] : memref<?xf32, strided<[1], offset: ?>>, vector<32xf32>
// CHECK-NEXT: %[[FV:.*]] = vector.broadcast %[[F]] : f32 to vector<32xf32>
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[CV:.*]] = vector.broadcast %[[C]] : f32 to vector<32xf32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[FV]] : vector<32xf32>
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[M]], %[[CV]] : vector<32xf32>
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[A]] : vector<32xf32> to vector<32xbf16>
// CHECK-NEXT: vector.store %[[T]], %{{.*}}[%[[I]]] {alignment = 64 : i64, nontemporal = true} : memref<?xbf16, strided<[1], offset: ?>>, vector<32xbf16>
func.func @scale_to_bf16(%xd: !desc, %od: !desc, %f: f32, %n: index, %nx: i32, %ny: i32, %nz: i32, %px: i32, %py: i32, %pz: i32) {
  %x0 = builtin.unrealized_conversion_cast %xd : !desc to memref<f32>
  %o0 = builtin.unrealized_conversion_cast %od : !desc to memref<bf16>
  %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
  %o = memref.reinterpret_cast %o0 to offset: [0], sizes: [%n], strides: [1] : memref<bf16> to memref<?xbf16, strided<[1], offset: ?>>
  linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel"]} ins(%x, %f : memref<?xf32, strided<[1], offset: ?>>, f32) outs(%o : memref<?xbf16, strided<[1], offset: ?>>) {
  ^bb0(%a: f32, %s: f32, %out: bf16):
    %two = arith.constant 2.0 : f32
    %m = arith.mulf %a, %s : f32
    %p = arith.addf %m, %two : f32
    %t = arith.truncf %p : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// Left alone: a program's own buffer, an output the payload reads, a strided
// input, a payload op that is not arith or math, and a function without the
// grid's arguments.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: nontemporal
// CHECK: return
func.func @left_alone(%xd: !desc, %od: !desc, %n: index, %nx: i32, %ny: i32, %nz: i32, %px: i32, %py: i32, %pz: i32) {
  %x0 = builtin.unrealized_conversion_cast %xd : !desc to memref<f32>
  %o0 = builtin.unrealized_conversion_cast %od : !desc to memref<f32>
  %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
  %xs = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n], strides: [2] : memref<f32> to memref<?xf32, strided<[2], offset: ?>>
  %o = memref.reinterpret_cast %o0 to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
  %t = memref.alloca(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<?xf32, strided<[1], offset: ?>>) outs(%t : memref<?xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<?xf32, strided<[1], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.addf %a, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%xs : memref<?xf32, strided<[2], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<?xf32, strided<[1], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>) {
  ^bb0(%a: f32, %out: f32):
    %i = llvm.bitcast %a : f32 to i32
    %f = llvm.bitcast %i : i32 to f32
    linalg.yield %f : f32
  }
  return
}

// CHECK-LABEL: func.func @no_grid(
// CHECK-NOT: nontemporal
// CHECK: return
func.func @no_grid(%xd: !desc, %od: !desc, %n: index) {
  %x0 = builtin.unrealized_conversion_cast %xd : !desc to memref<f32>
  %o0 = builtin.unrealized_conversion_cast %od : !desc to memref<f32>
  %x = memref.reinterpret_cast %x0 to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
  %o = memref.reinterpret_cast %o0 to offset: [0], sizes: [%n], strides: [1] : memref<f32> to memref<?xf32, strided<[1], offset: ?>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<?xf32, strided<[1], offset: ?>>) outs(%o : memref<?xf32, strided<[1], offset: ?>>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  return
}
