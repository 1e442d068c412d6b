#include "kube/status_error.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <ctime>
#include <vector>

#include "kube/curl_api.h"

namespace trainctl::kube {

std::string_view http_reason_phrase(long http_status) {
  switch (http_status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "Request Entity Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return {};
  }
}

// As k8s.io/apimachinery's NewGenericServerResponse maps codes to reasons.
std::string status_reason_for_code(long http_status) {
  switch (http_status) {
    case 400: return "BadRequest";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "NotFound";
    case 405: return "MethodNotAllowed";
    case 406: return "NotAcceptable";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "RequestEntityTooLarge";
    case 415: return "UnsupportedMediaType";
    case 422: return "Invalid";
    case 429: return "TooManyRequests";
    case 500: return "InternalError";
    case 503: return "ServiceUnavailable";
    case 504: return "Timeout";
    default: return "Unknown";
  }
}

int parse_retry_after(std::string_view value) {
  size_t b = 0;
  size_t e = value.size();
  while (b < e && std::isspace(static_cast<unsigned char>(value[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(value[e - 1]))) --e;
  value = value.substr(b, e - b);
  if (value.empty()) return -1;
  bool digits = true;
  for (char c : value) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (digits) {
    if (value.size() > 6) return 999999;
    return std::stoi(std::string(value));
  }
  const std::string text(value);
  const time_t when = curl_api().getdate(text.c_str(), nullptr);
  if (when < 0) return -1;
  const time_t now = std::time(nullptr);
  return when > now ? static_cast<int>(when - now) : 0;
}

std::string sanitised_excerpt(std::string_view body, size_t max_chars) {
  std::string out;
  bool in_tag = false;
  bool pending_space = false;
  bool cut = false;
  for (char ch : body) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '<') {
      in_tag = true;
      pending_space = true;
      continue;
    }
    if (in_tag) {
      if (c == '>') in_tag = false;
      continue;
    }
    if (std::isspace(c) || std::iscntrl(c) || c >= 0x80) {
      pending_space = true;
      continue;
    }
    if (out.size() >= max_chars) {
      cut = true;
      break;
    }
    if (pending_space && !out.empty()) out.push_back(' ');
    pending_space = false;
    out.push_back(static_cast<char>(c));
  }
  if (cut) out += "...";
  return out;
}

namespace {

std::string str_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<StatusCause> causes_of(const nlohmann::json& status) {
  std::vector<StatusCause> causes;
  auto details = status.find("details");
  if (details == status.end() || !details->is_object()) return causes;
  auto list = details->find("causes");
  if (list == details->end() || !list->is_array()) return causes;
  for (const auto& c : *list) {
    if (!c.is_object()) continue;
    causes.push_back({str_field(c, "reason"), str_field(c, "message"), str_field(c, "field")});
  }
  return causes;
}

std::string describe_code(long http_status) {
  std::string text = "HTTP " + std::to_string(http_status);
  const auto phrase = http_reason_phrase(http_status);
  if (!phrase.empty()) text += " " + std::string(phrase);
  return text;
}

}  // namespace

ApiError api_error_from_response(long http_status, std::string_view body,
                                 const std::map<std::string, std::string>& headers) {
  const int code = static_cast<int>(http_status);
  int retry_after = -1;
  if (auto it = headers.find("retry-after"); it != headers.end()) retry_after = parse_retry_after(it->second);

  const nlohmann::json status = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
  if (status.is_object() && str_field(status, "kind") == "Status") {
    std::string reason = str_field(status, "reason");
    if (reason.empty()) reason = status_reason_for_code(http_status);
    std::string message = str_field(status, "message");
    if (message.empty()) {
      message = "the server returned " + describe_code(http_status) + " (" + reason + ")";
    } else if (http_status == 429 || http_status >= 500) {
      // "Internal error occurred" or "try again later" alone does not say what went wrong.
      message = "the server returned " + describe_code(http_status) + ": " + message;
    }
    auto details = status.find("details");
    if (retry_after < 0 && details != status.end() && details->is_object()) {
      auto seconds = details->find("retryAfterSeconds");
      if (seconds != details->end() && seconds->is_number_integer()) retry_after = seconds->get<int>();
    }
    return ApiError(code, std::move(reason), message, causes_of(status), retry_after);
  }

  std::string message = "the server returned " + describe_code(http_status);
  const std::string excerpt = sanitised_excerpt(body);
  if (excerpt.empty()) {
    message += " with no Kubernetes Status in the body";
  } else {
    message += " with a body that is not a Kubernetes Status: \"" + excerpt + "\"";
  }
  return ApiError(code, status_reason_for_code(http_status), message, {}, retry_after);
}

}  // namespace trainctl::kube
