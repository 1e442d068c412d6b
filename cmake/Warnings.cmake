# Warnings are errors from day one. GCC 12's -Wrestrict, -Wstringop-overflow and
# -Warray-bounds report false positives inside inlined libstdc++ string code at -O2/-O3
# (GCC bugs 105329, 105651), so those three stay warnings.
function(trainctl_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror
    -Wno-missing-field-initializers
    -Wno-error=restrict -Wno-error=stringop-overflow -Wno-error=array-bounds)
endfunction()
