// Pods of the generated training jobs (seed_generate_parts.h), bound, with their kubelet's
// status; dressed as kube-apiserver returns them for GenerateOptions::real_objects.
#include "kubesim/controllers/pytorch_env.h"
#include "kubesim/seed_generate_parts.h"
#include "kubesim/seed_real_size.h"

namespace kubesim {

json training_pod(const GeneratedJob& j, const PodRole& role, const json& container, const json& owner,
                  const PodPlace& place) {
  const std::string c_at = generated_time(j.created), s_at = generated_time(j.started),
                    f_at = generated_time(j.finished);
  const std::string& state = j.state;
  json c = container;
  if (!place.gpu) c["resources"] = json::object();
  const json term = {{"exitCode", state == "Failed" ? 1 : 0},
                     {"reason", state == "Failed" ? "Error" : "Completed"},
                     {"startedAt", s_at},
                     {"finishedAt", f_at}};
  const json cstate = state == "Running" ? json{{"running", {{"startedAt", s_at}}}} : json{{"terminated", term}};
  json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", role.name},
        {"namespace", j.ns},
        {"labels", role.labels},
        {"creationTimestamp", c_at},
        {"ownerReferences", json::array({owner})}}},
      {"spec",
       {{"containers", json::array({c})},
        {"nodeName", place.node},
        {"restartPolicy", "Never"},
        {"schedulerName", j.kind == GeneratedJob::Kind::Volcano ? "volcano" : "default-scheduler"}}},
      {"status",
       {{"phase", state},
        {"hostIP", place.host_ip},
        {"podIP", place.pod_ip},
        {"startTime", s_at},
        {"conditions",
         json::array({{{"type", "Ready"}, {"status", state == "Running" ? "True" : "False"}, {"lastTransitionTime", s_at}},
                      {{"type", "PodScheduled"}, {"status", "True"}, {"lastTransitionTime", c_at}}})},
        {"containerStatuses", json::array({{{"name", c["name"]},
                                            {"image", c["image"]},
                                            {"ready", state == "Running"},
                                            {"restartCount", 0},
                                            {"state", cstate}}})}}}};
  if (state == "Running") pod["metadata"]["annotations"] = {{"kubesim.trainctl.io/outcome", "run-forever"}};
  return pod;
}

namespace {

json env_var(const std::string& name, const std::string& value) { return {{"name", name}, {"value", value}}; }

}  // namespace

void dress_training_pod(json& pod, const GeneratedJob& j, const json& job_object, const PodRole& role) {
  json env = json::array();
  std::string manager = "training-operator";
  const std::string& index = role.labels.value("training.kubeflow.org/replica-index", "0");
  if (j.kind == GeneratedJob::Kind::PyTorch) {
    // training-operator's env (pkg/controller.v1/pytorch/envvar.go), as kubesim's operator
    // sets it (controllers/pytorch_env.h), and the port of the defaulted template.
    json spec = pod["spec"];
    const std::string rt = role.labels.value("training.kubeflow.org/replica-type", "master");
    set_pytorch_pod_env(pytorch_defaults(job_object), spec, rt, std::stoi(index));
    env = spec["containers"][0].value("env", json::array());
    pod["spec"]["containers"][0]["ports"] =
        json::array({{{"containerPort", 23456}, {"name", "pytorchjob-port"}, {"protocol", "TCP"}}});
  } else if (j.kind == GeneratedJob::Kind::MPI) {
    // mpi-operator v2 (pkg/controller/mpi_job_controller.go: newWorker, newLauncherPodTemplate).
    manager = "mpi-operator";
    const bool launcher = role.labels.value("training.kubeflow.org/job-role", "") == "launcher";
    env.push_back(env_var("K_MPI_JOB_ROLE", launcher ? "launcher" : "worker"));
    if (launcher) {
      env.push_back(env_var("OMPI_MCA_orte_keep_fqdn_hostnames", "true"));
      env.push_back(env_var("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile"));
      env.push_back(env_var("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10"));
      env.push_back(env_var("OMPI_MCA_orte_set_default_slots", "1"));
      env.push_back(env_var("NVIDIA_VISIBLE_DEVICES", ""));
      env.push_back(env_var("NVIDIA_DRIVER_CAPABILITIES", ""));
    }
  } else {
    // Volcano's env plugin (pkg/controllers/job/plugins/env) and svc plugin's hosts.
    manager = "vc-controller-manager";
    const std::string task = role.labels.value("volcano.sh/task-index", "0");
    env.push_back(env_var("VK_TASK_INDEX", task));
    env.push_back(env_var("VC_TASK_INDEX", task));
    env.push_back(env_var("VC_WORKER_NUM", std::to_string(j.pods)));
    env.push_back(env_var("VC_WORKER_HOSTS", j.name + "-worker-0." + j.name));
  }
  dress_pod(pod, manager, env, generated_time(j.created), generated_time(j.started));
}

}  // namespace kubesim
