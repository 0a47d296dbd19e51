// RUN: refcpu-opt %s -split-input-file -verify-diagnostics

tt.func public @range_not_pow2() {
  // expected-error @+1 {{number of elements must be power-of-two}}
  %r = tt.make_range {end = 12 : i32, start = 0 : i32} : tensor<12xi32>
  tt.return
}

// -----

tt.func public @range_wrong_size() {
  // expected-error @+1 {{must equal end - start}}
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func public @range_i64() {
  // expected-error @+1 {{result #0 must be ranked tensor of 32-bit signless integer values}}
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

tt.func public @addptr_shape(%p: !tt.ptr<f32>, %o: tensor<16xi32>) {
  // expected-error @+1 {{'tt.addptr' op failed to verify that all of {ptr, result} have same type}}
  %q = "tt.addptr"(%p, %o) : (!tt.ptr<f32>, tensor<16xi32>) -> tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func public @addptr_scalar_tensor(%p: !tt.ptr<f32>, %o: tensor<16xi32>) {
  // expected-error @+1 {{pointer and offset must both be scalars or tensors of the same shape}}
  %q = tt.addptr %p, %o : !tt.ptr<f32>, tensor<16xi32>
  tt.return
}

// -----

tt.func public @load_other_without_mask(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<16xf32>) {
  // `other` without a mask fills the mask's operand slot's type check.
  // expected-error @+1 {{failed to verify that mask is i1 with the pointer's shape}}
  %x = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func public @load_wrong_mask(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{mask is i1 with the pointer's shape}}
  %x = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func public @store_too_few(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{expected 2 or more operands, but found 1}}
  "tt.store"(%p) : (!tt.ptr<f32>) -> ()
  tt.return
}

// -----

tt.func public @bad_cache(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'cache' [none, ca, cg, wb, cs, wt, cv]}}
  %x = tt.load %p cacheModifier = bogus : !tt.ptr<f32>
  tt.return
}

// -----

tt.func public @bad_axis() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'axis' [x, y, z]}}
  %pid = tt.get_program_id w : i32
  tt.return
}

// -----

tt.func public @broadcast_rank(%x: tensor<16xi32>) {
  // expected-error @+1 {{rank of source must be same as rank of result}}
  %b = tt.broadcast %x : tensor<16xi32> -> tensor<16x16xi32>
  tt.return
}

// -----

tt.func public @broadcast_non_unit(%x: tensor<16x2xi32>) {
  // expected-error @+1 {{only size-1 dimensions can be broadcast}}
  %b = tt.broadcast %x : tensor<16x2xi32> -> tensor<16x16xi32>
  tt.return
}

// -----

tt.func public @expand_dims_axis(%x: tensor<16xi32>) {
  // expected-error @+1 {{axis 3 out of range}}
  %e = tt.expand_dims %x {axis = 3 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tt.return
}

// -----

tt.func public @reshape_count(%x: tensor<16xi32>) {
  // expected-error @+1 {{number of src and dst elements of reshape must match}}
  %r = tt.reshape %x : tensor<16xi32> -> tensor<4x8xi32>
  tt.return
}

// -----

tt.func public @trans_order(%x: tensor<16x8xi32>) {
  // expected-error @+1 {{order must be a permutation of 0..rank-1}}
  %t = tt.trans %x {order = array<i32: 0, 0>} : tensor<16x8xi32> -> tensor<16x8xi32>
  tt.return
}

// -----

tt.func public @bitcast_width(%x: tensor<16xf32>) {
  // expected-error @+1 {{Cannot bitcast data-type of size 32 to data-type of size 16}}
  %b = tt.bitcast %x : tensor<16xf32> -> tensor<16xi16>
  tt.return
}

// -----

tt.func public @bitcast_ptr_int(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{Cannot bitcast pointer to non-pointer type}}
  %b = tt.bitcast %p : !tt.ptr<f32> -> i64
  tt.return
}

// -----

tt.func public @fp_downcast(%x: tensor<16xf32>) {
  // expected-error @+1 {{Rounding mode is required for FP downcast}}
  %y = tt.fp_to_fp %x : tensor<16xf32> -> tensor<16xf16>
  tt.return
}

// -----

tt.func public @dot_k(%a: tensor<16x16xf32>, %b: tensor<32x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{A's last dimension must equal B's second to last}}
  %d = tt.dot %a, %b, %c : tensor<16x16xf32> * tensor<32x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func public @dot_widths(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{element bit widths of A and B must be equal}}
  %d = tt.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func public @reduce_args(%x: tensor<16xf32>) {
  // expected-error @+1 {{nested block must take 2 arguments, got 1}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func public @reduce_result(%x: tensor<16xf32>) {
  // expected-error @+1 {{result type 'tensor<1xf32>' must be 'f32'}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> tensor<1xf32>
  tt.return
}

// -----

tt.func public @scan_missing_reverse(%x: tensor<16xf32>) {
  // expected-error @+1 {{requires attribute 'reverse'}}
  %r = "tt.scan"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func public @return_count(%x: i32) -> i32 {
  // expected-error @+1 {{has 0 operands, but the enclosing function @return_count returns 1}}
  tt.return
}

// -----

tt.func public @call_missing() {
  // expected-error @+1 {{'nope' does not reference a valid tt.func}}
  tt.call @nope() : () -> ()
  tt.return
}

// -----

tt.func public @tensor_ptr_offsets(%p: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{shape, strides and offsets need one entry per block dimension (2)}}
  %b = tt.make_tensor_ptr %p, [%s], [%s], [%o] {order = array<i32: 0>} : <tensor<16x16xf32>>
  tt.return
}

// -----

tt.func public @split_last_dim(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{last dimension of the input must be 2}}
  %a, %b = tt.split %x : tensor<16x4xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func public @gather_dims(%x: tensor<16x16xf32>, %i: tensor<16x8xi32>) {
  // expected-error @+1 {{indices dimension 1 must match the source dimension}}
  %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<16x16xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func public @unsplat_many(%x: tensor<2xf32>) {
  // expected-error @+1 {{source must have exactly one element}}
  %u = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func public @dot_scaled_scale_shape(%a: tensor<32x64xf8E4M3FN>, %s: tensor<16x2xi8>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{A's scales must have shape 32 x (a divisor of 64), got 'tensor<16x2xi8>'}}
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<32x64xf8E4M3FN>, tensor<16x2xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func public @dot_scaled_fp4_k(%a: tensor<32x64xi8>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{A and B hold different K (128 and 64 elements)}}
  %d = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<32x64xi8> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func public @dot_scaled_format_type(%a: tensor<32x64xbf16>, %b: tensor<64x32xi8>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{B of format 'e4m3' cannot have elements of type 'i8'}}
  %d = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = e4m3 {fastMath = false} : tensor<32x64xbf16> * tensor<64x32xi8> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func public @dot_scaled_pack_m(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{only e2m1 operands may be packed along M or N}}
  %d = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false, lhs_k_pack = false} : tensor<16x64xf8E4M3FN> * tensor<64x32xf8E4M3FN> -> tensor<32x32xf32>
  tt.return
}

// -----

tt.func public @dot_bf16_f16_acc(%a: tensor<16x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{a dot of 'bf16' inputs cannot accumulate in 'f16'}}
  %d = tt.dot %a, %b, %c : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf16>
  tt.return
}
