//===- PointerAnalysisTest.cpp - Tests of the strided-access analysis -----===//
//
// Each test parses a small TTIR kernel, analyses its first tt.load or
// tt.store and evaluates the expressions found for given kernel arguments
// and program id: the analysis must describe every lane's address and mask
// exactly, or decline.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Analysis/PointerAnalysis.h"
#include "refcpu/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <map>

using namespace mlir;
using namespace refcpu::pointer_analysis;

namespace {

/// Parses `ttir` and analyses its first load or store for f32 elements.
class PointerAnalysisTest : public ::testing::Test {
protected:
  PointerAnalysisTest() { context.loadDialect<triton::TTDialect>(); }

  std::optional<StridedPointers> analyze(llvm::StringRef ttir) {
    module = parseSourceString<ModuleOp>(ttir, &context);
    if (!module) {
      ADD_FAILURE() << "the test's TTIR does not parse";
      return std::nullopt;
    }
    Operation *access = nullptr;
    module->walk([&](Operation *op) {
      if (!access && isa<triton::LoadOp, triton::StoreOp>(op))
        access = op;
    });
    Type f32 = Float32Type::get(&context);
    if (auto load = dyn_cast<triton::LoadOp>(access))
      return analyzeStridedAccess(pool, load.getPtr(), load.getMask(),
                                  load.getOther(), f32);
    auto store = cast<triton::StoreOp>(access);
    return analyzeStridedAccess(pool, store.getPtr(), store.getMask(), Value(),
                                f32);
  }

  /// The value of `e` where kernel argument i is args[i] and the program id
  /// is `pid`.
  int64_t eval(const Expr *e) {
    switch (e->kind) {
    case Expr::Kind::Constant:
      return e->constant;
    case Expr::Kind::Leaf:
      return evalScalar(e->leaf);
    case Expr::Kind::Add:
      return eval(e->lhs) + eval(e->rhs);
    case Expr::Kind::Mul:
      return eval(e->lhs) * eval(e->rhs);
    case Expr::Kind::Max:
      return std::max(eval(e->lhs), eval(e->rhs));
    case Expr::Kind::Min:
      return std::min(eval(e->lhs), eval(e->rhs));
    }
    return 0;
  }

  /// The value of an original scalar: a kernel argument, the program id or
  /// the scalar arithmetic of the test kernels over them.
  int64_t evalScalar(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return args.at(arg.getArgNumber());
    Operation *def = value.getDefiningOp();
    if (isa<triton::GetProgramIdOp>(def))
      return pid;
    if (auto constant = dyn_cast<arith::ConstantIntOp>(def))
      return constant.value();
    if (auto mul = dyn_cast<arith::MulIOp>(def))
      return evalScalar(mul.getLhs()) * evalScalar(mul.getRhs());
    if (auto add = dyn_cast<arith::AddIOp>(def))
      return evalScalar(add.getLhs()) + evalScalar(add.getRhs());
    ADD_FAILURE() << "unexpected leaf defined by "
                  << def->getName().getStringRef().str();
    return 0;
  }

  /// Whether `condition` holds (a flag argument is args[i] != 0).
  bool holds(const Condition &condition) {
    if (condition.flag)
      return args.at(cast<BlockArgument>(condition.flag).getArgNumber()) != 0;
    int64_t lhs = eval(condition.lhs);
    switch (condition.pred) {
    case arith::CmpIPredicate::slt:
      return lhs < 0;
    case arith::CmpIPredicate::sle:
      return lhs <= 0;
    case arith::CmpIPredicate::sgt:
      return lhs > 0;
    case arith::CmpIPredicate::sge:
      return lhs >= 0;
    case arith::CmpIPredicate::eq:
      return lhs == 0;
    default:
      ADD_FAILURE() << "unexpected predicate";
      return false;
    }
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  ExprPool pool;
  std::map<unsigned, int64_t> args;
  int64_t pid = 0;
};

// vector_add's load: x_ptr + pid * 1024 + arange(1024), masked by offs < n.
constexpr llvm::StringLiteral kVectorAdd = R"(
tt.func @k(%p: !tt.ptr<f32>, %n: i32) {
  %c1024 = arith.constant 1024 : i32
  %pid = tt.get_program_id x : i32
  %start = arith.muli %pid, %c1024 : i32
  %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %starts = tt.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %starts, %range : tensor<1024xi32>
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %x = tt.load %ptrs, %mask : tensor<1024x!tt.ptr<f32>>
  tt.return
})";

TEST_F(PointerAnalysisTest, VectorAddIsOneUnitStrideRow) {
  std::optional<StridedPointers> access = analyze(kVectorAdd);
  ASSERT_TRUE(access);
  EXPECT_EQ(cast<BlockArgument>(access->form.base).getArgNumber(), 0u);
  ASSERT_EQ(access->form.strides.size(), 1u);
  EXPECT_TRUE(ExprPool::isConstant(access->form.strides[0], 1));
  EXPECT_TRUE(access->exactIf.empty());
  EXPECT_FALSE(access->padding);

  args = {{1, 5000}};
  pid = 3;
  EXPECT_EQ(eval(access->form.offset), 3072);
  ASSERT_TRUE(access->box);
  EXPECT_FALSE(access->box->lo[0]);
  ASSERT_TRUE(access->box->hi[0]);
  // Lanes 0 .. 5000 - 3072 - 1 of program 3 are enabled.
  EXPECT_EQ(eval(access->box->hi[0]), 5000 - 3072);
  EXPECT_TRUE(access->box->conditions.empty());
}

// A 16 x 16 tile of a row-major matrix with row stride %stride, masked by
// rows < %m and columns < %n, other 0.0.
constexpr llvm::StringLiteral kTile = R"(
tt.func @k(%p: !tt.ptr<f32>, %stride: i32, %m: i32, %n: i32) {
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %pid = tt.get_program_id x : i32
  %row0 = arith.muli %pid, %c16 : i32
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row0s = tt.splat %row0 : i32 -> tensor<16xi32>
  %rows = arith.addi %row0s, %range : tensor<16xi32>
  %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %strides = tt.splat %stride : i32 -> tensor<16x1xi32>
  %rowoffs = arith.muli %rows2, %strides : tensor<16x1xi32>
  %rowoffsb = tt.broadcast %rowoffs : tensor<16x1xi32> -> tensor<16x16xi32>
  %cols = tt.expand_dims %range {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %colsb = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rowoffsb, %colsb : tensor<16x16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
  %ms = tt.splat %m : i32 -> tensor<16x1xi32>
  %rowmask = arith.cmpi slt, %rows2, %ms : tensor<16x1xi32>
  %rowmaskb = tt.broadcast %rowmask : tensor<16x1xi1> -> tensor<16x16xi1>
  %ns = tt.splat %n : i32 -> tensor<1x16xi32>
  %colmask = arith.cmpi slt, %cols, %ns : tensor<1x16xi32>
  %colmaskb = tt.broadcast %colmask : tensor<1x16xi1> -> tensor<16x16xi1>
  %mask = arith.andi %rowmaskb, %colmaskb : tensor<16x16xi1>
  %x = tt.load %ptrs, %mask, %zero : tensor<16x16x!tt.ptr<f32>>
  tt.return
})";

TEST_F(PointerAnalysisTest, TileHasRowStrideAndBoxMask) {
  std::optional<StridedPointers> access = analyze(kTile);
  ASSERT_TRUE(access);
  args = {{1, 100}, {2, 40}, {3, 9}};
  pid = 2;
  EXPECT_EQ(eval(access->form.offset), 2 * 16 * 100);
  ASSERT_EQ(access->form.strides.size(), 2u);
  EXPECT_EQ(eval(access->form.strides[0]), 100);
  EXPECT_EQ(eval(access->form.strides[1]), 1);

  ASSERT_TRUE(access->box);
  ASSERT_TRUE(access->box->hi[0] && access->box->hi[1]);
  EXPECT_EQ(eval(access->box->hi[0]), 40 - 32);
  EXPECT_EQ(eval(access->box->hi[1]), 9);
  EXPECT_FALSE(access->box->lo[0] || access->box->lo[1]);
  EXPECT_TRUE(access->box->conditions.empty());

  ASSERT_TRUE(access->padding);
  auto padding = dyn_cast_or_null<FloatAttr>(access->padding->constant);
  ASSERT_TRUE(padding);
  EXPECT_EQ(padding.getValueAsDouble(), 0.0);
}

// The tutorial matmul's wrapped rows, (pid * 16 + arange(16)) % m, stored
// unmasked.
constexpr llvm::StringLiteral kWrapped = R"(
tt.func @k(%p: !tt.ptr<f32>, %m: i32) {
  %c16 = arith.constant 16 : i32
  %v = arith.constant dense<1.0> : tensor<16xf32>
  %pid = tt.get_program_id x : i32
  %row0 = arith.muli %pid, %c16 : i32
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %row0s = tt.splat %row0 : i32 -> tensor<16xi32>
  %rows = arith.addi %row0s, %range : tensor<16xi32>
  %ms = tt.splat %m : i32 -> tensor<16xi32>
  %wrapped = arith.remsi %rows, %ms : tensor<16xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %wrapped : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %ptrs, %v : tensor<16x!tt.ptr<f32>>
  tt.return
})";

TEST_F(PointerAnalysisTest, WrappedOffsetsAreExactOnlyWhenNoLaneWraps) {
  std::optional<StridedPointers> access = analyze(kWrapped);
  ASSERT_TRUE(access);
  EXPECT_FALSE(access->box);
  ASSERT_EQ(access->exactIf.size(), 2u);
  auto allHold = [&] {
    return llvm::all_of(access->exactIf,
                        [&](const Condition &c) { return holds(c); });
  };
  args = {{1, 100}};
  pid = 5; // rows 80 .. 95 < 100: no lane wraps.
  EXPECT_EQ(eval(access->form.offset), 80);
  EXPECT_TRUE(allHold());
  pid = 6; // rows 96 .. 111: lanes 4 .. 15 wrap.
  EXPECT_FALSE(allHold());
  // Lane i's row is 96 + i, one element per row: wrapping once moves it
  // back 100 elements.
  ASSERT_TRUE(access->form.wrap);
  const Wrap &wrap = *access->form.wrap;
  EXPECT_EQ(wrap.dim, 0);
  EXPECT_EQ(eval(wrap.index), 96);
  EXPECT_EQ(wrap.step, 1);
  EXPECT_EQ(eval(wrap.modulus), 100);
  EXPECT_EQ(eval(wrap.scale), 1);
}

// Wrapped columns of a row-major tile, (pid * 8 + arange(8)) % n, scaled by 2
// after the wrap: the wrap follows its lane dimension through expand_dims
// and broadcast, and its scale the multiplication.
constexpr llvm::StringLiteral kWrappedColumns = R"(
tt.func @k(%p: !tt.ptr<f32>, %n: i32, %stride: i32) {
  %c8 = arith.constant 8 : i32
  %pid = tt.get_program_id x : i32
  %col0 = arith.muli %pid, %c8 : i32
  %range = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %col0s = tt.splat %col0 : i32 -> tensor<8xi32>
  %cols = arith.addi %col0s, %range : tensor<8xi32>
  %ns = tt.splat %n : i32 -> tensor<8xi32>
  %wrapped = arith.remsi %cols, %ns : tensor<8xi32>
  %two = arith.constant dense<2> : tensor<8xi32>
  %scaled = arith.muli %wrapped, %two : tensor<8xi32>
  %c = tt.expand_dims %scaled {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tt.broadcast %c : tensor<1x8xi32> -> tensor<4x8xi32>
  %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %strides = tt.splat %stride : i32 -> tensor<4x1xi32>
  %roff = arith.muli %r, %strides : tensor<4x1xi32>
  %rb = tt.broadcast %roff : tensor<4x1xi32> -> tensor<4x8xi32>
  %offs = arith.addi %rb, %cb : tensor<4x8xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi32>
  %x = tt.load %ptrs : tensor<4x8x!tt.ptr<f32>>
  tt.return
})";

TEST_F(PointerAnalysisTest, WrapFollowsItsLaneDimensionAndScale) {
  std::optional<StridedPointers> access = analyze(kWrappedColumns);
  ASSERT_TRUE(access);
  ASSERT_TRUE(access->form.wrap);
  const Wrap &wrap = *access->form.wrap;
  args = {{1, 20}, {2, 64}};
  pid = 2;
  EXPECT_EQ(wrap.dim, 1);
  EXPECT_EQ(eval(wrap.index), 16);
  EXPECT_EQ(wrap.step, 1);
  EXPECT_EQ(eval(wrap.modulus), 20);
  EXPECT_EQ(eval(wrap.scale), 2);
  EXPECT_EQ(eval(access->form.strides[0]), 64);
  EXPECT_EQ(eval(access->form.strides[1]), 2);
}

// A uniform flag and a range mask: the box holds only while the flag does.
constexpr llvm::StringLiteral kFlagMask = R"(
tt.func @k(%p: !tt.ptr<f32>, %n: i32, %flag: i1) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %inrange = arith.cmpi slt, %range, %ns : tensor<64xi32>
  %flags = tt.splat %flag : i1 -> tensor<64xi1>
  %mask = arith.andi %flags, %inrange : tensor<64xi1>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  tt.return
})";

TEST_F(PointerAnalysisTest, UniformFlagBecomesCondition) {
  std::optional<StridedPointers> access = analyze(kFlagMask);
  ASSERT_TRUE(access);
  ASSERT_TRUE(access->box);
  ASSERT_EQ(access->box->conditions.size(), 1u);
  args = {{1, 10}, {2, 0}};
  EXPECT_EQ(eval(access->box->hi[0]), 10);
  EXPECT_FALSE(holds(access->box->conditions[0]));
  args[2] = 1;
  EXPECT_TRUE(holds(access->box->conditions[0]));
}

// Offsets loaded from memory: a gather, no strided block.
constexpr llvm::StringLiteral kGather = R"(
tt.func @k(%p: !tt.ptr<f32>, %idx: !tt.ptr<i32>) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %is = tt.splat %idx : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %iptrs = tt.addptr %is, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %offs = tt.load %iptrs : tensor<64x!tt.ptr<i32>>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = arith.constant dense<1.0> : tensor<64xf32>
  tt.store %ptrs, %v : tensor<64x!tt.ptr<f32>>
  tt.return
})";

TEST_F(PointerAnalysisTest, GatherIsNotStrided) {
  // The first access is the index load itself, which is strided; the store
  // through the loaded offsets is the gather.
  ASSERT_TRUE(analyze(kGather));
  auto func = cast<triton::FuncOp>(module->getBody()->front());
  auto store = *func.getOps<triton::StoreOp>().begin();
  EXPECT_FALSE(analyzeStridedAccess(pool, store.getPtr(), store.getMask(),
                                    Value(), Float32Type::get(&context)));
}

// A mask that is not a box (every other lane).
constexpr llvm::StringLiteral kEvenLanes = R"(
tt.func @k(%p: !tt.ptr<f32>) {
  %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %two = arith.constant dense<2> : tensor<64xi32>
  %zero = arith.constant dense<0> : tensor<64xi32>
  %rem = arith.remsi %range, %two : tensor<64xi32>
  %mask = arith.cmpi eq, %rem, %zero : tensor<64xi32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %ps, %range : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  tt.return
})";

TEST_F(PointerAnalysisTest, NonBoxMaskIsNotStrided) {
  EXPECT_FALSE(analyze(kEvenLanes));
}

} // namespace
