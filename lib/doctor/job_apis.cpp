// Job APIs: which job kinds the cluster serves, at which versions, and which optional fields
// their CRDs have (docs/doctor.md, "Job APIs").
#include "core/text.h"
#include "doctor/checks.h"
#include "kube/resource.h"
#include "submit/server_facts.h"

namespace trainctl::doctor {

namespace {

using nlohmann::json;

constexpr const char* kTrainer = "trainer.kubeflow.org";
constexpr const char* kJobSet = "jobset.x-k8s.io";

std::string crd_key(const std::string& name) { return "crd:" + name; }

void ask_crd(Probe& p, const std::string& name) {
  p.get(crd_key(name), kube::custom_resource_definitions().object_path("", name));
}

// The CRD's body, or null when it could not be read (not allowed, not installed).
const json& crd_of(const Probe& p, const std::string& name) {
  static const json none;
  const Answer& a = p.answer(crd_key(name));
  return a.ok() && a.body.is_object() ? a.body : none;
}

// A training-operator, mpi-operator or Volcano kind: served at its version, and its CRD's fields.
void judge_operator_kind(const Probe& p, const submit::SubmitKind& kind, Report& r) {
  const kube::Resource& res = kind.job.resource;
  Finding f{Section::JobApis, "api." + kind_id(kind), kind_title(kind)};
  f.details = {{"apiVersion", res.api_version()}, {"served", serves(p, res.group, res.version, res.plural)}};
  if (!f.details["served"].get<bool>()) {
    f.status = Status::Missing;
    f.result = "not served (no " + res.api_version() + " " + res.plural + ")";
    f.reason = "trainctl submit " + kind.rules.command + " creates " + res.display();
    f.fix = kind.rules.not_installed_hint;
    const submit::OtherVersion& other = kind.rules.other_version;
    if (!other.version.empty() && serves(p, res.group, other.version, res.plural)) {
      f.result = other.result;
      f.details["servedVersions"] = {other.version};
      f.reason = other.reason;
      f.fix = other.fix;
    }
    r.add(std::move(f));
    return;
  }
  f.status = Status::Ok;
  f.result = res.api_version();
  const json& crd = crd_of(p, res.plural + "." + res.group);
  const auto& facts_read = kind.rules.crd_fields;
  if (facts_read.empty()) {
    r.add(std::move(f));
    return;
  }
  if (crd.is_null()) {
    f.result += "; its CRD could not be read, so its optional fields are not known (submit assumes a current release)";
    f.details["crdRead"] = false;
    r.add(std::move(f));
    return;
  }
  submit::ServerFacts facts;
  kind.read_crd(crd, facts);
  std::vector<std::string> have, lack;
  json fields = json::object();
  for (const auto& ff : facts_read) {
    const bool present = facts.*(ff.fact);
    fields[ff.field] = present;
    (present ? have : lack).push_back(ff.field);
    if (!present) f.reason += std::string(f.reason.empty() ? "" : "; ") + ff.field + " came with " + ff.since;
  }
  f.details["crdRead"] = true;
  f.details["fields"] = fields;
  f.result += "; CRD fields: " + joined(have);
  if (!lack.empty()) {
    f.status = Status::Warning;
    f.result += "; lacks " + joined(lack) + " (an older release)";
    f.reason += ": submit leaves out or works around what the CRD lacks and says so";
    f.fix = "upgrade the operator for every submit flag to work as documented";
  }
  r.add(std::move(f));
}

// batch/v1 Job, the operator-free `submit pytorch --operator none`: the Kubernetes release
// decides the pod hostnames and completion-index label it needs (server_facts.h).
void judge_batch_job(const Probe& p, Report& r) {
  Finding f{Section::JobApis, "api.batchjob", "Indexed Job"};
  const Answer& v = p.answer("version");
  const auto [major, minor] = submit::parse_server_version(v.body);
  f.details = {{"apiVersion", "batch/v1"}};
  if (major == 0) {
    f.status = Status::Info;
    f.result = "batch/v1; the Kubernetes release is not known (" + (v.error.empty() ? "unreadable" : v.error) + ")";
    r.add(std::move(f));
    return;
  }
  const bool hostnames = major > 1 || minor >= 22, index_label = major > 1 || minor >= 28;
  f.details["podHostnames"] = hostnames;
  f.details["completionIndexLabel"] = index_label;
  f.status = hostnames ? Status::Ok : Status::Missing;
  f.result = "batch/v1 for submit pytorch --operator none (Kubernetes " + std::to_string(major) + "." +
             std::to_string(minor) + ")";
  if (!hostnames) {
    f.reason = "Indexed Job pods get the host names the ranks meet at from Kubernetes 1.22";
    f.fix = "use the training-operator (submit pytorch without --operator none), or a newer cluster";
  } else if (!index_label) {
    f.result += "; pods carry the completion index as an annotation only (the label came with 1.28), which "
                "submit handles";
  }
  r.add(std::move(f));
}

void judge_trainer(const Probe& p, const Context& c, Report& r) {
  const bool served = serves(p, kTrainer, "v1alpha1", "trainjobs");
  Finding f{Section::JobApis, "api.trainjob", "TrainJob"};
  f.details = {{"apiVersion", std::string(kTrainer) + "/v1alpha1"}, {"served", served}};
  if (!served) {
    // Missing where TrainJobs were asked for (doctor -T trainjob), else for information.
    const bool asked = c.default_kind().rules.runs_on_runtime;
    r.add(std::move(f), asked ? Status::Missing : Status::Info, "not served (Kubeflow Trainer v2 is not installed)",
          "install Kubeflow Trainer v2 to run TrainJobs");
  } else {
    json markers;
    const std::string gen = trainer_generation(crd_of(p, "trainjobs.trainer.kubeflow.org"),
                                               crd_of(p, "clustertrainingruntimes.trainer.kubeflow.org"), markers);
    f.status = Status::Ok;
    f.result = std::string(kTrainer) + "/v1alpha1";
    f.result += gen.empty() ? "; its CRD could not be read, so its API generation is not known"
                            : "; API of Trainer " + gen;
    f.details["generation"] = gen;
    f.details["fields"] = markers;
    r.add(std::move(f));

    Finding rt{Section::JobApis, "api.runtimes", "Training runtimes"};
    const Answer& cluster = p.answer("runtimes:cluster");
    const Answer& local = p.answer("runtimes:namespace");
    const auto cluster_names = item_names(cluster), local_names = item_names(local);
    rt.details = {{"clusterTrainingRuntimes", cluster_names}, {"trainingRuntimes", local_names}};
    rt.result = "ClusterTrainingRuntimes: " + (cluster.ok() ? joined(cluster_names) : "not readable") +
                "; TrainingRuntimes in " + c.options.namespace_ + ": " + (local.ok() ? joined(local_names) : "not readable");
    if (!cluster.ok() && !local.ok()) {
      rt.status = Status::Warning;
      rt.reason = "the runtimes could not be listed: " + cluster.error;
      rt.fix = "ask the cluster admin for list on clustertrainingruntimes and trainingruntimes";
    } else if (cluster_names.empty() && local_names.empty()) {
      rt.status = Status::Missing;
      rt.reason = "a TrainJob names the runtime it runs on (spec.runtimeRef); there is none";
      rt.fix = "install Trainer's default runtimes (manifests/overlays/runtimes) or create a TrainingRuntime";
    } else {
      rt.status = Status::Ok;
    }
    r.add(std::move(rt));
  }
  Finding js{Section::JobApis, "api.jobset", "JobSet"};
  js.details = {{"apiVersion", std::string(kJobSet) + "/v1alpha2"}, {"served", serves(p, kJobSet, "v1alpha2", "jobsets")}};
  if (js.details["served"].get<bool>()) {
    js.status = Status::Ok;
    js.result = std::string(kJobSet) + "/v1alpha2";
  } else {
    js.status = served ? Status::Missing : Status::Info;
    js.result = "not served";
    if (served) {
      js.reason = "Trainer runs each TrainJob as a JobSet of the same name";
      js.fix = "install JobSet (Trainer's manifests include it)";
    }
  }
  r.add(std::move(js));
}

}  // namespace

// The Kubeflow Trainer release whose TrainJob and ClusterTrainingRuntime CRDs these are
// (kubeflow/trainer manifests/base/crds/ at v2.0.0, v2.1.0, v2.2.0, v2.3.0).
std::string trainer_generation(const json& trainjob_crd, const json& runtime_crd, json& markers) {
  auto declares = [](const json& crd, const char* path) {
    return !crd.is_null() && submit::crd_declares_field(crd, "v1alpha1", path);
  };
  markers = json::object();
  if (!trainjob_crd.is_null()) {
    for (const char* f : {"spec.podSpecOverrides", "spec.podTemplateOverrides", "spec.runtimePatches"})
      markers[f] = declares(trainjob_crd, f);
  }
  if (!runtime_crd.is_null()) markers["spec.mlPolicy.torch.envInjection"] = declares(runtime_crd, "spec.mlPolicy.torch.envInjection");
  if (trainjob_crd.is_null()) return "";
  if (declares(trainjob_crd, "spec.runtimePatches")) {
    if (runtime_crd.is_null()) return "v2.2 or later";
    return declares(runtime_crd, "spec.mlPolicy.torch.envInjection") ? "v2.3 or later" : "v2.2";
  }
  if (declares(trainjob_crd, "spec.podTemplateOverrides")) return "v2.1";
  if (declares(trainjob_crd, "spec.podSpecOverrides")) return "v2.0";
  return "not one of v2.0 to v2.3";
}

void ask_job_apis(Probe& p, const Context& c) {
  p.get("version", kube::kVersionPath);
  p.get("apis", kube::api_group_list_path());
  for (const auto* kind : c.kinds) {
    const kube::Resource& res = kind->job.resource;
    if (kind->rules.built_in_api || kind->rules.runs_on_runtime) continue;  // Trainer's below
    ask_resources(p, res.group, res.version);
    if (!kind->rules.crd_fields.empty()) ask_crd(p, res.plural + "." + res.group);
    if (!kind->rules.other_version.version.empty())
      ask_resources(p, res.group, kind->rules.other_version.version);
  }
  ask_resources(p, kTrainer, "v1alpha1");
  ask_resources(p, kJobSet, "v1alpha2");
  ask_crd(p, "trainjobs.trainer.kubeflow.org");
  ask_crd(p, "clustertrainingruntimes.trainer.kubeflow.org");
  const kube::Resource cluster_runtimes{kTrainer, "v1alpha1", "clustertrainingruntimes", "ClusterTrainingRuntime", false};
  const kube::Resource runtimes{kTrainer, "v1alpha1", "trainingruntimes", "TrainingRuntime"};
  p.get("runtimes:cluster", cluster_runtimes.collection_path());
  p.get("runtimes:namespace", runtimes.collection_path(c.options.namespace_));
}

void judge_job_apis(const Probe& p, const Context& c, Report& r) {
  const auto [major, minor] = submit::parse_server_version(p.answer("version").body);
  if (major > 0) r.kubernetes_version = std::to_string(major) + "." + std::to_string(minor);
  for (const auto* kind : c.kinds) {
    if (kind->rules.built_in_api)
      judge_batch_job(p, r);
    else if (!kind->rules.runs_on_runtime)  // judge_trainer's
      judge_operator_kind(p, *kind, r);
  }
  judge_trainer(p, c, r);
}

}  // namespace trainctl::doctor
