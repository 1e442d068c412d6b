// MPIJob (kubeflow.org/v2beta1, mpi-operator): Launcher x1 (runs the command, no GPUs,
// created once the workers are ready) + Worker x workers.
#include "submit/kinds/mpijob.h"

#include <algorithm>

#include "core/errors.h"
#include "submit/flags.h"
#include "submit/job_template.h"
#include "submit/kind_part.h"
#include "submit/kinds/kinds.h"
#include "submit/manifest_parts.h"
#include "submit/parse.h"
#include "submit/server_facts.h"

namespace trainctl::submit::kinds {

using nlohmann::json;

namespace {

class MPIJobKind final : public SubmitKind {
 public:
  MPIJobKind()
      : SubmitKind(
            jobs::kind_named("mpijob"),
            {.command = "mpi",
             .alias = "mpijob",
             .help = "Submit an MPIJob (kubeflow.org/v2beta1)",
             .examples = "  trainctl submit mpi --name=hvd --gpus=1 --workers=2 "
                         "--image=horovod/horovod \"horovodrun -np 2 "
                         "python train.py\"\n"
                         "  trainctl submit mpi --name=topo --gpus=1 --workers=4 "
                         "--gputopology --image=IMAGE \"mpirun ...\"\n"
                         "  trainctl submit mpi --name=bench --workers=2 --gang "
                         "--queue=test-queue --schedule-timeout=180s "
                         "--image=IMAGE \"mpirun ...\"\n"
                         "  # a gang that counts the launcher: it is created with "
                         "the workers (launcherCreationPolicy "
                         "AtStartup)\n"
                         "  trainctl submit mpi --name=bench --workers=1 --gang "
                         "--min-available=2 --image=IMAGE \"mpirun "
                         "...\"\n",
             .template_dir = "mpi",
             .not_installed_hint = "install the mpi-operator (v2beta1)",
             // The training-operator (v1.x) serves an MPIJob of its own at kubeflow.org/v1.
             .other_version = {.version = "v1",
                               .result = "only kubeflow.org/v1 (the training-operator's own MPIJob)",
                               .reason =
                                   "trainctl submit mpi creates kubeflow.org/v2beta1 MPIJobs (mpi-operator "
                                   "v0.4 and later); the v1 MPIJob has another spec and another controller",
                               .fix = "install the mpi-operator (v0.4 or later) and turn off the "
                                      "training-operator's MPIJob controller, whose CRD has the same name"},
             .default_clean_pod_policy = "All",
             .launcher_pods = 1,
             // kueue pkg/controller/jobs/mpijob (MPIJob.IsSuspended).
             .kueue = {.framework = "kubeflow.org/mpijob", .suspend_field = "spec.runPolicy.suspend"},
             .crd_fields = {
                 {"spec.launcherCreationPolicy", &ServerFacts::launcher_creation_policy_field,
                  "mpi-operator v0.5"},
                 {kScheduleTimeoutField, &ServerFacts::schedule_timeout_field, "mpi-operator v0.4"}}}) {}

  std::vector<std::string> derived_names(const Plan& p) const override {
    return {p.name + "-launcher-xxxxx", p.name + "-worker-" + std::to_string(p.workers - 1)};
  }

  std::vector<json> build(const Plan& p, const render::TemplateSet& t) const override {
    const JobTemplate job_yaml(t, p.template_kind);
    const MPIPlan& mpi = kind_part<MPIPlan>(p);
    json v = job_values(p);
    v["slots_per_worker"] = mpi.slots_per_worker;
    v["launcher_creation_policy"] = or_null(mpi.launcher_creation_policy);
    // The launcher only runs mpirun: as Arena's, it requests nothing unless --launcher-cpu /
    // --launcher-memory say so (mpi-operator also keeps it off the GPUs).
    PodRole launcher{"mpi", ""};
    launcher.gpus = 0;
    launcher.job_resources = false;
    if (!mpi.launcher_cpu.empty()) launcher.resources.push_back({"cpu", mpi.launcher_cpu});
    if (!mpi.launcher_memory.empty()) launcher.resources.push_back({"memory", mpi.launcher_memory});
    json launcher_pod = pod_template(p, t, launcher);
    job_yaml.offer("launcher_template_json", launcher_pod, v);
    PodRole worker{"mpi", ""};
    worker.run_command = false;  // workers run the image's entrypoint (sshd); the launcher runs mpirun
    if (mpi.gputopology) {
      worker.extra_labels = {{"gpu-topology", p.name}, {"gpu-topology-replica", std::to_string(p.workers)}};
    }
    json worker_pod = pod_template(p, t, worker);
    job_yaml.offer("worker_template_json", worker_pod, v);
    json job = job_yaml.render(v);
    job_yaml.put_pod_template(job, "/spec/mpiReplicaSpecs/Launcher", "launcher_template_json",
                              std::move(launcher_pod));
    job_yaml.put_pod_template(job, "/spec/mpiReplicaSpecs/Worker", "worker_template_json",
                              std::move(worker_pod));
    return {std::move(job)};
  }

  std::vector<KeyValue> chief_pod_labels(const Plan& p) const override {
    return {{"training.kubeflow.org/job-name", p.name},
            {"training.kubeflow.org/job-role", "worker"},
            {"training.kubeflow.org/replica-index", "0"}};
  }

  // A gang that counts the launcher (mpi-operator's own default minAvailable, "one launcher and
  // the workers": podgroup.go calculateMinAvailable) forms only if the launcher exists with the
  // workers: launcherCreationPolicy AtStartup then. A gang of the workers alone keeps
  // WaitForWorkersReady, so that mpirun starts when every worker's sshd is up.
  void plan_replicas(const SubmitOptions& o, Plan& p) const override {
    if (o.min_available > o.workers) set_kind_part<MPIPlan>(p).launcher_creation_policy = "AtStartup";
  }

  // mpi-operator's own default counts the launcher (podgroup.go calculateMinAvailable), but
  // with WaitForWorkersReady (trainctl's default) the launcher only exists once the workers run.
  int default_min_available(const Plan& p) const override {
    const bool launcher_waits = kind_part<MPIPlan>(p).launcher_creation_policy == "WaitForWorkersReady";
    return p.expected_pods - (launcher_waits ? rules.launcher_pods : 0);
  }

  // --gputopology: ACK's topology-aware GPU placement (seed 004): the workers request
  // aliyun.com/gpu, carry the gpu-topology labels and get no /dev/shm volume.
  void plan_kind(const SubmitOptions& o, Plan& p) const override {
    const MPIOptions& given = kind_part<MPIOptions>(o);
    check_quantity("--launcher-cpu", given.launcher_cpu);
    check_quantity("--launcher-memory", given.launcher_memory);
    if (given.slots_per_worker < 0) throw UsageError("--slots-per-worker must be at least 1");
    MPIPlan& mpi = set_kind_part<MPIPlan>(p);
    mpi.gputopology = given.gputopology;
    mpi.launcher_cpu = given.launcher_cpu;
    mpi.launcher_memory = given.launcher_memory;
    mpi.slots_per_worker = given.slots_per_worker > 0 ? given.slots_per_worker : std::max(1, o.gpus);
    if (!given.gputopology) return;
    p.gpu_resource = "aliyun.com/gpu";
    p.shm_size.clear();
    for (const KeyValue& d : p.devices)
      if (d.key == p.gpu_resource)
        throw UsageError("invalid --device " + dq(d.key + "=" + d.value) + ": give GPUs with --gpus " +
                         d.value);
  }

  bool reads_crd(const Plan&) const override { return true; }

  void apply_facts(const ServerFacts& facts, Plan& p, std::vector<std::string>& notes) const override {
    MPIPlan& mpi = set_kind_part<MPIPlan>(p);
    if (facts.launcher_creation_policy_field || mpi.launcher_creation_policy.empty()) return;
    // Before v0.5 the launcher is always created at once (mpi_job_controller.go syncHandler):
    // what AtStartup asks for, and what WaitForWorkersReady cannot have.
    const bool waited = mpi.launcher_creation_policy == "WaitForWorkersReady";
    mpi.launcher_creation_policy.clear();
    if (!p.min_available_given) p.min_available = default_min_available(p);
    if (waited)
      notes.push_back(
          "the installed MPIJob CRD has no spec.launcherCreationPolicy (mpi-operator before v0.5): "
          "the launcher may start before the workers are ready and then be retried");
  }

 protected:
  void add_flags(FlagSet& f, SubmitOptions& o) const override {
    MPIOptions& mpi = set_kind_part<MPIOptions>(o);
    add_training_flags(f, o, rules, [&] {
      f.flag("--gputopology", mpi.gputopology,
             "ACK's topology-aware GPU placement: workers request aliyun.com/gpu and carry the gpu-topology "
             "labels, with no /dev/shm volume; pods stay on the pod network (Arena's hostNetwork is not "
             "set: workers run sshd, and two on one node's network cannot both bind its port)");
      f.option("--slots-per-worker", mpi.slots_per_worker,
               "MPI slots per worker (default: GPUs, at least 1)");
      f.option("--launcher-cpu", mpi.launcher_cpu, "CPU request and limit of the launcher (default: none)");
      f.option("--launcher-memory", mpi.launcher_memory,
               "Memory request and limit of the launcher (default: none)");
    });
    f.find("--hostNetwork").help =
        "Pods use the node's network (dnsPolicy ClusterFirstWithHostNet); each worker's sshd binds the "
        "node's port "
        "there, so no two workers may share a node";
  }
};

}  // namespace

const SubmitKind& mpijob() {
  static const MPIJobKind kind;
  return kind;
}

}  // namespace trainctl::submit::kinds
