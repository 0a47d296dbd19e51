// RUN: refcpu-opt %s | FileCheck %s
// RUN: refcpu-opt %s | refcpu-opt | FileCheck %s
// Every tt op in the exact syntax Triton 3.6 prints.

// CHECK-LABEL: tt.func public @memory
tt.func public @memory(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32, %q: !tt.ptr<f32, 3>) attributes {noinline = false} {
  // CHECK: tt.get_program_id x : i32
  %pid = tt.get_program_id x : i32
  // CHECK: tt.get_num_programs z : i32
  %np = tt.get_num_programs z : i32
  // CHECK: tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  // CHECK: tt.splat %{{.*}} : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %pa = tt.addptr %ps, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : !tt.ptr<f32>, i32
  %p1 = tt.addptr %p, %n : !tt.ptr<f32>, i32
  %ns = tt.splat %n : i32 -> tensor<16xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<16xi32>
  %o = arith.constant dense<0.0> : tensor<16xf32>
  // CHECK: tt.load %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>
  %x = tt.load %pa, %m : tensor<16x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} evictionPolicy = evict_first : tensor<16x!tt.ptr<f32>>
  %x2 = tt.load %pa, %m, %o evictionPolicy = evict_first : tensor<16x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}} cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : tensor<16x!tt.ptr<f32>>
  %x3 = tt.load %pa evictionPolicy = evict_last cacheModifier = cg {isVolatile = true} : tensor<16x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}} : !tt.ptr<f32>
  %s = tt.load %p : !tt.ptr<f32>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = wb evictionPolicy = evict_first : tensor<16x!tt.ptr<f32>>
  tt.store %pa, %x, %m cacheModifier = wb evictionPolicy = evict_first : tensor<16x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<f32>
  tt.store %p, %s : !tt.ptr<f32>
  // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
  %a0 = tt.atomic_rmw fadd, acq_rel, gpu, %pa, %x, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
  // CHECK: tt.atomic_rmw exch, release, cta, %{{.*}}, %{{.*}} : (!tt.ptr<f32>, f32) -> f32
  %a1 = tt.atomic_rmw exch, release, cta, %p, %s : (!tt.ptr<f32>, f32) -> f32
  %ip = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  %c0 = arith.constant 0 : i32
  // CHECK: tt.atomic_cas acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i32) -> i32
  %a2 = tt.atomic_cas acq_rel, gpu, %ip, %c0, %n : (!tt.ptr<i32>, i32, i32) -> i32
  // CHECK: tt.ptr_to_int %{{.*}} : !tt.ptr<f32> -> i64
  %addr = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  // CHECK: tt.int_to_ptr %{{.*}} : i64 -> !tt.ptr<f32>
  %back = tt.int_to_ptr %addr : i64 -> !tt.ptr<f32>
  // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %{{.*}} : tensor<16xf32>
  tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<16xf32>
  // CHECK: tt.print " nothing" {hex = false, isSigned = array<i32>}
  tt.print " nothing" {hex = false, isSigned = array<i32>}
  // CHECK: tt.assert %{{.*}}, "x must be positive" : tensor<16xi1>
  tt.assert %m, "x must be positive" : tensor<16xi1>
  tt.return
}

// CHECK-LABEL: tt.func private @helper
// CHECK-SAME: -> (f32, f32)
tt.func private @helper(%x: i32, %y: f32) -> (f32, f32) attributes {noinline = true} {
  // CHECK: tt.return %{{.*}}, %{{.*}} : f32, f32
  tt.return %y, %y : f32, f32
}

// CHECK-LABEL: tt.func public @shapes
tt.func public @shapes(%x: tensor<16x16xf32>, %i: tensor<16x16xi32>, %v: tensor<256xi32>) {
  %n = arith.constant 3 : i32
  %f = arith.constant 1.0 : f32
  // CHECK: tt.call @helper(%{{.*}}, %{{.*}}) : (i32, f32) -> (f32, f32)
  %c:2 = tt.call @helper(%n, %f) : (i32, f32) -> (f32, f32)
  // CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<256xi32> -> tensor<256x1xi32>
  %e = tt.expand_dims %v {axis = 1 : i32} : tensor<256xi32> -> tensor<256x1xi32>
  // CHECK: tt.broadcast %{{.*}} : tensor<256x1xi32> -> tensor<256x4xi32>
  %b = tt.broadcast %e : tensor<256x1xi32> -> tensor<256x4xi32>
  // CHECK: tt.reshape %{{.*}} : tensor<16x16xf32> -> tensor<8x32xf32>
  %r = tt.reshape %x : tensor<16x16xf32> -> tensor<8x32xf32>
  // CHECK: tt.reshape %{{.*}} allow_reorder efficient_layout : tensor<16x16xf32> -> tensor<256xf32>
  %r2 = tt.reshape %x allow_reorder efficient_layout : tensor<16x16xf32> -> tensor<256xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
  %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: tt.join %{{.*}}, %{{.*}} : tensor<16x16xf32> -> tensor<16x16x2xf32>
  %j = tt.join %x, %t : tensor<16x16xf32> -> tensor<16x16x2xf32>
  // CHECK: %outLHS, %outRHS = tt.split %{{.*}} : tensor<16x16x2xf32> -> tensor<16x16xf32>
  %s:2 = tt.split %j : tensor<16x16x2xf32> -> tensor<16x16xf32>
  // CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<256xi32> -> tensor<512xi32>
  %cat = tt.cat %v, %v : tensor<256xi32> -> tensor<512xi32>
  // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<16x16xf32>, tensor<16x16xi32>) -> tensor<16x16xf32>
  %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<16x16xf32>, tensor<16x16xi32>) -> tensor<16x16xf32>
  // CHECK: tt.histogram %{{.*}} : tensor<256xi32> -> tensor<32xi32>
  %h = tt.histogram %v : tensor<256xi32> -> tensor<32xi32>
  %hm = arith.constant dense<true> : tensor<256xi1>
  // CHECK: tt.histogram %{{.*}}, %{{.*}} : tensor<256xi32> -> tensor<32xi32>
  %h2 = tt.histogram %v, %hm : tensor<256xi32> -> tensor<32xi32>
  %one = tt.reshape %x : tensor<16x16xf32> -> tensor<256xf32>
  %ext = tt.splat %f : f32 -> tensor<1xf32>
  // CHECK: tt.unsplat %{{.*}} : tensor<1xf32>
  %u = tt.unsplat %ext : tensor<1xf32>
  tt.return
}

// CHECK-LABEL: tt.func public @math
tt.func public @math(%x: tensor<16xf32>, %u: tensor<16xi32>, %f8: tensor<16xf8E4M3FN>) {
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
  %0 = tt.fp_to_fp %x, rounding = rtne : tensor<16xf32> -> tensor<16xf8E4M3FN>
  // CHECK: tt.fp_to_fp %{{.*}} : tensor<16xf8E4M3FN> -> tensor<16xf32>
  %1 = tt.fp_to_fp %f8 : tensor<16xf8E4M3FN> -> tensor<16xf32>
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = none : tensor<16xf32>
  %2 = tt.clampf %x, %x, %x, propagateNan = none : tensor<16xf32>
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<16xf32>
  %3 = tt.clampf %x, %x, %x, propagateNan = all : tensor<16xf32>
  // CHECK: tt.precise_sqrt %{{.*}} : tensor<16xf32>
  %4 = tt.precise_sqrt %x : tensor<16xf32>
  // CHECK: tt.precise_divf %{{.*}}, %{{.*}} : tensor<16xf32>
  %5 = tt.precise_divf %x, %x : tensor<16xf32>
  // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : tensor<16xi32>
  %6 = tt.mulhiui %u, %u : tensor<16xi32>
  // CHECK: tt.bitcast %{{.*}} : tensor<16xf32> -> tensor<16xi32>
  %7 = tt.bitcast %x : tensor<16xf32> -> tensor<16xi32>
  // CHECK: tt.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<16xf32>) -> tensor<16xf32>
  %8 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<16xf32>) -> tensor<16xf32>
  // CHECK: tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<16xi32> -> tensor<16xi32>
  %9 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %u : tensor<16xi32> -> tensor<16xi32>
  tt.return
}

// CHECK-LABEL: tt.func public @regions
tt.func public @regions(%x: tensor<16x16xf32>, %i: tensor<16x16xi32>) {
  // CHECK: "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 1 : i32}> ({
  // CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK: }) : (tensor<16x16xf32>, tensor<16x16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  %r:2 = "tt.reduce"(%x, %i) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v = arith.select %gt, %a, %b : f32
    %vi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %v, %vi : f32, i32
  }) : (tensor<16x16xf32>, tensor<16x16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  // CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}> ({
  // CHECK: tt.scan.return %{{.*}} : f32
  %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    tt.scan.return %sum : f32
  }) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %cst = arith.constant 2.0 : f32
  // CHECK: "tt.map_elementwise"(%{{.*}}, %{{.*}}) <{pack = 1 : i32}> ({
  // CHECK: tt.map_elementwise.return %{{.*}} : f32
  %m = "tt.map_elementwise"(%x, %x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %cst : f32
    tt.map_elementwise.return %q : f32
  }) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  tt.return
}

// CHECK-LABEL: tt.func public @dots
tt.func public @dots(%a: tensor<16x16xf32>, %h: tensor<32x32xi8>, %acc: tensor<32x32xi32>, %a3: tensor<2x16x16xf32>, %f8: tensor<32x64xf8E4M3FN>, %s: tensor<32x2xi8>, %f8b: tensor<64x32xf8E4M3FN>, %c32: tensor<32x32xf32>) {
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %0 = tt.dot %a, %a, %a, inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = tt.dot %a, %a, %a : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
  %2 = tt.dot %h, %h, %acc, inputPrecision = tf32 : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32x3 : tensor<2x16x16xf32> * tensor<2x16x16xf32> -> tensor<2x16x16xf32>
  %3 = tt.dot %a3, %a3, %a3 {inputPrecision = 1 : i32} : tensor<2x16x16xf32> * tensor<2x16x16xf32> -> tensor<2x16x16xf32>
  // CHECK: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}} scale %{{.*}}, %{{.*}} lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x2xi8> * tensor<64x32xf8E4M3FN>, tensor<32x2xi8> -> tensor<32x32xf32>
  %4 = tt.dot_scaled %f8 scale %s, %f8b scale %s, %c32 lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<32x2xi8> * tensor<64x32xf8E4M3FN>, tensor<32x2xi8> -> tensor<32x32xf32>
  tt.return
}

// CHECK-LABEL: tt.func public @block_pointers
tt.func public @block_pointers(%base: !tt.ptr<f32>, %m: i64, %n: i64, %M: i32, %N: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i32
  // CHECK: tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x32xf32>>
  %b = tt.make_tensor_ptr %base, [%m, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<16x32xf32>>
  // CHECK: tt.advance %{{.*}}, [%{{.*}}, %{{.*}}] : <tensor<16x32xf32>>
  %b2 = tt.advance %b, [%c0, %c16] : <tensor<16x32xf32>>
  // CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x32xf32>>
  %x = tt.load %b2 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x32xf32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x32xf32>>
  tt.store %b, %x {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x32xf32>>
  // CHECK: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <f32>, <tensor<16x16xf32>>
  %d = tt.make_tensor_descriptor %base, [%M, %N], [%n, %c1] : <f32>, <tensor<16x16xf32>>
  // CHECK: tt.make_tensor_descriptor %{{.*}} {padding = 2 : i32} : <f32>, <tensor<16x16xf32>>
  %d2 = tt.make_tensor_descriptor %base, [%M, %N], [%n, %c1] {padding = 2 : i32} : !tt.ptr<f32>, !tt.tensordesc<tensor<16x16xf32>>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf32>
  %t = tt.descriptor_load %d[%c0, %c16] : !tt.tensordesc<tensor<16x16xf32>> -> tensor<16x16xf32>
  // CHECK: tt.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
  tt.descriptor_store %d[%c16, %c0], %t : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
  // CHECK: tt.descriptor_reduce add, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
  tt.descriptor_reduce add, %d[%c0, %c0], %t : !tt.tensordesc<tensor<16x16xf32>>, tensor<16x16xf32>
  %d3 = tt.make_tensor_descriptor %base, [%M, %N], [%n, %c1] : <f32>, <tensor<1x16xf32>>
  %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  // CHECK: tt.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32) -> tensor<8x16xf32>
  %g = tt.descriptor_gather %d3[%rows, %c0] : (!tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32) -> tensor<8x16xf32>
  // CHECK: tt.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32, tensor<8x16xf32>
  tt.descriptor_scatter %d3[%rows, %c0], %g : !tt.tensordesc<tensor<1x16xf32>>, tensor<8xi32>, i32, tensor<8x16xf32>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<1x16xf32>> -> tensor<16xf32>
  %row = tt.descriptor_load %d3[%c0, %c0] : !tt.tensordesc<tensor<1x16xf32>> -> tensor<16xf32>
  tt.return
}
