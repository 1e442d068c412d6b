# Warnings are errors from day one (-DTRAINCTL_WERROR=OFF keeps them warnings, e.g. to try a
# new compiler). GCC 12's -Wrestrict, -Wstringop-overflow and -Warray-bounds report false
# positives inside inlined libstdc++ string code at -O2/-O3 (GCC bugs 105329, 105651), so
# those three stay warnings.
option(TRAINCTL_WERROR "Treat compiler warnings as errors" ON)
function(trainctl_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic
    -Wno-missing-field-initializers)
  if(TRAINCTL_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE
        -Wno-error=restrict -Wno-error=stringop-overflow -Wno-error=array-bounds)
    endif()
  endif()
endfunction()
