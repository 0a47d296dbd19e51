//===- CompareTest.cpp - Tests of allclose comparison and case.json -------===//

#include "Compare.h"
#include "CorpusCase.h"

#include "TestUtils.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace refcpu;

namespace {
template <typename T>
NpyArray makeArray(NpyDType dtype, std::vector<T> values) {
  NpyArray array(dtype, {static_cast<int64_t>(values.size())});
  std::memcpy(array.getData(), values.data(), values.size() * sizeof(T));
  return array;
}

CompareResult compare(const NpyArray &got, const NpyArray &expected,
                      CompareOptions options = {}) {
  llvm::Expected<CompareResult> result = compareArrays(got, expected, options);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return {};
  }
  return *result;
}

TEST(CompareTest, FloatsFollowAllclose) {
  CompareOptions options;
  options.atol = 1e-3;
  options.rtol = 1e-2;
  NpyArray expected = makeArray<float>(NpyDType::F32, {1.0f, 100.0f, NAN, INFINITY});
  // 1.0011 is within atol + rtol * 1; 100.9 within 1e-3 + 1.0.
  NpyArray close = makeArray<float>(NpyDType::F32, {1.0011f, 100.9f, NAN, INFINITY});
  CompareResult result = compare(close, expected, options);
  EXPECT_TRUE(result.matches());
  EXPECT_FALSE(result.exact);
  EXPECT_NEAR(result.maxAbsError, 0.9, 1e-4);

  NpyArray far = makeArray<float>(NpyDType::F32, {1.0f, 101.5f, 0.0f, -INFINITY});
  result = compare(far, expected, options);
  EXPECT_EQ(result.numMismatches, 3u);
  ASSERT_TRUE(result.firstMismatch.has_value());
  EXPECT_EQ(*result.firstMismatch, 1u);
  EXPECT_EQ(result.firstGot, 101.5);
  EXPECT_EQ(result.firstExpected, 100.0);
  EXPECT_TRUE(std::isinf(result.maxAbsError));
}

TEST(CompareTest, IntegersAndBoolsAreExact) {
  NpyArray expected = makeArray<int64_t>(NpyDType::I64, {1, -5, int64_t(1) << 60});
  NpyArray got = makeArray<int64_t>(NpyDType::I64, {1, -5, (int64_t(1) << 60) + 1});
  CompareOptions loose;
  loose.atol = 10;
  CompareResult result = compare(got, expected, loose);
  EXPECT_TRUE(result.exact);
  EXPECT_EQ(result.numMismatches, 1u);
  EXPECT_EQ(*result.firstMismatch, 2u);

  NpyArray bools = makeArray<uint8_t>(NpyDType::Bool, {0, 1, 2});
  NpyArray boolsExpected = makeArray<uint8_t>(NpyDType::Bool, {0, 1, 1});
  EXPECT_TRUE(compare(bools, boolsExpected).matches());
}

TEST(CompareTest, BFloat16BitsCompareAsValues) {
  // 0x3f80 = 1.0 and 0x3f81 = 1.0078125: one ulp apart.
  NpyArray expected = makeArray<uint16_t>(NpyDType::U16, {0x3f80, 0x4000});
  NpyArray got = makeArray<uint16_t>(NpyDType::U16, {0x3f81, 0x4000});
  CompareOptions options;
  options.bfloat16 = true;
  options.atol = 0;
  options.rtol = 1e-2;
  CompareResult result = compare(got, expected, options);
  EXPECT_TRUE(result.matches());
  EXPECT_EQ(result.maxAbsError, 0.0078125);
  options.rtol = 1e-3;
  EXPECT_FALSE(compare(got, expected, options).matches());
  // As plain integers the same arrays differ.
  EXPECT_FALSE(compare(got, expected).matches());
}

TEST(CompareTest, RejectsDifferentDTypesAndShapes) {
  NpyArray f32(NpyDType::F32, {4});
  NpyArray f64(NpyDType::F64, {4});
  NpyArray f32x2(NpyDType::F32, {2, 2});
  EXPECT_EQ(unittest::errorString(compareArrays(f32, f64, {})),
            "dtype mismatch: got <f4, expected <f8");
  EXPECT_EQ(unittest::errorString(compareArrays(f32, f32x2, {})),
            "shape mismatch: got (4), expected (2, 2)");
}

TEST(CorpusCaseTest, ParsesACase) {
  const char *json = R"({
    "name": "axpy", "kernel": "axpy_kernel", "grid": [4, 2, 1],
    "params": [
      {"name": "x_ptr", "kind": "ptr", "dtype": "bfloat16", "shape": [8, 2],
       "input": "arg0.npy"},
      {"name": "alpha", "kind": "scalar", "dtype": "fp32", "value": 0.5},
      {"name": "n", "kind": "scalar", "dtype": "i32", "value": 16}
    ],
    "outputs": [{"param": 0, "expected": "arg0.expected.npy", "atol": 0.01,
                 "rtol": 0.001}],
    "constexprs": {"BLOCK": 4}
  })";
  llvm::Expected<CorpusCase> parsed = parseCorpusCase(json, "case.json");
  REFCPU_ASSERT_OK(parsed);
  EXPECT_EQ(parsed->kernel, "axpy_kernel");
  EXPECT_EQ(parsed->grid, (std::array<uint32_t, 3>{4, 2, 1}));
  ASSERT_EQ(parsed->params.size(), 3u);
  EXPECT_TRUE(parsed->params[0].isPointer);
  EXPECT_EQ(parsed->params[0].shape, (std::vector<int64_t>{8, 2}));
  EXPECT_EQ(parsed->params[1].floatValue, 0.5);
  EXPECT_EQ(parsed->params[2].intValue, 16);
  ASSERT_EQ(parsed->outputs.size(), 1u);
  EXPECT_EQ(parsed->outputs[0].atol, 0.01);
  EXPECT_EQ(getStorageDType(parsed->params[0].dtype), NpyDType::U16);
  EXPECT_EQ(getStorageDType("complex64"), std::nullopt);
}

TEST(CorpusCaseTest, ReportsWhereTheProblemIs) {
  EXPECT_EQ(unittest::errorString(parseCorpusCase(
                R"({"name": "a", "kernel": "k", "grid": [1, 1],
                    "params": [], "outputs": []})",
                "case.json")),
            "case.json: grid: expected an array of 3 integers");
  EXPECT_EQ(unittest::errorString(parseCorpusCase(
                R"({"name": "a", "kernel": "k", "grid": [1, 1, 1],
                    "params": [{"name": "n", "kind": "scalar",
                                "dtype": "i32"}],
                    "outputs": []})",
                "case.json")),
            "case.json: params[0].value: missing");
  EXPECT_EQ(unittest::errorString(parseCorpusCase(
                R"({"name": "a", "kernel": "k", "grid": [1, 1, 1],
                    "params": [{"name": "n", "kind": "scalar",
                                "dtype": "i32", "value": 3}],
                    "outputs": [{"param": 0, "expected": "x.npy"}]})",
                "case.json")),
            "case.json: outputs[0].param: expected the index of a pointer "
            "param");
  EXPECT_TRUE(llvm::StringRef(unittest::errorString(
                                  parseCorpusCase("{", "case.json")))
                  .starts_with("case.json: invalid JSON: "));
}
} // namespace
