#include "submit/manifests.h"

#include "core/base64.h"
#include "core/errors.h"
#include "render/render.h"
#include "submit/job_template.h"
#include "submit/manifest_parts.h"
#include "submit/pod_values.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

using nlohmann::json;

std::vector<KeyValue> standard_labels(const Plan& p) {
  return {{"app", p.kind->type},
          {"release", p.name},
          {"createdBy", p.kind->created_by},
          {"app.kubernetes.io/managed-by", "trainctl"}};
}

std::vector<KeyValue> standard_labels_for_pods(const Plan& p) {
  auto labels = standard_labels(p);
  for (const auto& kv : p.submit_kind->rules.pod_labels) labels.push_back(kv);
  return labels;
}

std::string tensorboard_host_path(const Plan& p) { return "/trainctl_logs/" + p.namespace_ + "/" + p.name; }

namespace {

template <typename T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json();
}

}  // namespace

std::vector<KeyValue> object_labels(const Plan& p, std::vector<KeyValue> standard) {
  std::vector<KeyValue> out;
  for (const auto& kv : p.labels) {
    bool overridden = false;
    for (const auto& s : standard) overridden |= s.key == kv.key;
    if (!overridden) out.push_back(kv);
  }
  for (auto& s : standard) out.push_back(std::move(s));
  return out;
}

json one_object(const render::TemplateSet& t, const std::string& kind, const std::string& name,
                const json& values) {
  return JobTemplate(t, kind, name).render(values);
}

json pod_template(const Plan& p, const render::TemplateSet& t, const PodRole& role) {
  json v = pod_values(p, role);
  return one_object(t, p.template_kind, "pod.yaml", v);
}

json job_values(const Plan& p) {
  json v = json::object();
  v["name"] = p.name;
  v["namespace"] = p.namespace_;
  auto labels = object_labels(p, standard_labels_for_pods(p));
  // On the job object only: Kueue reads it there (jobframework QueueName); its pods are not
  // Kueue's to manage.
  if (!p.kueue_queue.empty()) labels.push_back({"kueue.x-k8s.io/queue-name", p.kueue_queue});
  v["labels"] = kv_list(labels);
  v["annotations"] = p.annotations.empty() ? json() : kv_list(p.annotations);
  v["clean_pod_policy"] = p.clean_pod_policy;
  v["backoff_limit"] = opt(p.retry);
  v["active_deadline_seconds"] = opt(p.active_deadline_seconds);
  v["ttl_seconds_after_finished"] = opt(p.ttl_seconds_after_finished);
  v["workers"] = p.workers;
  if (p.scheduling_policy) {
    json sp = {{"min_available", p.min_available},
               {"queue", or_null(p.queue)},
               {"priority_class", or_null(p.priority)},
               {"schedule_timeout_seconds", opt(p.schedule_timeout_seconds)},
               {"min_resources", p.min_resources.empty() ? json() : kv_list(p.min_resources)}};
    v["scheduling_policy"] = sp;
  }
  return v;
}

namespace {

std::vector<json> tensorboard(const Plan& p, const render::TemplateSet& t) {
  std::vector<KeyValue> standard = standard_labels(p);
  standard.push_back({"role", "tensorboard"});
  json v = {{"name", p.name + "-tensorboard"},
            {"namespace", p.namespace_},
            {"image", p.tensorboard_image},
            {"logdir", p.logdir}};
  v["labels"] = kv_list(object_labels(p, standard));
  v["selector"] = kv_list({{"role", "tensorboard"}, {"release", p.name}, {"app", p.kind->type}});
  v["node_selector"] = p.selectors.empty() ? json() : kv_list(p.selectors);
  v["tolerations_json"] = p.tolerations.empty() ? json() : p.tolerations;
  json secrets = json::array();
  for (const auto& s : p.image_pull_secrets) secrets.push_back({{"name", s}});
  v["image_pull_secrets"] = secrets.empty() ? json() : secrets;
  json mounts = json::array();
  if (p.logdir_remote) {
    // TensorBoard reads the store itself: nothing to mount, no node to follow. It does so with
    // the job's ServiceAccount, which is what a cloud's workload identity (GKE Workload
    // Identity, EKS IRSA, ACK RRSA) binds storage credentials to. With a mounted logdir it
    // needs no identity: it keeps the namespace's default, so that the job's rights (listing
    // pods, say) are not served from a NodePort.
    v["service_account"] = p.service_account.empty() ? json() : json(p.service_account);
  } else if (p.logdir_on_data) {
    json pvcs = json::array();
    for (const auto& d : p.data) {
      pvcs.push_back({{"name", d.pvc}, {"claim", d.pvc}});
      mounts.push_back({{"name", d.pvc}, {"path", d.path}});
    }
    v["pvc_volumes"] = pvcs;
  } else {
    v["host_volumes"] = json::array({{{"name", "training-logs"}, {"path", tensorboard_host_path(p)}}});
    mounts.push_back({{"name", "training-logs"}, {"path", p.logdir}});
    v["affinity"] = json{{"match_labels", kv_list(p.submit_kind->chief_pod_labels(p))}};
  }
  v["mounts"] = mounts;
  return {one_object(t, p.template_kind, "tensorboard-deployment.yaml", v),
          one_object(t, p.template_kind, "tensorboard-service.yaml", v)};
}

// --config-file: one ConfigMap per container directory.
json config_map(const Plan& p, const ConfigDir& dir, const render::TemplateSet& t) {
  json v = {{"name", dir.config_map}, {"namespace", p.namespace_}};
  v["labels"] = kv_list(object_labels(p, standard_labels(p)));
  json data = json::array(), binary = json::array();
  for (const auto& f : dir.files) {
    if (f.binary)
      binary.push_back({{"key", f.key}, {"value", base64_encode(f.content)}});
    else
      data.push_back({{"key", f.key}, {"value", f.content}});
  }
  v["data"] = data.empty() ? json() : data;
  v["binary_data"] = binary.empty() ? json() : binary;
  return one_object(t, p.template_kind, "configmap.yaml", v);
}

}  // namespace

std::vector<json> build_manifests(const Plan& p, const render::TemplateSet& t) {
  std::vector<json> out = p.submit_kind->build(p, t);
  if (p.tensorboard) {
    for (auto& o : tensorboard(p, t)) out.push_back(std::move(o));
  }
  for (const auto& dir : p.config_dirs) out.push_back(config_map(p, dir, t));
  return out;
}

}  // namespace trainctl::submit
