// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// Elementwise tt ops become arith / math ops on the same tensor or scalar
// types (convert-elementwise-to-linalg runs later in the pipeline).

// Offsets are sign-extended and scaled by the pointee size.
// CHECK-LABEL: func.func @addptr_tensor(
// CHECK-SAME: %[[P:[^:]+]]: tensor<4xi64>, %[[O:[^:]+]]: tensor<4xi32>
// CHECK: %[[E:.*]] = arith.extsi %[[O]] : tensor<4xi32> to tensor<4xi64>
// CHECK: %[[SIZE:.*]] = arith.constant dense<4> : tensor<4xi64>
// CHECK: %[[B:.*]] = arith.muli %[[E]], %[[SIZE]] : tensor<4xi64>
// CHECK: %[[R:.*]] = arith.addi %[[P]], %[[B]] : tensor<4xi64>
// CHECK: return %[[R]] : tensor<4xi64>
tt.func @addptr_tensor(%p: tensor<4x!tt.ptr<f32>>, %o: tensor<4xi32>) -> tensor<4x!tt.ptr<f32>> {
  %q = tt.addptr %p, %o : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  tt.return %q : tensor<4x!tt.ptr<f32>>
}

// i64 offsets need no extension.
// CHECK-LABEL: func.func @addptr_i64(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[O:[^:]+]]: i64
// CHECK-NOT: arith.extsi
// CHECK: %[[SIZE:.*]] = arith.constant 8 : i64
// CHECK: %[[B:.*]] = arith.muli %[[O]], %[[SIZE]] : i64
// CHECK: arith.addi %[[P]], %[[B]] : i64
tt.func @addptr_i64(%p: !tt.ptr<f64>, %o: i64) -> !tt.ptr<f64> {
  %q = tt.addptr %p, %o : !tt.ptr<f64>, i64
  tt.return %q : !tt.ptr<f64>
}

// Byte-sized pointees need no scaling.
// CHECK-LABEL: func.func @addptr_i8(
// CHECK-SAME: %[[P:[^:]+]]: i64, %[[O:[^:]+]]: i32
// CHECK: %[[E:.*]] = arith.extsi %[[O]] : i32 to i64
// CHECK-NOT: arith.muli
// CHECK: arith.addi %[[P]], %[[E]] : i64
tt.func @addptr_i8(%p: !tt.ptr<i8>, %o: i32) -> !tt.ptr<i8> {
  %q = tt.addptr %p, %o : !tt.ptr<i8>, i32
  tt.return %q : !tt.ptr<i8>
}

// Pointers are addresses: ptr_to_int, int_to_ptr and pointer bitcasts vanish.
// CHECK-LABEL: func.func @ptr_casts(
// CHECK-SAME: %[[P:[^:]+]]: i64,
// CHECK-NEXT: return %[[P]], %[[P]] : i64, i64
tt.func @ptr_casts(%p: !tt.ptr<f32>) -> (!tt.ptr<f16>, !tt.ptr<i32>) {
  %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %q = tt.int_to_ptr %i : i64 -> !tt.ptr<f16>
  %r = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  tt.return %q, %r : !tt.ptr<f16>, !tt.ptr<i32>
}

// CHECK-LABEL: func.func @bitcast(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4xf32>
// CHECK: arith.bitcast %[[X]] : tensor<4xf32> to tensor<4xi32>
tt.func @bitcast(%x: tensor<4xf32>) -> tensor<4xi32> {
  %b = tt.bitcast %x : tensor<4xf32> -> tensor<4xi32>
  tt.return %b : tensor<4xi32>
}

// Non-tt ops on pointers are rebuilt on i64.
// CHECK-LABEL: func.func @select_ptr(
// CHECK-SAME: %[[C:[^:]+]]: i1, %[[P:[^:]+]]: i64, %[[Q:[^:]+]]: i64
// CHECK: arith.select %[[C]], %[[P]], %[[Q]] : i64
tt.func @select_ptr(%c: i1, %p: !tt.ptr<f32>, %q: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %s = arith.select %c, %p, %q : !tt.ptr<f32>
  tt.return %s : !tt.ptr<f32>
}

// propagateNan = none ignores NaN bounds (maxnum/minnum); all propagates them.
// CHECK-LABEL: func.func @clampf(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4xf32>, %[[LO:[^:]+]]: tensor<4xf32>, %[[HI:[^:]+]]: tensor<4xf32>
// CHECK: %[[A0:.*]] = arith.maxnumf %[[X]], %[[LO]] : tensor<4xf32>
// CHECK: %[[A:.*]] = arith.minnumf %[[A0]], %[[HI]] : tensor<4xf32>
// CHECK: %[[B0:.*]] = arith.maximumf %[[X]], %[[LO]] : tensor<4xf32>
// CHECK: %[[B:.*]] = arith.minimumf %[[B0]], %[[HI]] : tensor<4xf32>
// CHECK: return %[[A]], %[[B]]
tt.func @clampf(%x: tensor<4xf32>, %lo: tensor<4xf32>, %hi: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = tt.clampf %x, %lo, %hi, propagateNan = none : tensor<4xf32>
  %b = tt.clampf %x, %lo, %hi, propagateNan = all : tensor<4xf32>
  tt.return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// The high half of the double-width unsigned product.
// CHECK-LABEL: func.func @mulhiui(
// CHECK-SAME: %[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32
// CHECK: %[[XW:.*]] = arith.extui %[[X]] : i32 to i64
// CHECK: %[[YW:.*]] = arith.extui %[[Y]] : i32 to i64
// CHECK: %[[P:.*]] = arith.muli %[[XW]], %[[YW]] : i64
// CHECK: %[[C32:.*]] = arith.constant 32 : i64
// CHECK: %[[H:.*]] = arith.shrui %[[P]], %[[C32]] : i64
// CHECK: %[[R:.*]] = arith.trunci %[[H]] : i64 to i32
// CHECK: return %[[R]] : i32
tt.func @mulhiui(%x: i32, %y: i32) -> i32 {
  %h = tt.mulhiui %x, %y : i32
  tt.return %h : i32
}

// CHECK-LABEL: func.func @mulhiui_i64_tensor(
// CHECK: arith.extui %{{.*}} : tensor<4xi64> to tensor<4xi128>
// CHECK: arith.muli %{{.*}}, %{{.*}} : tensor<4xi128>
// CHECK: %[[C64:.*]] = arith.constant dense<64> : tensor<4xi128>
// CHECK: arith.shrui %{{.*}}, %[[C64]] : tensor<4xi128>
// CHECK: arith.trunci %{{.*}} : tensor<4xi128> to tensor<4xi64>
tt.func @mulhiui_i64_tensor(%x: tensor<4xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  %h = tt.mulhiui %x, %y : tensor<4xi64>
  tt.return %h : tensor<4xi64>
}

// CHECK-LABEL: func.func @precise(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4xf32>, %[[Y:[^:]+]]: tensor<4xf32>
// CHECK: math.sqrt %[[X]] : tensor<4xf32>
// CHECK: arith.divf %[[X]], %[[Y]] : tensor<4xf32>
tt.func @precise(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = tt.precise_sqrt %x : tensor<4xf32>
  %d = tt.precise_divf %x, %y : tensor<4xf32>
  tt.return %s, %d : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @fp_to_fp(
// CHECK: arith.extf %{{.*}} : tensor<4xf16> to tensor<4xf32>
// CHECK: arith.truncf %{{.*}} : tensor<4xf32> to tensor<4xbf16>
tt.func @fp_to_fp(%x: tensor<4xf16>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xbf16>) {
  %a = tt.fp_to_fp %x : tensor<4xf16> -> tensor<4xf32>
  %b = tt.fp_to_fp %y, rounding = rtne : tensor<4xf32> -> tensor<4xbf16>
  tt.return %a, %b : tensor<4xf32>, tensor<4xbf16>
}

// libdevice names: f32 variants end in `f`, f64 ones do not.
// CHECK-LABEL: func.func @libdevice_math(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4xf32>, %[[D:[^:]+]]: f64
// CHECK: math.tanh %[[X]] : tensor<4xf32>
// CHECK: math.exp %[[D]] : f64
// CHECK: math.powf %[[X]], %[[X]] : tensor<4xf32>
// CHECK: math.roundeven %[[X]] : tensor<4xf32>
// CHECK: arith.remf %[[D]], %[[D]] : f64
// CHECK: math.fma %[[X]], %[[X]], %[[X]] : tensor<4xf32>
tt.func @libdevice_math(%x: tensor<4xf32>, %d: f64) -> (tensor<4xf32>, f64, tensor<4xf32>, tensor<4xf32>, f64, tensor<4xf32>) {
  %t = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<4xf32>) -> tensor<4xf32>
  %e = tt.extern_elementwise %d {libname = "", libpath = "", pure = true, symbol = "__nv_exp"} : (f64) -> f64
  %p = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_rintf"} : (tensor<4xf32>) -> tensor<4xf32>
  %m = tt.extern_elementwise %d, %d {libname = "", libpath = "", pure = true, symbol = "__nv_fmod"} : (f64, f64) -> f64
  %f = tt.extern_elementwise %x, %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_fmaf"} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  tt.return %t, %e, %p, %r, %m, %f : tensor<4xf32>, f64, tensor<4xf32>, tensor<4xf32>, f64, tensor<4xf32>
}

// Classification returns i32 0/1; bit counts return i32 whatever the width.
// CHECK-LABEL: func.func @libdevice_int(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4xf32>, %[[I:[^:]+]]: i64
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : tensor<4xf32>
// CHECK: arith.extui %[[NAN]] : tensor<4xi1> to tensor<4xi32>
// CHECK: %[[POP:.*]] = math.ctpop %[[I]] : i64
// CHECK: arith.trunci %[[POP]] : i64 to i32
// CHECK: arith.maxsi %[[I]], %[[I]] : i64
tt.func @libdevice_int(%x: tensor<4xf32>, %i: i64) -> (tensor<4xi32>, i32, i64) {
  %n = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isnanf"} : (tensor<4xf32>) -> tensor<4xi32>
  %c = tt.extern_elementwise %i {libname = "", libpath = "", pure = true, symbol = "__nv_popcll"} : (i64) -> i32
  %u = tt.extern_elementwise %i, %i {libname = "", libpath = "", pure = true, symbol = "__nv_llmax"} : (i64, i64) -> i64
  tt.return %n, %c, %u : tensor<4xi32>, i32, i64
}

// hypot scales by the larger magnitude instead of squaring (no overflow).
// CHECK-LABEL: func.func @hypot
// CHECK: arith.maximumf
// CHECK: arith.divf
// CHECK: math.fma
// CHECK: math.sqrt
tt.func @hypot(%x: f32, %y: f32) -> f32 {
  %h = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_hypotf"} : (f32, f32) -> f32
  tt.return %h : f32
}
