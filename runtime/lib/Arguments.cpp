//===- Arguments.cpp - Validate and pack launch arguments -----------------===//

#include "refcpu/Runtime/Arguments.h"

#include "refcpu/Runtime/HalfFloat.h"
#include "refcpu/Runtime/Status.h"

#include "llvm/ADT/Twine.h"

#include <cstring>

using namespace refcpu::runtime;

namespace {
/// Integer widths accept both signed and unsigned readings of their bits, so
/// that unsigned TTIR parameters (u32 is i32 in TTIR) can be passed too.
bool fitsWidth(int64_t value, unsigned bits) {
  if (bits >= 64)
    return true;
  return value >= -(int64_t(1) << (bits - 1)) &&
         value <= (int64_t(1) << bits) - 1;
}

template <typename T> void store(uint64_t &slot, T value) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "slot too small");
  std::memcpy(&slot, &value, sizeof(T));
}
} // namespace

std::string refcpu::runtime::getArgKindName(int kind) {
  switch (kind) {
  case REFCPU_ARG_PTR:
    return "pointer";
  case REFCPU_ARG_I1:
    return "i1";
  case REFCPU_ARG_I8:
    return "i8";
  case REFCPU_ARG_I16:
    return "i16";
  case REFCPU_ARG_I32:
    return "i32";
  case REFCPU_ARG_I64:
    return "i64";
  case REFCPU_ARG_F16:
    return "f16";
  case REFCPU_ARG_BF16:
    return "bf16";
  case REFCPU_ARG_F32:
    return "f32";
  case REFCPU_ARG_F64:
    return "f64";
  }
  return "unknown kind " + std::to_string(kind);
}

llvm::Expected<PackedArgs>
refcpu::runtime::packArguments(llvm::ArrayRef<refcpu_arg_kind> params,
                               llvm::ArrayRef<refcpu_arg> args) {
  if (args.size() != params.size())
    return makeStatusError(REFCPU_ERROR_INVALID_ARGUMENT,
                           "expected " + llvm::Twine(params.size()) +
                               " arguments, got " + llvm::Twine(args.size()));
  PackedArgs packed;
  packed.storage.assign(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const refcpu_arg &arg = args[i];
    auto fail = [&](const llvm::Twine &message) {
      return makeStatusError(REFCPU_ERROR_INVALID_ARGUMENT,
                             "argument " + llvm::Twine(i) + ": " + message);
    };
    int rawKind = getRawEnumValue(arg.kind);
    if (rawKind < REFCPU_ARG_PTR || rawKind > REFCPU_ARG_F64)
      return fail("unknown argument kind " + llvm::Twine(rawKind));
    if (arg.kind != params[i])
      return fail("expected " + getArgKindName(params[i]) + ", got " +
                  getArgKindName(arg.kind));
    uint64_t &slot = packed.storage[i];
    switch (arg.kind) {
    case REFCPU_ARG_PTR:
      if (!arg.value.ptr)
        return fail("null pointer");
      store(slot, arg.value.ptr);
      break;
    case REFCPU_ARG_I1:
      if (arg.value.i != 0 && arg.value.i != 1)
        return fail("i1 value must be 0 or 1, got " + llvm::Twine(arg.value.i));
      store(slot, static_cast<uint8_t>(arg.value.i));
      break;
    case REFCPU_ARG_I8:
    case REFCPU_ARG_I16:
    case REFCPU_ARG_I32:
    case REFCPU_ARG_I64: {
      unsigned bits = arg.kind == REFCPU_ARG_I8    ? 8
                      : arg.kind == REFCPU_ARG_I16 ? 16
                      : arg.kind == REFCPU_ARG_I32 ? 32
                                                   : 64;
      if (!fitsWidth(arg.value.i, bits))
        return fail("value " + llvm::Twine(arg.value.i) + " does not fit in " +
                    getArgKindName(arg.kind));
      if (bits == 8)
        store(slot, static_cast<int8_t>(arg.value.i));
      else if (bits == 16)
        store(slot, static_cast<int16_t>(arg.value.i));
      else if (bits == 32)
        store(slot, static_cast<int32_t>(arg.value.i));
      else
        store(slot, arg.value.i);
      break;
    }
    case REFCPU_ARG_F16:
      store(slot, roundToHalfBits(arg.value.f));
      break;
    case REFCPU_ARG_BF16:
      store(slot, roundToBFloat16Bits(arg.value.f));
      break;
    case REFCPU_ARG_F32:
      store(slot, static_cast<float>(arg.value.f));
      break;
    case REFCPU_ARG_F64:
      store(slot, arg.value.f);
      break;
    }
  }
  for (uint64_t &slot : packed.storage)
    packed.pointers.push_back(&slot);
  return packed;
}
