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
      : std::runtime_error(message), m_code(code) {}
  ExitCode code() const { return m_code; }

private:
  ExitCode m_code;
};

// Bad input from the user: wrong flag value, malformed argument. Exit 2.
class UsageError : public Error {
public:
  explicit UsageError(const std::string& message) : Error(message, ExitCode::Usage) {}
};

// A command exists in the tree but its behaviour is not built yet.
class NotImplementedError : public Error {
public:
  explicit NotImplementedError(const std::string& what)
      : Error(what + " is not implemented yet", ExitCode::Error) {}
};

// Configuration problems: kubeconfig missing, unreadable, malformed, context unknown.
class ConfigError : public Error {
public:
  explicit ConfigError(const std::string& message) : Error(message, ExitCode::Error) {}
};

// The connection failed: DNS, refused, reset, timeout, TLS handshake.
class TransportError : public Error {
public:
  explicit TransportError(const std::string& message, ExitCode code = ExitCode::Error)
      : Error(message, code) {}
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
};

}  // namespace trainctl
