// A small allocation bar for terminals: "█████░░░░░" for 5 of 10.
#pragma once

#include <string>

namespace trainctl::print {

// `cells` characters wide; filled proportionally to used/total (rounded down, but any use
// shows at least one filled cell). total <= 0 gives an empty string.
std::string usage_bar(long long used, long long total, int cells = 10);

}  // namespace trainctl::print
