//===- JitTest.cpp - JIT a hand-written packed kernel and launch it -------===//
//
// The module stands in for what the compiler emits: a packed entry taking
// (in, out, half_out, bf16_out, scale) and the six grid i32s, which calls
// libm, converts to f16/bf16 and calls the assert hook on negative inputs.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Runtime/HalfFloat.h"
#include "refcpu/Runtime/Jit.h"
#include "refcpu/Runtime/Launcher.h"
#include "refcpu/Runtime/Status.h"

#include "TestUtils.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace refcpu::runtime;

namespace {
constexpr const char *kKernelIR = R"ll(
declare float @expf(float)
declare float @erff(float)
declare void @refcpu_rt_assert_fail(ptr, ptr, i32, i32, i32, i32)

@msg = private unnamed_addr constant [7 x i8] c"x >= 0\00"
@file = private unnamed_addr constant [8 x i8] c"kern.py\00"

define ptr @arg(ptr %args, i64 %index) alwaysinline {
  %slot = getelementptr inbounds ptr, ptr %args, i64 %index
  %storage = load ptr, ptr %slot
  ret ptr %storage
}

define void @kernel_packed(ptr %args) {
entry:
  %in.s = call ptr @arg(ptr %args, i64 0)
  %in = load ptr, ptr %in.s
  %out.s = call ptr @arg(ptr %args, i64 1)
  %out = load ptr, ptr %out.s
  %hout.s = call ptr @arg(ptr %args, i64 2)
  %hout = load ptr, ptr %hout.s
  %bout.s = call ptr @arg(ptr %args, i64 3)
  %bout = load ptr, ptr %bout.s
  %scale.s = call ptr @arg(ptr %args, i64 4)
  %scale = load float, ptr %scale.s
  %pidx.s = call ptr @arg(ptr %args, i64 8)
  %pidx = load i32, ptr %pidx.s
  %index = sext i32 %pidx to i64
  %in.p = getelementptr inbounds float, ptr %in, i64 %index
  %x = load float, ptr %in.p
  %negative = fcmp olt float %x, 0.0
  br i1 %negative, label %fail, label %ok

fail:
  %pidy.s = call ptr @arg(ptr %args, i64 9)
  %pidy = load i32, ptr %pidy.s
  %pidz.s = call ptr @arg(ptr %args, i64 10)
  %pidz = load i32, ptr %pidz.s
  call void @refcpu_rt_assert_fail(ptr @msg, ptr @file, i32 7, i32 %pidx,
                                   i32 %pidy, i32 %pidz)
  ret void

ok:
  %e = call float @expf(float %x)
  %f = call float @erff(float %x)
  %scaled = fmul float %e, %scale
  %sum = fadd float %scaled, %f
  %out.p = getelementptr inbounds float, ptr %out, i64 %index
  store float %sum, ptr %out.p
  %h = fptrunc float %x to half
  %hout.p = getelementptr inbounds half, ptr %hout, i64 %index
  store half %h, ptr %hout.p
  %b = fptrunc float %x to bfloat
  %bout.p = getelementptr inbounds bfloat, ptr %bout, i64 %index
  store bfloat %b, ptr %bout.p
  ret void
}
)ll";

/// Parses `ir` and JIT-compiles it with entry `entry`.
llvm::Expected<std::unique_ptr<JitModule>> compile(llvm::StringRef ir,
                                                   llvm::StringRef entry) {
  auto context = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(ir, diagnostic, *context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream os(message);
    diagnostic.print("test", os);
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  }
  return JitModule::create(std::move(context), std::move(module), entry);
}

struct Buffers {
  std::vector<float> in, out;
  std::vector<uint16_t> halfOut, bf16Out;
  float scale = 0.5f;
  float *inPtr, *outPtr;
  uint16_t *halfPtr, *bf16Ptr;

  explicit Buffers(size_t n) : in(n), out(n), halfOut(n), bf16Out(n) {
    for (size_t i = 0; i < n; ++i)
      in[i] = 0.37f * static_cast<float>(i) + 0.01f;
    inPtr = in.data();
    outPtr = out.data();
    halfPtr = halfOut.data();
    bf16Ptr = bf16Out.data();
  }

  std::vector<void *> params() {
    return {&inPtr, &outPtr, &halfPtr, &bf16Ptr, &scale};
  }
};

TEST(JitTest, RunsAPackedKernelOverAGrid) {
  llvm::Expected<std::unique_ptr<JitModule>> jit =
      compile(kKernelIR, "kernel_packed");
  REFCPU_ASSERT_OK(jit);
  for (unsigned threads : {1u, 4u}) {
    const size_t n = 100;
    Buffers buffers(n);
    std::vector<void *> params = buffers.params();
    ASSERT_EQ(launchGrid((*jit)->getEntry(), params.data(), params.size(),
                         Grid{n, 1, 1}, threads)
                  .message,
              "");
    for (size_t i = 0; i < n; ++i) {
      float x = buffers.in[i];
      EXPECT_FLOAT_EQ(buffers.out[i], std::exp(x) * 0.5f + std::erf(x)) << i;
      EXPECT_EQ(buffers.halfOut[i], roundToHalfBits(x)) << i;
      EXPECT_EQ(buffers.bf16Out[i], roundToBFloat16Bits(x)) << i;
    }
  }
}

TEST(JitTest, KernelAssertFailsTheLaunch) {
  llvm::Expected<std::unique_ptr<JitModule>> jit =
      compile(kKernelIR, "kernel_packed");
  REFCPU_ASSERT_OK(jit);
  Buffers buffers(10);
  buffers.in[5] = -1.0f;
  std::vector<void *> params = buffers.params();
  LaunchStatus status = launchGrid((*jit)->getEntry(), params.data(),
                                   params.size(), Grid{10, 1, 1}, 1);
  EXPECT_EQ(status.status, REFCPU_ERROR_KERNEL);
  EXPECT_EQ(status.message, "kern.py:7: program (5, 0, 0): assertion failed: x >= 0");
  // Serial: programs after the failing one did not run.
  EXPECT_NE(buffers.out[4], 0.0f);
  EXPECT_EQ(buffers.out[6], 0.0f);
}

TEST(JitTest, ReportsUnresolvedSymbols) {
  const char *ir = R"ll(
declare void @refcpu_no_such_function()
define void @entry(ptr %args) {
  call void @refcpu_no_such_function()
  ret void
}
)ll";
  std::string message;
  refcpu_status status =
      takeStatus(compile(ir, "entry").takeError(), REFCPU_OK, message);
  EXPECT_EQ(status, REFCPU_ERROR_JIT);
  EXPECT_NE(message.find("refcpu_no_such_function"), std::string::npos)
      << message;
}

TEST(JitTest, ReportsAMissingEntry) {
  std::string message;
  refcpu_status status = takeStatus(
      compile("define void @entry(ptr %args) { ret void }", "other")
          .takeError(),
      REFCPU_OK, message);
  EXPECT_EQ(status, REFCPU_ERROR_JIT);
  EXPECT_NE(message.find("cannot compile entry 'other'"), std::string::npos)
      << message;
}

TEST(JitTest, RejectsInvalidModules) {
  auto context = std::make_unique<llvm::LLVMContext>();
  std::string message;
  refcpu_status status = takeStatus(
      JitModule::create(std::move(context), nullptr, "entry").takeError(),
      REFCPU_OK, message);
  EXPECT_EQ(status, REFCPU_ERROR_JIT);
  EXPECT_EQ(message, "no module to compile");
}
} // namespace
