// TrainJobs of a generated cluster (see seed_generate_trainjobs.h). The JobSet, its Job and the
// pods' templates are what kubesim's Trainer and JobSet build (trainer_build.h, jobset.h), so a
// generated TrainJob is one the controllers would have made; its status is written as they
// leave it finished or running.
#include "kubesim/seed_generate_trainjobs.h"

#include <cstdio>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/jobset.h"
#include "kubesim/controllers/trainer_build.h"
#include "kubesim/controllers/trainer_model.h"
#include "kubesim/seed_real_size.h"
#include "kubesim/store.h"
#include "yaml/write.h"

namespace kubesim {

namespace {

// kubesim's minimal torch-distributed (tools/kubesim/seeds/runtimes/torch-distributed.yaml).
json generated_runtime() {
  return runtime_with_defaults(json::parse(R"({"apiVersion": "trainer.kubeflow.org/v1alpha1",
    "kind": "ClusterTrainingRuntime",
    "metadata": {"name": "torch-distributed", "labels": {"trainer.kubeflow.org/framework": "torch"}},
    "spec": {"mlPolicy": {"numNodes": 1, "torch": {}}, "template": {"spec": {"replicatedJobs": [{"name": "node",
      "template": {"metadata": {"labels": {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}},
        "spec": {"template": {"spec": {"containers": [{"name": "node",
          "image": "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime"}]}}}}}]}}}})"));
}

std::string gen_ts(std::time_t t) { return format_rfc3339(std::chrono::system_clock::from_time_t(t)); }

json controller_ref(const json& owner) { return owner_reference(owner); }

json meta_condition(const std::string& type, const std::string& reason, const std::string& message,
                    const std::string& at) {
  return {{"type", type}, {"status", "True"}, {"reason", reason}, {"message", message}, {"lastTransitionTime", at}};
}

}  // namespace

void generate_trainjobs(Store& store, const GenerateOptions& o, GeneratedCluster& c, GenerateStats& stats) {
  const TrainerTypes t = TrainerTypes::find(store);
  if (o.trainjobs == 0 || !t.trainjobs || !t.jobsets || !t.jobs || !t.pods) return;
  json runtime;
  if (auto existing = store.get(*t.clustertrainingruntimes, "", "torch-distributed")) runtime = *existing;
  else runtime = store.create(*t.clustertrainingruntimes, generated_runtime());
  const std::string runtime_yaml = trainctl::yaml::to_yaml(runtime);
  for (size_t j = 0; j < o.trainjobs; ++j) {
    const std::string ns = c.namespaces[j % c.namespaces.size()];
    char buf[32];
    std::snprintf(buf, sizeof buf, "train-%06zu", j);
    const std::string name = buf;
    const int nodes = 1 + static_cast<int>(j % 4);
    const int roll = static_cast<int>(c.rng() % 100);
    const std::string state = roll < 60 ? "Complete" : roll < 65 ? "Failed" : "Running";
    const std::time_t created = c.now - static_cast<std::time_t>(600 + c.rng() % (30 * 86400));
    const std::time_t finished = created + 300 + static_cast<std::time_t>(c.rng() % 7200);
    const std::string c_at = gen_ts(created), s_at = gen_ts(created + 5), f_at = gen_ts(finished);
    json tj = trainjob_with_defaults(
        {{"apiVersion", kTrainerApiVersion},
         {"kind", "TrainJob"},
         {"metadata", {{"name", name}, {"namespace", ns}, {"creationTimestamp", c_at}}},
         {"spec",
          {{"runtimeRef", {{"name", "torch-distributed"}}},
           {"trainer",
            {{"numNodes", nodes},
             {"command", {"torchrun", "/workspace/mnist.py", "--epochs", "10"}},
             {"resourcesPerNode", {{"limits", {{"nvidia.com/gpu", 1}}}}}}}}}});
    const json rstatus = {{"name", "node"},
                          {"ready", state == "Running" ? 1 : 0},
                          {"succeeded", state == "Complete" ? 1 : 0},
                          {"failed", state == "Failed" ? 1 : 0},
                          {"active", state == "Running" ? 1 : 0},
                          {"suspended", 0}};
    // json::array for lists of one: a one-element brace list is the element itself under clang.
    json jobset_status = {{"restarts", 0}, {"replicatedJobsStatus", json::array({rstatus})}};
    json tj_status = {{"jobsStatus", json::array({rstatus})}};
    if (state != "Running") {
      const json cond = state == "Complete"
                            ? meta_condition("Completed", "AllJobsCompleted", "jobset completed successfully", f_at)
                            : meta_condition("Failed", "FailedJobs",
                                             "jobset failed due to one or more job failures (first failed job: " +
                                                 name + "-node-0)",
                                             f_at);
      jobset_status["conditions"] = json::array({cond});
      jobset_status["terminalState"] = state == "Complete" ? "Completed" : "Failed";
      json renamed = cond;
      renamed["type"] = state;
      tj_status["conditions"] = json::array({renamed});
    }
    tj["status"] = tj_status;
    const std::string updated = state == "Running" ? s_at : f_at;
    if (o.real_objects) dress_job(tj, "trainer-controller-manager", c_at, updated);
    const json stored_tj = store.create(*t.trainjobs, tj);
    store.create(*t.configmaps, {{"apiVersion", "v1"},
                                 {"kind", "ConfigMap"},
                                 {"metadata",
                                  {{"name", name + "-runtime-snapshot"},
                                   {"namespace", ns},
                                   {"creationTimestamp", c_at},
                                   {"ownerReferences", json::array({controller_ref(stored_tj)})}}},
                                 {"data", {{"runtime", runtime_yaml}}}});
    TrainerInfo info = runtime_info(stored_tj, runtime["spec"], {});
    json js = build_trainer_jobset(info, stored_tj);
    default_jobset_spec(js["spec"]);
    js["metadata"]["creationTimestamp"] = c_at;
    js["status"] = jobset_status;
    if (o.real_objects) dress_job(js, "jobset-controller-manager", c_at, updated);
    const json stored_js = store.create(*t.jobsets, js);
    json svc = owned_object("v1", "Service", stored_js, {{"name", name}, {"creationTimestamp", c_at}});
    svc["spec"] = {{"clusterIP", "None"}, {"clusterIPs", {"None"}}, {"type", "ClusterIP"},
                   {"selector", {{kJobSetNameKey, name}}}, {"publishNotReadyAddresses", true}};
    if (t.services) store.create(*t.services, svc);
    json job = jobset_construct_job(stored_js, stored_js["spec"]["replicatedJobs"][0], 0);
    job["metadata"]["ownerReferences"] = json::array({controller_ref(stored_js)});
    job["metadata"]["creationTimestamp"] = c_at;
    job["spec"]["selector"] = {{"matchLabels", {{"batch.kubernetes.io/controller-uid", "generated"}}}};
    job["status"] = {{"startTime", s_at},
                     {"active", state == "Running" ? nodes : 0},
                     {"ready", state == "Running" ? nodes : 0},
                     {"succeeded", state == "Complete" ? nodes : 0},
                     {"failed", state == "Failed" ? 1 : 0}};
    if (state != "Running")
      job["status"]["conditions"] = {{{"type", state == "Complete" ? "Complete" : "Failed"},
                                      {"status", "True"},
                                      {"lastProbeTime", f_at},
                                      {"lastTransitionTime", f_at}}};
    if (o.real_objects) dress_job(job, "kube-controller-manager", c_at, updated);
    const json stored_job = store.create(*t.jobs, job);
    ++stats.trainjobs;
    const json tmpl = stored_job["spec"]["template"];
    for (int i = 0; i < nodes; ++i) {
      json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", tmpl.value("metadata", json::object())},
                  {"spec", tmpl["spec"]}};
      json& md = pod["metadata"];
      const std::string idx = std::to_string(i);
      const std::string uid = meta_uid(stored_job);
      md["labels"]["batch.kubernetes.io/controller-uid"] = uid;
      md["labels"]["batch.kubernetes.io/job-name"] = meta_name(stored_job);
      md["labels"]["controller-uid"] = uid;
      md["labels"]["job-name"] = meta_name(stored_job);
      md["labels"]["batch.kubernetes.io/job-completion-index"] = idx;
      md["annotations"]["batch.kubernetes.io/job-completion-index"] = idx;
      md["name"] = meta_name(stored_job) + "-" + idx + "-" + std::to_string(10000 + c.rng() % 90000);
      md["namespace"] = ns;
      md["creationTimestamp"] = c_at;
      md["ownerReferences"] = json::array({controller_ref(stored_job)});
      int slot = state == "Running" ? c.take_gpu() : -1;
      const size_t node_idx = slot >= 0 ? static_cast<size_t>(slot) : c.rng() % std::max<size_t>(c.gpu_nodes.size(), 1);
      pod["spec"]["hostname"] = meta_name(stored_job) + "-" + idx;
      if (!c.gpu_nodes.empty()) pod["spec"]["nodeName"] = c.gpu_nodes[node_idx].first;
      if (slot < 0 && state == "Running") pod["spec"]["containers"][0].erase("resources");
      const bool running = state == "Running";
      const json term = {{"exitCode", state == "Failed" ? 1 : 0},
                         {"reason", state == "Failed" ? "Error" : "Completed"},
                         {"startedAt", s_at},
                         {"finishedAt", f_at}};
      pod["status"] = {
          {"phase", running ? "Running" : state == "Complete" ? "Succeeded" : "Failed"},
          {"hostIP", c.gpu_nodes.empty() ? "" : c.gpu_nodes[node_idx].second},
          {"podIP", "10.210." + std::to_string((stats.pods / 250) % 256) + "." + std::to_string(stats.pods % 250 + 2)},
          {"startTime", s_at},
          {"conditions",
           {{{"type", "Ready"}, {"status", running ? "True" : "False"}, {"lastTransitionTime", s_at}},
            {{"type", "PodScheduled"}, {"status", "True"}, {"lastTransitionTime", c_at}}}},
          {"containerStatuses",
           json::array({{{"name", "node"},
             {"image", pod["spec"]["containers"][0].value("image", "")},
             {"ready", running},
             {"restartCount", 0},
             {"state", running ? json{{"running", {{"startedAt", s_at}}}} : json{{"terminated", term}}}}})}};
      if (running) md["annotations"][kOutcomeAnnotation] = "run-forever";
      // The Job controller creates the pods; the torch plugin's env is in their template.
      if (o.real_objects) dress_pod(pod, "kube-controller-manager", json::array(), c_at, s_at);
      store.create(*t.pods, std::move(pod));
      ++stats.pods;
    }
  }
}

}  // namespace kubesim
