#include "submit/flag_set.h"

#include "core/errors.h"

namespace trainctl::submit {

std::vector<std::string> Flag::each_name() const {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= names.size()) {
    size_t end = names.find(',', start);
    if (end == std::string::npos) end = names.size();
    const std::string one = names.substr(start, end - start);
    out.push_back(one.substr(0, one.find('{')));  // --queue{true}
    start = end + 1;
  }
  return out;
}

const Flag* FlagSet::lookup(const std::string& name) const {
  for (const Flag& f : flags_)
    for (const std::string& one : f.each_name())
      if (one == name) return &f;
  return nullptr;
}

Flag& FlagSet::find(const std::string& name) {
  for (Flag& f : flags_)
    if (lookup(name) == &f) return f;
  throw Error("no submit flag " + name);
}

}  // namespace trainctl::submit
