//===- NpyTest.cpp - Tests of the .npy reader and writer ------------------===//

#include "Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "TestUtils.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace refcpu;

namespace {
/// A .npy file with the given version, header dict and payload.
std::string makeNpy(unsigned major, llvm::StringRef dict,
                    llvm::StringRef payload) {
  std::string header = dict.str() + "\n";
  std::string result = "\x93NUMPY";
  result.push_back(static_cast<char>(major));
  result.push_back(0);
  size_t length = header.size();
  unsigned lengthBytes = major == 1 ? 2 : 4;
  for (unsigned i = 0; i < lengthBytes; ++i)
    result.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
  return result + header + payload.str();
}

std::string errorOf(llvm::Expected<NpyArray> result) {
  return unittest::errorString(std::move(result));
}

TEST(NpyTest, RoundTripsEveryDType) {
  const NpyDType dtypes[] = {NpyDType::Bool, NpyDType::I8,  NpyDType::U8,
                             NpyDType::I16,  NpyDType::U16, NpyDType::I32,
                             NpyDType::U32,  NpyDType::I64, NpyDType::U64,
                             NpyDType::F16,  NpyDType::F32, NpyDType::F64};
  for (NpyDType dtype : dtypes) {
    NpyArray array(dtype, {2, 3});
    for (size_t i = 0; i < array.getSizeInBytes(); ++i)
      array.getData()[i] =
          dtype == NpyDType::Bool ? i % 2 : static_cast<uint8_t>(i * 7 + 1);
    llvm::Expected<NpyArray> parsed = parseNpy(serializeNpy(array));
    REFCPU_ASSERT_OK(parsed);
    EXPECT_EQ(parsed->getDType(), dtype);
    EXPECT_EQ(parsed->getShape().vec(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(0, std::memcmp(parsed->getData(), array.getData(),
                             array.getSizeInBytes()));
  }
}

TEST(NpyTest, WritesNumPysLayout) {
  // numpy.save(f, numpy.zeros(3, numpy.float32)) writes exactly this header.
  std::string bytes = serializeNpy(NpyArray(NpyDType::F32, {3}));
  ASSERT_EQ(bytes.size(), 128u + 12u);
  EXPECT_EQ(llvm::StringRef(bytes).substr(0, 8), llvm::StringRef("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(bytes[8], 118);
  EXPECT_EQ(bytes[9], 0);
  EXPECT_TRUE(llvm::StringRef(bytes).substr(10).starts_with(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }   "));
  EXPECT_EQ(bytes[127], '\n');
}

TEST(NpyTest, ZeroDimensionalAndEmptyArrays) {
  NpyArray scalar(NpyDType::F64, {});
  EXPECT_EQ(scalar.getNumElements(), 1u);
  llvm::Expected<NpyArray> parsed = parseNpy(serializeNpy(scalar));
  REFCPU_ASSERT_OK(parsed);
  EXPECT_TRUE(parsed->getShape().empty());
  EXPECT_EQ(parsed->getNumElements(), 1u);

  NpyArray empty(NpyDType::I32, {4, 0});
  EXPECT_EQ(empty.getNumElements(), 0u);
  EXPECT_NE(empty.getData(), nullptr);
  parsed = parseNpy(serializeNpy(empty));
  REFCPU_ASSERT_OK(parsed);
  EXPECT_EQ(parsed->getShape().vec(), (std::vector<int64_t>{4, 0}));
}

TEST(NpyTest, ParsesVersions2And3AndDoubleQuotes) {
  std::string payload(8, '\0');
  payload[0] = 1;
  payload[4] = 2;
  for (unsigned major : {2u, 3u}) {
    llvm::Expected<NpyArray> parsed = parseNpy(makeNpy(
        major, "{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (2,)}",
        payload));
    REFCPU_ASSERT_OK(parsed);
    EXPECT_EQ(parsed->getAsInt64(0), 1);
    EXPECT_EQ(parsed->getAsInt64(1), 2);
  }
}

TEST(NpyTest, DataIsAligned) {
  llvm::Expected<NpyArray> parsed =
      parseNpy(makeNpy(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }",
                       "abc"));
  REFCPU_ASSERT_OK(parsed);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(parsed->getData()) % 64, 0u);
}

TEST(NpyTest, ReportsErrors) {
  const char *f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  std::string eightBytes(8, '\0');
  EXPECT_EQ(errorOf(parseNpy("PK\x03\x04 not npy", "x.npy")),
            "x.npy: not a .npy file (bad magic string)");
  EXPECT_EQ(errorOf(parseNpy(makeNpy(4, f4, eightBytes), "x.npy")),
            "x.npy: unsupported .npy format version 4.0");
  EXPECT_EQ(
      errorOf(parseNpy(
          makeNpy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }",
                  eightBytes),
          "x.npy")),
      "x.npy: Fortran-order arrays are not supported; save the array in C "
      "order (numpy.ascontiguousarray)");
  EXPECT_EQ(
      errorOf(parseNpy(
          makeNpy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
                  eightBytes),
          "x.npy")),
      "x.npy: big-endian dtype '>f4' is not supported; convert it to "
      "little-endian");
  EXPECT_TRUE(llvm::StringRef(
                  errorOf(parseNpy(makeNpy(1,
                                           "{'descr': '<c8', 'fortran_order': "
                                           "False, 'shape': (1,), }",
                                           eightBytes),
                                   "x.npy")))
                  .starts_with("x.npy: unsupported dtype '<c8' (supported: "));
  EXPECT_EQ(errorOf(parseNpy(makeNpy(1, f4, "1234567"), "x.npy")),
            "x.npy: truncated data: the header promises 8 bytes, the file "
            "holds 7");
  EXPECT_EQ(errorOf(parseNpy(makeNpy(1, f4, "123456789"), "x.npy")),
            "x.npy: 1 unexpected bytes after the data");
  EXPECT_EQ(errorOf(parseNpy(makeNpy(1, f4, eightBytes).substr(0, 30), "x.npy")),
            "x.npy: truncated inside the header");
  EXPECT_EQ(errorOf(parseNpy(makeNpy(1, "{'descr': '<f4', 'shape': (2,)}",
                                     eightBytes),
                             "x.npy")),
            "x.npy: malformed header: header lacks 'descr', 'fortran_order' "
            "or 'shape'");
  EXPECT_EQ(errorOf(parseNpy(makeNpy(1,
                                     "{'descr': '<f4', 'fortran_order': "
                                     "False, 'shape': (-2,), }",
                                     eightBytes),
                             "x.npy")),
            "x.npy: malformed header: expected a non-negative integer in the "
            "shape");
}

TEST(NpyTest, SingleByteTypesIgnoreByteOrder) {
  llvm::Expected<NpyArray> parsed = parseNpy(makeNpy(
      1, "{'descr': '>i1', 'fortran_order': False, 'shape': (1,), }", "\xff"));
  REFCPU_ASSERT_OK(parsed);
  EXPECT_EQ(parsed->getAsInt64(0), -1);
}

TEST(NpyTest, ConvertsElements) {
  NpyArray half(NpyDType::F16, {3});
  const uint16_t bits[] = {0x3c00, 0xc000, 0x0001}; // 1, -2, 2^-24
  std::memcpy(half.getData(), bits, sizeof(bits));
  EXPECT_EQ(half.getAsDouble(0), 1.0);
  EXPECT_EQ(half.getAsDouble(1), -2.0);
  EXPECT_EQ(half.getAsDouble(2), 0x1p-24);

  NpyArray bytes(NpyDType::I8, {2, 2});
  bytes.getData()[3] = 0x80;
  EXPECT_EQ(bytes.getAsInt64(3), -128);
  EXPECT_EQ(bytes.getAsDouble(3), -128.0);
  EXPECT_EQ(bytes.unflattenIndex(3), (std::vector<int64_t>{1, 1}));
}

TEST(NpyTest, CopiesAreDeep) {
  NpyArray original(NpyDType::U8, {4});
  NpyArray copy = original;
  copy.getData()[0] = 9;
  EXPECT_EQ(original.getData()[0], 0);
  EXPECT_EQ(copy.getData()[0], 9);
}

TEST(NpyTest, ReadsAndWritesFiles) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("refcpu-npy", dir));
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, "a.npy");

  NpyArray array(NpyDType::F32, {2, 2});
  float values[] = {1.5f, -2.0f, 0.25f, 8.0f};
  std::memcpy(array.getData(), values, sizeof(values));
  ASSERT_EQ(unittest::errorString(writeNpy(path, array)), "");
  llvm::Expected<NpyArray> read = readNpy(path);
  REFCPU_ASSERT_OK(read);
  EXPECT_EQ(read->getAsDouble(1), -2.0);
  EXPECT_EQ(read->getAsDouble(3), 8.0);

  llvm::SmallString<128> missing(dir);
  llvm::sys::path::append(missing, "missing.npy");
  EXPECT_TRUE(llvm::StringRef(errorOf(readNpy(missing)))
                  .contains("missing.npy: cannot read: "));

  llvm::sys::fs::remove(path);
  llvm::sys::fs::remove(dir);
}
} // namespace
