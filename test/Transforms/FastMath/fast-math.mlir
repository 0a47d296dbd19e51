// RUN: refcpu-opt %s --refcpu-fast-math | FileCheck %s

// f32 exp, scalar or vector, becomes arithmetic; f64 exp is left to libm.
// CHECK-LABEL: func.func @exp_f32
// CHECK-NOT: math.exp
// CHECK: math.fma
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp_f32(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>) {
  %e = math.exp %x : f32
  %ev = math.exp %v : vector<8xf32>
  return %e, %ev : f32, vector<8xf32>
}

// CHECK-LABEL: func.func @exp_f64
// CHECK: math.exp %{{.*}} : f64
func.func @exp_f64(%x: f64) -> f64 {
  %e = math.exp %x : f64
  return %e : f64
}

