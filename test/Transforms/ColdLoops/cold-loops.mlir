// RUN: refcpu-opt %s --refcpu-cold-loops | FileCheck %s

// CHECK: #[[COLD:.*]] = #llvm.loop_annotation<vectorize = #{{.*}}, unroll = #{{.*}}>

// The fallback branch of a run-time check: the perfect nest around the
// marked load and the other loop of its block (its addresses) are cold;
// the kernel's loop around the check and the view branch's loop are not.
// CHECK-LABEL: func.func @fallback
// CHECK: scf.for
// CHECK: scf.if
// CHECK: scf.for
// CHECK: } {llvm.loop_annotation = #{{.*}}}
// CHECK-NOT: } {llvm.loop_annotation
// CHECK: } else {
// CHECK: scf.for
// CHECK: memref.store
// CHECK: } {llvm.loop_annotation = #[[COLD]]}
// CHECK: scf.for
// CHECK: scf.for
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NOT: refcpu.cold
// CHECK: } {llvm.loop_annotation = #[[COLD]]}
// CHECK: } {llvm.loop_annotation = #[[COLD]]}
// CHECK: }
// CHECK-NEXT: }
// CHECK-NOT: llvm.loop_annotation
// CHECK: return
#unrollOnly = #llvm.loop_annotation<unroll = <disable = true>>
func.func @fallback(%ok: i1, %base: i64, %out: memref<4x8xf32>, %addr: memref<4x8xi64>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %kk = %c0 to %k step %c1 {
    scf.if %ok {
      scf.for %i = %c0 to %c4 step %c1 {
        memref.store %base, %addr[%i, %c0] : memref<4x8xi64>
      } {llvm.loop_annotation = #unrollOnly}
    } else {
      scf.for %i = %c0 to %c4 step %c1 {
        memref.store %base, %addr[%i, %c0] : memref<4x8xi64>
      }
      scf.for %i = %c0 to %c4 step %c1 {
        scf.for %j = %c0 to %c8 step %c1 {
          %a = memref.load %addr[%i, %j] : memref<4x8xi64>
          %p = llvm.inttoptr %a : i64 to !llvm.ptr
          %v = llvm.load %p {refcpu.cold} : !llvm.ptr -> f32
          memref.store %v, %out[%i, %j] : memref<4x8xf32>
        }
      }
    }
  }
  return
}

// A fallback whose check was folded away always runs: its loops stay as
// they are, and the mark goes.
// CHECK-LABEL: func.func @always_runs
// CHECK-NOT: llvm.loop_annotation
// CHECK-NOT: refcpu.cold
// CHECK: return
func.func @always_runs(%p: !llvm.ptr, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = llvm.load %p {refcpu.cold} : !llvm.ptr -> f32
    memref.store %v, %out[%i] : memref<8xf32>
  }
  return
}
