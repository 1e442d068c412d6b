// RFC 3339 timestamps as Kubernetes writes and reads them (metav1.Time: Go's time.RFC3339).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace trainctl {

// "2006-01-02T15:04:05Z", with an optional fraction (".5", ".123456789"; digits past the
// ninth are dropped) and "Z" or a "+hh:mm"/"-hh:mm" offset, checked as Go's time.Parse
// (time.RFC3339, ...) checks them (time/format_rfc3339.go parseRFC3339): upper-case 'T' and
// 'Z', two-digit fields, a real day of that month, hour <= 23, minute and second <= 59.
// nullopt for anything else, and for years outside 1678..2261, which a system_clock time
// point (64-bit nanoseconds) cannot hold.
std::optional<std::chrono::system_clock::time_point> parse_rfc3339(std::string_view text);

// UTC, whole seconds (the fraction is dropped): "2024-05-01T10:00:00Z", as metav1.Time
// marshals.
std::string format_rfc3339(std::chrono::system_clock::time_point t);

// UTC with nine fraction digits, always: "2024-05-01T10:00:00.120000000Z" (the kubelet's
// RFC3339NanoFixed, the prefix of `kubectl logs --timestamps` lines).
std::string format_rfc3339_nano(std::chrono::system_clock::time_point t);

}  // namespace trainctl
