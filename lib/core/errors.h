// The one error hierarchy of trainctl. lib/ throws these; cmd/main.cpp alone maps them to
// the exit codes documented in docs/exit-codes.md.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace trainctl {

enum class ExitCode : int {
  Ok = 0,
  Error = 1,          // any failure not listed below (server error, transport, conflict)
  Usage = 2,          // bad flags or arguments; nothing was sent
  NotFound = 3,       // a named job, instance or resource does not exist
  Auth = 4,           // 401/403, bad credentials, TLS verification failure
  JobFailed = 5,      // --wait=finished: the job ended in failure
  Timeout = 6,        // --wait / --timeout elapsed before the condition held
  Unschedulable = 7,  // the timeout passed while a pod (or Volcano PodGroup) was unschedulable
  JobDeleted = 8,     // the job was deleted while waiting for it
  NotReady = 9,       // doctor: the namespace cannot run the default kind
  Interrupted = 130   // SIGINT
};

class Error : public std::runtime_error {
public:
  explicit Error(const std::string& message, ExitCode code = ExitCode::Error)
      : std::runtime_error(message), m_code(code), m_message(message) {}
  // A message with lines of its own under it: the choices the user has (a job's instances).
  // Each part is one line of text; the line breaks between them are trainctl's, so a printer
  // escapes each part on its own (print/error_text.h) and a line break inside a part, which
  // came from elsewhere, stays visible as "\x0a". what() holds them all, each line indented.
  Error(const std::string& message, std::vector<std::string> lines, ExitCode code)
      : std::runtime_error(with_lines(message, lines)),
        m_code(code),
        m_message(message),
        m_lines(std::move(lines)) {}
  ExitCode code() const { return m_code; }
  // The first line alone, and the lines under it.
  const std::string& message() const { return m_message; }
  const std::vector<std::string>& lines() const { return m_lines; }

private:
  static std::string with_lines(std::string text, const std::vector<std::string>& lines) {
    for (const auto& l : lines) text += "\n  " + l;
    return text;
  }
  ExitCode m_code;
  std::string m_message;
  std::vector<std::string> m_lines;
};

// Bad input from the user: wrong flag value, malformed argument. Exit 2.
class UsageError : public Error {
public:
  explicit UsageError(const std::string& message) : Error(message, ExitCode::Usage) {}
  UsageError(const std::string& message, std::vector<std::string> lines)
      : Error(message, std::move(lines), ExitCode::Usage) {}
};

// Configuration problems: kubeconfig missing, unreadable, malformed, context unknown.
class ConfigError : public Error {
public:
  explicit ConfigError(const std::string& message) : Error(message, ExitCode::Error) {}
};

// The connection failed: DNS, refused, reset, timeout, TLS handshake.
class TransportError : public Error {
public:
  // reached: the request may have got to the server (false only when it certainly did not:
  // the connection was refused, the host did not resolve).
  explicit TransportError(const std::string& message, ExitCode code = ExitCode::Error, bool reached = true)
      : Error(message, code), m_reached(reached) {}
  bool may_have_reached_server() const { return m_reached; }

private:
  bool m_reached;
};

// One cause of a 422 Invalid answer (metav1.StatusCause).
struct StatusCause {
  std::string reason;
  std::string message;
  std::string field;
};

// A non-2xx answer of the API server, carrying its metav1.Status.
class ApiError : public Error {
public:
  ApiError(int http_status, std::string reason, const std::string& message,
           std::vector<StatusCause> causes = {}, int retry_after_seconds = -1)
      : Error(message, exit_code_for(http_status)),
        m_http_status(http_status),
        m_reason(std::move(reason)),
        m_causes(std::move(causes)),
        m_retry_after(retry_after_seconds) {}

  int http_status() const { return m_http_status; }
  const std::string& reason() const { return m_reason; }  // e.g. "NotFound", "AlreadyExists"
  const std::vector<StatusCause>& causes() const { return m_causes; }
  int retry_after_seconds() const { return m_retry_after; }
  bool is_not_found() const { return m_http_status == 404; }
  bool is_conflict() const { return m_http_status == 409; }

  static ExitCode exit_code_for(int http_status) {
    if (http_status == 404) return ExitCode::NotFound;
    if (http_status == 401 || http_status == 403) return ExitCode::Auth;
    return ExitCode::Error;
  }

private:
  int m_http_status;
  std::string m_reason;
  std::vector<StatusCause> m_causes;
  int m_retry_after;
};

// A job or resource the user named does not exist (exit 3).
class NotFoundError : public Error {
public:
  explicit NotFoundError(const std::string& message) : Error(message, ExitCode::NotFound) {}
  NotFoundError(const std::string& message, std::vector<std::string> lines)
      : Error(message, std::move(lines), ExitCode::NotFound) {}
};

}  // namespace trainctl
