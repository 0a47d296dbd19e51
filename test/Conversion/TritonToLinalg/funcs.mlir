// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// tt.func/call/return and the grid queries: every function gets the kernel
// ABI's six trailing i32 arguments (num_programs x, y, z, program_id x, y, z).

// CHECK-LABEL: func.func @signature(
// CHECK-SAME: %{{[^:]+}}: i64, %{{[^:]+}}: tensor<4xi64>, %{{[^:]+}}: f32,
// CHECK-SAME: %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32)
// CHECK-SAME: -> i64
// CHECK-NEXT: return %{{.*}} : i64
tt.func public @signature(%p: !tt.ptr<f32>, %ps: tensor<4x!tt.ptr<f32>>, %x: f32) -> !tt.ptr<f32> {
  tt.return %p : !tt.ptr<f32>
}

// CHECK-LABEL: func.func @no_args(
// CHECK-SAME: %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32) {
// CHECK-NEXT: return{{$}}
tt.func public @no_args() {
  tt.return
}

// CHECK-LABEL: func.func @grid_queries(
// CHECK-SAME: %{{[^:]+}}: i32,
// CHECK-SAME: %[[NX:[^:]+]]: i32, %[[NY:[^:]+]]: i32, %[[NZ:[^:]+]]: i32,
// CHECK-SAME: %[[PX:[^:]+]]: i32, %[[PY:[^:]+]]: i32, %[[PZ:[^:]+]]: i32)
// CHECK-NOT: tt.
// CHECK: return %[[PX]], %[[PY]], %[[PZ]], %[[NX]], %[[NY]], %[[NZ]] : i32, i32, i32, i32, i32, i32
tt.func public @grid_queries(%n: i32) -> (i32, i32, i32, i32, i32, i32) {
  %px = tt.get_program_id x : i32
  %py = tt.get_program_id y : i32
  %pz = tt.get_program_id z : i32
  %nx = tt.get_num_programs x : i32
  %ny = tt.get_num_programs y : i32
  %nz = tt.get_num_programs z : i32
  tt.return %px, %py, %pz, %nx, %ny, %nz : i32, i32, i32, i32, i32, i32
}

// A program id inside a loop still reads the enclosing function's argument.
// CHECK-LABEL: func.func @grid_query_in_loop(
// CHECK-SAME: %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %[[PZ:[^:]+]]: i32)
// CHECK: scf.for
// CHECK: arith.addi %{{.*}}, %[[PZ]] : i32
tt.func public @grid_query_in_loop(%lb: index, %ub: index) -> i32 {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%acc = %z) -> (i32) {
    %pz = tt.get_program_id z : i32
    %s = arith.addi %acc, %pz : i32
    scf.yield %s : i32
  }
  tt.return %r : i32
}

// The callee gets the grid arguments too; calls forward the caller's.
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %[[X:[^:]+]]: i32,
// CHECK-SAME: %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %[[PX:[^:]+]]: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32) -> i32
// CHECK: %[[S:.*]] = arith.addi %[[X]], %[[PX]] : i32
// CHECK: return %[[S]] : i32
tt.func private @helper(%x: i32) -> i32 {
  %p = tt.get_program_id x : i32
  %s = arith.addi %x, %p : i32
  tt.return %s : i32
}

// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[N:[^:]+]]: i32,
// CHECK-SAME: %[[G0:[^:]+]]: i32, %[[G1:[^:]+]]: i32, %[[G2:[^:]+]]: i32, %[[G3:[^:]+]]: i32, %[[G4:[^:]+]]: i32, %[[G5:[^:]+]]: i32)
// CHECK: %[[R:.*]] = call @helper(%[[N]], %[[G0]], %[[G1]], %[[G2]], %[[G3]], %[[G4]], %[[G5]]) : (i32, i32, i32, i32, i32, i32, i32) -> i32
// CHECK: return %[[R]] : i32
tt.func public @caller(%n: i32) -> i32 {
  %c = tt.call @helper(%n) : (i32) -> i32
  tt.return %c : i32
}
