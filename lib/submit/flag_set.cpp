#include "submit/flag_set.h"

#include "core/errors.h"

namespace trainctl::submit {

Flag& FlagSet::find(const std::string& name) {
  for (Flag& f : flags_) {
    size_t start = 0;
    while (start <= f.names.size()) {
      size_t end = f.names.find(',', start);
      if (end == std::string::npos) end = f.names.size();
      std::string one = f.names.substr(start, end - start);
      one = one.substr(0, one.find('{'));  // --queue{true}
      if (one == name) return f;
      start = end + 1;
    }
  }
  throw Error("no submit flag " + name);
}

}  // namespace trainctl::submit
