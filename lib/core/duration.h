// Durations as users type them (--since 5m, --request-timeout 30s, --running-timeout 2h)
// and as Arena prints them (57s, 4m, 14h, 3d, 2y).
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace trainctl {

// Parses Go-style durations: "300ms", "1.5h", "2h45m", "10s"; a bare "0" is zero.
// Throws UsageError on anything else.
std::chrono::nanoseconds parse_duration(std::string_view text);

// Arena's ShortHumanDuration (pkg/util/duration.go, as k8s apimachinery's): negative -> "0s";
// under a minute -> seconds ("57s"); under an hour -> minutes ("4m"); under a day -> hours
// ("14h"); under 365 days -> days ("3d"); else years ("2y").
std::string short_human_duration(std::chrono::seconds d);

}  // namespace trainctl
