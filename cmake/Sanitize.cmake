# REFCPU_SANITIZE: a comma-separated list of clang sanitizers
# (e.g. "address,undefined") for every refcpu target. The sanitizer runtime
# is linked as a shared library (-shared-libsan): librefcpu.so is linked
# with --no-undefined, which the static runtime's symbols, left for the
# executable to provide, would break. Python tests then need that runtime
# preloaded: scripts/test-sanitized.sh does it.
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
endif()
