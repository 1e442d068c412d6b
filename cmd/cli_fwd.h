// CLI11's classes, declared for headers that only name them: the single CLI/CLI.hpp header is
// large, so only the .cpp files that build or read a command tree include it.
#pragma once

namespace CLI {
class App;
class Option;
}  // namespace CLI
