// logs --all without -f: each replica's log in turn, streamed, so memory does not grow with
// the length of the logs.
#include <algorithm>

#include "core/errors.h"
#include "jobs/logs/all_logs.h"
#include "jobs/legacy_pods.h"
#include "jobs/logs/log_merge.h"
#include "kube/answer_shape.h"
#include "kube/query.h"
#include "kube/resource.h"

namespace trainctl::jobs {

std::string log_container(const nlohmann::json& pod, const std::string& wanted) {
  if (!wanted.empty()) return wanted;
  const auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->contains("containers")) return "";
  const auto& cs = (*spec)["containers"];
  if (!cs.is_array() || cs.size() < 2 || !cs[0].contains("name") || !cs[0]["name"].is_string()) return "";
  return cs[0]["name"].get<std::string>();
}

void read_all_logs(kube::Client& client, const AllLogsOptions& o, std::ostream& out) {
  std::vector<std::pair<Replica, std::string>> replicas;  // with the container to read
  for (const auto& pod : read_job_pods(client, *o.kind, o.log.ns, o.job)) {
    Replica r = replica_of(*o.kind, o.job, pod);
    if (o.filter.matches(r)) replicas.emplace_back(std::move(r), log_container(pod, o.log.container));
  }
  if (replicas.empty())
    throw NotFoundError("job " + o.job + " has no " +
                        (o.filter.role.empty() && !o.filter.rank ? "" : "matching ") + "instances");
  std::sort(replicas.begin(), replicas.end(),
            [](const auto& a, const auto& b) { return replica_before(a.first, b.first); });
  size_t width = 0;
  for (const auto& [r, c] : replicas) width = std::max(width, r.label.size());
  MergedOutput merged(out);
  for (size_t i = 0; i < replicas.size(); ++i) {
    const auto& [r, container] = replicas[i];
    LogOptions l = o.log;
    l.pod = r.pod;
    l.container = container;
    const std::string prefix = o.prefix ? log_prefix(r.label, width, o.color, i) : "";
    ReplicaLines lines(merged, prefix, o.log.timestamps);
    kube::Request req;
    // Timestamps are asked for and stripped unless wanted: a line is then known whole.
    req.path = log_path(l, false, true, true, "");
    req.accept = "text/plain, */*";
    req.finite = true;
    try {
      client.stream_blocks(req, [&](std::string_view block) {
        if (block.empty()) return merged.flush(), true;
        lines.feed(block);
        return true;
      });
      lines.end();
    } catch (const ApiError& e) {
      // A container that has not started yet has no log: say so in its place and go on.
      if (e.http_status() != 400) throw;
      merged.line(prefix, std::string("(no log: ") + e.what() + ")");
    }
    merged.flush();
  }
}

}  // namespace trainctl::jobs
