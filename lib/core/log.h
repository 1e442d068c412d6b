// Diagnostic logging to stderr, controlled by --loglevel / -v. Log lines never carry
// credentials: callers pass URLs and header names, never header values of Authorization,
// and redact() scrubs anything that looks like a secret before it is written.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <string>
#include <string_view>

namespace trainctl::log {

enum class Level { Debug = 0, Info = 1, Warn = 2, Error = 3 };

// Parses "debug|info|warn|error" (also "warning"); throws UsageError otherwise.
Level parse_level(std::string_view text);
void set_level(Level level);
Level level();
bool enabled(Level level);

// Where log lines go (stderr by default); tests capture them.
void set_sink(std::function<void(std::string_view line)> sink);
void reset_sink();

// Registers a secret (token, password, key) that must never appear in a log line.
void add_secret(std::string secret);
void clear_secrets();
// Replaces every registered secret, and bearer/basic Authorization values, with "<redacted>".
std::string redact(std::string_view text);
// redact(), and also what looks like a credential in text trainctl did not write (an exec
// plugin's stderr): "Bearer X" and "Basic X", JSON Web Tokens, the values of keys named like
// token, password, secret or key ("token": "X", password=X, client-key-data: X), PEM private
// key blocks, AWS access key ids and the user:password of URLs.
std::string redact_credentials(std::string_view text);

void write(Level level, std::string_view message);

template <typename... Args>
void debug(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::Debug)) write(Level::Debug, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::Info)) write(Level::Info, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::Warn)) write(Level::Warn, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void error(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::Error)) write(Level::Error, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace trainctl::log
