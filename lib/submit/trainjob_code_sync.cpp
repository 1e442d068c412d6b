// --sync-mode on a TrainJob: the job's own TrainingRuntime, a copy of the runtime it names
// with the code-sync init container added.
//
// A TrainJob cannot add an init container itself: a runtimePatches entry's initContainers are
// ContainerPatch {name, env, volumeMounts, securityContext}, without image or command
// (kubeflow/trainer@v2.3.0 pkg/apis/trainer/v1alpha1/trainjob_types.go), and the webhook
// refuses one the runtime does not have ("must not have initContainer that doesn't exist in
// the runtime job", pkg/runtime/framework/plugins/jobset/jobset.go Validate). So the init
// container, its emptyDir and the mount at WORKING_DIR/code of container "node" go in a
// TrainingRuntime of the job's namespace named <job>-code-sync, in each replicated job that
// runs container "node", as the same init container a PyTorchJob's pods get
// (templates/common/pod.yaml). create.h creates it before the TrainJob (the webhook reads the
// runtime, trainingruntime.go L304-314) and makes the TrainJob its owner, so the garbage
// collector removes it with the job; the Trainer controller has its own snapshot of it
// (pkg/runtime/core/snapshot.go), so the job never depends on it after its first reconcile.
#include "core/errors.h"
#include "submit/kind_part.h"
#include "submit/kinds/trainjob.h"
#include "submit/manifest_parts.h"
#include "submit/manifests.h"
#include "submit/parse.h"
#include "submit/trainer_runtimes.h"

namespace trainctl::submit {

using nlohmann::json;

namespace {

constexpr const char* kVolume = "code-sync";

json* pod_spec_of(json& rjob) {
  json* cur = &rjob;
  for (const char* k : {"template", "spec", "template", "spec"}) {
    if (!cur->is_object() || !cur->contains(k) || !(*cur)[k].is_object()) return nullptr;
    cur = &(*cur)[k];
  }
  return cur;
}

void append(json& obj, const char* list, const json& item) {
  if (!obj.contains(list) || !obj[list].is_array()) obj[list] = json::array();
  obj[list].push_back(item);
}

}  // namespace

std::string code_sync_runtime_name(const Plan& p) { return p.name + "-code-sync"; }

bool uses_code_sync_runtime(const Plan& p) { return !p.sync_mode.empty(); }

json render_code_sync_runtime(const Plan& p, const render::TemplateSet& t) {
  const TrainJobPlan& tj = kind_part<TrainJobPlan>(p);
  const json& source = tj.sync_runtime_source;
  if (!source.is_object() || !source.contains("spec"))
    throw Error("the runtime " + tj.runtime_name + " was not read before the job's TrainingRuntime was made");
  // The code-sync pieces exactly as a PyTorchJob's pod template has them.
  const json pod = pod_template(p, t, PodRole{"node", ""});
  json init, volume, mount;
  for (const auto& c : pod["spec"].value("initContainers", json::array())) init = c;
  for (const auto& v : pod["spec"].value("volumes", json::array()))
    if (v.value("name", "") == kVolume) volume = v;
  for (const auto& c : pod["spec"].value("containers", json::array()))
    for (const auto& m : c.value("volumeMounts", json::array()))
      if (m.value("name", "") == kVolume) mount = m;
  if (init.is_null() || volume.is_null() || mount.is_null())
    throw Error("the pod template (pod.yaml) renders no code-sync init container, volume or mount: restore them");

  json spec = source["spec"];
  json& rjobs = spec["template"]["spec"]["replicatedJobs"];
  if (!rjobs.is_array()) rjobs = json::array();
  for (auto& rj : rjobs) {
    json* ps = pod_spec_of(rj);
    if (!ps || !ps->contains("containers")) continue;
    bool has_node = false;
    for (auto& c : (*ps)["containers"])
      if (c.value("name", "") == "node") {
        append(c, "volumeMounts", mount);
        has_node = true;
      }
    if (!has_node) continue;
    append(*ps, "initContainers", init);
    append(*ps, "volumes", volume);
  }
  json labels = json::object();
  if (source.contains("metadata") && source["metadata"].contains("labels")) labels = source["metadata"]["labels"];
  for (const auto& kv : standard_labels_for_pods(p)) labels[kv.key] = kv.value;
  return {{"apiVersion", "trainer.kubeflow.org/v1alpha1"},
          {"kind", "TrainingRuntime"},
          {"metadata",
           {{"name", code_sync_runtime_name(p)},
            {"namespace", p.namespace_},
            {"labels", labels},
            {"annotations", {{kCopyOfAnnotation, tj.runtime_kind + "/" + tj.runtime_name}}}}},
          {"spec", spec}};
}

}  // namespace trainctl::submit
