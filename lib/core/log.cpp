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

std::string redact_credentials(std::string_view text) {
  std::string out = redact(text);
  static const std::regex pem(
      R"(-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$))");
  static const std::regex auth(R"(\b(Bearer|Basic)\s+[^\s"',;]+)", std::regex::icase);
  static const std::regex jwt(R"(eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*)");
  // key: value, key=value, "key": "value", with the key naming a credential.
  static const std::regex pair(
      R"((["']?[A-Za-z0-9_.-]*)"
      R"((token|password|passwd|secret|credential|api[_-]?key|private[_-]?key|client[_-]?key[_-]?data|key[_-]?data))"
      R"(["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;}&]+))",
      std::regex::icase);
  static const std::regex aws(R"(\b(AKIA|ASIA)[0-9A-Z]{16}\b)");
  static const std::regex userinfo(R"(([a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s@:]+:[^/\s@]+@)");
  out = std::regex_replace(out, pem, "<redacted private key>");
  out = std::regex_replace(out, auth, "$1 <redacted>");
  out = std::regex_replace(out, jwt, "<redacted>");
  out = std::regex_replace(out, pair, "$1<redacted>");
  out = std::regex_replace(out, aws, "<redacted>");
  out = std::regex_replace(out, userinfo, "$1<redacted>@");
  return out;
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
