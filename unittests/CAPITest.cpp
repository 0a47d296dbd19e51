//===- CAPITest.cpp - Tests of the C API in librefcpu ---------------------===//
//
// Only refcpu.h is used, as a C application would. The kernel is a small
// hand-written TTIR elementwise kernel (out = x * a) with a scalar of each
// width class, so that these tests depend on the simplest lowering only.
//
//===----------------------------------------------------------------------===//

#include "refcpu/refcpu.h"

#include "gtest/gtest.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
constexpr const char *kScaleTTIR = R"mlir(
module {
  tt.func public @scale(%x_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %a: f32, %n: i32) {
    %c64 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c64 : i32
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %startv = tt.splat %start : i32 -> tensor<64xi32>
    %offs = arith.addi %startv, %range : tensor<64xi32>
    %nv = tt.splat %n : i32 -> tensor<64xi32>
    %mask = arith.cmpi slt, %offs, %nv : tensor<64xi32>
    %xb = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xp = tt.addptr %xb, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %x = tt.load %xp, %mask : tensor<64x!tt.ptr<f32>>
    %av = tt.splat %a : f32 -> tensor<64xf32>
    %y = arith.mulf %x, %av : tensor<64xf32>
    %ob = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %op = tt.addptr %ob, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %op, %y, %mask : tensor<64x!tt.ptr<f32>>
    tt.return
  }
}
)mlir";

/// Owns a kernel and the message of the last failing call.
class CAPITest : public ::testing::Test {
protected:
  void TearDown() override {
    refcpu_kernel_destroy(kernel);
    refcpu_free_error(error);
  }

  refcpu_status create(const char *ttir,
                       const refcpu_compile_options *options = nullptr) {
    refcpu_free_error(error);
    error = nullptr;
    return refcpu_kernel_create(ttir, std::strlen(ttir), options, &kernel,
                                &error);
  }

  refcpu_status launch(const std::vector<refcpu_arg> &args, uint32_t gx) {
    refcpu_free_error(error);
    error = nullptr;
    return refcpu_kernel_launch(kernel, args.data(), args.size(), gx, 1, 1,
                                &error);
  }

  std::string message() const { return error ? error : ""; }

  refcpu_kernel *kernel = nullptr;
  char *error = nullptr;
};

refcpu_arg pointerArg(void *ptr, uint64_t extent) {
  refcpu_arg arg{};
  arg.kind = REFCPU_ARG_PTR;
  arg.value.ptr = ptr;
  arg.extent_bytes = extent;
  return arg;
}

refcpu_arg scalarArg(refcpu_arg_kind kind, double f, int64_t i) {
  refcpu_arg arg{};
  arg.kind = kind;
  if (kind >= REFCPU_ARG_F16)
    arg.value.f = f;
  else
    arg.value.i = i;
  return arg;
}

struct Buffers {
  std::vector<float> x, out;
  explicit Buffers(size_t n) : x(n), out(n, -1.0f) {
    for (size_t i = 0; i < n; ++i)
      x[i] = static_cast<float>(i) * 0.5f;
  }
  std::vector<refcpu_arg> args(float a, int32_t n) {
    return {pointerArg(x.data(), x.size() * 4),
            pointerArg(out.data(), out.size() * 4),
            scalarArg(REFCPU_ARG_F32, a, 0), scalarArg(REFCPU_ARG_I32, 0, n)};
  }
};

TEST_F(CAPITest, Versions) {
  EXPECT_EQ(refcpu_abi_version(), REFCPU_ABI_VERSION);
  EXPECT_EQ(std::string(refcpu_version_string()).rfind("refcpu ", 0), 0u);
}

TEST_F(CAPITest, CompilesAndLaunches) {
  ASSERT_EQ(create(kScaleTTIR), REFCPU_OK) << message();
  ASSERT_NE(kernel, nullptr);
  EXPECT_STREQ(refcpu_kernel_name(kernel), "scale");
  ASSERT_EQ(refcpu_kernel_num_params(kernel), 4u);
  EXPECT_EQ(refcpu_kernel_param_kind(kernel, 0), REFCPU_ARG_PTR);
  EXPECT_EQ(refcpu_kernel_param_kind(kernel, 2), REFCPU_ARG_F32);
  EXPECT_EQ(refcpu_kernel_param_kind(kernel, 3), REFCPU_ARG_I32);
  EXPECT_EQ(static_cast<int>(refcpu_kernel_param_kind(kernel, 4)), -1);

  for (const char *threads : {"1", "3"}) {
    setenv("REFCPU_NUM_THREADS", threads, 1);
    const int32_t n = 1000;
    Buffers buffers(n + 1);
    ASSERT_EQ(launch(buffers.args(3.0f, n), (n + 63) / 64), REFCPU_OK)
        << message();
    for (int32_t i = 0; i < n; ++i)
      ASSERT_EQ(buffers.out[i], buffers.x[i] * 3.0f) << i;
    EXPECT_EQ(buffers.out[n], -1.0f) << "the mask must hold";
  }
  unsetenv("REFCPU_NUM_THREADS");
}

TEST_F(CAPITest, ReportsParameterNamesAndTypes) {
  ASSERT_EQ(create(kScaleTTIR), REFCPU_OK) << message();
  EXPECT_STREQ(refcpu_kernel_param_name(kernel, 0), "x_ptr");
  EXPECT_STREQ(refcpu_kernel_param_name(kernel, 3), "n");
  EXPECT_STREQ(refcpu_kernel_param_type(kernel, 1), "!tt.ptr<f32>");
  EXPECT_STREQ(refcpu_kernel_param_type(kernel, 2), "f32");
  EXPECT_STREQ(refcpu_kernel_param_type(kernel, 3), "i32");
  EXPECT_STREQ(refcpu_kernel_param_pointee_type(kernel, 0), "f32");
  EXPECT_EQ(refcpu_kernel_param_pointee_type(kernel, 2), nullptr);
  EXPECT_EQ(refcpu_kernel_param_name(kernel, 4), nullptr);
  EXPECT_EQ(refcpu_kernel_param_type(kernel, 4), nullptr);
  EXPECT_EQ(refcpu_kernel_param_pointee_type(kernel, 4), nullptr);
  EXPECT_EQ(refcpu_kernel_param_name(nullptr, 0), nullptr);

  // Triton's own output: argument attributes and locations after each name,
  // which the names must not pick up.
  refcpu_kernel_destroy(kernel);
  ASSERT_EQ(create(R"mlir(
#loc = loc("kernels.py":3:0)
module {
  tt.func public @empty(%in_ptr: !tt.ptr<bf16> {tt.divisibility = 16 : i32} loc("in_ptr"(#loc)), %flags: !tt.ptr<i8, 0> loc("flags"(#loc)), %scale$1: f64 loc("scale"(#loc))) attributes {noinline = false} {
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
)mlir"),
            REFCPU_OK)
      << message();
  EXPECT_STREQ(refcpu_kernel_param_name(kernel, 0), "in_ptr");
  EXPECT_STREQ(refcpu_kernel_param_name(kernel, 1), "flags");
  EXPECT_STREQ(refcpu_kernel_param_name(kernel, 2), "scale$1");
  EXPECT_STREQ(refcpu_kernel_param_type(kernel, 0), "!tt.ptr<bf16>");
  EXPECT_STREQ(refcpu_kernel_param_type(kernel, 1), "!tt.ptr<i8, 0>");
  EXPECT_STREQ(refcpu_kernel_param_pointee_type(kernel, 0), "bf16");
  EXPECT_STREQ(refcpu_kernel_param_pointee_type(kernel, 1), "i8");
  EXPECT_STREQ(refcpu_kernel_param_type(kernel, 2), "f64");
}

TEST_F(CAPITest, ReportsCompileErrors) {
  EXPECT_EQ(create("this is not MLIR"), REFCPU_ERROR_COMPILE);
  EXPECT_EQ(kernel, nullptr);
  EXPECT_FALSE(message().empty());

  refcpu_compile_options options;
  refcpu_compile_options_init(&options);
  options.kernel_name = "no_such_kernel";
  EXPECT_EQ(create(kScaleTTIR, &options), REFCPU_ERROR_COMPILE);
  EXPECT_NE(message().find("no_such_kernel"), std::string::npos) << message();
}

// The text is a pointer and a size: nothing may be read past the size, even
// when the text ends inside a string (found by refcpu-fuzz: MLIR's lexer
// reads up to a NUL byte). The text ends at a page followed by an
// inaccessible one, so a read past it faults.
TEST_F(CAPITest, ReadsNothingPastTheText) {
  const std::string text = "module {\n  tt.func public @k() loc(\"unterminated";
  long page = sysconf(_SC_PAGESIZE);
  void *pages = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  char *guard = static_cast<char *>(pages) + page;
  ASSERT_EQ(mprotect(guard, page, PROT_NONE), 0);
  char *start = guard - text.size();
  std::memcpy(start, text.data(), text.size());
  refcpu_status status =
      refcpu_kernel_create(start, text.size(), nullptr, &kernel, &error);
  munmap(pages, 2 * page);
  EXPECT_EQ(status, REFCPU_ERROR_COMPILE);
  EXPECT_NE(message().find("expected '\"' in string literal"), std::string::npos)
      << message();
}

TEST_F(CAPITest, ChecksOptions) {
  refcpu_compile_options options;
  refcpu_compile_options_init(&options);
  EXPECT_EQ(options.preset, REFCPU_PRESET_FAST);
  EXPECT_EQ(options.kernel_name, nullptr);

  options.struct_size = sizeof(options) + 8;
  EXPECT_EQ(create(kScaleTTIR, &options), REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(message().find("struct_size"), std::string::npos);

  refcpu_compile_options_init(&options);
  options.preset = static_cast<refcpu_preset>(7);
  EXPECT_EQ(create(kScaleTTIR, &options), REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message(), "refcpu_kernel_create: unknown preset 7");

  // An older caller that only knows struct_size and preset.
  refcpu_compile_options_init(&options);
  options.preset = REFCPU_PRESET_REFERENCE;
  options.struct_size = offsetof(refcpu_compile_options, kernel_name);
  options.kernel_name = "garbage that must not be read";
  EXPECT_EQ(create(kScaleTTIR, &options), REFCPU_OK) << message();
}

TEST_F(CAPITest, DebugModeDefaultsToTheEnvironmentAndRuns) {
  refcpu_compile_options options;
  setenv("REFCPU_DEBUG", "1", 1);
  refcpu_compile_options_init(&options);
  EXPECT_EQ(options.debug, 1);
  setenv("REFCPU_DEBUG", "0", 1);
  refcpu_compile_options_init(&options);
  EXPECT_EQ(options.debug, 0);
  unsetenv("REFCPU_DEBUG");
  refcpu_compile_options_init(&options);
  EXPECT_EQ(options.debug, 0);

  // Unoptimized code computes what optimized code does.
  options.debug = 1;
  ASSERT_EQ(create(kScaleTTIR, &options), REFCPU_OK) << message();
  Buffers buffers(100);
  ASSERT_EQ(launch(buffers.args(3.0f, 100), 2), REFCPU_OK) << message();
  for (size_t i = 0; i < 100; ++i)
    EXPECT_EQ(buffers.out[i], buffers.x[i] * 3.0f) << i;
}

TEST_F(CAPITest, ValidatesLaunchArguments) {
  ASSERT_EQ(create(kScaleTTIR), REFCPU_OK) << message();
  Buffers buffers(64);
  std::vector<refcpu_arg> args = buffers.args(2.0f, 64);

  std::vector<refcpu_arg> tooFew(args.begin(), args.end() - 1);
  EXPECT_EQ(launch(tooFew, 1), REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message(), "expected 4 arguments, got 3");

  std::vector<refcpu_arg> wrongKind = args;
  wrongKind[1] = scalarArg(REFCPU_ARG_F32, 1.0, 0);
  EXPECT_EQ(launch(wrongKind, 1), REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message(), "argument 1: expected pointer, got f32");

  std::vector<refcpu_arg> nullPointer = args;
  nullPointer[0].value.ptr = nullptr;
  EXPECT_EQ(launch(nullPointer, 1), REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message(), "argument 0: null pointer");

  EXPECT_EQ(launch(args, 0), REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message(), "grid (0, 1, 1): x must be in [1, 2147483647]");

  // None of the failed launches ran a program.
  for (float value : buffers.out)
    ASSERT_EQ(value, -1.0f);

  EXPECT_EQ(refcpu_kernel_launch(nullptr, args.data(), args.size(), 1, 1, 1,
                                 nullptr),
            REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(refcpu_kernel_launch(kernel, nullptr, 4, 1, 1, 1, nullptr),
            REFCPU_ERROR_INVALID_ARGUMENT);
}
} // namespace

namespace {
std::string readFile(const std::string &path) {
  std::string text;
  if (FILE *file = std::fopen(path.c_str(), "rb")) {
    char buffer[4096];
    size_t size;
    while ((size = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
      text.append(buffer, size);
    std::fclose(file);
  }
  return text;
}

void writeFile(const std::string &path, const std::string &text) {
  FILE *file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr) << path;
  std::fwrite(text.data(), 1, text.size(), file);
  std::fclose(file);
}

/// A fresh directory under TMPDIR (or /tmp), for the test's files.
std::string makeTempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") +
                        "/refcpu-aot-XXXXXX";
  char *made = mkdtemp(pattern.data());
  return made ? made : "";
}
} // namespace

TEST_F(CAPITest, CompilesAheadOfTime) {
  std::string dir = makeTempDir();
  ASSERT_FALSE(dir.empty());
  std::string object = dir + "/scale.o", header = dir + "/scale.h";
  refcpu_status status =
      refcpu_compile_aot(kScaleTTIR, std::strlen(kScaleTTIR), nullptr,
                         object.c_str(), header.c_str(), &error);
  ASSERT_EQ(status, REFCPU_OK) << message();
  EXPECT_EQ(readFile(object).substr(0, 4), "\x7f" "ELF");
  std::string text = readFile(header);
  EXPECT_NE(text.find("static inline refcpu_status scale_launch(refcpu_grid "
                      "grid,\n    const float *x_ptr,\n    float *out_ptr,\n"
                      "    float a,\n    int32_t n)"),
            std::string::npos)
      << text;

  // A failed compilation leaves the files that were there as they were.
  writeFile(object, "previous object");
  status = refcpu_compile_aot("module {", 8, nullptr, object.c_str(),
                              header.c_str(), &error);
  EXPECT_EQ(status, REFCPU_ERROR_COMPILE);
  EXPECT_EQ(readFile(object), "previous object");
  EXPECT_EQ(readFile(header), text);
  refcpu_free_error(error);
  error = nullptr;

  EXPECT_EQ(refcpu_compile_aot(kScaleTTIR, std::strlen(kScaleTTIR), nullptr,
                               nullptr, nullptr, &error),
            REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message(), "refcpu_compile_aot: `object_path` is NULL or empty");
  refcpu_free_error(error);
  error = nullptr;

  std::string missingDir = dir + "/no/such/dir/scale.o";
  EXPECT_EQ(refcpu_compile_aot(kScaleTTIR, std::strlen(kScaleTTIR), nullptr,
                               missingDir.c_str(), nullptr, &error),
            REFCPU_ERROR_COMPILE);
  EXPECT_NE(message().find(missingDir), std::string::npos) << message();

  std::remove(object.c_str());
  std::remove(header.c_str());
  rmdir(dir.c_str());
}

TEST_F(CAPITest, TargetCPUIsForAheadOfTimeOnly) {
  refcpu_compile_options options;
  refcpu_compile_options_init(&options);
  EXPECT_EQ(options.target_cpu, nullptr);
  options.target_cpu = "x86-64";
  EXPECT_EQ(create(kScaleTTIR, &options), REFCPU_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(message(), "refcpu_kernel_create: options.target_cpu is for "
                       "refcpu_compile_aot; JIT-compiled code runs on this "
                       "host");
}
