// kubesim's minimal Kueue: shared parts (see kueue_model.h).
#include "kubesim/kueue_model.h"

#include <algorithm>
#include <tuple>

#include "object/conditions.h"

namespace kubesim {

namespace {

// The storage version of a kueue.x-k8s.io resource, else any served one.
const ResourceType* kueue_type(const Store& store, const std::string& plural) {
  const ResourceType* any = nullptr;
  for (const ResourceType* rt : store.types()) {
    if (rt->group != "kueue.x-k8s.io" || rt->plural != plural) continue;
    if (rt->storage_version.empty() || rt->storage_version == rt->version) return rt;
    any = rt;
  }
  return any;
}

}  // namespace

KueueTypes KueueTypes::find(const Store& store) {
  KueueTypes t;
  t.cluster_queues = kueue_type(store, "clusterqueues");
  t.local_queues = kueue_type(store, "localqueues");
  t.workloads = kueue_type(store, "workloads");
  t.resource_flavors = kueue_type(store, "resourceflavors");
  if (!t.served()) t = KueueTypes{};
  return t;
}

bool kueue_manages(const ResourceType& rt) {
  if (rt.group == "batch" && rt.plural == "jobs") return true;
  return rt.group == "kubeflow.org" && (rt.plural == "pytorchjobs" || rt.plural == "tfjobs" || rt.plural == "mpijobs");
}

bool kueue_job_suspended(const ResourceType& rt, const json& job) {
  const json spec = job.value("spec", json::object());
  if (rt.group == "batch") return spec.value("suspend", false);
  const json rp = spec.value("runPolicy", json::object());
  return rp.is_object() && rp.value("suspend", false);
}

void set_kueue_job_suspend(const ResourceType& rt, json& job, bool suspend) {
  if (rt.group == "batch")
    job["spec"]["suspend"] = suspend;
  else
    job["spec"]["runPolicy"]["suspend"] = suspend;
}

void kueue_webhook_default(const KueueConfig& config, const Store& store, const ResourceType& rt, json& obj) {
  if (!config.manages(rt) || !obj.is_object() || !obj.contains("spec") || !obj["spec"].is_object()) return;
  const json labels = obj.value("metadata", json::object()).value("labels", json::object());
  if (!labels.is_object() || labels.value(kKueueQueueLabel, "").empty()) return;
  if (!KueueTypes::find(store).served()) return;
  if (!kueue_job_suspended(rt, obj)) set_kueue_job_suspend(rt, obj, true);
}

std::string kueue_cluster_queue_of(const Store& store, const KueueTypes& t, const json& workload) {
  const std::string lq = workload.value("spec", json::object()).value("queueName", "");
  if (lq.empty()) return "";
  auto q = store.get_shared(*t.local_queues, workload["metadata"].value("namespace", ""), lq);
  return q ? (*q)["spec"].value("clusterQueue", "") : "";
}

bool kueue_set_condition(json& status, const std::string& type, bool value, const std::string& reason,
                         const std::string& message, const std::string& now) {
  if (!status.is_object()) status = json::object();
  json& conds = status["conditions"];
  if (!conds.is_array()) conds = json::array();
  const std::string st = value ? "True" : "False";
  for (auto& c : conds) {
    if (c.value("type", "") != type) continue;
    if (c.value("status", "") == st && c.value("reason", "") == reason && c.value("message", "") == message)
      return false;
    if (c.value("status", "") != st) c["lastTransitionTime"] = now;
    c["status"] = st;
    c["reason"] = reason;
    c["message"] = message;
    return true;
  }
  conds.push_back({{"type", type},
                   {"status", st},
                   {"reason", reason},
                   {"message", message},
                   {"lastTransitionTime", now},
                   {"observedGeneration", 1}});
  return true;
}

bool kueue_workload_pending(const json& workload) {
  return !trainctl::object::condition_true(workload, "QuotaReserved") && !trainctl::object::condition_true(workload, "Finished");
}

std::vector<std::shared_ptr<const json>> kueue_pending_workloads(const Store& store, const KueueTypes& t,
                                                                 const std::string& cluster_queue) {
  std::vector<std::shared_ptr<const json>> out;
  if (!t.served()) return out;
  for (const auto& w : store.list(*t.workloads, "").items)
    if (kueue_workload_pending(*w) && !(*w)["metadata"].contains("deletionTimestamp") &&
        kueue_cluster_queue_of(store, t, *w) == cluster_queue)
      out.push_back(w);
  auto key = [](const json& w) {
    const json& md = w["metadata"];
    return std::make_tuple(-w.value("spec", json::object()).value("priority", 0),
                           md.value("creationTimestamp", ""), md.value("namespace", ""), md.value("name", ""));
  };
  std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) { return key(*a) < key(*b); });
  return out;
}

}  // namespace kubesim
