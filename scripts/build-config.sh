# Sourced by scripts/test.sh and scripts/demo.sh: the configuration of the normal build in
# build/, shared so that the demo and the tests build the same tree once.
# -O2 without debug information: the tests need none, and the build is a quarter faster.
NORMAL_BUILD_ARGS=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG")
