# -DTRAINCTL_FUZZ=ON builds the libFuzzer targets of fuzz/ (clang only, with
# TRAINCTL_SANITIZE=ON). Every target of the project is compiled with
# -fsanitize=fuzzer-no-link so the libraries carry coverage; each fuzz/<name>.cpp becomes an
# executable fuzz_<name> linked with -fsanitize=fuzzer, and a CTest test fuzz_<name> runs it
# for TRAINCTL_FUZZ_SECONDS over a copy of fuzz/corpus/<name>/ (fuzz/run_fuzzer.sh).
# A sanitizer build without them gets the CTest test fuzz.not_built instead, which says why
# (TRAINCTL_FUZZ_MISSING, set by scripts/test.sh) and fails under CI=true, so that the fuzz
# targets never vanish without a word.
option(TRAINCTL_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)
set(TRAINCTL_FUZZ_SECONDS 10 CACHE STRING "Seconds each fuzz_<name> CTest test runs its fuzzer")
set(TRAINCTL_FUZZ_MISSING "configured without -DTRAINCTL_FUZZ=ON (it needs clang and its libFuzzer runtime)"
  CACHE STRING "Why a sanitizer build has no fuzz targets (the message of fuzz.not_built)")

if(TRAINCTL_SANITIZE AND NOT TRAINCTL_FUZZ)
  function(trainctl_fuzz_missing_test)
    if(NOT BUILD_TESTING)
      return()
    endif()
    add_test(NAME fuzz.not_built COMMAND bash -c
      "echo \"the fuzz targets of fuzz/ were not built: $1\" >&2; [[ \${CI:-} == true ]] && exit 1; exit 77"
      fuzz.not_built "${TRAINCTL_FUZZ_MISSING}")
    set_tests_properties(fuzz.not_built PROPERTIES SKIP_RETURN_CODE 77 LABELS fuzz)
  endfunction()
  cmake_language(DEFER CALL trainctl_fuzz_missing_test)
endif()

if(TRAINCTL_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TRAINCTL_FUZZ=ON needs clang (libFuzzer); this build uses "
      "${CMAKE_CXX_COMPILER_ID}. Configure with CC=clang CXX=clang++ in a fresh build directory.")
  endif()
  if(NOT TRAINCTL_SANITIZE)
    message(FATAL_ERROR "TRAINCTL_FUZZ=ON needs TRAINCTL_SANITIZE=ON: the fuzzers run under "
      "ASan+UBSan, whose runtime also serves the coverage hooks of the normal test binaries.")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)

  # One libFuzzer executable and one CTest test per fuzz/<name>.cpp.
  file(GLOB TRAINCTL_FUZZ_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/*.cpp)
  foreach(src ${TRAINCTL_FUZZ_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    add_executable(fuzz_${name} ${src})
    target_link_libraries(fuzz_${name} PRIVATE trainctl_lib kubesim_lib)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    trainctl_warnings(fuzz_${name})
    list(APPEND TRAINCTL_FUZZ_TARGETS fuzz_${name})
  endforeach()
  add_custom_target(fuzzers DEPENDS ${TRAINCTL_FUZZ_TARGETS})

  # add_test needs enable_testing(), which include(CTest) runs later in this directory.
  function(trainctl_fuzz_tests)
    if(NOT BUILD_TESTING)
      return()
    endif()
    foreach(target ${TRAINCTL_FUZZ_TARGETS})
      string(REGEX REPLACE "^fuzz_" "" name ${target})
      add_test(NAME ${target} COMMAND bash ${PROJECT_SOURCE_DIR}/fuzz/run_fuzzer.sh
        $<TARGET_FILE:${target}> ${PROJECT_SOURCE_DIR}/fuzz/corpus/${name}
        ${PROJECT_BINARY_DIR}/fuzz-work/${name} ${TRAINCTL_FUZZ_SECONDS})
      math(EXPR timeout "${TRAINCTL_FUZZ_SECONDS} + 120")
      set_tests_properties(${target} PROPERTIES TIMEOUT ${timeout} LABELS fuzz)
    endforeach()
  endfunction()
  cmake_language(DEFER CALL trainctl_fuzz_tests)
endif()
