# REFCPU_SELF_CONTAINED: link librefcpu.so against the static MLIR*/LLVM*
# archives instead of Debian's libMLIR.so / libLLVM.so, so that the library
# can be copied to another Linux machine and loaded there with only system
# libraries (libc, libm, libstdc++, libgcc_s, libz, libzstd) present.
#
# Debian builds LLVM with LLVM_LINK_LLVM_DYLIB, so its exported static targets
# name the dylibs (`LLVM`, sometimes `MLIR`) in INTERFACE_LINK_LIBRARIES
# instead of their real component dependencies, and MLIRExecutionEngine lacks
# some of its own. Linking them as they are would pull both dylibs back in.
# This file therefore
#   1. rewrites those link lists on the imported MLIR*/LLVM* targets,
#   2. sets REFCPU_MLIR_LIBS to the static libraries,
#   3. at the end of configuration, replaces `LLVM` / `MLIR` wherever a
#      refcpu target links them directly, so no CMakeLists.txt of the project
#      has to know which mode it is built in,
#   4. adds a `refcpu-dist` target that writes a stripped, xz-compressed copy
#      of the library to <build>/dist/librefcpu.so.xz.
# Build it with
#   REFCPU_BUILD_DIR=build-static scripts/build.sh -DREFCPU_SELF_CONTAINED=ON
# (only the `refcpu` and `refcpu-dist` targets are meant for carrying).

option(REFCPU_SELF_CONTAINED
       "Link librefcpu.so statically against MLIR/LLVM (relocatable library)"
       OFF)
if(NOT REFCPU_SELF_CONTAINED)
  return()
endif()

# The LLVM components that MLIR's libraries and refcpu use, standing in for
# libLLVM.so. Archive members are pulled in only when referenced, so this
# list errs on the generous side; `--no-undefined` on librefcpu.so reports
# anything missing.
llvm_map_components_to_libnames(REFCPU_LLVM_STATIC_LIBS
  native
  AggressiveInstCombine Analysis AsmParser AsmPrinter BinaryFormat BitReader
  BitWriter CodeGen Core Demangle ExecutionEngine FrontendOffloading
  FrontendOpenMP InstCombine Instrumentation IPO IRPrinter IRReader JITLink
  Linker MC MCParser Object OrcDebugging OrcJIT OrcShared OrcTargetProcess Passes
  PerfJITEvents RuntimeDyld ScalarOpts Support Target TargetParser
  TransformUtils Vectorize
  # MLIR's registerAll* functions reference the initializers of every
  # target (the GPU serializers, the target-specific passes): refcpu-opt
  # calls them, and so does lib/Pipelines/Registration.cpp, in the object
  # file whose registration the library uses.
  AllTargetsAsmParsers AllTargetsCodeGens AllTargetsDescs AllTargetsInfos)

# MLIR: every dialect, conversion, extension and translation library (the
# registration helpers refcpu calls reference most of them), plus the core
# and the execution engine. Upstream test libraries are left out.
get_property(_refcpu_dialect_libs GLOBAL PROPERTY MLIR_DIALECT_LIBS)
get_property(_refcpu_conversion_libs GLOBAL PROPERTY MLIR_CONVERSION_LIBS)
get_property(_refcpu_extension_libs GLOBAL PROPERTY MLIR_EXTENSION_LIBS)
get_property(_refcpu_translation_libs GLOBAL PROPERTY MLIR_TRANSLATION_LIBS)
set(REFCPU_MLIR_STATIC_LIBS
  ${_refcpu_dialect_libs} ${_refcpu_conversion_libs}
  ${_refcpu_extension_libs} ${_refcpu_translation_libs}
  MLIRRegisterAllDialects MLIRRegisterAllExtensions MLIRRegisterAllPasses
  MLIRExecutionEngine MLIRExecutionEngineUtils MLIROptLib
  MLIRIR MLIRParser MLIRPass MLIRSupport MLIRTransforms MLIRAnalysis)
list(FILTER REFCPU_MLIR_STATIC_LIBS EXCLUDE REGEX "Test")
list(REMOVE_DUPLICATES REFCPU_MLIR_STATIC_LIBS)

set(REFCPU_MLIR_LIBS ${REFCPU_MLIR_STATIC_LIBS} ${REFCPU_LLVM_STATIC_LIBS})

# Returns in `out` the link list `libs` with the dylibs replaced by the
# static libraries. LLVMSupport also names libz3.so (for the SMT solver
# API, which nothing here calls): drop it so it does not become a
# dependency of the library.
function(_refcpu_static_link_list out libs)
  set(result)
  foreach(lib IN LISTS libs)
    if(lib STREQUAL "LLVM" OR lib STREQUAL "$<LINK_ONLY:LLVM>")
      list(APPEND result ${REFCPU_LLVM_STATIC_LIBS})
    elseif(lib STREQUAL "MLIR" OR lib STREQUAL "$<LINK_ONLY:MLIR>")
      list(APPEND result ${REFCPU_MLIR_STATIC_LIBS} ${REFCPU_LLVM_STATIC_LIBS})
    elseif(NOT lib MATCHES "libz3\\.so")
      list(APPEND result "${lib}")
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# 1. The imported targets of MLIRConfig/LLVMConfig (visible in this scope).
get_directory_property(_refcpu_imported IMPORTED_TARGETS)
foreach(target IN LISTS _refcpu_imported)
  if(NOT target MATCHES "^(MLIR|LLVM)" OR target STREQUAL "MLIR"
     OR target STREQUAL "LLVM")
    continue()
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "STATIC_LIBRARY")
    continue()
  endif()
  get_target_property(libs ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT libs)
    continue()
  endif()
  _refcpu_static_link_list(libs "${libs}")
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
endforeach()
# MLIRExecutionEngine's exported list is only "LLVM;MLIR": give it its real
# MLIR dependencies.
set_property(TARGET MLIRExecutionEngine APPEND PROPERTY INTERFACE_LINK_LIBRARIES
  MLIRExecutionEngineUtils MLIRBuiltinToLLVMIRTranslation
  MLIRLLVMToLLVMIRTranslation MLIRTargetLLVMIRExport MLIRLLVMDialect)

# 3. Targets of this project that link `LLVM` or `MLIR` by name.
function(_refcpu_collect_targets dir out)
  get_directory_property(targets DIRECTORY ${dir} BUILDSYSTEM_TARGETS)
  get_directory_property(subdirs DIRECTORY ${dir} SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    _refcpu_collect_targets(${subdir} sub)
    list(APPEND targets ${sub})
  endforeach()
  set(${out} "${targets}" PARENT_SCOPE)
endfunction()

function(_refcpu_rewrite_project_links)
  _refcpu_collect_targets(${PROJECT_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(libs ${target} ${property})
      if(libs)
        _refcpu_static_link_list(libs "${libs}")
        set_target_properties(${target} PROPERTIES ${property} "${libs}")
      endif()
    endforeach()
  endforeach()
  # Every MLIR/LLVM symbol is local (lib/CAPI/refcpu.map); let the linker
  # drop what the C API cannot reach.
  target_link_options(refcpu PRIVATE LINKER:--gc-sections LINKER:--as-needed)
endfunction()
cmake_language(DEFER CALL _refcpu_rewrite_project_links)

# 4. A compressed, stripped copy for carrying to another machine.
find_program(REFCPU_XZ xz REQUIRED)
set(_refcpu_dist_dir ${PROJECT_BINARY_DIR}/dist)
add_custom_target(refcpu-dist
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_refcpu_dist_dir}
  COMMAND ${CMAKE_STRIP} --strip-unneeded -o ${_refcpu_dist_dir}/librefcpu.so
          $<TARGET_FILE:refcpu>
  COMMAND ${REFCPU_XZ} -9 -T0 -f -k ${_refcpu_dist_dir}/librefcpu.so
  DEPENDS refcpu
  COMMENT "Writing ${_refcpu_dist_dir}/librefcpu.so.xz"
  VERBATIM)
