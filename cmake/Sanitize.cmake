# REFCPU_SANITIZE: a comma-separated list of clang sanitizers
# (e.g. "address,undefined") for every refcpu target. The sanitizer runtime
# is linked as a shared library (-shared-libsan): librefcpu.so is linked
# with --no-undefined, which the static runtime's symbols, left for the
# executable to provide, would break. Python tests then need that runtime
# preloaded: test/Python/CMakeLists.txt does it for the python test.
#
# REFCPU_FUZZ=ON also instruments refcpu's code for libFuzzer's coverage
# feedback and builds the fuzz target tools/refcpu-fuzz (scripts/fuzz.sh).
set(REFCPU_SANITIZE "" CACHE STRING
    "Sanitizers to build with (clang -fsanitize=...), e.g. address,undefined")
if(REFCPU_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "REFCPU_SANITIZE needs clang (scripts/build.sh uses clang-22)")
  endif()
  # Undefined behaviour stops the test that hit it instead of printing and
  # carrying on, so a sanitized ctest run fails on it.
  add_compile_options(-fsanitize=${REFCPU_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=${REFCPU_SANITIZE} -shared-libsan)
  # The shared runtime lives in clang's resource directory, which is not on
  # the loader's path: every sanitized binary records it as an rpath.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                  OUTPUT_VARIABLE _refcpu_asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(_refcpu_sanitizer_dir "${_refcpu_asan_runtime}" DIRECTORY)
  add_link_options("-Wl,-rpath,${_refcpu_sanitizer_dir}")
endif()

option(REFCPU_FUZZ "Build the libFuzzer target refcpu-fuzz (needs clang)" OFF)
if(REFCPU_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "REFCPU_FUZZ needs clang (scripts/build.sh uses clang-22)")
  endif()
  # The coverage callbacks come from the shared sanitizer runtime, which
  # librefcpu.so (linked with --no-undefined) must see.
  if(NOT REFCPU_SANITIZE MATCHES "address")
    message(FATAL_ERROR "REFCPU_FUZZ needs REFCPU_SANITIZE with address")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
