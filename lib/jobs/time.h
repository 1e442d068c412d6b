// Kubernetes timestamps: RFC 3339 in, Arena's "2006-01-02 15:04:05" out.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/rfc3339.h"

namespace trainctl::jobs {

using TimePoint = std::chrono::system_clock::time_point;

// Parses "2024-05-01T10:00:00Z", "...T10:00:00.123456789Z" and numeric offsets
// ("+08:00") as metav1.Time does (core/rfc3339.h). Returns nullopt for empty or malformed text.
inline std::optional<TimePoint> parse_time(std::string_view text) { return parse_rfc3339(text); }

// Formats in the local time zone (TZ) as Arena's get does: "2024-05-01 18:00:00".
std::string format_local(TimePoint t);

// RFC 3339 in UTC with second precision: "2024-05-01T10:00:00Z" (for sinceTime).
using trainctl::format_rfc3339;

// Seconds from `from` to `to`, floored; negative when `to` is earlier.
std::chrono::seconds seconds_between(TimePoint from, TimePoint to);

}  // namespace trainctl::jobs
