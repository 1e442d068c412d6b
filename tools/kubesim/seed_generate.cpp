// A large cluster built straight into the store: nodes, namespaces, training jobs of the three
// operators with finished or running statuses, and their bound pods.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include "kubesim/builtin_types.h"
#include "kubesim/seed.h"
#include "kubesim/seed_generate_trainjobs.h"
#include "kubesim/seed_objects.h"
#include "kubesim/store.h"

namespace kubesim {

namespace {

std::string ts(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string ip_of(size_t i, int base) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "10.%d.%zu.%zu", base, (i / 250) % 256, i % 250 + 2);
  return buf;
}

struct Kind {
  const char* api_version;
  const char* kind;
  const ResourceType* rt;
};

json condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message, const std::string& at) {
  return {{"type", type},       {"status", status},     {"reason", reason},
          {"message", message}, {"lastUpdateTime", at}, {"lastTransitionTime", at}};
}

}  // namespace

GenerateStats generate_cluster(Store& store, const GenerateOptions& o) {
  register_builtin_crds(store);
  GenerateStats stats;
  std::mt19937_64 rng(o.random_seed);
  const ResourceType* nodes = store.find("", "v1", "nodes");
  const ResourceType* namespaces = store.find("", "v1", "namespaces");
  const ResourceType* pods = store.find("", "v1", "pods");
  const ResourceType* batch_jobs = store.find("batch", "v1", "jobs");
  const Kind kinds[] = {
      {"kubeflow.org/v1", "PyTorchJob", store.find("kubeflow.org", "v1", "pytorchjobs")},
      {"kubeflow.org/v2beta1", "MPIJob", store.find("kubeflow.org", "v2beta1", "mpijobs")},
      {"batch.volcano.sh/v1alpha1", "Job", store.find("batch.volcano.sh", "v1alpha1", "jobs")}};
  const std::time_t now = std::time(nullptr);

  // Nodes: three masters without GPUs (when the cluster is big enough), the rest GPU workers.
  std::vector<std::pair<std::string, std::string>> gpu_nodes;  // name, ip
  const size_t masters = o.nodes >= 10 ? 3 : 0;
  for (size_t i = 0; i < o.nodes; ++i) {
    const bool master = i < masters;
    const std::string ip = ip_of(i, master ? 0 : 1 + static_cast<int>(i / 62500));
    json seed = {{"name", "cn-beijing." + ip},
                 {"ip", ip},
                 {"gpus", master ? 0 : o.gpus_per_node},
                 {"since", ts(now - 90 * 86400)}};
    if (master) {
      seed["roles"] = json::array({"master"});
      seed["taints"] = json::array({{{"key", "node-role.kubernetes.io/master"}, {"effect", "NoSchedule"}}});
      seed["cpu"] = "8";
      seed["memory"] = "32Gi";
    } else {
      seed["labels"] = {
          {"aliyun.accelerator/nvidia_name", i % 3 ? "Tesla-V100-SXM2-32GB" : "NVIDIA-A100-SXM4-80GB"},
          {"kubesim.trainctl.io/pool", "pool-" + std::to_string(i % 8)}};
      seed["cpu"] = "96";
      seed["memory"] = "768Gi";
      gpu_nodes.emplace_back("cn-beijing." + ip, ip);
    }
    if (nodes) store.create(*nodes, make_node(seed));
    ++stats.nodes;
  }
  std::vector<std::string> ns_names;
  for (size_t i = 0; i < o.namespaces; ++i) ns_names.push_back("team-" + std::to_string(i));
  if (ns_names.empty()) ns_names.push_back("default");
  for (const auto& ns : ns_names)
    if (namespaces && !store.get(*namespaces, "", ns)) store.create(*namespaces, make_namespace(ns));

  // GPU slots for running pods, handed out node by node.
  size_t slot_node = 0;
  int slot_used = 0;
  auto take_gpu = [&]() -> int {
    while (slot_node < gpu_nodes.size() && slot_used >= o.gpus_per_node) {
      ++slot_node;
      slot_used = 0;
    }
    if (slot_node >= gpu_nodes.size()) return -1;
    ++slot_used;
    return static_cast<int>(slot_node);
  };

  const size_t jobs = std::max<size_t>(o.jobs, 1);
  size_t pods_left = std::max(o.pods, jobs);
  for (size_t j = 0; j < o.jobs; ++j) {
    const Kind& k = kinds[j % 10 < 5 ? 0 : j % 10 < 8 ? 1 : 2];
    if (!k.rt) continue;
    const std::string ns = ns_names[j % ns_names.size()];
    char name_buf[48];
    std::snprintf(name_buf, sizeof name_buf, "%s-%06zu",
                  k.kind[0] == 'P'   ? "pytorch"
                  : k.kind[0] == 'M' ? "mpi"
                                     : "vc",
                  j);
    const std::string name = name_buf;
    const size_t n_pods = std::max<size_t>(1, pods_left / (o.jobs - j));
    pods_left -= std::min(pods_left, n_pods);
    const int roll = static_cast<int>(rng() % 100);
    const std::string state = roll < 60 ? "Succeeded" : roll < 65 ? "Failed" : "Running";
    const std::time_t created = now - static_cast<std::time_t>(600 + rng() % (30 * 86400));
    const std::time_t started = created + 5,
                      finished = started + 300 + static_cast<std::time_t>(rng() % 7200);
    const std::string image =
        "registry.cn-beijing.aliyuncs.com/ai-samples/pytorch-with-tensorboard:1.5.1-cuda10.1-cudnn7-runtime";
    json container = {
        {"name", k.kind[0] == 'P' ? "pytorch" : "main"},
        {"image", image},
        {"command", json::array({"sh", "-c", "python /root/code/mnist-pytorch/mnist.py --epochs 10"})},
        {"resources", {{"limits", {{"nvidia.com/gpu", 1}}}}}};
    json tmpl = {{"spec", {{"containers", json::array({container})}}}};
    json job = {{"apiVersion", k.api_version},
                {"kind", k.kind},
                {"metadata",
                 {{"name", name},
                  {"namespace", ns},
                  {"labels",
                   {{"release", name},
                    {"app", k.kind[0] == 'P'   ? "pytorchjob"
                            : k.kind[0] == 'M' ? "mpijob"
                                               : "volcanojob"},
                    {"createdBy", k.kind[0] == 'P'   ? "PyTorchJob"
                                  : k.kind[0] == 'M' ? "MPIJob"
                                                     : "VolcanoJob"}}},
                  {"creationTimestamp", ts(created)}}}};
    std::vector<std::pair<std::string, json>> pod_roles;  // name, labels
    if (k.kind[0] == 'P') {
      json worker_tmpl = tmpl;
      job["spec"] = {{"runPolicy", {{"cleanPodPolicy", "None"}}},
                     {"pytorchReplicaSpecs",
                      {{"Master", {{"replicas", 1}, {"restartPolicy", "OnFailure"}, {"template", tmpl}}}}}};
      if (n_pods > 1)
        job["spec"]["pytorchReplicaSpecs"]["Worker"] = {
            {"replicas", n_pods - 1}, {"restartPolicy", "OnFailure"}, {"template", tmpl}};
      for (size_t i = 0; i < n_pods; ++i) {
        const bool m = i == 0;
        const std::string rt = m ? "master" : "worker";
        const size_t idx = m ? 0 : i - 1;
        json l = {{"training.kubeflow.org/operator-name", "pytorchjob-controller"},
                  {"training.kubeflow.org/job-name", name},
                  {"training.kubeflow.org/replica-type", rt},
                  {"training.kubeflow.org/replica-index", std::to_string(idx)}};
        if (m) l["training.kubeflow.org/job-role"] = "master";
        pod_roles.emplace_back(name + "-" + rt + "-" + std::to_string(idx), l);
      }
    } else if (k.kind[0] == 'M') {
      const size_t workers = n_pods - 1;
      job["spec"] = {{"slotsPerWorker", 1},
                     {"runPolicy", {{"cleanPodPolicy", "None"}}},
                     {"mpiReplicaSpecs", {{"Launcher", {{"replicas", 1}, {"template", tmpl}}}}}};
      if (workers > 0) job["spec"]["mpiReplicaSpecs"]["Worker"] = {{"replicas", workers}, {"template", tmpl}};
      for (size_t i = 0; i < workers; ++i)
        pod_roles.emplace_back(name + "-worker-" + std::to_string(i),
                               json{{"training.kubeflow.org/operator-name", "mpi-operator"},
                                    {"training.kubeflow.org/job-name", name},
                                    {"training.kubeflow.org/job-role", "worker"},
                                    {"training.kubeflow.org/replica-index", std::to_string(i)}});
      static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
      std::string suffix;
      for (int c = 0; c < 5; ++c) suffix += alphabet[rng() % (sizeof(alphabet) - 1)];
      pod_roles.emplace_back(name + "-launcher-" + suffix,
                             json{{"training.kubeflow.org/operator-name", "mpi-operator"},
                                  {"training.kubeflow.org/job-name", name},
                                  {"training.kubeflow.org/job-role", "launcher"}});
    } else {
      job["spec"] = {
          {"minAvailable", n_pods},
          {"queue", "default"},
          {"schedulerName", "volcano"},
          {"tasks", json::array({{{"name", "worker"}, {"replicas", n_pods}, {"template", tmpl}}})}};
      for (size_t i = 0; i < n_pods; ++i)
        pod_roles.emplace_back(name + "-worker-" + std::to_string(i),
                               json{{"volcano.sh/job-name", name},
                                    {"volcano.sh/job-namespace", ns},
                                    {"volcano.sh/queue-name", "default"},
                                    {"volcano.sh/task-spec", "worker"},
                                    {"volcano.sh/task-index", std::to_string(i)}});
    }
    // Status as the operator leaves it.
    const std::string c_at = ts(created), s_at = ts(started), f_at = ts(finished);
    if (k.kind[0] == 'J') {
      const std::string phase = state == "Succeeded" ? "Completed" : state;
      job["status"] = {
          {"state", {{"phase", phase}, {"lastTransitionTime", state == "Running" ? s_at : f_at}}},
          {"minAvailable", n_pods},
          {"running", state == "Running" ? n_pods : 0},
          {"succeeded", state == "Succeeded" ? n_pods : 0},
          {"failed", state == "Failed" ? 1 : 0},
          {"version", 0},
          {"retryCount", 0}};
    } else {
      const std::string p = k.kind[0] == 'P' ? "PyTorchJob" : "MPIJob";
      const std::string who = k.kind[0] == 'P' ? p + " " + name : p + " " + ns + "/" + name;
      json conds = json::array({condition("Created", "True", p + "Created", who + " is created.", c_at),
                                condition("Running", state == "Running" ? "True" : "False", p + "Running",
                                          who + " is running.", s_at)});
      if (state == "Succeeded")
        conds.push_back(condition(
            "Succeeded", "True", p + "Succeeded",
            who + (k.kind[0] == 'P' ? " is successfully completed." : " successfully completed."), f_at));
      if (state == "Failed")
        conds.push_back(condition("Failed", "True", p + "Failed", who + " has failed.", f_at));
      job["status"] = {{"conditions", conds}, {"startTime", s_at}};
      if (state != "Running") job["status"]["completionTime"] = f_at;
    }
    json stored = store.create(*k.rt, job);
    ++stats.jobs;
    const json owner = {
        {"apiVersion", k.api_version},      {"kind", k.kind},     {"name", name},
        {"uid", stored["metadata"]["uid"]}, {"controller", true}, {"blockOwnerDeletion", true}};
    json launcher_owner;
    if (k.kind[0] == 'M' && batch_jobs) {
      const std::string ln = name + "-launcher";
      json lj = {{"apiVersion", "batch/v1"},
                 {"kind", "Job"},
                 {"metadata",
                  {{"name", ln},
                   {"namespace", ns},
                   {"ownerReferences", json::array({owner})},
                   {"labels",
                    {{"training.kubeflow.org/operator-name", "mpi-operator"},
                     {"training.kubeflow.org/job-name", name},
                     {"training.kubeflow.org/job-role", "launcher"}}}}},
                 {"spec",
                  {{"backoffLimit", 6},
                   {"completions", 1},
                   {"parallelism", 1},
                   {"selector", {{"matchLabels", {{"batch.kubernetes.io/controller-uid", "generated"}}}}},
                   {"template", tmpl}}},
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
      json stored_launcher = store.create(*batch_jobs, lj);
      launcher_owner = {{"apiVersion", "batch/v1"},
                        {"kind", "Job"},
                        {"name", ln},
                        {"uid", stored_launcher["metadata"]["uid"]},
                        {"controller", true},
                        {"blockOwnerDeletion", true}};
    }
    for (const auto& [pod_name, labels] : pod_roles) {
      if (!pods) break;
      const bool is_launcher = labels.value("training.kubeflow.org/job-role", "") == "launcher";
      int slot = -1;
      if (state == "Running" && !is_launcher) slot = take_gpu();
      const size_t node_idx =
          slot >= 0 ? static_cast<size_t>(slot) : rng() % std::max<size_t>(gpu_nodes.size(), 1);
      const std::string node = gpu_nodes.empty() ? "" : gpu_nodes[node_idx].first;
      const std::string host_ip = gpu_nodes.empty() ? "" : gpu_nodes[node_idx].second;
      json c = container;
      if (slot < 0) c["resources"] = json::object();
      const std::string phase = state;
      json term = {{"exitCode", state == "Failed" ? 1 : 0},
                   {"reason", state == "Failed" ? "Error" : "Completed"},
                   {"startedAt", s_at},
                   {"finishedAt", f_at}};
      json cstate =
          state == "Running" ? json{{"running", {{"startedAt", s_at}}}} : json{{"terminated", term}};
      json pod = {
          {"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"name", pod_name},
            {"namespace", ns},
            {"labels", labels},
            {"creationTimestamp", c_at},
            {"ownerReferences",
             json::array({is_launcher && !launcher_owner.is_null() ? launcher_owner : owner})}}},
          {"spec",
           {{"containers", json::array({c})},
            {"nodeName", node},
            {"restartPolicy", "Never"},
            {"schedulerName", k.kind[0] == 'J' ? "volcano" : "default-scheduler"}}},
          {"status",
           {{"phase", phase},
            {"hostIP", host_ip},
            {"podIP", ip_of(stats.pods, 200)},
            {"startTime", s_at},
            {"conditions",
             json::array({{{"type", "Ready"},
                           {"status", state == "Running" ? "True" : "False"},
                           {"lastTransitionTime", s_at}},
                          {{"type", "PodScheduled"}, {"status", "True"}, {"lastTransitionTime", c_at}}})},
            {"containerStatuses", json::array({{{"name", c["name"]},
                                                {"image", image},
                                                {"ready", state == "Running"},
                                                {"restartCount", 0},
                                                {"state", cstate}}})}}}};
      if (state == "Running")
        pod["metadata"]["annotations"] = {{"kubesim.trainctl.io/outcome", "run-forever"}};
      store.create(*pods, std::move(pod));
      ++stats.pods;
    }
  }
  GeneratedCluster cluster{ns_names, gpu_nodes, take_gpu, rng, now};
  generate_trainjobs(store, o, cluster, stats);
  return stats;
}

}  // namespace kubesim
