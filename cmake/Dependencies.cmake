# All dependencies come from Debian packages (see scripts/install-deps.sh).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(CURL REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(ZLIB REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
# simdjson: parses list pages (lib/kube/page_stream.cpp only), where the profile of list and
# top node showed the JSON parser taking half of the client's CPU.
find_package(simdjson REQUIRED)
find_package(CLI11 CONFIG QUIET)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)

find_path(KAINJOW_MUSTACHE_INCLUDE kainjow/mustache.hpp REQUIRED)
find_path(CLI11_INCLUDE CLI/CLI.hpp REQUIRED)
find_path(CATCH2_INCLUDE catch2/catch.hpp)

# Start-up time: trainctl loads libcurl with dlopen when it first talks to a server
# (lib/kube/curl_api.cpp), so only libcurl's headers are used here; linking it would make
# every run, `trainctl version` included, map and relocate some 30 libraries it pulls in.
# For the same reason the trainctl executable (target property TRAINCTL_STATIC_CRYPTO)
# takes the few libcrypto functions it calls (base64) from the static library when there is
# one; kubesim and the tests, which also use OpenSSL through cpp-httplib, keep the shared one.
find_library(TRAINCTL_CRYPTO_STATIC NAMES libcrypto.a)
mark_as_advanced(TRAINCTL_CRYPTO_STATIC)
set(_trainctl_static_crypto "$<AND:$<BOOL:${TRAINCTL_CRYPTO_STATIC}>,$<BOOL:$<TARGET_PROPERTY:TRAINCTL_STATIC_CRYPTO>>>")

add_library(trainctl_deps INTERFACE)
target_include_directories(trainctl_deps SYSTEM INTERFACE ${KAINJOW_MUSTACHE_INCLUDE} ${CLI11_INCLUDE} ${CURL_INCLUDE_DIRS})
target_link_libraries(trainctl_deps INTERFACE
  "$<IF:${_trainctl_static_crypto},${TRAINCTL_CRYPTO_STATIC},OpenSSL::Crypto>" ZLIB::ZLIB
  nlohmann_json::nlohmann_json yaml-cpp fmt::fmt Threads::Threads ${CMAKE_DL_LIBS})
add_library(trainctl::deps ALIAS trainctl_deps)

add_library(trainctl_httplib INTERFACE)
target_link_libraries(trainctl_httplib INTERFACE PkgConfig::HTTPLIB OpenSSL::SSL OpenSSL::Crypto ZLIB::ZLIB)
target_compile_definitions(trainctl_httplib INTERFACE CPPHTTPLIB_OPENSSL_SUPPORT CPPHTTPLIB_ZLIB_SUPPORT)
add_library(trainctl::httplib ALIAS trainctl_httplib)
