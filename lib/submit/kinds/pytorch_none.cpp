// PyTorch without the training-operator (--operator none): an Indexed batch/v1 Job whose pods
// find each other through the headless Service of the same name (pod I is NAME-I.NAME).
#include "core/errors.h"
#include "submit/job_template.h"
#include "submit/kind_part.h"
#include "submit/kinds/kinds.h"
#include "submit/kinds/torchrun.h"
#include "submit/manifest_parts.h"
#include "submit/manifests.h"
#include "submit/server_facts.h"

namespace trainctl::submit::kinds {

using nlohmann::json;

namespace {

class PyTorchNoneKind final : public SubmitKind {
 public:
  PyTorchNoneKind()
      : SubmitKind(jobs::kind_named("batchjob"),
                   {.command = "pytorch",
                    .template_dir = "pytorch-none",
                    // batch/v1 is always served: a 404 comes from elsewhere.
                    .not_installed_hint = "check the cluster's API",
                    .pod_labels = {{"trainctl.io/operator", "none"}},
                    .worker_image = WorkerImage::SameAsImage,
                    .no_gang_reason = "--gang, --queue, --min-available and --schedule-timeout need the "
                                      "training-operator (not --operator none)",
                    // kueue pkg/controller/jobs/job (Job.IsSuspended).
                    .kueue = {.framework = "batch/job", .suspend_field = "spec.suspend"},
                    .reads_server_version = true,
                    .built_in_api = true,
                    .minimal_flags = {{"--operator", "none"}}}) {}

  // A command line for it is one of submit pytorch (doctor's dry run names this kind).
  const SubmitKind& resolve(const SubmitOptions& o) const override { return pytorchjob().resolve(o); }

  void plan_replicas(const SubmitOptions& o, Plan& p) const override {
    refuse_elastic(o, "--operator none runs a fixed number of pods");
    plan_torchrun(o, p);
  }

  std::vector<std::string> derived_names(const Plan& p) const override {
    return {p.name + "-" + std::to_string(p.workers - 1) + "-xxxxx"};
  }

  std::vector<json> build(const Plan& p, const render::TemplateSet& t) const override {
    return {indexed_job(p, t), headless_service(p, t)};
  }

  std::vector<KeyValue> chief_pod_labels(const Plan& p) const override {
    // The legacy job-name label is on a Job's pods in every Kubernetes release; the
    // completion-index label came with 1.28 (server_facts.h), before it any pod is followed.
    if (!p.pod_index_label) return {{"job-name", p.name}};
    return {{"job-name", p.name}, {"batch.kubernetes.io/job-completion-index", "0"}};
  }

  void apply_facts(const ServerFacts& facts, Plan&, std::vector<std::string>&) const override {
    if (!facts.indexed_job_hostnames)
      throw UsageError(
          "--operator none needs Kubernetes 1.22 or later (Indexed Job pods named NAME-INDEX); this "
          "cluster runs " +
          facts.server_version + ": install the training-operator instead");
  }

 private:
  // The environment the training-operator v1.9 gives every container of a PyTorchJob with a
  // Master (pkg/controller.v1/pytorch/envvar.go setPodEnv, master.go), for a job whose pod I
  // is node I: one training script runs the same with and without the operator. RANK and
  // PET_NODE_RANK are the completion index (the operator's worker index + 1).
  static json indexed_job(const Plan& p, const render::TemplateSet& t) {
    const JobTemplate job_yaml(t, p.template_kind);
    json v = job_values(p);
    PodRole role{"pytorch", "Never"};
    role.subdomain = p.name;
    const std::string index_path = "metadata.annotations['batch.kubernetes.io/job-completion-index']";
    const std::string master = p.name + "-0." + p.name;
    const TorchrunPlan& torchrun = kind_part<TorchrunPlan>(p);
    const std::string port = std::to_string(torchrun.master_port);
    // pytorch_defaults.go: nprocPerNode defaults to "auto"; WORLD_SIZE counts it when it is a
    // number (getNprocPerNodeInt), else one process per node.
    const std::string nproc = torchrun.nproc_per_node.empty() ? "auto" : torchrun.nproc_per_node;
    const bool numeric = nproc.find_first_not_of("0123456789") == std::string::npos;
    const long long world = static_cast<long long>(p.workers) * (numeric ? std::stoll(nproc) : 1);
    role.extra_env = json::array({{{"name", "PYTHONUNBUFFERED"}, {"value", "1"}},
                                  {{"name", "MASTER_PORT"}, {"value", port}},
                                  {{"name", "PET_MASTER_PORT"}, {"value", port}},
                                  {{"name", "MASTER_ADDR"}, {"value", master}},
                                  {{"name", "PET_MASTER_ADDR"}, {"value", master}},
                                  {{"name", "WORLD_SIZE"}, {"value", std::to_string(world)}},
                                  {{"name", "PET_NPROC_PER_NODE"}, {"value", nproc}},
                                  {{"name", "PET_NNODES"}, {"value", std::to_string(p.workers)}}});
    role.extra_env_fields = json::array({{{"name", "RANK"}, {"field_path", index_path}},
                                         {{"name", "PET_NODE_RANK"}, {"field_path", index_path}}});
    json pod = pod_template(p, t, role);
    job_yaml.offer("pod_template_json", pod, v);
    json job = job_yaml.render(v);
    job_yaml.put_pod_template(job, "/spec", "pod_template_json", std::move(pod));
    return job;
  }

  json headless_service(const Plan& p, const render::TemplateSet& t) const {
    json v = {{"name", p.name},
              {"namespace", p.namespace_},
              {"master_port", kind_part<TorchrunPlan>(p).master_port}};
    v["labels"] = kv_list(object_labels(p, standard_labels_for_pods(p)));
    v["selector"] = kv_list({{"app", job.type}, {"release", p.name}, {"trainctl.io/operator", "none"}});
    return one_object(t, p.template_kind, "service.yaml", v);
  }
};

}  // namespace

const SubmitKind& pytorch_none() {
  static const PyTorchNoneKind kind;
  return kind;
}

}  // namespace trainctl::submit::kinds
