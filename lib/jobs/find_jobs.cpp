#include "jobs/find_jobs.h"

#include "core/errors.h"
#include "jobs/json_util.h"
#include "kube/list_reads.h"

namespace trainctl::jobs {

using nlohmann::json;

std::string NameMatch::message(const std::string& ns) const {
  switch (outcome) {
    case Outcome::Found:
      return "";
    case Outcome::Missing:
      return "job " + name + " not found in namespace " + ns;
    case Outcome::Ambiguous:
      break;
  }
  std::string list;
  for (const auto* k : kinds) list += (list.empty() ? "" : ", ") + k->type;
  return "there is more than one training job named " + name + " (" + list + "): choose one with -T/--type";
}

void NameMatch::throw_unless_found(const std::string& ns) const {
  if (outcome == Outcome::Missing) throw NotFoundError(message(ns));
  if (outcome == Outcome::Ambiguous) throw UsageError(message(ns));
}

size_t FoundJobs::missing() const {
  size_t n = 0;
  for (const auto& m : names) n += m.outcome == NameMatch::Outcome::Missing;
  return n;
}

size_t FoundJobs::ambiguous() const {
  size_t n = 0;
  for (const auto& m : names) n += m.outcome == NameMatch::Outcome::Ambiguous;
  return n;
}

NameMatch match_name(const std::string& name, const std::vector<const JobKind*>& kinds,
                     const std::vector<bool>& holds, std::vector<json> objects) {
  NameMatch m;
  m.name = name;
  size_t first = kinds.size();
  for (size_t k = 0; k < kinds.size(); ++k) {
    if (!holds[k]) continue;
    if (m.kinds.empty()) first = k;
    m.kinds.push_back(kinds[k]);
  }
  if (m.kinds.empty()) return m;
  if (m.kinds.size() > 1) {
    m.outcome = NameMatch::Outcome::Ambiguous;
    return m;
  }
  m.outcome = NameMatch::Outcome::Found;
  if (first < objects.size()) m.object = std::move(objects[first]);
  return m;
}

bool is_job_of(const JobKind& kind, const json& object) { return labels_match(object, kind.list_selector); }

FoundJobs find_jobs(kube::Client& client, const std::string& ns, const std::vector<std::string>& names,
                    const std::vector<const JobKind*>& kinds) {
  std::vector<kube::Read> reads;
  for (const auto& name : names)
    for (const auto* k : kinds) reads.push_back({k->resource.object_path(ns, name), false});
  auto results = kube::read_all(client, reads);
  FoundJobs out;
  out.ns = ns;
  for (size_t n = 0; n < names.size(); ++n) {
    std::vector<bool> holds(kinds.size());
    std::vector<json> objects(kinds.size());
    for (size_t k = 0; k < kinds.size(); ++k) {
      auto& r = results[n * kinds.size() + k];
      holds[k] = !r.not_found && is_job_of(*kinds[k], r.object);
      if (holds[k]) objects[k] = std::move(r.object);
    }
    out.names.push_back(match_name(names[n], kinds, holds, std::move(objects)));
  }
  return out;
}

NameMatch find_job(kube::Client& client, const std::string& ns, const std::string& name,
                   const std::vector<const JobKind*>& kinds) {
  auto found = find_jobs(client, ns, {name}, kinds);
  found.names.front().throw_unless_found(ns);
  return std::move(found.names.front());
}

}  // namespace trainctl::jobs
