//===- Npy.h - Read and write NumPy .npy files ------------------*- C++ -*-===//
//
// The corpus stores kernel inputs and expected outputs as .npy files. This is
// a small reader/writer for the subset refcpu needs: format versions 1.0, 2.0
// and 3.0, little-endian, C order, boolean/integer/floating dtypes. bfloat16
// has no NumPy dtype; the corpus stores it as uint16 bit patterns.
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TOOLS_REFCPURUN_NPY_H
#define REFCPU_TOOLS_REFCPURUN_NPY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace refcpu {

/// Element types of the .npy files refcpu reads and writes.
enum class NpyDType { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64 };

/// Size of one element of `dtype` in bytes.
size_t getNpyElementSize(NpyDType dtype);

/// The NumPy `descr` string of `dtype`, e.g. "<f4" or "|b1".
llvm::StringRef getNpyDescr(NpyDType dtype);

/// Parses a NumPy `descr` string ("<f4", "|u1", "=i8", ...); std::nullopt when
/// it names no dtype of NpyDType. Big-endian descrs of multi-byte types are
/// rejected here too.
std::optional<NpyDType> parseNpyDescr(llvm::StringRef descr);

/// True for the integer dtypes (signed and unsigned; not bool).
bool isNpyInteger(NpyDType dtype);
/// True for F16, F32 and F64.
bool isNpyFloat(NpyDType dtype);

/// An n-dimensional array in C order. The data buffer is 64-byte aligned (the
/// kernels' pointer arguments may carry alignment hints) and owned; copies
/// are deep.
class NpyArray {
public:
  /// A zero-filled array. An empty shape is a 0-d array with one element.
  NpyArray(NpyDType dtype, std::vector<int64_t> shape);
  NpyArray(const NpyArray &other);
  NpyArray &operator=(const NpyArray &other);
  NpyArray(NpyArray &&other) noexcept = default;
  NpyArray &operator=(NpyArray &&other) noexcept = default;

  NpyDType getDType() const { return dtype; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  size_t getNumElements() const { return numElements; }
  size_t getElementSize() const { return getNpyElementSize(dtype); }
  size_t getSizeInBytes() const { return numElements * getElementSize(); }

  uint8_t *getData() { return data.get(); }
  const uint8_t *getData() const { return data.get(); }

  /// Element `index` (flat, C order) converted to double; integers beyond 2^53
  /// lose precision, bools read as 0 or 1.
  double getAsDouble(size_t index) const;
  /// Element `index` of an integer or bool array, sign- or zero-extended.
  /// Unsigned 64-bit values above INT64_MAX wrap.
  int64_t getAsInt64(size_t index) const;

  /// Multi-dimensional index of flat index `index`.
  std::vector<int64_t> unflattenIndex(size_t index) const;

private:
  struct AlignedFree {
    void operator()(uint8_t *ptr) const;
  };

  NpyDType dtype;
  std::vector<int64_t> shape;
  size_t numElements;
  std::unique_ptr<uint8_t[], AlignedFree> data;
};

/// Parses the contents of a .npy file. `name` only appears in error messages.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef contents,
                                  llvm::StringRef name = "<buffer>");

/// Reads the .npy file at `path`.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// The .npy encoding of `array` (version 1.0 unless the header needs 2.0).
std::string serializeNpy(const NpyArray &array);

/// Writes `array` to `path`.
llvm::Error writeNpy(llvm::StringRef path, const NpyArray &array);

} // namespace refcpu

#endif // REFCPU_TOOLS_REFCPURUN_NPY_H
