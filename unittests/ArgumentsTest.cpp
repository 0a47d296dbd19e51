//===- ArgumentsTest.cpp - Tests of launch argument checks and packing ----===//

#include "refcpu/Runtime/Arguments.h"
#include "refcpu/Runtime/Status.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace refcpu::runtime;

namespace {
refcpu_arg pointerArg(void *ptr) {
  refcpu_arg arg{};
  arg.kind = REFCPU_ARG_PTR;
  arg.value.ptr = ptr;
  return arg;
}

refcpu_arg intArg(refcpu_arg_kind kind, int64_t value) {
  refcpu_arg arg{};
  arg.kind = kind;
  arg.value.i = value;
  return arg;
}

refcpu_arg floatArg(refcpu_arg_kind kind, double value) {
  refcpu_arg arg{};
  arg.kind = kind;
  arg.value.f = value;
  return arg;
}

/// Status and message of packing `args` for `params`.
std::pair<refcpu_status, std::string>
packError(llvm::ArrayRef<refcpu_arg_kind> params,
          llvm::ArrayRef<refcpu_arg> args) {
  llvm::Expected<PackedArgs> packed = packArguments(params, args);
  if (packed)
    return {REFCPU_OK, ""};
  std::string message;
  refcpu_status status = takeStatus(packed.takeError(), REFCPU_OK, message);
  return {status, message};
}

template <typename T> T read(void *ptr) {
  T value;
  std::memcpy(&value, ptr, sizeof(T));
  return value;
}

TEST(ArgumentsTest, PacksEveryKindInItsOwnWidth) {
  float buffer[4] = {};
  const refcpu_arg_kind params[] = {
      REFCPU_ARG_PTR, REFCPU_ARG_I1,   REFCPU_ARG_I8,  REFCPU_ARG_I16,
      REFCPU_ARG_I32, REFCPU_ARG_I64,  REFCPU_ARG_F16, REFCPU_ARG_BF16,
      REFCPU_ARG_F32, REFCPU_ARG_F64};
  const refcpu_arg args[] = {
      pointerArg(buffer),
      intArg(REFCPU_ARG_I1, 1),
      intArg(REFCPU_ARG_I8, -5),
      intArg(REFCPU_ARG_I16, 65535), // Unsigned readings are accepted.
      intArg(REFCPU_ARG_I32, -100000),
      intArg(REFCPU_ARG_I64, int64_t(1) << 40),
      floatArg(REFCPU_ARG_F16, 1.0),
      floatArg(REFCPU_ARG_BF16, -2.0),
      floatArg(REFCPU_ARG_F32, 0.1),
      floatArg(REFCPU_ARG_F64, 0.1)};
  llvm::Expected<PackedArgs> packed = packArguments(params, args);
  REFCPU_ASSERT_OK(packed);
  llvm::ArrayRef<void *> ptrs = packed->getPointers();
  ASSERT_EQ(ptrs.size(), 10u);
  EXPECT_EQ(read<float *>(ptrs[0]), buffer);
  EXPECT_EQ(read<uint8_t>(ptrs[1]), 1);
  EXPECT_EQ(read<int8_t>(ptrs[2]), -5);
  EXPECT_EQ(read<uint16_t>(ptrs[3]), 65535);
  EXPECT_EQ(read<int32_t>(ptrs[4]), -100000);
  EXPECT_EQ(read<int64_t>(ptrs[5]), int64_t(1) << 40);
  EXPECT_EQ(read<uint16_t>(ptrs[6]), 0x3c00);
  EXPECT_EQ(read<uint16_t>(ptrs[7]), 0xc000);
  EXPECT_EQ(read<float>(ptrs[8]), 0.1f);
  EXPECT_EQ(read<double>(ptrs[9]), 0.1);

  // Moving the pack keeps its pointers valid.
  PackedArgs moved = std::move(*packed);
  EXPECT_EQ(read<int32_t>(moved.getPointers()[4]), -100000);
}

TEST(ArgumentsTest, RejectsAWrongCount) {
  const refcpu_arg_kind params[] = {REFCPU_ARG_PTR, REFCPU_ARG_I32};
  const refcpu_arg args[] = {intArg(REFCPU_ARG_I32, 1)};
  EXPECT_EQ(packError(params, args),
            std::make_pair(REFCPU_ERROR_INVALID_ARGUMENT,
                           std::string("expected 2 arguments, got 1")));
}

TEST(ArgumentsTest, RejectsAKindMismatch) {
  float buffer[1];
  const refcpu_arg_kind params[] = {REFCPU_ARG_PTR, REFCPU_ARG_I32,
                                    REFCPU_ARG_PTR};
  const refcpu_arg args[] = {pointerArg(buffer), intArg(REFCPU_ARG_I32, 1),
                             floatArg(REFCPU_ARG_F32, 1.0)};
  EXPECT_EQ(packError(params, args),
            std::make_pair(REFCPU_ERROR_INVALID_ARGUMENT,
                           std::string("argument 2: expected pointer, got f32")));
}

TEST(ArgumentsTest, RejectsNullPointers) {
  const refcpu_arg_kind params[] = {REFCPU_ARG_PTR};
  const refcpu_arg args[] = {pointerArg(nullptr)};
  EXPECT_EQ(packError(params, args).second, "argument 0: null pointer");
}

TEST(ArgumentsTest, RejectsValuesOutOfRange) {
  const refcpu_arg_kind i8[] = {REFCPU_ARG_I8};
  EXPECT_EQ(packError(i8, {intArg(REFCPU_ARG_I8, 256)}).second,
            "argument 0: value 256 does not fit in i8");
  EXPECT_EQ(packError(i8, {intArg(REFCPU_ARG_I8, -129)}).second,
            "argument 0: value -129 does not fit in i8");
  EXPECT_EQ(packError(i8, {intArg(REFCPU_ARG_I8, 255)}).first, REFCPU_OK);
  const refcpu_arg_kind i32[] = {REFCPU_ARG_I32};
  EXPECT_EQ(packError(i32, {intArg(REFCPU_ARG_I32, int64_t(1) << 32)}).second,
            "argument 0: value 4294967296 does not fit in i32");
  const refcpu_arg_kind i1[] = {REFCPU_ARG_I1};
  EXPECT_EQ(packError(i1, {intArg(REFCPU_ARG_I1, 2)}).second,
            "argument 0: i1 value must be 0 or 1, got 2");
}

TEST(ArgumentsTest, RejectsUnknownKinds) {
  const refcpu_arg_kind params[] = {REFCPU_ARG_I32};
  // A C caller can store any int in the kind; writing it through the enum
  // type here would itself be undefined.
  refcpu_arg arg = intArg(REFCPU_ARG_I32, 0);
  int unknownKind = 42;
  std::memcpy(&arg.kind, &unknownKind, sizeof(arg.kind));
  EXPECT_EQ(packError(params, {arg}).second,
            "argument 0: unknown argument kind 42");
}

TEST(ArgumentsTest, KindNames) {
  EXPECT_EQ(getArgKindName(REFCPU_ARG_PTR), "pointer");
  EXPECT_EQ(getArgKindName(REFCPU_ARG_BF16), "bf16");
  EXPECT_EQ(getArgKindName(99), "unknown kind 99");
}
} // namespace
