//===- Npy.cpp - Read and write NumPy .npy files --------------------------===//
//
// Format reference: numpy/lib/format.py. A file is the magic "\x93NUMPY", a
// version (major, minor), a little-endian header length (2 bytes in 1.0, 4 in
// 2.0/3.0), a Python dict literal with 'descr', 'fortran_order' and 'shape',
// and then the raw data.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>
#include <cstring>

using namespace refcpu;

namespace {
constexpr llvm::StringLiteral kMagic("\x93NUMPY");
constexpr size_t kAlignment = 64;

struct DTypeInfo {
  NpyDType dtype;
  char kind; // NumPy kind character: b, i, u, f.
  size_t size;
};

constexpr DTypeInfo kDTypes[] = {
    {NpyDType::Bool, 'b', 1}, {NpyDType::I8, 'i', 1},  {NpyDType::U8, 'u', 1},
    {NpyDType::I16, 'i', 2},  {NpyDType::U16, 'u', 2}, {NpyDType::I32, 'i', 4},
    {NpyDType::U32, 'u', 4},  {NpyDType::I64, 'i', 8}, {NpyDType::U64, 'u', 8},
    {NpyDType::F16, 'f', 2},  {NpyDType::F32, 'f', 4}, {NpyDType::F64, 'f', 8},
};

const DTypeInfo &getInfo(NpyDType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return info;
  llvm_unreachable("unknown NpyDType");
}

/// Decodes IEEE binary16 bits exactly.
double halfBitsToDouble(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  if (exponent == 0)
    return sign * std::ldexp(mantissa, -24);
  if (exponent == 0x1f)
    return mantissa ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(mantissa | 0x400, exponent - 25);
}

/// A recursive-descent parser for the header: a Python dict literal whose
/// values are strings, booleans or tuples of integers.
class HeaderParser {
public:
  explicit HeaderParser(llvm::StringRef text) : rest(text) {}

  /// Parses the whole dict into `descr`, `fortranOrder` and `shape`.
  llvm::Error parse(std::string &descr, bool &fortranOrder,
                    std::vector<int64_t> &shape) {
    bool seenDescr = false, seenOrder = false, seenShape = false;
    if (!consume('{'))
      return error("expected '{'");
    while (!consume('}')) {
      std::string key;
      if (llvm::Error err = parseString(key))
        return err;
      if (!consume(':'))
        return error("expected ':' after '" + key + "'");
      if (key == "descr") {
        if (llvm::Error err = parseString(descr))
          return err;
        seenDescr = true;
      } else if (key == "fortran_order") {
        if (llvm::Error err = parseBool(fortranOrder))
          return err;
        seenOrder = true;
      } else if (key == "shape") {
        if (llvm::Error err = parseShape(shape))
          return err;
        seenShape = true;
      } else {
        return error("unexpected key '" + key + "'");
      }
      if (!consume(',') && !peek('}'))
        return error("expected ',' or '}'");
    }
    skipSpace();
    if (!rest.empty())
      return error("unexpected text after the header dict");
    if (!seenDescr || !seenOrder || !seenShape)
      return error("header lacks 'descr', 'fortran_order' or 'shape'");
    return llvm::Error::success();
  }

private:
  void skipSpace() { rest = rest.ltrim(" \t\r\n"); }
  bool peek(char c) {
    skipSpace();
    return rest.starts_with(llvm::StringRef(&c, 1));
  }
  bool consume(char c) {
    if (!peek(c))
      return false;
    rest = rest.drop_front();
    return true;
  }

  llvm::Error error(const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "malformed header: " + message);
  }

  llvm::Error parseString(std::string &out) {
    skipSpace();
    if (rest.empty() || (rest[0] != '\'' && rest[0] != '"'))
      return error("expected a string");
    char quote = rest[0];
    size_t end = rest.find(quote, 1);
    if (end == llvm::StringRef::npos)
      return error("unterminated string");
    out = rest.slice(1, end).str();
    rest = rest.drop_front(end + 1);
    return llvm::Error::success();
  }

  llvm::Error parseBool(bool &out) {
    skipSpace();
    if (rest.consume_front("True"))
      out = true;
    else if (rest.consume_front("False"))
      out = false;
    else
      return error("expected True or False");
    return llvm::Error::success();
  }

  llvm::Error parseShape(std::vector<int64_t> &out) {
    out.clear();
    if (!consume('('))
      return error("expected '(' to start the shape");
    while (!consume(')')) {
      skipSpace();
      size_t digits = rest.find_first_not_of("0123456789");
      int64_t dim;
      if (digits == 0 || rest.substr(0, digits).getAsInteger(10, dim))
        return error("expected a non-negative integer in the shape");
      rest = rest.drop_front(digits);
      rest.consume_front("L"); // Python 2 long suffix.
      out.push_back(dim);
      if (!consume(',') && !peek(')'))
        return error("expected ',' or ')' in the shape");
    }
    return llvm::Error::success();
  }

  llvm::StringRef rest;
};

llvm::Error makeError(llvm::StringRef name, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 name + ": " + message);
}

std::string describeSupportedDTypes() {
  std::string result;
  for (const DTypeInfo &info : kDTypes) {
    if (!result.empty())
      result += ", ";
    result += getNpyDescr(info.dtype).str();
  }
  return result;
}
} // namespace

size_t refcpu::getNpyElementSize(NpyDType dtype) { return getInfo(dtype).size; }

llvm::StringRef refcpu::getNpyDescr(NpyDType dtype) {
  switch (dtype) {
  case NpyDType::Bool:
    return "|b1";
  case NpyDType::I8:
    return "|i1";
  case NpyDType::U8:
    return "|u1";
  case NpyDType::I16:
    return "<i2";
  case NpyDType::U16:
    return "<u2";
  case NpyDType::I32:
    return "<i4";
  case NpyDType::U32:
    return "<u4";
  case NpyDType::I64:
    return "<i8";
  case NpyDType::U64:
    return "<u8";
  case NpyDType::F16:
    return "<f2";
  case NpyDType::F32:
    return "<f4";
  case NpyDType::F64:
    return "<f8";
  }
  llvm_unreachable("unknown NpyDType");
}

std::optional<NpyDType> refcpu::parseNpyDescr(llvm::StringRef descr) {
  if (descr.size() < 3)
    return std::nullopt;
  char order = descr[0];
  char kind = descr[1];
  size_t size;
  if (descr.drop_front(2).getAsInteger(10, size))
    return std::nullopt;
  // '>' is only harmless for single-byte types, where byte order is moot.
  bool littleEndian = order == '<' || order == '=' || order == '|';
  if (!littleEndian && !(order == '>' && size == 1))
    return std::nullopt;
  for (const DTypeInfo &info : kDTypes)
    if (info.kind == kind && info.size == size)
      return info.dtype;
  return std::nullopt;
}

bool refcpu::isNpyInteger(NpyDType dtype) {
  char kind = getInfo(dtype).kind;
  return kind == 'i' || kind == 'u';
}

bool refcpu::isNpyFloat(NpyDType dtype) { return getInfo(dtype).kind == 'f'; }

void NpyArray::AlignedFree::operator()(uint8_t *ptr) const {
  llvm::deallocate_buffer(ptr, /*Size=*/0, kAlignment);
}

NpyArray::NpyArray(NpyDType dtype, std::vector<int64_t> shape)
    : dtype(dtype), shape(std::move(shape)), numElements(1) {
  for (int64_t dim : this->shape) {
    assert(dim >= 0 && "negative dimension");
    numElements *= static_cast<size_t>(dim);
  }
  // Never a null buffer, even for empty arrays: kernels reject null pointers.
  size_t bytes = llvm::alignTo(std::max<size_t>(getSizeInBytes(), 1), kAlignment);
  data.reset(static_cast<uint8_t *>(llvm::allocate_buffer(bytes, kAlignment)));
  std::memset(data.get(), 0, bytes);
}

NpyArray::NpyArray(const NpyArray &other) : NpyArray(other.dtype, other.shape) {
  std::memcpy(data.get(), other.data.get(), getSizeInBytes());
}

NpyArray &NpyArray::operator=(const NpyArray &other) {
  if (this != &other)
    *this = NpyArray(other);
  return *this;
}

double NpyArray::getAsDouble(size_t index) const {
  assert(index < numElements && "index out of range");
  const uint8_t *ptr = data.get() + index * getElementSize();
  auto load = [ptr](auto value) {
    std::memcpy(&value, ptr, sizeof(value));
    return value;
  };
  switch (dtype) {
  case NpyDType::Bool:
    return *ptr ? 1.0 : 0.0;
  case NpyDType::F16:
    return halfBitsToDouble(load(uint16_t()));
  case NpyDType::F32:
    return load(float());
  case NpyDType::F64:
    return load(double());
  case NpyDType::U64:
    return static_cast<double>(load(uint64_t()));
  default:
    return static_cast<double>(getAsInt64(index));
  }
}

int64_t NpyArray::getAsInt64(size_t index) const {
  assert(index < numElements && "index out of range");
  assert(!isNpyFloat(dtype) && "getAsInt64 on a floating-point array");
  const uint8_t *ptr = data.get() + index * getElementSize();
  auto load = [ptr](auto value) -> int64_t {
    std::memcpy(&value, ptr, sizeof(value));
    return static_cast<int64_t>(value);
  };
  switch (dtype) {
  case NpyDType::Bool:
    return *ptr ? 1 : 0;
  case NpyDType::I8:
    return load(int8_t());
  case NpyDType::U8:
    return load(uint8_t());
  case NpyDType::I16:
    return load(int16_t());
  case NpyDType::U16:
    return load(uint16_t());
  case NpyDType::I32:
    return load(int32_t());
  case NpyDType::U32:
    return load(uint32_t());
  case NpyDType::I64:
    return load(int64_t());
  case NpyDType::U64:
    return load(uint64_t());
  default:
    llvm_unreachable("not an integer dtype");
  }
}

std::vector<int64_t> NpyArray::unflattenIndex(size_t index) const {
  std::vector<int64_t> result(shape.size());
  for (size_t dim = shape.size(); dim-- > 0;) {
    result[dim] = static_cast<int64_t>(index % shape[dim]);
    index /= shape[dim];
  }
  return result;
}

llvm::Expected<NpyArray> refcpu::parseNpy(llvm::StringRef contents,
                                          llvm::StringRef name) {
  if (!contents.starts_with(kMagic))
    return makeError(name, "not a .npy file (bad magic string)");
  if (contents.size() < kMagic.size() + 2)
    return makeError(name, "truncated before the format version");
  unsigned major = static_cast<uint8_t>(contents[6]);
  unsigned minor = static_cast<uint8_t>(contents[7]);
  if (major < 1 || major > 3 || minor != 0)
    return makeError(name, "unsupported .npy format version " +
                               llvm::Twine(major) + "." + llvm::Twine(minor));
  size_t lengthSize = major == 1 ? 2 : 4;
  size_t prefix = kMagic.size() + 2 + lengthSize;
  if (contents.size() < prefix)
    return makeError(name, "truncated before the header length");
  const char *lengthPtr = contents.data() + 8;
  size_t headerLength =
      major == 1 ? llvm::support::endian::read16le(lengthPtr)
                 : llvm::support::endian::read32le(lengthPtr);
  if (contents.size() - prefix < headerLength)
    return makeError(name, "truncated inside the header");
  llvm::StringRef header = contents.substr(prefix, headerLength);

  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  if (llvm::Error err =
          HeaderParser(header).parse(descr, fortranOrder, shape))
    return makeError(name, llvm::toString(std::move(err)));
  if (fortranOrder)
    return makeError(name, "Fortran-order arrays are not supported; save the "
                           "array in C order (numpy.ascontiguousarray)");
  std::optional<NpyDType> dtype = parseNpyDescr(descr);
  if (!dtype) {
    if (descr.size() >= 3 && descr[0] == '>')
      return makeError(name, "big-endian dtype '" + descr +
                                 "' is not supported; convert it to "
                                 "little-endian");
    return makeError(name, "unsupported dtype '" + descr +
                               "' (supported: " + describeSupportedDTypes() +
                               ")");
  }

  // Check the byte count with overflow detection before allocating.
  size_t expectedBytes = getNpyElementSize(*dtype);
  for (int64_t dim : shape) {
    bool overflow = false;
    expectedBytes = llvm::SaturatingMultiply(
        expectedBytes, static_cast<size_t>(dim), &overflow);
    if (overflow)
      return makeError(name, "shape is too large");
  }
  llvm::StringRef payload = contents.drop_front(prefix + headerLength);
  if (payload.size() < expectedBytes)
    return makeError(name, "truncated data: the header promises " +
                               llvm::Twine(expectedBytes) +
                               " bytes, the file holds " +
                               llvm::Twine(payload.size()));
  if (payload.size() > expectedBytes)
    return makeError(name, llvm::Twine(payload.size() - expectedBytes) +
                               " unexpected bytes after the data");

  NpyArray array(*dtype, std::move(shape));
  std::memcpy(array.getData(), payload.data(), expectedBytes);
  return array;
}

llvm::Expected<NpyArray> refcpu::readNpy(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError(path, "cannot read: " + buffer.getError().message());
  return parseNpy((*buffer)->getBuffer(), path);
}

std::string refcpu::serializeNpy(const NpyArray &array) {
  std::string dict;
  llvm::raw_string_ostream os(dict);
  os << "{'descr': '" << getNpyDescr(array.getDType())
     << "', 'fortran_order': False, 'shape': (";
  llvm::interleave(array.getShape(), os, ", ");
  if (array.getShape().size() == 1)
    os << ",";
  os << "), }";

  // NumPy pads the header with spaces and a newline so that the data starts
  // at a multiple of 64 bytes.
  size_t unpadded = kMagic.size() + 2 + 2 + dict.size() + 1;
  bool needsV2 = llvm::alignTo(unpadded, kAlignment) - 10 > 0xffff;
  size_t lengthSize = needsV2 ? 4 : 2;
  size_t prefix = kMagic.size() + 2 + lengthSize;
  size_t headerLength =
      llvm::alignTo(prefix + dict.size() + 1, kAlignment) - prefix;
  dict.append(headerLength - dict.size() - 1, ' ');
  dict.push_back('\n');

  std::string result(kMagic);
  result.push_back(needsV2 ? 2 : 1);
  result.push_back(0);
  char length[4];
  if (needsV2)
    llvm::support::endian::write32le(length, headerLength);
  else
    llvm::support::endian::write16le(length, headerLength);
  result.append(length, lengthSize);
  result += dict;
  result.append(reinterpret_cast<const char *>(array.getData()),
                array.getSizeInBytes());
  return result;
}

llvm::Error refcpu::writeNpy(llvm::StringRef path, const NpyArray &array) {
  return llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    os << serializeNpy(array);
    return llvm::Error::success();
  });
}
