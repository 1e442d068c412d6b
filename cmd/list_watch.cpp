#include "cmd/list_watch.h"

#include <sstream>

#include "core/errors.h"
#include "core/log.h"
#include "jobs/job_list_live.h"
#include "jobs/job_query.h"
#include "print/job_views.h"

namespace trainctl {

namespace {

// The table's text without its header line.
std::string rows_of(const print::Table& t, const IOStreams& io) {
  const std::string text = t.render(io);
  const size_t nl = text.find('\n');
  return nl == std::string::npos ? "" : text.substr(nl + 1);
}

}  // namespace

void run_list_watch(const ListOptions& o, print::OutputFormat format, Factory& f) {
  using print::OutputFormat;
  if (format == OutputFormat::Yaml) throw UsageError("list -w prints a table, -o name or -o json lines; not -o yaml");
  const std::string ns = o.all_namespaces ? "" : f.namespace_();
  jobs::LiveJobs live(ns, jobs::kinds_for_type(o.type), format == OutputFormat::Json, &f.client());
  kube::Reflectors reflectors(f.client(), live.collections());
  reflectors.start();
  auto& out = f.io().out();
  const auto first = live.snapshot(f.clock()());
  if (format == OutputFormat::Json) {
    // One JSON object per line: each job now, then each change (jq -c friendly).
    for (const auto& j : first) out << nlohmann::ordered_json{{"type", "ADDED"}, {"job", j.to_json()}}.dump() << "\n";
  } else if (format == OutputFormat::Name) {
    out << print::job_names(first);
  } else {
    print::job_list_table(first, o.all_namespaces).render_to(out, f.io());
  }
  out.flush();
  for (;;) {
    reflectors.run_for(std::chrono::seconds(1));
    const auto changes = live.take_changes(f.clock()());
    if (changes.empty()) continue;
    jobs::JobList jobs;
    std::vector<bool> deleted;
    for (const auto& c : changes) {
      jobs.push_back(c.job);
      deleted.push_back(c.deleted);
    }
    if (format == OutputFormat::Json) {
      for (size_t n = 0; n < jobs.size(); ++n)
        out << nlohmann::ordered_json{{"type", deleted[n] ? "DELETED" : "MODIFIED"}, {"job", jobs[n].to_json()}}.dump()
            << "\n";
    } else if (format == OutputFormat::Name) {
      out << print::job_names(jobs);
    } else {
      out << rows_of(print::job_change_table(jobs, deleted, o.all_namespaces), f.io());
    }
    out.flush();
    const auto& s = reflectors.stats();
    log::debug("{} jobs changed; so far {} lists, {} watches, {} events", changes.size(), s.lists, s.watches, s.events);
  }
}

}  // namespace trainctl
