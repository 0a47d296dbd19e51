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

// Float max / min become LLVM's intrinsics; ops with fast-math flags and
// fp8 ones (no LLVM type) stay.
// CHECK-LABEL: func.func @min_max
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK: llvm.intr.minnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.maximum(%{{.*}}, %{{.*}}) : (f16, f16) -> f16
// CHECK: llvm.intr.minimum(%{{.*}}, %{{.*}}) : (bf16, bf16) -> bf16
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} fastmath<nnan> : f32
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f8E4M3FN
func.func @min_max(%v: vector<16xf32>, %w: vector<16xf32>, %a: f32, %c: f32, %h: f16, %i: f16,
                   %b: bf16, %d: bf16, %q: f8E4M3FN, %r: f8E4M3FN)
    -> (vector<16xf32>, f32, f16, bf16, f32, f8E4M3FN) {
  %0 = arith.maxnumf %v, %w : vector<16xf32>
  %1 = arith.minnumf %a, %c : f32
  %2 = arith.maximumf %h, %i : f16
  %3 = arith.minimumf %b, %d : bf16
  %4 = arith.maxnumf %a, %c fastmath<nnan> : f32
  %5 = arith.maxnumf %q, %r : f8E4M3FN
  return %0, %1, %2, %3, %4, %5 : vector<16xf32>, f32, f16, bf16, f32, f8E4M3FN
}
