#include "jobs/instance_select.h"

#include <algorithm>

#include "core/errors.h"
#include "core/text.h"

namespace trainctl::jobs {

namespace {

const Replica* replica_for(const std::vector<Replica>& replicas, const std::string& pod) {
  for (const auto& r : replicas)
    if (r.pod == pod) return &r;
  return nullptr;
}

bool is_rank(const std::string& text) {
  return !text.empty() && text.size() <= 12 && text.find_first_not_of("0123456789") == std::string::npos;
}

template <typename Pred>
std::vector<const Instance*> instances_where(const TrainingJob& job, Pred pred) {
  std::vector<const Instance*> found;
  for (const auto& i : job.instances)
    if (pred(i)) found.push_back(&i);
  return found;
}

}  // namespace

std::vector<std::string> instance_choices(const TrainingJob& job, const std::vector<Replica>& replicas,
                                          const std::vector<const Instance*>& only) {
  std::vector<const Instance*> shown = only;
  if (shown.empty())
    for (const auto& i : job.instances) shown.push_back(&i);
  size_t width = 0;
  for (const auto* i : shown) width = std::max(width, i->name.size());
  std::vector<std::string> lines;
  for (const auto* i : shown) {
    std::string line = i->name;
    const Replica* r = replica_for(replicas, i->name);
    // The replica, as logs --all prefixes its lines, unless the name ends with it already.
    const bool named = r && r->rank && !r->role.empty();
    if (named && !i->name.ends_with("-" + r->label))
      line += std::string(width - i->name.size() + 2, ' ') + r->label;
    if (i->is_chief) line += " (chief)";
    lines.push_back(std::move(line));
  }
  return lines;
}

const Instance& select_instance(const TrainingJob& job, const std::vector<Replica>& replicas,
                                const std::string& wanted) {
  if (job.instances.empty()) throw NotFoundError("job " + job.name + " has no instances yet");
  for (const auto& i : job.instances)
    if (i.name == wanted) return i;
  auto by = [&](auto pred) {
    return instances_where(job, [&](const Instance& i) {
      const Replica* r = replica_for(replicas, i.name);
      return r && pred(*r);
    });
  };
  const std::string lower = ascii_lower(wanted);
  std::vector<const Instance*> found =
      by([&](const Replica& r) { return !r.role.empty() && r.label == lower; });
  if (found.empty() && is_rank(wanted)) {
    const long long rank = std::stoll(wanted);
    found = by([&](const Replica& r) { return r.rank == rank; });
  }
  if (found.empty())
    found = instances_where(job, [&](const Instance& i) { return i.name.rfind(wanted, 0) == 0; });
  if (found.size() == 1) return *found.front();
  if (found.empty())
    throw NotFoundError("job " + job.name + " has no instance " + wanted + "; its instances are:",
                        instance_choices(job, replicas));
  throw UsageError("-i " + wanted + " matches " + std::to_string(found.size()) + " instances of job " +
                       job.name + "; choose one of:",
                   instance_choices(job, replicas, found));
}

void keep_instance(TrainingJob& job, const std::vector<Replica>& replicas, const std::string& wanted) {
  if (wanted.empty()) return;
  const std::string name = select_instance(job, replicas, wanted).name;
  auto& all = job.instances;
  all.erase(std::remove_if(all.begin(), all.end(), [&](const Instance& i) { return i.name != name; }),
            all.end());
}

}  // namespace trainctl::jobs
