#include "submit/trainer_runtimes.h"

#include <algorithm>

#include "core/errors.h"
#include "kube/json_util.h"
#include "submit/kind_part.h"
#include "submit/kinds/trainjob.h"
#include "submit/parse.h"

namespace trainctl::submit {

using nlohmann::json;

// kubeflow/trainer@v2.3.0 manifests/base/crds: group trainer.kubeflow.org, version v1alpha1.
const kube::Resource& trainjob_resource() {
  static const kube::Resource r{"trainer.kubeflow.org", "v1alpha1", "trainjobs", "TrainJob", true};
  return r;
}
const kube::Resource& training_runtime_resource() {
  static const kube::Resource r{"trainer.kubeflow.org", "v1alpha1", "trainingruntimes", "TrainingRuntime", true};
  return r;
}
const kube::Resource& cluster_training_runtime_resource() {
  static const kube::Resource r{"trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes",
                                "ClusterTrainingRuntime", false};
  return r;
}

namespace {

const json& at(const json& j, std::initializer_list<const char*> path) {
  static const json null;
  const json* cur = &j;
  for (const char* k : path) {
    if (!cur->is_object() || !cur->contains(k)) return null;
    cur = &(*cur)[k];
  }
  return *cur;
}

}  // namespace

TrainingRuntime runtime_of(const json& o) {
  TrainingRuntime r;
  r.object = o;
  r.name = at(o, {"metadata", "name"}).is_string() ? at(o, {"metadata", "name"}).get<std::string>() : "";
  r.kind = o.value("kind", "");
  if (at(o, {"metadata", "namespace"}).is_string()) r.namespace_ = at(o, {"metadata", "namespace"});
  r.framework = kube::label(o, "trainer.kubeflow.org/framework");
  // trainer@v2.3.0 clustertrainingruntime.go L110-116: this label makes a TrainJob's create warn.
  r.deprecated = kube::label(o, "trainer.kubeflow.org/support") == "deprecated";
  const json& nodes = at(o, {"spec", "mlPolicy", "numNodes"});
  if (nodes.is_number_integer()) r.num_nodes = nodes.get<long long>();
  std::string first_image;
  const json& rjobs = at(o, {"spec", "template", "spec", "replicatedJobs"});
  for (const auto& rj : rjobs.is_array() ? rjobs : json::array()) {
    const bool trainer =
        at(rj, {"template", "metadata", "labels", "trainer.kubeflow.org/trainjob-ancestor-step"}) == "trainer";
    r.jobs.push_back(rj.value("name", ""));
    const json& containers = at(rj, {"template", "spec", "template", "spec", "containers"});
    for (const auto& c : containers.is_array() ? containers : json::array()) {
      if (c.value("name", "") != "node") continue;
      r.node_jobs.push_back(rj.value("name", ""));
      const std::string image = c.value("image", "");
      if (trainer) r.image = image;
      if (first_image.empty()) first_image = image;
    }
  }
  if (r.image.empty()) r.image = first_image;
  r.copy_of = kube::annotation(o, kCopyOfAnnotation);
  // The copy's owner (create.h sets it after the TrainJob's create, so the annotation is what
  // marks a copy whose job failed in between); a TrainJob owner marks any runtime of one job.
  const json& owners = at(o, {"metadata", "ownerReferences"});
  for (const auto& ref : owners.is_array() ? owners : json::array())
    if (ref.value("kind", "") == "TrainJob" && ref.value("apiVersion", "").rfind("trainer.kubeflow.org/", 0) == 0)
      r.owner_job = ref.value("name", "");
  return r;
}

namespace {

std::vector<TrainingRuntime> list_of(kube::Client& client, const kube::Resource& res, const std::string& ns,
                                     bool with_job_copies) {
  std::vector<TrainingRuntime> out;
  json list;
  try {
    list = client.get_json(res.collection_path(ns));
  } catch (const ApiError& e) {
    if (e.is_not_found()) return out;
    throw;
  }
  for (const auto& item : list.value("items", json::array())) {
    json o = item;
    if (!o.contains("kind")) o["kind"] = res.kind;  // list items carry no kind
    TrainingRuntime r = runtime_of(o);
    if (with_job_copies || !r.of_one_job()) out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

}  // namespace

std::vector<TrainingRuntime> list_runtimes(kube::Client& client, const std::string& namespace_,
                                           bool with_job_copies) {
  auto out = list_of(client, cluster_training_runtime_resource(), "", with_job_copies);
  for (auto& r : list_of(client, training_runtime_resource(), namespace_, with_job_copies))
    out.push_back(std::move(r));
  return out;
}

TrainingRuntime find_runtime(kube::Client& client, const Plan& plan) {
  const TrainJobPlan& p = kind_part<TrainJobPlan>(plan);
  const std::string& namespace_ = plan.namespace_;
  const bool cluster = p.runtime_kind == "ClusterTrainingRuntime";
  const kube::Resource& res = cluster ? cluster_training_runtime_resource() : training_runtime_resource();
  try {
    json o = client.get_json(res.object_path(cluster ? "" : namespace_, p.runtime_name));
    if (!o.contains("kind")) o["kind"] = res.kind;
    return runtime_of(o);
  } catch (const ApiError& e) {
    if (!e.is_not_found()) throw;
  }
  std::string have;
  for (const auto& r : list_runtimes(client, namespace_)) {
    if (r.kind != p.runtime_kind) continue;
    have += (have.empty() ? "" : ", ") + r.name;
  }
  const std::string where = cluster ? "this cluster" : "namespace " + namespace_;
  throw UsageError("no " + p.runtime_kind + " " + dq(p.runtime_name) + " in " + where + ": " +
                   (have.empty() ? "it has none (install Kubeflow Trainer's runtimes)" : "it has " + have) +
                   " (see trainctl runtime list)");
}

}  // namespace trainctl::submit
