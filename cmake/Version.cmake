# Version information compiled into the binaries: project version, git commit, build type.
find_package(Git QUIET)
set(TRAINCTL_GIT_COMMIT "unknown")
set(TRAINCTL_GIT_TREE_STATE "unknown")
if(GIT_FOUND AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} OUTPUT_VARIABLE _commit
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND _commit)
    set(TRAINCTL_GIT_COMMIT ${_commit})
    execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
      WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} OUTPUT_VARIABLE _dirty ERROR_QUIET)
    if(_dirty)
      set(TRAINCTL_GIT_TREE_STATE "dirty")
    else()
      set(TRAINCTL_GIT_TREE_STATE "clean")
    endif()
  endif()
endif()
string(TIMESTAMP TRAINCTL_BUILD_DATE "%Y-%m-%dT%H:%M:%SZ" UTC)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/lib/core/version_info.cpp.in
  ${CMAKE_CURRENT_BINARY_DIR}/generated/version_info.cpp @ONLY)
list(APPEND TRAINCTL_GENERATED_SOURCES ${CMAKE_CURRENT_BINARY_DIR}/generated/version_info.cpp)
