#!/usr/bin/env bash
# Builds trainctl and kubesim and runs every test (unit, kubesim, integration against
# kubesim and the real kubectl binaries where present).
#   scripts/test.sh              normal build in build/ (GCC or the default c++, -O2, no debug info)
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/;
#                                with clang (and its libFuzzer) it also builds the fuzz targets
#                                and runs each for a few seconds as part of the tests
set -euo pipefail
cd "$(dirname "$0")/.."

"$(pwd)/scripts/install-deps.sh"

build=build
source scripts/build-config.sh
args=("${NORMAL_BUILD_ARGS[@]}")
if [ "${1:-}" = "--sanitize" ]; then
  build=build-asan
  args=(-DCMAKE_BUILD_TYPE=Debug -DTRAINCTL_SANITIZE=ON)
  # clang compiles this variant in well under half of GCC's time and brings libFuzzer.
  # Without libFuzzer the fuzz targets are not built: that is said here and by the CTest test
  # fuzz.not_built, which fails under CI=true (cmake/Fuzz.cmake).
  cxx=$(command -v clang++ || true)
  fuzz_missing=""
  if [ -n "$cxx" ]; then
    args+=("-DCMAKE_CXX_COMPILER=$cxx")
    if echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
        "$cxx" -x c++ -fsanitize=fuzzer,address -o /dev/null - 2>/dev/null; then
      args+=(-DTRAINCTL_FUZZ=ON)
    else
      fuzz_missing="$cxx cannot link a libFuzzer target (-fsanitize=fuzzer); install libclang-rt-dev"
    fi
  else
    cxx=$(command -v c++)
    fuzz_missing="no clang++ (the fuzz targets need clang and libFuzzer); install clang libclang-rt-dev"
  fi
  if [ -n "$fuzz_missing" ]; then
    echo "test.sh: the fuzz targets will not be built: $fuzz_missing" >&2
    args+=("-DTRAINCTL_FUZZ=OFF" "-DTRAINCTL_FUZZ_MISSING=$fuzz_missing")
  fi
  # A build directory configured with another compiler is started afresh.
  if [ -f "$build/CMakeCache.txt" ] &&
      ! grep -qx "CMAKE_CXX_COMPILER:[A-Z]*=$cxx" "$build/CMakeCache.txt"; then
    rm -rf "$build"
  fi
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi

# The schema tests need the real CRDs and OpenAPI documents: fetch them (pinned, checksummed)
# when none is found and the network allows, so that one command runs every test.
# (The tests look in $TRAINCTL_SCHEMAS, ../shared/k8s-schemas, ~/.cache/trainctl/k8s-schemas.)
if { [ -z "${TRAINCTL_SCHEMAS:-}" ] && [ ! -d ../shared/k8s-schemas/crds ] &&
     [ ! -d "$HOME/.cache/trainctl/k8s-schemas/crds" ]; } ||
   { [ ! -d ../shared/trainer-runtimes ] && [ ! -d "$HOME/.cache/trainctl/trainer-runtimes" ]; }; then
  scripts/fetch-schemas.sh "$HOME/.cache/trainctl/k8s-schemas" ||
    echo "test.sh: could not fetch the Kubernetes schemas (no network?)" >&2
fi

ctest_args=()
[ "$build" = build-asan ] && ctest_args=(-LE heavy)  # see tests/CMakeLists.txt
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" "${args[@]}" >/dev/null
cmake --build "$build" -j"$jobs"
status=0
ctest --test-dir "$build" --output-on-failure -j"$jobs" "${ctest_args[@]}" 2>&1 | tee "$build/ctest-console.log" ||
  status=$?

# Where the schema tests look (tests/integration/kubesim_env.bash, tests/support): say why
# they were skipped rather than leave a bare "Skipped" list.
if [ -z "${TRAINCTL_SCHEMAS:-}" ] && [ ! -d ../shared/k8s-schemas/crds ] &&
    [ ! -d "$HOME/.cache/trainctl/k8s-schemas/crds" ]; then
  echo "test.sh: the schema and submit tests were skipped: no Kubernetes schemas found" \
       "(set TRAINCTL_SCHEMAS, put them in ../shared/k8s-schemas, or run scripts/fetch-schemas.sh)" >&2
fi

# What did not run, and why (scripts/skipped-tests.sh).
scripts/skipped-tests.sh "$build" "$build/ctest-console.log" || true
exit "$status"
