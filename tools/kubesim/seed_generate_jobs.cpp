// Training jobs of a generated cluster (seed_generate_parts.h): PyTorchJobs, MPIJobs and
// Volcano Jobs with the pods their operators make, their statuses and MPI launcher Jobs.
#include "kubesim/seed_generate_parts.h"

namespace kubesim {

namespace {

json condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message, const std::string& at) {
  return {{"type", type},       {"status", status},     {"reason", reason},
          {"message", message}, {"lastUpdateTime", at}, {"lastTransitionTime", at}};
}

const char* app_label(GeneratedJob::Kind k) {
  return k == GeneratedJob::Kind::PyTorch ? "pytorchjob" : k == GeneratedJob::Kind::MPI ? "mpijob" : "volcanojob";
}

const char* created_by(GeneratedJob::Kind k) {
  return k == GeneratedJob::Kind::PyTorch ? "PyTorchJob" : k == GeneratedJob::Kind::MPI ? "MPIJob" : "VolcanoJob";
}

void pytorch_roles(const GeneratedJob& j, std::vector<PodRole>& roles) {
  for (size_t i = 0; i < j.pods; ++i) {
    const bool m = i == 0;
    const std::string rt = m ? "master" : "worker";
    const size_t idx = m ? 0 : i - 1;
    json l = {{"training.kubeflow.org/operator-name", "pytorchjob-controller"},
              {"training.kubeflow.org/job-name", j.name},
              {"training.kubeflow.org/replica-type", rt},
              {"training.kubeflow.org/replica-index", std::to_string(idx)}};
    if (m) l["training.kubeflow.org/job-role"] = "master";
    roles.push_back({j.name + "-" + rt + "-" + std::to_string(idx), l});
  }
}

void mpi_roles(const GeneratedJob& j, std::vector<PodRole>& roles, std::mt19937_64& rng) {
  for (size_t i = 0; i + 1 < j.pods; ++i)
    roles.push_back({j.name + "-worker-" + std::to_string(i),
                     json{{"training.kubeflow.org/operator-name", "mpi-operator"},
                          {"training.kubeflow.org/job-name", j.name},
                          {"training.kubeflow.org/job-role", "worker"},
                          {"training.kubeflow.org/replica-index", std::to_string(i)}}});
  static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  std::string suffix;
  for (int c = 0; c < 5; ++c) suffix += alphabet[rng() % (sizeof(alphabet) - 1)];
  roles.push_back({j.name + "-launcher-" + suffix, json{{"training.kubeflow.org/operator-name", "mpi-operator"},
                                                        {"training.kubeflow.org/job-name", j.name},
                                                        {"training.kubeflow.org/job-role", "launcher"}}});
}

void volcano_roles(const GeneratedJob& j, std::vector<PodRole>& roles) {
  for (size_t i = 0; i < j.pods; ++i)
    roles.push_back({j.name + "-worker-" + std::to_string(i), json{{"volcano.sh/job-name", j.name},
                                                                   {"volcano.sh/job-namespace", j.ns},
                                                                   {"volcano.sh/queue-name", "default"},
                                                                   {"volcano.sh/task-spec", "worker"},
                                                                   {"volcano.sh/task-index", std::to_string(i)}}});
}

}  // namespace

std::string GeneratedJob::api_version() const {
  return kind == Kind::PyTorch ? "kubeflow.org/v1" : kind == Kind::MPI ? "kubeflow.org/v2beta1" : "batch.volcano.sh/v1alpha1";
}

std::string GeneratedJob::kind_name() const {
  return kind == Kind::PyTorch ? "PyTorchJob" : kind == Kind::MPI ? "MPIJob" : "Job";
}

const ResourceType* GeneratedJob::resource(Store& store) const {
  if (kind == Kind::PyTorch) return store.find("kubeflow.org", "v1", "pytorchjobs");
  if (kind == Kind::MPI) return store.find("kubeflow.org", "v2beta1", "mpijobs");
  return store.find("batch.volcano.sh", "v1alpha1", "jobs");
}

json job_container(const GeneratedJob& job) {
  return {{"name", job.kind == GeneratedJob::Kind::PyTorch ? "pytorch" : "main"},
          {"image", "registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime"},
          {"command", json::array({"sh", "-c", "python /root/code/mnist-pytorch/mnist.py --epochs 10"})},
          {"resources", {{"limits", {{"nvidia.com/gpu", 1}}}}}};
}

json training_job(const GeneratedJob& j, const json& container, std::vector<PodRole>& roles, std::mt19937_64& rng) {
  const json tmpl = {{"spec", {{"containers", json::array({container})}}}};
  json job = {{"apiVersion", j.api_version()},
              {"kind", j.kind_name()},
              {"metadata",
               {{"name", j.name},
                {"namespace", j.ns},
                {"labels", {{"release", j.name}, {"app", app_label(j.kind)}, {"createdBy", created_by(j.kind)}}},
                {"creationTimestamp", generated_time(j.created)}}}};
  if (j.kind == GeneratedJob::Kind::PyTorch) {
    job["spec"] = {{"runPolicy", {{"cleanPodPolicy", "None"}}},
                   {"pytorchReplicaSpecs",
                    {{"Master", {{"replicas", 1}, {"restartPolicy", "OnFailure"}, {"template", tmpl}}}}}};
    if (j.pods > 1)
      job["spec"]["pytorchReplicaSpecs"]["Worker"] = {
          {"replicas", j.pods - 1}, {"restartPolicy", "OnFailure"}, {"template", tmpl}};
    pytorch_roles(j, roles);
  } else if (j.kind == GeneratedJob::Kind::MPI) {
    job["spec"] = {{"slotsPerWorker", 1},
                   {"runPolicy", {{"cleanPodPolicy", "None"}}},
                   {"mpiReplicaSpecs", {{"Launcher", {{"replicas", 1}, {"template", tmpl}}}}}};
    if (j.pods > 1) job["spec"]["mpiReplicaSpecs"]["Worker"] = {{"replicas", j.pods - 1}, {"template", tmpl}};
    mpi_roles(j, roles, rng);
  } else {
    job["spec"] = {{"minAvailable", j.pods},
                   {"queue", "default"},
                   {"schedulerName", "volcano"},
                   {"tasks", json::array({{{"name", "worker"}, {"replicas", j.pods}, {"template", tmpl}}})}};
    volcano_roles(j, roles);
  }
  return job;
}

json training_job_status(const GeneratedJob& j) {
  const std::string c_at = generated_time(j.created), s_at = generated_time(j.started),
                    f_at = generated_time(j.finished);
  const std::string& state = j.state;
  if (j.kind == GeneratedJob::Kind::Volcano) {
    const std::string phase = state == "Succeeded" ? "Completed" : state;
    return {{"state", {{"phase", phase}, {"lastTransitionTime", state == "Running" ? s_at : f_at}}},
            {"minAvailable", j.pods},
            {"running", state == "Running" ? j.pods : 0},
            {"succeeded", state == "Succeeded" ? j.pods : 0},
            {"failed", state == "Failed" ? 1 : 0},
            {"version", 0},
            {"retryCount", 0}};
  }
  const bool pytorch = j.kind == GeneratedJob::Kind::PyTorch;
  const std::string p = pytorch ? "PyTorchJob" : "MPIJob";
  const std::string who = pytorch ? p + " " + j.name : p + " " + j.ns + "/" + j.name;
  json conds = json::array({condition("Created", "True", p + "Created", who + " is created.", c_at),
                            condition("Running", state == "Running" ? "True" : "False", p + "Running",
                                      who + " is running.", s_at)});
  if (state == "Succeeded")
    conds.push_back(condition("Succeeded", "True", p + "Succeeded",
                              who + (pytorch ? " is successfully completed." : " successfully completed."), f_at));
  if (state == "Failed") conds.push_back(condition("Failed", "True", p + "Failed", who + " has failed.", f_at));
  json status = {{"conditions", conds}, {"startTime", s_at}};
  if (state != "Running") status["completionTime"] = f_at;
  return status;
}

json mpi_launcher_job(const GeneratedJob& j, const json& owner, const json& container) {
  const std::string s_at = generated_time(j.started), f_at = generated_time(j.finished);
  const std::string& state = j.state;
  json lj = {{"apiVersion", "batch/v1"},
             {"kind", "Job"},
             {"metadata",
              {{"name", j.name + "-launcher"},
               {"namespace", j.ns},
               {"ownerReferences", json::array({owner})},
               {"labels",
                {{"training.kubeflow.org/operator-name", "mpi-operator"},
                 {"training.kubeflow.org/job-name", j.name},
                 {"training.kubeflow.org/job-role", "launcher"}}}}},
             {"spec",
              {{"backoffLimit", 6},
               {"completions", 1},
               {"parallelism", 1},
               {"selector", {{"matchLabels", {{"batch.kubernetes.io/controller-uid", "generated"}}}}},
               {"template", {{"spec", {{"containers", json::array({container})}}}}}}},
             {"status",
              {{"startTime", s_at},
               {"active", state == "Running" ? 1 : 0},
               {"succeeded", state == "Succeeded" ? 1 : 0},
               {"failed", state == "Failed" ? 1 : 0}}}};
  if (state != "Running") {
    lj["status"]["conditions"] = json::array({{{"type", state == "Succeeded" ? "Complete" : "Failed"},
                                               {"status", "True"},
                                               {"lastProbeTime", f_at},
                                               {"lastTransitionTime", f_at}}});
    if (state == "Succeeded") lj["status"]["completionTime"] = f_at;
  }
  return lj;
}

}  // namespace kubesim
