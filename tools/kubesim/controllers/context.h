// What every controller shares: the store, the log store, the clock, a deterministic random
// source, timers, and small helpers for writing objects without no-op updates.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>

#include "kubesim/controllers/simulation.h"
#include "object/conditions.h"
#include "object/meta.h"
#include "object/owner.h"
#include "kubesim/store.h"

namespace kubesim {

using TimePoint = std::chrono::system_clock::time_point;

// One object to reconcile.
struct ObjectKey {
  const ResourceType* rt = nullptr;
  std::string ns;
  std::string name;
  bool operator<(const ObjectKey& o) const {
    if (rt != o.rt) return std::less<const ResourceType*>()(rt, o.rt);
    if (ns != o.ns) return ns < o.ns;
    return name < o.name;
  }
};

// Who owns what: controller ownerReference uid -> owned objects, kept current from the
// store's watch stream so controllers find their children without scanning a namespace.
class OwnerIndex {
 public:
  void observe(const WatchEvent& ev);
  void add(const ResourceType* rt, const json& obj);
  std::vector<ObjectKey> children(const std::string& owner_uid) const;

 private:
  mutable std::mutex m_mutex;
  std::map<std::string, std::set<ObjectKey>> m_children;
  std::map<ObjectKey, std::string> m_owner;
};

struct Context {
  Store& store;
  LogStore& logs;
  SimulationOptions options;
  std::function<TimePoint()> clock;
  std::function<void(const ObjectKey&, TimePoint)> wake_at;  // enqueue key at a time
  std::mt19937_64 rng;

  // Resource types (nullptr when the store does not serve them).
  const ResourceType* pods = nullptr;
  const ResourceType* nodes = nullptr;
  const ResourceType* services = nullptr;
  const ResourceType* configmaps = nullptr;
  const ResourceType* events = nullptr;
  const ResourceType* jobs = nullptr;         // batch/v1
  const ResourceType* deployments = nullptr;  // apps/v1
  const ResourceType* replicasets = nullptr;  // apps/v1
  const ResourceType* pytorchjobs = nullptr;  // kubeflow.org/v1
  const ResourceType* tfjobs = nullptr;       // kubeflow.org/v1
  const ResourceType* mpijobs = nullptr;      // kubeflow.org/v2beta1
  const ResourceType* vcjobs = nullptr;       // batch.volcano.sh/v1alpha1
  const ResourceType* podgroups = nullptr;    // scheduling.volcano.sh/v1beta1
  const ResourceType* queues = nullptr;       // scheduling.volcano.sh/v1beta1
  const ResourceType* commands = nullptr;     // bus.volcano.sh/v1alpha1

  // The actions of Volcano Commands taken and not yet run, by "NS/JOB" (volcano_job.h).
  std::map<std::string, std::string> volcano_commands;

  OwnerIndex owners;

  Context(Store& s, LogStore& l, SimulationOptions o);
  // The objects of rt whose controller is owner.
  std::vector<std::shared_ptr<const json>> children(const ResourceType& rt, const json& owner) const;
  TimePoint now() const { return clock(); }
  std::string now_str() const;  // RFC 3339, seconds precision, "Z"

  // Random lower-case alphanumeric suffix as the apiserver's generateName uses
  // (consonants and digits "bcdfghjklmnpqrstvwxz2456789").
  std::string random_suffix(size_t n = 5);

  // Read-modify-write that only writes when fn changed the object. Returns true if written.
  bool patch(const ResourceType& rt, const std::string& ns, const std::string& name,
             const std::function<void(json&)>& fn);
  // Creates obj unless an object of that name exists; returns the stored object.
  json create_if_absent(const ResourceType& rt, json obj);
  // Creates a pod of owner's; when the API server refuses it (403, e.g. an exceeded
  // ResourceQuota) records the operator's Warning event on owner, `reason` with `prefix` + the
  // error's message (a prefix ending in "[" gets the closing "]"), and returns null.
  json create_pod(const json& owner, json pod, const std::string& reason, const std::string& prefix,
                  const std::string& component);
  // Objects of rt in ns whose labels contain every pair of selector.
  std::vector<std::shared_ptr<const json>> list_labelled(
      const ResourceType& rt, const std::string& ns,
      const std::map<std::string, std::string>& selector) const;
  // Records a core/v1 Event about obj (deduplicated by reason+message: count is bumped).
  void record_event(const json& obj, const std::string& type, const std::string& reason,
                    const std::string& message, const std::string& component = "");

 private:
  std::mutex m_events_mutex;
  std::map<std::string, std::string> m_event_names;  // uid/reason/message -> event name
};

// ---- free helpers ----
TimePoint parse_time(const std::string& s);  // parse_rfc3339 (core/rfc3339.h); epoch on failure
// "30s", "5m", "1h30m", "250ms"; nullopt-like: returns fallback on empty/invalid.
std::chrono::milliseconds parse_sim_duration(const std::string& s, std::chrono::milliseconds fallback);

// Reads of metadata, owner references and conditions: lib/object, shared with trainctl.
using trainctl::object::annotation;
using trainctl::object::condition_true;
using trainctl::object::controller_of;
using trainctl::object::label;
using trainctl::object::owner_reference;
inline std::string meta_name(const json& obj) { return trainctl::object::name_of(obj); }
inline std::string meta_ns(const json& obj) { return trainctl::object::namespace_of(obj); }
inline std::string meta_uid(const json& obj) { return trainctl::object::uid_of(obj); }

// An object a controller creates for owner: apiVersion, kind and metadata (the given fields,
// plus owner's namespace and a controller ownerReference to owner); the caller adds the rest.
json owned_object(const std::string& api_version, const std::string& kind, const json& owner, json metadata);
// Whether owner is obj's controller (its controller ownerReference has owner's uid).
inline bool owned_by(const json& obj, const json& owner) {
  return trainctl::object::controlled_by(obj, meta_uid(owner));
}
int64_t int_or(const json& v, const std::string& key, int64_t fallback);

// The lower-case hex SHA-1 of s (Kueue's workload names, JobSet's job-key label).
std::string sha1_hex(const std::string& s);

// Quantities: "2", "500m", "4Gi", "1G". CPU in millicores, other resources in units.
int64_t parse_cpu_milli(const json& q);
int64_t parse_quantity(const json& q);

// Annotations steering the simulated containers.
inline constexpr const char* kOutcomeAnnotation = "kubesim.trainctl.io/outcome";
inline constexpr const char* kDurationAnnotation = "kubesim.trainctl.io/duration";
// The simulated GPU metrics of a Running pod (gpu_series.h): idle, busy or a number 0-100, and
// the memory used per GPU (a quantity such as 6Gi).
inline constexpr const char* kGpuProfileAnnotation = "kubesim.trainctl.io/gpu-profile";
inline constexpr const char* kGpuMemoryAnnotation = "kubesim.trainctl.io/gpu-memory";

// An image whose name contains this never pulls: its container waits in ErrImagePull, then
// ImagePullBackOff (the kubelet's image pull failure, e.g. a misspelt image).
inline constexpr const char* kImagePullErrorMarker = "kubesim-pull-error";

// Copies the outcome, duration, gpu-profile and gpu-memory annotations of a job onto a pod
// template's metadata (unless the template sets its own).
void inherit_sim_annotations(const json& job, json& pod_metadata);

}  // namespace kubesim
