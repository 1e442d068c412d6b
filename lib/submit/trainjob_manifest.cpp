// The TrainJob of a plan (templates/trainjob/job.yaml); see kinds/trainjob.cpp for what goes where.
#include "submit/job_template.h"
#include "submit/kind_part.h"
#include "submit/kinds/torchrun.h"
#include "submit/kinds/trainjob.h"
#include "submit/manifest_parts.h"
#include "submit/pod_values.h"
#include "submit/trainer_runtimes.h"

namespace trainctl::submit {

using nlohmann::json;

namespace {

// The manager of trainctl's runtimePatches entry: a domain-prefixed path
// (trainer@v2.3.0 jobset.go Validate, validation.IsDomainPrefixedPath).
constexpr const char* kPatchManager = "trainctl.io/submit";

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A mustache section's list, or null (the key is dropped) when there is nothing in it.
json kv_or_null(const std::vector<KeyValue>& items) { return items.empty() ? json() : kv_list(items); }

}  // namespace

bool needs_runtime_patch(const Plan& p) {
  return !p.labels.empty() || !kind_part<TrainJobPlan>(p).pod_annotations.empty() || !p.selectors.empty() ||
         !p.tolerations.empty() || !p.data.empty() || !p.data_dirs.empty() || !p.image_pull_secrets.empty() ||
         !p.service_account.empty() || (p.tensorboard && !p.logdir_on_data && !p.logdir_remote);
}

json render_trainjob(const Plan& p, const render::TemplateSet& t) {
  const JobTemplate job_yaml(t, p.template_kind);
  const TrainJobPlan& tj = kind_part<TrainJobPlan>(p);
  json v = job_values(p);
  const json pod = pod_values(p, PodRole{"node", ""});
  const bool own_runtime = uses_code_sync_runtime(p);
  v["runtime_name"] = own_runtime ? code_sync_runtime_name(p) : tj.runtime_name;
  // The CRD defaults kind to ClusterTrainingRuntime (and apiGroup): kubeflow/sdk sends the name only.
  const std::string kind = own_runtime ? "TrainingRuntime" : tj.runtime_kind;
  v["runtime_kind"] = kind == "ClusterTrainingRuntime" ? json() : json(kind);
  if (!tj.dataset_uri.empty() || !tj.model_uri.empty())
    v["initializer"] = {{"dataset_uri", or_null(tj.dataset_uri)}, {"model_uri", or_null(tj.model_uri)}};
  v["image"] = or_null(p.image);
  // The command runs in --working-dir, as a container's workingDir would (a TrainJob has none).
  v["command_json"] = p.command.empty()
                          ? json()
                          : json::array({p.shell, "-c", "cd " + sh_quote(p.working_dir) + " && " + p.command});
  v["args_json"] = tj.trainer_args.empty() ? json() : json(tj.trainer_args);
  v["env"] = pod["user_env"];
  const std::string& nproc = kind_part<TorchrunPlan>(p).nproc_per_node;
  v["nproc_per_node"] = nproc.empty() ? json() : json(std::stoi(nproc));
  v["resources"] = pod["resources"];
  v["has_resources"] = pod["has_resources"];
  // The code-sync volume and its mount are the job's own runtime's (trainjob_code_sync.cpp).
  json mounts = json::array();
  for (const auto& m : pod["mounts"].is_array() ? pod["mounts"] : json::array())
    if (m.value("name", "") != "code-sync") mounts.push_back(m);
  if (needs_runtime_patch(p)) {
    json patch = {{"manager", kPatchManager},
                  {"pod_labels", kv_or_null(p.labels)},
                  {"pod_annotations", kv_or_null(tj.pod_annotations)},
                  {"node_selector", pod["node_selector"]},
                  {"tolerations_json", pod["tolerations_json"]},
                  {"image_pull_secrets", pod["image_pull_secrets"]},
                  {"service_account", pod["service_account"]},
                  {"pvc_volumes", pod["pvc_volumes"]},
                  {"host_volumes", pod["host_volumes"]},
                  {"mounts", mounts.empty() ? json() : mounts},
                  {"has_mounts", !mounts.empty()}};
    json jobs = json::array();
    for (const auto& j : tj.runtime_node_jobs) jobs.push_back({{"name", j}});
    patch["jobs"] = jobs;
    v["patch"] = patch;
  }
  return job_yaml.render(v);
}

}  // namespace trainctl::submit
