// RUN: refcpu-opt %s --refcpu-triton-to-linalg | FileCheck %s
// tt.reduce / tt.scan with any combiner region, and tt.dot.

// Element 0 along the axis is the initial accumulator; the combiner is
// inlined with the accumulator as its left operand (a is %init, b is %in).
// CHECK-LABEL: func.func @reduce_custom(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4x8xf32>
// CHECK: %[[INIT:.*]] = tensor.extract_slice %[[X]][0, 0] [4, 1] [1, 1] : tensor<4x8xf32> to tensor<4xf32>
// CHECK: %[[REST:.*]] = tensor.extract_slice %[[X]][0, 1] [4, 7] [1, 1] : tensor<4x8xf32> to tensor<4x7xf32>
// CHECK: %[[R:.*]] = linalg.reduce ins(%[[REST]] : tensor<4x7xf32>) outs(%[[INIT]] : tensor<4xf32>) dimensions = [1]
// CHECK-NEXT: (%[[IN:.*]]: f32, %[[ACC:.*]]: f32) {
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.subf %[[M]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[R]] : tensor<4xf32>
tt.func @reduce_custom(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.subf %m, %a : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return %r : tensor<4xf32>
}

// A 1-D reduce yields a scalar.
// CHECK-LABEL: func.func @reduce_to_scalar(
// CHECK: %[[INIT:.*]] = tensor.extract_slice %{{.*}}[0] [1] [1] : tensor<8xi32> to tensor<i32>
// CHECK: %[[REST:.*]] = tensor.extract_slice %{{.*}}[1] [7] [1] : tensor<8xi32> to tensor<7xi32>
// CHECK: %[[R:.*]] = linalg.reduce {{.*}}arith.addi{{.*}} ins(%[[REST]] : tensor<7xi32>) outs(%[[INIT]] : tensor<i32>) dimensions = [0]
// CHECK: %[[V:.*]] = tensor.extract %[[R]][] : tensor<i32>
// CHECK: return %[[V]] : i32
tt.func @reduce_to_scalar(%x: tensor<8xi32>) -> i32 {
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.reduce.return %s : i32
  }) : (tensor<8xi32>) -> i32
  tt.return %r : i32
}

// An axis of extent 1 needs no linalg.reduce.
// CHECK-LABEL: func.func @reduce_extent_one(
// CHECK-NOT: linalg.reduce
// CHECK: %[[V:.*]] = tensor.extract_slice %{{.*}}[0, 0] [1, 4] [1, 1] : tensor<1x4xf32> to tensor<4xf32>
// CHECK-NOT: linalg.reduce
// CHECK: return %[[V]]
tt.func @reduce_extent_one(%x: tensor<1x4xf32>) -> tensor<4xf32> {
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.maxnumf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<1x4xf32>) -> tensor<4xf32>
  tt.return %r : tensor<4xf32>
}

// argmax: two operands reduced together by one combiner.
// CHECK-LABEL: func.func @argmax(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4x8xf32>, %[[I:[^:]+]]: tensor<4x8xi32>
// CHECK-DAG: %[[XI:.*]] = tensor.extract_slice %[[X]][0, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
// CHECK-DAG: %[[XR:.*]] = tensor.extract_slice %[[X]][1, 0] [3, 8] [1, 1] : tensor<4x8xf32> to tensor<3x8xf32>
// CHECK-DAG: %[[II:.*]] = tensor.extract_slice %[[I]][0, 0] [1, 8] [1, 1] : tensor<4x8xi32> to tensor<8xi32>
// CHECK-DAG: %[[IR:.*]] = tensor.extract_slice %[[I]][1, 0] [3, 8] [1, 1] : tensor<4x8xi32> to tensor<3x8xi32>
// CHECK: %[[R:.*]]:2 = linalg.reduce ins(%[[XR]], %[[IR]] : tensor<3x8xf32>, tensor<3x8xi32>) outs(%[[XI]], %[[II]] : tensor<8xf32>, tensor<8xi32>) dimensions = [0]
// CHECK-NEXT: (%[[IN:.*]]: f32, %[[INI:.*]]: i32, %[[ACC:.*]]: f32, %[[ACCI:.*]]: i32) {
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: %[[V:.*]] = arith.select %[[GT]], %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: %[[VI:.*]] = arith.select %[[GT]], %[[ACCI]], %[[INI]] : i32
// CHECK-NEXT: linalg.yield %[[V]], %[[VI]] : f32, i32
// CHECK: return %[[R]]#0, %[[R]]#1
tt.func @argmax(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %r:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v = arith.select %gt, %a, %b : f32
    %vi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %v, %vi : f32, i32
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  tt.return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}

// Forward scan: out[i] = combine(out[i - 1], x[i]) for i in [1, 8).
// CHECK-LABEL: func.func @scan_forward(
// CHECK-SAME: %[[X:[^:]+]]: tensor<8xf32>
// CHECK-DAG: %[[LB:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[UB:.*]] = arith.constant 8 : index
// CHECK: %[[R:.*]] = scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %{{.*}} iter_args(%[[OUT:.*]] = %[[X]]) -> (tensor<8xf32>)
// CHECK: %[[PREV:.*]] = arith.subi %[[IV]], %{{.*}} : index
// CHECK: %[[ACCS:.*]] = tensor.extract_slice %[[OUT]][%[[PREV]]] [1] [1] : tensor<8xf32> to tensor<f32>
// CHECK: %[[XS:.*]] = tensor.extract_slice %[[X]][%[[IV]]] [1] [1] : tensor<8xf32> to tensor<f32>
// CHECK: %[[ACC:.*]] = tensor.extract %[[ACCS]][] : tensor<f32>
// CHECK: %[[XV:.*]] = tensor.extract %[[XS]][] : tensor<f32>
// CHECK: %[[D:.*]] = arith.subf %[[ACC]], %[[XV]] : f32
// CHECK: %[[T:.*]] = tensor.from_elements %[[D]] : tensor<f32>
// CHECK: %[[NEW:.*]] = tensor.insert_slice %[[T]] into %[[OUT]][%[[IV]]] [1] [1] : tensor<f32> into tensor<8xf32>
// CHECK: scf.yield %[[NEW]] : tensor<8xf32>
// CHECK: return %[[R]]
tt.func @scan_forward(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    tt.scan.return %d : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return %s : tensor<8xf32>
}

// Reverse scan along axis 1: pos = 7 - iv, out[pos] = combine(out[pos + 1], x[pos]);
// the slices of a 2-D scan are combined by a linalg.generic.
// CHECK-LABEL: func.func @scan_reverse(
// CHECK-SAME: %[[X:[^:]+]]: tensor<4x8xi32>
// CHECK-DAG: %[[LAST:.*]] = arith.constant 7 : index
// CHECK: scf.for %[[IV:.*]] = {{.*}} iter_args(%[[OUT:.*]] = %[[X]]) -> (tensor<4x8xi32>)
// CHECK: %[[POS:.*]] = arith.subi %[[LAST]], %[[IV]] : index
// CHECK: %[[PREV:.*]] = arith.addi %[[POS]], %{{.*}} : index
// CHECK: %[[ACCS:.*]] = tensor.extract_slice %[[OUT]][0, %[[PREV]]] [4, 1] [1, 1] : tensor<4x8xi32> to tensor<4xi32>
// CHECK: %[[XS:.*]] = tensor.extract_slice %[[X]][0, %[[POS]]] [4, 1] [1, 1] : tensor<4x8xi32> to tensor<4xi32>
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%[[ACCS]], %[[XS]] : tensor<4xi32>, tensor<4xi32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[M:.*]] = arith.subi %[[A]], %[[B]] : i32
// CHECK-NEXT: linalg.yield %[[M]] : i32
// CHECK: tensor.insert_slice %[[C]] into %[[OUT]][0, %[[POS]]] [4, 1] [1, 1] : tensor<4xi32> into tensor<4x8xi32>
tt.func @scan_reverse(%x: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = true}> ({
  ^bb0(%a: i32, %b: i32):
    %m = arith.subi %a, %b : i32
    tt.scan.return %m : i32
  }) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  tt.return %s : tensor<4x8xi32>
}

// A forward scan of 128 or more elements runs as 8 chunks side by side
// (independent chains of the combiner), then each chunk from the second on
// is combined with the last element of the fixed chunk before it, which
// stays the left operand.
// CHECK-LABEL: func.func @scan_chunked(
// CHECK-SAME: %[[X:[^:]+]]: tensor<2x256xf32>
// CHECK: %[[CH:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [2, 8, 32]
// CHECK: %[[S:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[CH]]) -> (tensor<2x8x32xf32>)
// CHECK: %[[C0:.*]] = tensor.extract_slice %[[S]][0, 0, 0] [2, 1, 32]
// CHECK: %[[LAST0:.*]] = tensor.extract_slice %[[C0]][0, 31] [2, 1]
// CHECK: %[[C1:.*]] = tensor.extract_slice %[[S]][0, 1, 0] [2, 1, 32]
// CHECK: %[[F1:.*]] = linalg.generic {{.*}} ins(%[[LAST0]], %[[C1]] : tensor<2xf32>, tensor<2x32xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.subf %[[A]], %[[B]] : f32
// CHECK: tensor.insert_slice %[[F1]] into %[[S]][0, 1, 0] [2, 1, 32]
// CHECK-COUNT-6: linalg.generic
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<2x8x32xf32> into tensor<2x256xf32>
tt.func @scan_chunked(%x: tensor<2x256xf32>) -> tensor<2x256xf32> {
  %s = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    tt.scan.return %d : f32
  }) : (tensor<2x256xf32>) -> tensor<2x256xf32>
  tt.return %s : tensor<2x256xf32>
}

// CHECK-LABEL: func.func @dot(
// CHECK-SAME: %[[A:[^:]+]]: tensor<16x8xf16>, %[[B:[^:]+]]: tensor<8x32xf16>, %[[C:[^:]+]]: tensor<16x32xf32>
// CHECK: %[[D:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<16x8xf16>, tensor<8x32xf16>) outs(%[[C]] : tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK: return %[[D]]
tt.func @dot(%a: tensor<16x8xf16>, %b: tensor<8x32xf16>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %d = tt.dot %a, %b, %c : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  tt.return %d : tensor<16x32xf32>
}

// CHECK-LABEL: func.func @dot_int8(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x16xi8>, tensor<16x16xi8>) outs(%{{.*}} : tensor<16x16xi32>) -> tensor<16x16xi32>
tt.func @dot_int8(%a: tensor<16x16xi8>, %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %d = tt.dot %a, %a, %c, inputPrecision = tf32 : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  tt.return %d : tensor<16x16xi32>
}

// CHECK-LABEL: func.func @dot_batched(
// CHECK-SAME: %[[A:[^:]+]]: tensor<2x16x8xf32>, %[[B:[^:]+]]: tensor<2x8x32xf32>, %[[C:[^:]+]]: tensor<2x16x32xf32>
// CHECK-NOT: linalg.matmul
// CHECK: linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<2x16x8xf32>, tensor<2x8x32xf32>) outs(%[[C]] : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
tt.func @dot_batched(%a: tensor<2x16x8xf32>, %b: tensor<2x8x32xf32>, %c: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<2x16x8xf32> * tensor<2x8x32xf32> -> tensor<2x16x32xf32>
  tt.return %d : tensor<2x16x32xf32>
}

// fp8 operands are widened to f32 before the matmul.
// CHECK-LABEL: func.func @dot_fp8
// CHECK: arith.extf %{{.*}} : tensor<16x32xf16> to tensor<16x32xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<32x16xf32>)
tt.func @dot_fp8(%a: tensor<16x32xf8E5M2>, %b: tensor<32x16xf8E4M3FN>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tt.dot %a, %b, %c : tensor<16x32xf8E5M2> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}
