#include "jobs/kind.h"

#include <algorithm>

#include "core/errors.h"
#include "core/text.h"

namespace trainctl::jobs {

std::string JobKind::pod_selector(const std::string& job_name) const {
  std::string s = pod_job_label + "=" + job_name;
  if (!pod_extra_selector.empty()) s += "," + pod_extra_selector;
  return s;
}

std::string pods_list_selector(const std::vector<const JobKind*>& kinds, const std::string& label) {
  const JobKind* reader = nullptr;
  for (const auto* k : kinds) {
    if (k->pod_job_label != label) continue;
    if (reader) return label;  // shared: each kind tells its own pods apart
    reader = k;
  }
  if (!reader || reader->pod_list_terms.empty()) return label;
  return label + "," + reader->pod_list_terms;
}

size_t kind_order(const JobKind* kind) {
  const auto& all = all_kinds();
  for (size_t i = 0; i < all.size(); ++i)
    if (&all[i] == kind) return i;
  return all.size();
}

const JobKind& kind_named(std::string_view name) {
  for (const auto& k : all_kinds())
    if (k.name == name) return k;
  throw Error("no job kind is named \"" + std::string(name) + "\"");
}

namespace {

// "a, b or c".
std::string or_list(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i)
    s += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return s;
}

}  // namespace

std::string type_names_text() {
  std::vector<std::string> named;
  for (const auto& k : all_kinds()) {
    if (k.type_names.empty()) continue;
    std::string n = k.type_names.front();
    for (size_t i = 1; i < k.type_names.size(); ++i) n += (i == 1 ? " (" : ", ") + k.type_names[i];
    named.push_back(k.type_names.size() > 1 ? n + ")" : n);
  }
  return or_list(named);
}

std::string kind_titles_text() {
  std::vector<std::string> titles;
  for (const auto& k : all_kinds()) titles.push_back(k.title);
  return or_list(titles);
}

const JobKind& kind_for_type(std::string_view type) {
  const std::string t = ascii_lower(std::string(type));
  for (const auto& k : all_kinds())
    if (std::find(k.type_names.begin(), k.type_names.end(), t) != k.type_names.end()) return k;
  throw UsageError("unknown job type \"" + std::string(type) + "\": use " + type_names_text());
}

}  // namespace trainctl::jobs
