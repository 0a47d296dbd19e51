// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// Tensor creation and shape ops on static shapes.

// CHECK-LABEL: func.func @make_range(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xi32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} outs(%[[E]] : tensor<4xi32>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[START:.*]] = arith.constant 8 : i32
// CHECK: %[[V:.*]] = arith.addi %[[C]], %[[START]] : i32
// CHECK: linalg.yield %[[V]] : i32
tt.func @make_range() -> tensor<4xi32> {
  %r = tt.make_range {end = 12 : i32, start = 8 : i32} : tensor<4xi32>
  tt.return %r : tensor<4xi32>
}

// CHECK-LABEL: func.func @splat(
// CHECK-SAME: %[[X:[^:]+]]: f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: linalg.fill ins(%[[X]] : f32) outs(%[[E]] : tensor<4x8xf32>)
tt.func @splat(%x: f32) -> tensor<4x8xf32> {
  %s = tt.splat %x : f32 -> tensor<4x8xf32>
  tt.return %s : tensor<4x8xf32>
}

// A pointer splat fills the i64 address.
// CHECK-LABEL: func.func @splat_ptr(
// CHECK-SAME: %[[P:[^:]+]]: i64
// CHECK: linalg.fill ins(%[[P]] : i64) outs(%{{.*}} : tensor<4xi64>) -> tensor<4xi64>
tt.func @splat_ptr(%p: !tt.ptr<f32>) -> tensor<4x!tt.ptr<f32>> {
  %s = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  tt.return %s : tensor<4x!tt.ptr<f32>>
}

// CHECK-LABEL: func.func @unsplat(
// CHECK-SAME: %[[X:[^:]+]]: tensor<1x1xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[V:.*]] = tensor.extract %[[X]][%[[C0]], %[[C0]]] : tensor<1x1xf32>
// CHECK: return %[[V]] : f32
tt.func @unsplat(%x: tensor<1x1xf32>) -> f32 {
  %u = tt.unsplat %x : tensor<1x1xf32>
  tt.return %u : f32
}

// Size-1 dimensions are collapsed away, then linalg.broadcast adds them back.
// CHECK-LABEL: func.func @broadcast_minor(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4x1xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
// CHECK: linalg.broadcast ins(%[[C]] : tensor<4xf32>) outs(%{{.*}} : tensor<4x8xf32>) dimensions = [1]
tt.func @broadcast_minor(%x: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %b = tt.broadcast %x : tensor<4x1xf32> -> tensor<4x8xf32>
  tt.return %b : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @broadcast_leading(
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) dimensions = [0]
tt.func @broadcast_leading(%x: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %b = tt.broadcast %x : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %b : tensor<4x8xf32>
}

// A size-1 dimension that stays size 1 is kept.
// CHECK-LABEL: func.func @broadcast_mixed(
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<1x4x1xi64> into tensor<1x4xi64>
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<1x4xi64>) outs(%{{.*}} : tensor<1x4x8xi64>) dimensions = [2]
tt.func @broadcast_mixed(%x: tensor<1x4x1x!tt.ptr<f32>>) -> tensor<1x4x8x!tt.ptr<f32>> {
  %b = tt.broadcast %x : tensor<1x4x1x!tt.ptr<f32>> -> tensor<1x4x8x!tt.ptr<f32>>
  tt.return %b : tensor<1x4x8x!tt.ptr<f32>>
}

// CHECK-LABEL: func.func @expand_dims(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4xi32>
// CHECK: tensor.expand_shape %[[X]] {{\[}}[0, 1]] output_shape [1, 4] : tensor<4xi32> into tensor<1x4xi32>
tt.func @expand_dims(%x: tensor<4xi32>) -> tensor<1x4xi32> {
  %e = tt.expand_dims %x {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  tt.return %e : tensor<1x4xi32>
}

// Reshape is row-major: collapse to 1-D, then expand.
// CHECK-LABEL: func.func @reshape(
// CHECK: %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
tt.func @reshape(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %r = tt.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
  tt.return %r : tensor<2x16xf32>
}

// CHECK-LABEL: func.func @trans(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x4x8xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x2x4xf32>
// CHECK: linalg.transpose ins(%[[X]] : tensor<2x4x8xf32>) outs(%[[E]] : tensor<8x2x4xf32>) permutation = [2, 0, 1]
tt.func @trans(%x: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %t = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  tt.return %t : tensor<8x2x4xf32>
}

// join adds a minor dimension of size 2: lhs at index 0, rhs at index 1.
// CHECK-LABEL: func.func @join(
// CHECK-SAME: %[[A:[^:]+]]: tensor<4xf32>, %[[B:[^:]+]]: tensor<4xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [4, 1] [1, 1] : tensor<4xf32> into tensor<4x2xf32>
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][0, 1] [4, 1] [1, 1] : tensor<4xf32> into tensor<4x2xf32>
// CHECK: return %[[I1]]
tt.func @join(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4x2xf32> {
  %j = tt.join %a, %b : tensor<4xf32> -> tensor<4x2xf32>
  tt.return %j : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @split(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4x2xf32>
// CHECK: %[[L:.*]] = tensor.extract_slice %[[X]][0, 0] [4, 1] [1, 1] : tensor<4x2xf32> to tensor<4xf32>
// CHECK: %[[R:.*]] = tensor.extract_slice %[[X]][0, 1] [4, 1] [1, 1] : tensor<4x2xf32> to tensor<4xf32>
// CHECK: return %[[L]], %[[R]]
tt.func @split(%x: tensor<4x2xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %l, %r = tt.split %x : tensor<4x2xf32> -> tensor<4xf32>
  tt.return %l, %r : tensor<4xf32>, tensor<4xf32>
}

// cat concatenates along dimension 0.
// CHECK-LABEL: func.func @cat(
// CHECK-SAME: %[[A:[^:]+]]: tensor<4xi32>, %[[B:[^:]+]]: tensor<4xi32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xi32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0] [4] [1] : tensor<4xi32> into tensor<8xi32>
// CHECK: tensor.insert_slice %[[B]] into %[[I0]][4] [4] [1] : tensor<4xi32> into tensor<8xi32>
tt.func @cat(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<8xi32> {
  %c = tt.cat %a, %b : tensor<4xi32> -> tensor<8xi32>
  tt.return %c : tensor<8xi32>
}

// out[i][j] = src[i][idx[i][j]]
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[SRC:[^:]+]]: tensor<4x8xf32>, %[[IDX:[^:]+]]: tensor<4x2xi32>
// CHECK: linalg.generic {{.*}} ins(%[[IDX]] : tensor<4x2xi32>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[COL:.*]] = arith.index_cast %[[IN]] : i32 to index
// CHECK: %[[V:.*]] = tensor.extract %[[SRC]][%[[ROW]], %[[COL]]] : tensor<4x8xf32>
// CHECK: linalg.yield %[[V]] : f32
tt.func @gather(%x: tensor<4x8xf32>, %i: tensor<4x2xi32>) -> tensor<4x2xf32> {
  %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  tt.return %g : tensor<4x2xf32>
}

// A loop over the inputs counts the in-range, unmasked values.
// CHECK-LABEL: func.func @histogram(
// CHECK-SAME: %[[X:[^:]+]]: tensor<8xi32>, %[[M:[^:]+]]: tensor<8xi1>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : tensor<4xi32>
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<4xi32>)
// CHECK: %[[V:.*]] = tensor.extract %[[X]][%[[I]]] : tensor<8xi32>
// CHECK: %[[BINS:.*]] = arith.constant 4 : i32
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[V]], %{{.*}} : i32
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[V]], %[[BINS]] : i32
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[MI:.*]] = tensor.extract %[[M]][%[[I]]] : tensor<8xi1>
// CHECK: %[[COND:.*]] = arith.andi %[[IN]], %[[MI]] : i1
// CHECK: scf.if %[[COND]] -> (tensor<4xi32>) {
// CHECK: %[[BIN:.*]] = arith.index_cast %[[V]] : i32 to index
// CHECK: %[[OLD:.*]] = tensor.extract %[[ACC]][%[[BIN]]] : tensor<4xi32>
// CHECK: %[[NEW:.*]] = arith.addi %[[OLD]], %{{.*}} : i32
// CHECK: tensor.insert %[[NEW]] into %[[ACC]][%[[BIN]]] : tensor<4xi32>
// CHECK: } else {
// CHECK: scf.yield %[[ACC]] : tensor<4xi32>
tt.func @histogram(%x: tensor<8xi32>, %m: tensor<8xi1>) -> tensor<4xi32> {
  %h = tt.histogram %x, %m : tensor<8xi32> -> tensor<4xi32>
  tt.return %h : tensor<4xi32>
}
