// RUN: refcpu-opt %s --refcpu-triton-to-linalg -split-input-file -verify-diagnostics
// What the lowering rejects, each with the op's location. A pattern that
// rejects an op explains why; the conversion then reports the op as not
// legalized.

tt.func @unknown_libdevice(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tt.extern_elementwise' op unsupported external function '__nv_bogusf'}}
  // expected-error @+1 {{failed to legalize operation 'tt.extern_elementwise'}}
  %t = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_bogusf"} : (tensor<4xf32>) -> tensor<4xf32>
  tt.return %t : tensor<4xf32>
}

// -----

// PTX inline assembly cannot run on a CPU.
tt.func @inline_asm(%u: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'tt.elementwise_inline_asm' op is not supported by refcpu: its body is PTX assembly, which a CPU cannot run}}
  // expected-error @+1 {{failed to legalize operation 'tt.elementwise_inline_asm'}}
  %r = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %u : tensor<4xi32> -> tensor<4xi32>
  tt.return %r : tensor<4xi32>
}

// -----

tt.func @fp8_fnuz_downcast(%x: tensor<4xf32>) -> tensor<4xf8E4M3FNUZ> {
  // expected-error @+2 {{'tt.fp_to_fp' op conversion from 'f32' to 'f8E4M3FNUZ' is not supported}}
  // expected-error @+1 {{failed to legalize operation 'tt.fp_to_fp'}}
  %r = tt.fp_to_fp %x, rounding = rtne : tensor<4xf32> -> tensor<4xf8E4M3FNUZ>
  tt.return %r : tensor<4xf8E4M3FNUZ>
}

// -----

tt.func @block_pointer_load_mask(%base: !tt.ptr<f32>, %m: i64, %mask: tensor<4xi1>) -> tensor<4xf32> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %b = tt.make_tensor_ptr %base, [%m], [%c1], [%c0] {order = array<i32: 0>} : <tensor<4xf32>>
  // expected-error @+2 {{'tt.load' op a mask on a block-pointer load is not supported}}
  // expected-error @+1 {{failed to legalize operation 'tt.load'}}
  %x = tt.load %b, %mask : !tt.ptr<tensor<4xf32>>
  tt.return %x : tensor<4xf32>
}

// -----

tt.func @descriptor_reduce_inc(%base: !tt.ptr<i32>, %M: i32, %v: tensor<8xi32>) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %d = tt.make_tensor_descriptor %base, [%M], [%c1] : !tt.ptr<i32>, !tt.tensordesc<tensor<8xi32>>
  // expected-error @+2 {{'tt.descriptor_reduce' op reduce kind 'inc' is not supported}}
  // expected-error @+1 {{failed to legalize operation 'tt.descriptor_reduce'}}
  tt.descriptor_reduce inc, %d[%c0], %v : !tt.tensordesc<tensor<8xi32>>, tensor<8xi32>
  tt.return
}

// -----

tt.func @dot_scaled(%a: tensor<32x64xbf16>, %b: tensor<32x32xi8>, %sb: tensor<32x2xi8>, %c: tensor<32x32xf16>) -> tensor<32x32xf16> {
  // expected-error @+2 {{'tt.dot_scaled' op only an f32 accumulator is supported}}
  // expected-error @+1 {{failed to legalize operation 'tt.dot_scaled'}}
  %d = tt.dot_scaled %a, %b scale %sb, %c lhs = bf16 rhs = e2m1 {fastMath = false} : tensor<32x64xbf16> * tensor<32x32xi8>, tensor<32x2xi8> -> tensor<32x32xf16>
  tt.return %d : tensor<32x32xf16>
}
