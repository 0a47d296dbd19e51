//===- Arguments.h - Validate and pack launch arguments ---------*- C++ -*-===//
//
// Turns the refcpu_arg array of the C API into the storage the packed entry
// reads: pointers as 8-byte addresses, scalars in their own width. Everything
// is checked against the kernel's signature first, so that a bad launch
// touches no memory.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_RUNTIME_ARGUMENTS_H
#define REFCPU_RUNTIME_ARGUMENTS_H

#include "refcpu/refcpu.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace refcpu::runtime {

/// The integer a caller stored in a field of C enum type `Enum`. A caller
/// may store any int there; loading a value outside the enum's range as the
/// enum is undefined in C++, so validation reads the raw bits.
template <typename Enum> int getRawEnumValue(const Enum &field) {
  static_assert(sizeof(Enum) == sizeof(int), "C enums of the ABI are ints");
  int value;
  std::memcpy(&value, &field, sizeof(value));
  return value;
}

/// The name of an argument kind as TTIR spells it ("pointer", "i32", "f16",
/// ...), or "unknown kind N" for values outside the enum. Takes the raw
/// value (see getRawEnumValue): an out-of-range enum value is undefined.
std::string getArgKindName(int kind);

/// Storage for one launch's arguments and the pointers to it.
class PackedArgs {
public:
  PackedArgs(PackedArgs &&) = default;
  PackedArgs &operator=(PackedArgs &&) = default;

  /// args[i] of the packed entry, for the TTIR parameters only.
  llvm::ArrayRef<void *> getPointers() const { return pointers; }

private:
  friend llvm::Expected<PackedArgs>
  packArguments(llvm::ArrayRef<refcpu_arg_kind>, llvm::ArrayRef<refcpu_arg>);
  PackedArgs() = default;

  /// One 8-byte slot per argument; a moved vector keeps its buffer, so the
  /// pointers stay valid across moves.
  std::vector<uint64_t> storage;
  std::vector<void *> pointers;
};

/// Checks `args` against the kernel parameters `params` and packs them.
/// Kinds must match exactly, pointers must be non-null, integers must fit
/// their width (signed or unsigned: -128..255 for i8), i1 must be 0 or 1;
/// f16/bf16 values are rounded to nearest even. Errors are StatusErrors with
/// REFCPU_ERROR_INVALID_ARGUMENT naming the argument by its index ("argument
/// 2: expected pointer, got f32"; the Python package adds the names).
llvm::Expected<PackedArgs>
packArguments(llvm::ArrayRef<refcpu_arg_kind> params,
              llvm::ArrayRef<refcpu_arg> args);

} // namespace refcpu::runtime

#endif // REFCPU_RUNTIME_ARGUMENTS_H
