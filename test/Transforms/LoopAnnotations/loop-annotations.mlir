// RUN: refcpu-opt %s --refcpu-loop-annotations | FileCheck %s

#licm = #llvm.loop_licm<disable = true, versioningDisable = true>
#annotation = #llvm.loop_annotation<licm = #licm>
#unroll = #llvm.loop_annotation<unroll = <disable = true>>

// CHECK-DAG: #[[LICM:.*]] = #llvm.loop_licm<disable = true, versioningDisable = true>
// CHECK-DAG: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[ANNOTATION:.*]] = #llvm.loop_annotation<licm = #[[LICM]]>
// CHECK-DAG: #[[OWN:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @back_edge
// CHECK: llvm.br ^bb1(%{{.*}} : i32) {loop_annotation = #[[ANNOTATION]]}
// CHECK-NOT: llvm.loop_annotation =
llvm.func @back_edge(%n: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^bb1(%c0 : i32)
^bb1(%i: i32):
  %done = llvm.icmp "sge" %i, %n : i32
  llvm.cond_br %done, ^bb3, ^bb2
^bb2:
  %next = llvm.add %i, %c1 : i32
  llvm.br ^bb1(%next : i32) {llvm.loop_annotation = #annotation}
^bb3:
  llvm.return
}

// A branch's own annotation is kept.
// CHECK-LABEL: llvm.func @own_annotation
// CHECK: llvm.br ^bb1 {loop_annotation = #[[OWN]]}
llvm.func @own_annotation() {
  llvm.br ^bb1 {llvm.loop_annotation = #annotation, loop_annotation = #unroll}
^bb1:
  llvm.return
}
