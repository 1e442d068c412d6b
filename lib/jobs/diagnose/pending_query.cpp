#include "jobs/diagnose/pending_query.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/errors.h"
#include "jobs/diagnose/job_events.h"
#include "jobs/json_util.h"
#include "kube/list_reads.h"
#include "object/owner.h"
#include "kube/queue_resources.h"

namespace trainctl::jobs {

using nlohmann::json;

bool looks_pending(const TrainingJob& job) {
  if (job.status == JobStatus::Pending || job.status == JobStatus::Queuing) return true;
  if (job.finished()) return false;
  for (const auto& i : job.instances)
    if (i.phase == "Pending" &&
        (i.node_name.empty() || i.status == "ErrImagePull" || i.status == "ImagePullBackOff"))
      return true;
  return false;
}

PendingReason read_pending_reason(kube::Client& client, const TrainingJob& job, std::vector<json> pods,
                                  QueueRead* queue) {
  const std::string& ns = job.namespace_;
  PendingFacts facts;
  NodeRoomBuilder room;
  // Events are kept while they stream in when they may be about the job (job_events.h), and
  // once its PodGroups are read too, only those about its own objects.
  std::vector<json> events;
  kube::ListQuery warnings;
  warnings.field_selector = "type=Warning";
  kube::ListQuery not_done;
  not_done.field_selector = "status.phase!=Failed,status.phase!=Succeeded";
  // A user may not be allowed to list events, nodes or the pods of every namespace (403),
  // and PodGroups are not served without Volcano (404): the explanation is made of the rest.
  std::vector<std::string> refused;
  // The queue (queues.h read_job_queue) of a job that waits for one: its Workload, kept as it
  // streams in, and the PodGroups read here anyway. A list that fails other than 404 leaves
  // it unknown.
  const bool with_queue = queue && (job.status == JobStatus::Pending || job.status == JobStatus::Queuing);
  std::optional<JobQueue> workload_queue;
  std::string queue_error;
  // `what`: the read as "not read:" names it (nullptr: the queue's only); `of_queue`: the queue
  // is unknown without it.
  auto may_refuse = [&refused, &queue_error, with_queue](kube::StreamRead r, const char* what, bool of_queue) {
    r.on_error = [&refused, &queue_error, what, of_queue, with_queue](const ApiError& e) {
      if (e.is_not_found()) return;
      if (of_queue && with_queue && queue_error.empty()) queue_error = e.what();
      if (what)
        refused.push_back(std::string(what) + " (" + std::to_string(e.http_status()) + " " + e.reason() + ")");
    };
    return r;
  };
  std::vector<kube::StreamRead> reads = {
      may_refuse(kube::list_read(kube::events(), ns, warnings,
                                 [&](json& e) {
                                   if (may_be_about(job.name, e)) events.push_back(std::move(e));
                                 }),
                 "events", false),
      may_refuse(kube::list_read(kube::pod_groups(), ns, {},
                                 [&](json& pg) {
                                   const bool owned = object::has_owner(pg, job.uid);
                                   // NAME (training-operator, Volcano before v1.6) or NAME-UID
                                   // (Volcano v1.6+): lists build no ownerReferences.
                                   if (owned || name_of(pg) == job.name || name_of(pg) == job.name + "-" + job.uid)
                                     facts.pod_groups.push_back(std::move(pg));
                                 }),
                 "podgroups", true),
  };
  if (with_queue)
    reads.push_back(may_refuse(kube::list_read(kube::kueue_workloads(), ns, {},
                                               [&](json& wl) {
                                                 // The first Workload of the job, as job_queue_of takes it.
                                                 if (!workload_queue)
                                                   workload_queue = job_queue_of(job.name, job.uid, std::vector<json>(1, wl), {});
                                               }),
                               nullptr, true));
  // The nodes' free room is only about pods not bound to a node yet: with none, every node and
  // pod of the cluster is left unread.
  const bool fit = std::any_of(pods.begin(), pods.end(), [](const json& p) { return pod_unscheduled(p); });
  const size_t nodes_read = reads.size();
  if (fit) {
    reads.push_back(
        may_refuse(kube::list_read(kube::nodes(), "", {}, [&](json& n) { room.add_node(n); }), "nodes", false));
    reads.back().fields = &node_room_fields();
    reads.push_back(may_refuse(kube::list_read(kube::pods(), "", not_done, [&](json& p) { room.add_pod(p); }),
                               "pods of all namespaces", false));
    reads.back().fields = &room_pod_fields();
  }
  const auto missing = kube::stream_all(client, reads, kube::kPageSize, [&] {
    facts = PendingFacts{};
    events.clear();
    room = NodeRoomBuilder{};
    refused.clear();
    workload_queue.reset();
    queue_error.clear();
  });
  if (with_queue) {
    queue->read = true;
    queue->error = queue_error;
    // A Workload wins over a PodGroup, as in job_queue_of.
    queue->queue = workload_queue ? workload_queue : job_queue_of(job.name, job.uid, {}, facts.pod_groups);
  }
  // The job's PodGroup is named after it (Volcano: NAME-UID, before v1.6 NAME; training-operator:
  // NAME) and owned by it.
  OwnObjects own;
  own.add(job.uid, job.name);
  for (const auto& p : pods) own.add(p);
  for (const auto& pg : facts.pod_groups) own.add(pg);
  for (auto& e : events)
    if (own.about(e)) facts.events.push_back(std::move(e));
  facts.pods = std::move(pods);
  facts.nodes = room.finish();
  facts.nodes_read = !fit || !missing[nodes_read];
  facts.unread = std::move(refused);
  return diagnose_pending(facts);
}

namespace {

// A PENDING or QUEUING job whose pods say nothing, and the reason events give it.
struct Unexplained {
  std::string namespace_;
  std::string name;
  std::string reason;
};

// A UID as the API server makes them (apimachinery's uuid.NewUUID): 8-4-4-4-12 hex digits.
bool looks_like_uid(const std::string& s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

bool unexplained(const TrainingJob& j) {
  return (j.status == JobStatus::Pending || j.status == JobStatus::Queuing) && j.reason.empty();
}

void read_event_reasons(kube::Client& client, const std::string& ns, std::vector<Unexplained>& jobs) {
  std::map<std::string, std::vector<Unexplained*>> unexplained;  // namespace -> jobs
  for (auto& j : jobs) unexplained[j.namespace_].push_back(&j);
  if (unexplained.empty()) return;
  kube::ListQuery warnings;
  warnings.field_selector = "type=Warning";
  kube::StreamRead read = kube::list_read(kube::events(), ns, warnings, [&](json& e) {
    const std::string reason = event_pending_reason(e);
    if (reason.empty()) return;
    const auto& object = at(e, "involvedObject");
    auto it = unexplained.find(str(object, "namespace"));
    if (it == unexplained.end()) return;
    const std::string name = str(object, "name");
    for (auto* j : it->second) {
      // The job itself, or its PodGroup: NAME (training-operator, Volcano before v1.6) or
      // NAME-UID (Volcano v1.6+, job_controller_actions.go): not another job's NAME-more.
      const bool about = name == j->name || (reason == "GangUnschedulable" && name.size() > j->name.size() &&
                                              name.rfind(j->name + "-", 0) == 0 &&
                                              looks_like_uid(name.substr(j->name.size() + 1)));
      if (about && (j->reason.empty() || reason == "ExceededQuota")) j->reason = reason;
    }
  });
  // A user who may not list events still gets the list, with what the pods said.
  read.on_error = [](const ApiError&) {};
  kube::stream_all(client, {read});
}

}  // namespace

void add_event_reasons(kube::Client& client, const std::string& ns, ListedJobs& jobs) {
  std::vector<size_t> targets;
  std::vector<Unexplained> found;
  for (size_t i = 0; i < jobs.size(); ++i) {
    TrainingJob j = jobs.job(i);
    if (!unexplained(j)) continue;
    targets.push_back(i);
    found.push_back({std::move(j.namespace_), std::move(j.name), ""});
  }
  read_event_reasons(client, ns, found);
  for (size_t i = 0; i < found.size(); ++i)
    if (!found[i].reason.empty()) jobs.set_reason(targets[i], std::move(found[i].reason));
}

}  // namespace trainctl::jobs
