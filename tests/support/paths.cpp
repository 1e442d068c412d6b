#include "support/paths.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>

namespace fs = std::filesystem;

namespace trainctl::testing {

std::optional<std::string> find_schema_dir() {
  auto ok = [](const fs::path& p) { return fs::exists(p / "crds") && fs::exists(p / "openapi"); };
  if (const char* env = std::getenv("TRAINCTL_SCHEMAS"); env && *env) {
    if (ok(env)) return std::string(env);
  }
  fs::path shared = fs::path(TRAINCTL_SOURCE_DIR).parent_path() / "shared" / "k8s-schemas";
  if (ok(shared)) return fs::canonical(shared).string();
  if (const char* home = std::getenv("HOME")) {
    fs::path cache = fs::path(home) / ".cache" / "trainctl" / "k8s-schemas";
    if (ok(cache)) return cache.string();
  }
  return std::nullopt;
}

std::optional<std::string> find_trainer_runtimes_dir() {
  auto ok = [](const fs::path& p) { return fs::exists(p / "torch_distributed.yaml"); };
  if (const char* env = std::getenv("TRAINCTL_TRAINER_RUNTIMES"); env && *env && ok(env)) return std::string(env);
  fs::path shared = fs::path(TRAINCTL_SOURCE_DIR).parent_path() / "shared" / "trainer-runtimes";
  if (ok(shared)) return fs::canonical(shared).string();
  if (const char* home = std::getenv("HOME")) {
    fs::path cache = fs::path(home) / ".cache" / "trainctl" / "trainer-runtimes";
    if (ok(cache)) return cache.string();
  }
  return std::nullopt;
}

std::string require_schema_dir() {
  if (auto d = find_schema_dir()) return *d;
  // In CI (CI=true) nothing may be skipped: a missing schema directory fails the test.
  const char* ci = std::getenv("CI");
  const bool in_ci = ci && std::string(ci) == "true";
  std::cerr << (in_ci ? "FAIL" : "SKIPPED")
            << ": no Kubernetes schemas found. Set TRAINCTL_SCHEMAS to a k8s-schemas directory,\n"
               "or run scripts/fetch-schemas.sh (needs internet) to fill ~/.cache/trainctl/k8s-schemas.\n";
  std::exit(in_ci ? 1 : 77);
}

std::string make_temp_dir(const std::string& prefix) {
  static std::mt19937_64 rng{std::random_device{}()};
  fs::path base = fs::path(TRAINCTL_BINARY_DIR) / "test-tmp";
  fs::create_directories(base);
  for (;;) {
    fs::path p = base / (prefix + "-" + std::to_string(rng() % 1000000000));
    if (fs::create_directory(p)) return p.string();
  }
}

}  // namespace trainctl::testing
