#include "core/log.h"

#include <atomic>
#include <iostream>
#include <mutex>
#include <regex>
#include <vector>

#include "core/errors.h"

namespace trainctl::log {
namespace {

std::atomic<Level> g_level{Level::Warn};
std::mutex g_mutex;
std::function<void(std::string_view)> g_sink;
std::vector<std::string> g_secrets;

const char* level_name(Level l) {
  switch (l) {
    case Level::Debug: return "DEBUG";
    case Level::Info: return "INFO";
    case Level::Warn: return "WARN";
    case Level::Error: return "ERROR";
  }
  return "?";
}

}  // namespace

Level parse_level(std::string_view text) {
  if (text == "debug") return Level::Debug;
  if (text == "info") return Level::Info;
  if (text == "warn" || text == "warning") return Level::Warn;
  if (text == "error") return Level::Error;
  throw UsageError("invalid --loglevel \"" + std::string(text) + "\": use debug, info, warn or error");
}

void set_level(Level l) { g_level = l; }
Level level() { return g_level; }
bool enabled(Level l) { return static_cast<int>(l) >= static_cast<int>(g_level.load()); }

void set_sink(std::function<void(std::string_view)> sink) {
  std::lock_guard lock(g_mutex);
  g_sink = std::move(sink);
}
void reset_sink() { set_sink(nullptr); }

void add_secret(std::string secret) {
  if (secret.size() < 4) return;  // too short to scrub without mangling ordinary text
  std::lock_guard lock(g_mutex);
  g_secrets.push_back(std::move(secret));
}
void clear_secrets() {
  std::lock_guard lock(g_mutex);
  g_secrets.clear();
}

namespace {
std::string redact_locked(std::string_view text) {
  std::string out(text);
  for (const auto& s : g_secrets) {
    for (size_t pos = out.find(s); pos != std::string::npos; pos = out.find(s, pos)) {
      out.replace(pos, s.size(), "<redacted>");
      pos += 10;
    }
  }
  static const std::regex auth(R"((Authorization:\s*)(Bearer|Basic)\s+\S+)", std::regex::icase);
  return std::regex_replace(out, auth, "$1$2 <redacted>");
}
}  // namespace

std::string redact(std::string_view text) {
  std::lock_guard lock(g_mutex);
  return redact_locked(text);
}

void write(Level l, std::string_view message) {
  std::lock_guard lock(g_mutex);
  std::string line = std::string(level_name(l)) + " " + redact_locked(message);
  if (g_sink) {
    g_sink(line);
  } else {
    std::cerr << line << '\n';
  }
}

}  // namespace trainctl::log
