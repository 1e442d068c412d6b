// training-operator v1.9.0's common pod, service and limit handling (see kubeflow_replicas.h).
#include "kubesim/controllers/kubeflow_replicas.h"

#include "core/text.h"
#include "kubesim/controllers/job_conditions.h"

namespace kubesim {

namespace {

void set_default_port(json& pod_spec, const char* container, const char* port_name, int port) {
  if (!pod_spec.contains("containers") || !pod_spec["containers"].is_array() ||
      pod_spec["containers"].empty())
    return;
  json& containers = pod_spec["containers"];
  size_t index = 0;
  for (size_t i = 0; i < containers.size(); ++i)
    if (containers[i].value("name", "") == container) {
      index = i;
      break;
    }
  json& c = containers[index];
  for (const auto& p : c.value("ports", json::array()))
    if (p.value("name", "") == port_name) return;
  if (!c.contains("ports") || !c["ports"].is_array()) c["ports"] = json::array();
  c["ports"].push_back({{"name", port_name}, {"containerPort", port}});
}

}  // namespace

json with_replica_defaults(const json& job, const ReplicaDefaults& d) {
  json out = job;
  if (!out.contains("spec") || !out["spec"].is_object()) out["spec"] = json::object();
  json& spec = out["spec"];
  json& rp = spec["runPolicy"];
  if (!rp.is_object()) rp = json::object();
  if (!rp.contains("cleanPodPolicy")) rp["cleanPodPolicy"] = "None";
  if (!spec.contains(d.replicas_key) || !spec[d.replicas_key].is_object())
    spec[d.replicas_key] = json::object();
  json& specs = spec[d.replicas_key];
  for (const std::string& typ : d.types) {
    for (auto it = specs.begin(); it != specs.end(); ++it) {
      if (it.key() == typ || trainctl::ascii_lower(it.key()) != trainctl::ascii_lower(typ)) continue;
      json moved = *it;
      specs.erase(it.key());
      specs[typ] = std::move(moved);
      break;
    }
  }
  for (auto it = specs.begin(); it != specs.end(); ++it) {
    json& rs = *it;
    if (!rs.is_object()) continue;
    if (!rs.contains("replicas") || rs["replicas"].is_null()) rs["replicas"] = 1;
    if (!rs.contains("restartPolicy") || rs["restartPolicy"] == "" || rs["restartPolicy"].is_null())
      rs["restartPolicy"] = d.restart_policy;
    if (rs.contains("template") && rs["template"].contains("spec"))
      set_default_port(rs["template"]["spec"], d.container, d.port_name, d.port);
  }
  return out;
}

const json& replica_specs_of(const json& job, const char* replicas_key) {
  static const json empty = json::object();
  const auto spec = job.find("spec");
  if (spec == job.end() || !spec->is_object()) return empty;
  const auto it = spec->find(replicas_key);
  return it != spec->end() && it->is_object() ? *it : empty;
}

int64_t total_replica_count(const json& specs) {
  int64_t n = 0;
  for (auto it = specs.begin(); it != specs.end(); ++it) n += int_or(*it, "replicas", 1);
  return n;
}

json replica_labels(const json& job, const std::string& operator_name, const std::string& rt_lower,
                    int index) {
  return {{"training.kubeflow.org/operator-name", operator_name},
          {"training.kubeflow.org/job-name", meta_name(job)},
          {"training.kubeflow.org/replica-type", rt_lower},
          {"training.kubeflow.org/replica-index", std::to_string(index)}};
}

ObjectList operator_pods(Context& ctx, const json& job, const std::string& operator_name) {
  ObjectList pods;
  for (auto& p : ctx.children(*ctx.pods, job)) {
    const bool current = label(*p, "training.kubeflow.org/operator-name") == operator_name &&
                         label(*p, "training.kubeflow.org/job-name") == meta_name(job);
    const bool older = label(*p, "group-name") == "kubeflow.org" &&
                       (label(*p, "job-name") == meta_name(job) || label(*p, "pytorch-job-name") == meta_name(job));
    if (current || older) pods.push_back(std::move(p));
  }
  return pods;
}

void label_as_release(json& labels, const std::string& release, bool pytorch) {
  if (release.empty() || release == "v1.6") return;
  const std::string prefix = "training.kubeflow.org/";
  json older = {{"group-name", "kubeflow.org"}};
  for (const char* key : {"job-name", "replica-type", "replica-index", "job-role"})
    if (labels.contains(prefix + key)) older[key] = labels[prefix + key];
  if (release == "pytorch-operator-v0.7" && pytorch) {
    older["pytorch-job-name"] = older["job-name"];
    older["controller-name"] = "pytorch-operator";
    older["pytorch-replica-type"] = older["replica-type"];
    older["pytorch-replica-index"] = older["replica-index"];
    older.erase("replica-type");
    older.erase("replica-index");
  }
  if (release != "v1.4")
    for (const char* key : {"operator-name", "job-name", "replica-type", "replica-index", "job-role"})
      labels.erase(prefix + key);
  for (auto it = older.begin(); it != older.end(); ++it) labels[it.key()] = *it;
}

json replica_pod(const json& job, const json& replica_spec, const std::string& operator_name,
                 const std::string& rt_lower, int index, bool master_role,
                 const std::string& default_policy) {
  const json tmpl = replica_spec.value("template", json::object());
  json meta = tmpl.value("metadata", json::object());
  json labels = meta.value("labels", json::object());
  const json own = replica_labels(job, operator_name, rt_lower, index);
  for (auto it = own.begin(); it != own.end(); ++it) labels[it.key()] = *it;
  if (master_role) labels["training.kubeflow.org/job-role"] = "master";
  meta["labels"] = labels;
  meta["name"] = meta_name(job) + "-" + rt_lower + "-" + std::to_string(index);
  meta["namespace"] = meta_ns(job);
  meta["ownerReferences"] = json::array({owner_reference(job)});
  meta.erase("creationTimestamp");
  inherit_sim_annotations(job, meta);

  json spec = tmpl.value("spec", json::object());
  const std::string policy = replica_spec.value("restartPolicy", default_policy);
  spec["restartPolicy"] = policy == "ExitCode" ? "Never" : policy;
  const auto& rp = job.value("spec", json::object()).value("runPolicy", json::object());
  if (rp.contains("schedulingPolicy")) {
    spec["schedulerName"] = "volcano";
    if (!meta.contains("annotations")) meta["annotations"] = json::object();
    meta["annotations"]["scheduling.k8s.io/group-name"] = meta_name(job);
  }
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}, {"spec", spec}};
}

json replica_service(const json& job, const json& replica_spec, const std::string& operator_name,
                     const std::string& container, const std::string& rt_lower, int index) {
  const json labels = replica_labels(job, operator_name, rt_lower, index);
  json ports = json::array();
  const json tmpl = replica_spec.value("template", json::object());
  for (const auto& c : tmpl.value("spec", json::object()).value("containers", json::array())) {
    if (c.value("name", "") != container) continue;
    for (const auto& p : c.value("ports", json::array())) {
      if (p.value("name", "").empty()) continue;
      const int64_t port = int_or(p, "containerPort", 0);
      ports.push_back({{"name", p["name"]}, {"port", port}, {"protocol", "TCP"}, {"targetPort", port}});
    }
  }
  json svc = owned_object(
      "v1", "Service", job,
      {{"name", meta_name(job) + "-" + rt_lower + "-" + std::to_string(index)}, {"labels", labels}});
  svc["spec"] = {{"clusterIP", "None"}, {"selector", labels}, {"ports", ports}};
  return svc;
}

std::string ensure_job_pod_group(Context& ctx, const json& job, int64_t total_replicas) {
  const auto& spec = job.value("spec", json::object());
  const auto& rp = spec.value("runPolicy", json::object());
  if (!rp.contains("schedulingPolicy") || !ctx.podgroups) return "";
  const auto& sp = rp["schedulingPolicy"];
  json pg = owned_object("scheduling.volcano.sh/v1beta1", "PodGroup", job, {{"name", meta_name(job)}});
  pg["spec"] = {{"minMember", int_or(sp, "minAvailable", total_replicas)},
                {"queue", sp.value("queue", "default")}};
  pg["status"] = {{"phase", "Pending"}};
  if (sp.contains("priorityClass")) pg["spec"]["priorityClassName"] = sp["priorityClass"];
  if (sp.contains("minResources")) pg["spec"]["minResources"] = sp["minResources"];
  ctx.create_if_absent(*ctx.podgroups, pg);
  return meta_name(job);
}

int pod_exit_code(const json& pod, const std::string& container) {
  int code = 0xbeef;  // "magic number"
  for (const auto& cs : pod.value("status", json::object()).value("containerStatuses", json::array())) {
    const json st = cs.value("state", json::object());
    if (cs.value("name", "") == container && st.contains("terminated") && st["terminated"].is_object())
      code = static_cast<int>(int_or(st["terminated"], "exitCode", 0));
  }
  return code;
}

ReplicaCounts reconcile_replica_pods(Context& ctx, const json& job, const std::string& rtype, const json& rs,
                                     const std::map<std::string, std::shared_ptr<const json>>& pods,
                                     const ReplicaSource& source, json& status, const std::string& now) {
  const std::string jname = meta_name(job);
  const std::string policy = rs.value("restartPolicy", "");
  const std::string kind = source.kind;
  ReplicaCounts n;
  for (int i = 0; i < int_or(rs, "replicas", 1); ++i) {
    const std::string pod_name = jname + "-" + trainctl::ascii_lower(rtype) + "-" + std::to_string(i);
    auto it = pods.find(pod_name);
    if (it == pods.end()) {
      json pod = source.make_pod(i);
      if (!pod.is_null()) label_as_release(pod["metadata"]["labels"], ctx.options.kubeflow_pod_labels, kind == "PyTorchJob");
      // training-operator pkg/controller.v1/control/pod_control.go: FailedCreatePod, "Error creating: %v".
      if (!pod.is_null() &&
          !ctx.create_pod(job, std::move(pod), "FailedCreatePod", "Error creating: ", source.operator_name)
               .is_null())
        ctx.record_event(job, "Normal", "SuccessfulCreatePod", "Created pod: " + pod_name,
                         source.operator_name);
    } else {
      const json& pod = *it->second;
      const std::string phase = phase_of(pod);
      if (phase == "Failed") {
        const int code = pod_exit_code(pod, source.container);
        if ((policy == "ExitCode" && retryable_exit_code(code)) || policy == "OnFailure" || policy == "Always") {
          try {
            ctx.store.remove(*ctx.pods, meta_ns(job), pod_name);
          } catch (const StatusError&) {
          }
          const std::string msg = "job " + jname + " is restarting because " + rtype + " replica(s) failed.";
          ctx.record_event(job, "Warning", kind + "Restarting", msg, source.operator_name);
          update_training_condition(status, "Restarting", kind + "Restarting", msg, now);
        } else if (policy == "ExitCode") {
          const std::string msg = "job \"" + jname + "\" is failing because \"" + rtype + "\" replica(s) failed.";
          ctx.record_event(job, "Warning", kind + "Failed", msg, source.operator_name);
          update_training_condition(status, "Failed", kind + "Failed", msg, now);
        }
      }
      if (phase == "Running") ++n.active;
      if (phase == "Succeeded") ++n.succeeded;
      if (phase == "Failed") ++n.failed;
    }
    if (ctx.services && !ctx.store.get_shared(*ctx.services, meta_ns(job), pod_name)) {
      json svc = source.make_service(i);
      label_as_release(svc["metadata"]["labels"], ctx.options.kubeflow_pod_labels, kind == "PyTorchJob");
      label_as_release(svc["spec"]["selector"], ctx.options.kubeflow_pod_labels, kind == "PyTorchJob");
      ctx.create_if_absent(*ctx.services, std::move(svc));
      ctx.record_event(job, "Normal", "SuccessfulCreateService", "Created service: " + pod_name,
                       source.operator_name);
    }
  }
  return n;
}

bool retryable_exit_code(int code) { return code >= 128; }

std::string run_policy_limit_message(Context& ctx, const ResourceType& rt, const json& job,
                                     const json& status, const ObjectList& pods) {
  const std::string name = meta_name(job);
  json tmp = job;
  tmp["status"] = status;
  if (auto left = deadline_left(ctx, tmp)) {
    if (left->count() <= 0)
      return "Job " + name + " has failed because it was active longer than specified deadline";
    ctx.wake_at(ObjectKey{&rt, meta_ns(job), name}, ctx.now() + *left);
  }
  const auto& rp = job.value("spec", json::object()).value("runPolicy", json::object());
  const int64_t restarts = container_restarts(pods);
  if (rp.contains("backoffLimit") && restarts >= int_or(rp, "backoffLimit", 0) && restarts > 0)
    return "Job " + name + " has failed because it has reached the specified backoff limit";
  return "";
}

void after_job_finished(Context& ctx, const ResourceType& rt, const std::string& ns,
                        const std::string& name) {
  auto updated = ctx.store.get_shared(rt, ns, name);
  if (!updated) return;
  clean_pods(ctx, *updated, ctx.children(*ctx.pods, *updated), true);
  apply_ttl(ctx, rt, *updated);
}

}  // namespace kubesim
