// RUN: refcpu-opt %s --refcpu-stack-buffers | FileCheck %s
// RUN: refcpu-opt %s --refcpu-stack-buffers=stack-budget=3072 | FileCheck %s --check-prefix=BUDGET

// A block buffer in a conditional moves to the entry block as a stack slot.
// CHECK-LABEL: func.func @conditional
// CHECK-NEXT: %[[SLOT:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
// CHECK-NOT: memref.alloc()
// CHECK: linalg.fill {{.*}} outs(%[[SLOT]] : memref<1024xf32>)
func.func @conditional(%c: i1, %out: memref<1024xf32>) {
  scf.if %c {
    %b = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
    %z = arith.constant 0.0 : f32
    linalg.fill ins(%z : f32) outs(%b : memref<1024xf32>)
    memref.copy %b, %out : memref<1024xf32> to memref<1024xf32>
  }
  return
}

// A per-iteration temporary becomes one slot for all iterations.
// CHECK-LABEL: func.func @loop_temporary
// CHECK-NEXT: memref.alloca() : memref<16xf32>
// CHECK: scf.for
// CHECK-NOT: memref.alloc()
func.func @loop_temporary(%out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<16xf32>
    memref.copy %out, %t : memref<16xf32> to memref<16xf32>
    memref.copy %t, %out : memref<16xf32> to memref<16xf32>
  }
  return
}

// A buffer an iteration yields may still be read in the next iteration
// while that one fills its own: it stays on the heap. The loop's initial
// buffer, allocated at the top, lives until the function returns.
// CHECK-LABEL: func.func @loop_carried
// CHECK-NEXT: memref.alloca() : memref<16xf32>
// CHECK: scf.for
// CHECK: memref.alloc() : memref<16xf32>
func.func @loop_carried(%out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<16xf32>
  memref.copy %out, %init : memref<16xf32> to memref<16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<16xf32>) {
    %next = memref.alloc() : memref<16xf32>
    memref.copy %acc, %next : memref<16xf32> to memref<16xf32>
    scf.yield %next : memref<16xf32>
  }
  memref.copy %r, %out : memref<16xf32> to memref<16xf32>
  return
}

// A buffer a conditional yields outside any loop (a partial block copied
// where a whole one is read in place) lives once per program: a slot.
// CHECK-LABEL: func.func @conditional_yield
// CHECK-NEXT: %[[SLOT:.*]] = memref.alloca() : memref<16xf32>
// CHECK: scf.if
// CHECK-NOT: memref.alloc()
// CHECK: memref.cast %[[SLOT]]
func.func @conditional_yield(%c: i1, %view: memref<16xf32, strided<[1]>>, %out: memref<16xf32>) {
  %r = scf.if %c -> (memref<16xf32, strided<[1]>>) {
    %b = memref.alloc() : memref<16xf32>
    %cast = memref.cast %b : memref<16xf32> to memref<16xf32, strided<[1]>>
    memref.copy %view, %cast : memref<16xf32, strided<[1]>> to memref<16xf32, strided<[1]>>
    scf.yield %cast : memref<16xf32, strided<[1]>>
  } else {
    scf.yield %view : memref<16xf32, strided<[1]>>
  }
  memref.copy %r, %out : memref<16xf32, strided<[1]>> to memref<16xf32>
  return
}

// In a loop, a conditional that yields a buffer (a partial block copied
// where a whole one is read in place, loaded each iteration) passes it to
// the same iteration only: one slot for all iterations.
// CHECK-LABEL: func.func @conditional_yield_in_loop
// CHECK-NEXT: %[[SLOT:.*]] = memref.alloca() : memref<16xf32>
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NOT: memref.alloc()
// CHECK: memref.cast %[[SLOT]]
func.func @conditional_yield_in_loop(%c: i1, %view: memref<16xf32, strided<[1]>>, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %r = scf.if %c -> (memref<16xf32, strided<[1]>>) {
      %b = memref.alloc() : memref<16xf32>
      %cast = memref.cast %b : memref<16xf32> to memref<16xf32, strided<[1]>>
      memref.copy %view, %cast : memref<16xf32, strided<[1]>> to memref<16xf32, strided<[1]>>
      scf.yield %cast : memref<16xf32, strided<[1]>>
    } else {
      scf.yield %view : memref<16xf32, strided<[1]>>
    }
    memref.copy %r, %out : memref<16xf32, strided<[1]>> to memref<16xf32>
  }
  return
}

// ...but when the loop carries the conditional's result on, the buffer may
// be live in the next iteration: heap.
// CHECK-LABEL: func.func @conditional_yield_carried
// CHECK: scf.for
// CHECK: scf.if
// CHECK: memref.alloc() : memref<16xf32>
func.func @conditional_yield_carried(%c: i1, %out: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %out) -> (memref<16xf32>) {
    %next = scf.if %c -> (memref<16xf32>) {
      %b = memref.alloc() : memref<16xf32>
      memref.copy %acc, %b : memref<16xf32> to memref<16xf32>
      scf.yield %b : memref<16xf32>
    } else {
      scf.yield %acc : memref<16xf32>
    }
    scf.yield %next : memref<16xf32>
  }
  memref.copy %r, %out : memref<16xf32> to memref<16xf32>
  return
}

// Returned buffers (through a view too) and dynamically sized ones stay
// on the heap.
// CHECK-LABEL: func.func @escapes
// CHECK-NOT: memref.alloca
// CHECK: memref.alloc() : memref<4x4xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
func.func @escapes(%n: index) -> (memref<4xf32, strided<[1], offset: 4>>, memref<?xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  %row = memref.subview %a[1, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  %d = memref.alloc(%n) : memref<?xf32>
  return %row, %d : memref<4xf32, strided<[1], offset: 4>>, memref<?xf32>
}

// Past the budget, later buffers stay on the heap, in program order.
// BUDGET-LABEL: func.func @budget
// BUDGET-NEXT: memref.alloca() : memref<512xf32>
// BUDGET-NEXT: memref.alloca() : memref<256xf32>
// BUDGET-NEXT: memref.alloc() : memref<512xf32>
func.func @budget(%out: memref<256xf32>) {
  %a = memref.alloc() : memref<512xf32>
  %b = memref.alloc() : memref<512xf32>
  %c = memref.alloc() : memref<256xf32>
  %va = memref.subview %a[0] [256] [1] : memref<512xf32> to memref<256xf32, strided<[1]>>
  %vb = memref.subview %b[0] [256] [1] : memref<512xf32> to memref<256xf32, strided<[1]>>
  memref.copy %va, %c : memref<256xf32, strided<[1]>> to memref<256xf32>
  memref.copy %vb, %out : memref<256xf32, strided<[1]>> to memref<256xf32>
  return
}
