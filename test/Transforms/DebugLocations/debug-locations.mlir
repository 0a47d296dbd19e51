// RUN: refcpu-opt %s --refcpu-debug-locations --mlir-print-debuginfo | FileCheck %s

// Every op ends up with one file:line:col; the functions keep theirs.
// CHECK-LABEL: llvm.func @kernel
// CHECK: llvm.mlir.constant(1 : i32) : i32 loc(#[[NAMED:loc[0-9]*]])
// CHECK: llvm.add {{.*}} loc(#[[LIB_CALL:loc[0-9]*]])
// CHECK: llvm.mul {{.*}} loc(#[[HELPER:loc[0-9]*]])
// CHECK: llvm.sub {{.*}} loc(#[[UNKNOWN_CALLEE:loc[0-9]*]])
// CHECK: llvm.xor {{.*}} loc(#[[FUSED:loc[0-9]*]])
// CHECK: llvm.return {{.*}} loc(#[[NONE:loc[0-9]*]])
// CHECK: } loc(#[[FUNC:loc[0-9]*]])
// CHECK: llvm.mlir.global {{.*}} @outside
// CHECK: llvm.mlir.constant(2 : i32) : i32 loc(#[[OUTSIDE:loc[0-9]*]])
// CHECK-NOT: callsite
// CHECK-DAG: #[[NAMED]] = loc("kernel.py":11:5)
// A call into Triton's library: the kernel's line that calls it.
// CHECK-DAG: #[[LIB_CALL]] = loc("kernel.py":12:9)
// A @triton.jit helper in the kernel's file, called through the library:
// the helper's line.
// CHECK-DAG: #[[HELPER]] = loc("kernel.py":30:7)
// CHECK-DAG: #[[UNKNOWN_CALLEE]] = loc("kernel.py":14:3)
// CHECK-DAG: #[[FUSED]] = loc("kernel.py":15:1)
// CHECK-DAG: #[[NONE]] = loc(unknown)
// CHECK-DAG: #[[FUNC_LINE:loc[0-9]*]] = loc("kernel.py":10:0)
// CHECK-DAG: #[[FUNC]] = loc("x"(#[[FUNC_LINE]]))
// CHECK-DAG: #[[OUTSIDE]] = loc("kernel.py":40:2)
#kernel = loc("kernel.py":10:0)
#stdlib = loc("triton/language/standard.py":290:36)
llvm.func @kernel(%a: i32) -> i32 {
  %c1 = llvm.mlir.constant(1 : i32) : i32 loc("c"("kernel.py":11:5))
  %0 = llvm.add %a, %c1 : i32 loc(callsite(#stdlib at "kernel.py":12:9))
  %1 = llvm.mul %0, %0 : i32 loc(callsite(callsite("kernel.py":30:7 at #stdlib) at "kernel.py":13:2))
  %2 = llvm.sub %1, %0 : i32 loc(callsite(unknown at "x"("kernel.py":14:3)))
  %3 = llvm.xor %2, %1 : i32 loc(fused[#stdlib, "kernel.py":15:1])
  llvm.return %3 : i32 loc(unknown)
} loc("x"(#kernel))

// Outside functions a call site becomes its outermost caller.
llvm.mlir.global internal constant @outside() : i32 {
  %c2 = llvm.mlir.constant(2 : i32) : i32 loc(callsite("kernel.py":50:1 at "kernel.py":40:2))
  llvm.return %c2 : i32
}
