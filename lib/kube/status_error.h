// The one place where a non-2xx answer of the API server becomes an ApiError. A body that
// is a metav1.Status gives its message (after "the server returned HTTP 503 Service
// Unavailable: " for 429 and 5xx), reason, code and details.causes; anything else
// (an HTML page from a proxy, truncated JSON, nothing) gives a message naming the HTTP
// code with a short, sanitised excerpt of the body.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/errors.h"

namespace trainctl::kube {

ApiError api_error_from_response(long http_status, std::string_view body,
                                 const std::map<std::string, std::string>& headers);

// "Not Found", "Service Unavailable"... (empty for unknown codes).
std::string_view http_reason_phrase(long http_status);

// The metav1.StatusReason the API server uses for a code: "NotFound", "Conflict",
// "TooManyRequests"... ("Unknown" when there is none).
std::string status_reason_for_code(long http_status);

// Retry-After as seconds: a number of seconds or an HTTP date; -1 when absent or unreadable.
int parse_retry_after(std::string_view value);

// At most max_chars of printable text from a body: HTML tags dropped, whitespace and
// control characters collapsed to single spaces, "..." appended when cut.
std::string sanitised_excerpt(std::string_view body, size_t max_chars = 200);

}  // namespace trainctl::kube
