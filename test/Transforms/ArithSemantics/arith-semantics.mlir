// RUN: refcpu-opt %s --refcpu-arith-semantics | FileCheck %s

// |x| of fp8 clears the sign bit.
// CHECK-LABEL: func.func @abs_fp8
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f8E4M3FN to i8
// CHECK: %[[MASK:.*]] = arith.constant 127 : i8
// CHECK: %[[CLEAR:.*]] = arith.andi %[[BITS]], %[[MASK]] : i8
// CHECK: arith.bitcast %[[CLEAR]] : i8 to f8E4M3FN
// CHECK-NOT: math.absf
func.func @abs_fp8(%x: f8E4M3FN) -> f8E4M3FN {
  %a = math.absf %x : f8E4M3FN
  return %a : f8E4M3FN
}

// Other widths keep math.absf.
// CHECK-LABEL: func.func @abs_f32
// CHECK: math.absf
func.func @abs_f32(%x: f32) -> f32 {
  %a = math.absf %x : f32
  return %a : f32
}

// Division by zero gives -1, as on the GPU, without dividing by zero.
// CHECK-LABEL: func.func @divsi
// CHECK: arith.select
// CHECK: arith.divsi
// CHECK: arith.select
func.func @divsi(%a: i32, %b: i32) -> i32 {
  %q = arith.divsi %a, %b : i32
  return %q : i32
}
