// RUN: refcpu-opt %s --refcpu-ttir-to-linalg --refcpu-linalg-to-llvm | FileCheck %s
// RUN: refcpu-opt %s --refcpu-ttir-to-linalg --refcpu-linalg-to-llvm | FileCheck %s --check-prefix=PURE
// RUN: refcpu-opt %corpus/matmul_blockptr/kernel.blockptr.ttir --refcpu-ttir-to-linalg --refcpu-linalg-to-llvm | FileCheck %s --check-prefix=PURE
// RUN: refcpu-opt %corpus/scans_2d/kernel.ttir --refcpu-ttir-to-linalg --refcpu-linalg-to-llvm | FileCheck %s --check-prefix=PURE
// End to end, TTIR becomes pure LLVM dialect: the kernel takes its TTIR
// parameters (pointers as i64 addresses), then the six i32 grid arguments
// num_programs x, y, z and program_id x, y, z.

// PURE-NOT: {{[ ("](tt|arith|math|scf|cf|func|memref|tensor|linalg|bufferization|affine|index|vector|ub)\.[a-z_]+}}
// PURE-NOT: unrealized_conversion_cast

// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: i64, %[[OUT:[a-z0-9_]+]]: i64, %[[N:[a-z0-9_]+]]: i32,
// CHECK-SAME: %[[NX:[a-z0-9_]+]]: i32, %[[NY:[a-z0-9_]+]]: i32, %[[NZ:[a-z0-9_]+]]: i32,
// CHECK-SAME: %[[PX:[a-z0-9_]+]]: i32, %[[PY:[a-z0-9_]+]]: i32, %[[PZ:[a-z0-9_]+]]: i32) {
// CHECK: llvm.load
// CHECK: llvm.intr.tanh
// CHECK: llvm.fadd
// CHECK: %[[OFF:.*]] = llvm.add %[[PY]], %[[NX]] : i32
// CHECK: llvm.store
// CHECK: llvm.return
tt.func public @kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32>, %n: i32) {
  %pid = tt.get_program_id y : i32
  %np = tt.get_num_programs x : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ns = tt.splat %n : i32 -> tensor<16xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<16xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %v = tt.load %xp, %m, %zero : tensor<16x!tt.ptr<f32>>
  %t = tt.extern_elementwise %v {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<16xf32>) -> tensor<16xf32>
  %s = "tt.reduce"(%t) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tt.reduce.return %c : f32
  }) : (tensor<16xf32>) -> f32
  %off = arith.addi %pid, %np : i32
  %o = tt.addptr %out, %off : !tt.ptr<f32>, i32
  tt.store %o, %s : !tt.ptr<f32>
  tt.return
}
