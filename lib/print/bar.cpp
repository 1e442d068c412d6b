#include "print/bar.h"

#include <algorithm>

namespace trainctl::print {

std::string usage_bar(long long used, long long total, int cells) {
  if (total <= 0 || cells <= 0) return "";
  used = std::clamp(used, 0LL, total);
  long long filled = used * cells / total;
  if (used > 0 && filled == 0) filled = 1;
  std::string out;
  for (int i = 0; i < cells; ++i) out += i < filled ? "█" : "░";
  return out;
}

}  // namespace trainctl::print
