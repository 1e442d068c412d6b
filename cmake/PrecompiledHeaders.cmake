# Precompiled headers: the heavy third-party headers (nlohmann/json, fmt, CLI11, Catch2,
# cpp-httplib) are parsed once per target instead of once per source file, which roughly
# halves a clean build on two cores. -DTRAINCTL_PCH=OFF turns it off.
option(TRAINCTL_PCH "Use precompiled headers" ON)
function(trainctl_pch target)
  if(TRAINCTL_PCH)
    target_precompile_headers(${target} PRIVATE
      <nlohmann/json.hpp> <fmt/format.h> <string> <vector> <map> <memory> <functional> <optional> ${ARGN})
  endif()
endfunction()
