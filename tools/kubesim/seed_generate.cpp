// A large cluster built straight into the store: nodes, namespaces, training jobs of the three
// operators with finished or running statuses, and their bound pods (the pieces are in
// seed_generate_parts.h).
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>

#include "kubesim/builtin_types.h"
#include "kubesim/seed.h"
#include "kubesim/seed_generate_parts.h"
#include "kubesim/seed_generate_trainjobs.h"
#include "kubesim/seed_real_size.h"
#include "kubesim/store.h"

namespace kubesim {

namespace {

// Hands out GPU slots for running pods, node by node.
struct GpuSlots {
  const GpuNodes& nodes;
  int per_node;
  size_t node = 0;
  int used = 0;
  int take() {
    while (node < nodes.size() && used >= per_node) {
      ++node;
      used = 0;
    }
    if (node >= nodes.size()) return -1;
    ++used;
    return static_cast<int>(node);
  }
};

// The j-th job's kind, name, size, outcome and times (two of three draws of rng).
GeneratedJob plan_job(size_t j, const GenerateOptions& o, const std::vector<std::string>& namespaces,
                      size_t& pods_left, std::mt19937_64& rng, std::time_t now) {
  GeneratedJob g;
  g.kind = o.pytorch_only || j % 10 < 5 ? GeneratedJob::Kind::PyTorch : j % 10 < 8 ? GeneratedJob::Kind::MPI : GeneratedJob::Kind::Volcano;
  g.ns = namespaces[j % namespaces.size()];
  char name[48];
  std::snprintf(name, sizeof name, "%s-%06zu",
                g.kind == GeneratedJob::Kind::PyTorch ? "pytorch" : g.kind == GeneratedJob::Kind::MPI ? "mpi" : "vc", j);
  g.name = name;
  g.pods = std::max<size_t>(1, pods_left / (o.jobs - j));
  pods_left -= std::min(pods_left, g.pods);
  const int roll = static_cast<int>(rng() % 100);
  g.state = roll < 60 ? "Succeeded" : roll < 65 ? "Failed" : "Running";
  g.created = now - static_cast<std::time_t>(600 + rng() % (30 * 86400));
  g.started = g.created + 5;
  g.finished = g.started + 300 + static_cast<std::time_t>(rng() % 7200);
  return g;
}

json controller_owner(const json& stored) {
  return {{"apiVersion", stored["apiVersion"]},     {"kind", stored["kind"]},
          {"name", stored["metadata"]["name"]},     {"uid", stored["metadata"]["uid"]},
          {"controller", true},                     {"blockOwnerDeletion", true}};
}

}  // namespace

GenerateStats generate_cluster(Store& store, const GenerateOptions& o) {
  register_builtin_crds(store);
  GenerateStats stats;
  std::mt19937_64 rng(o.random_seed);
  const ResourceType* pods = store.find("", "v1", "pods");
  const ResourceType* batch_jobs = store.find("batch", "v1", "jobs");
  const std::time_t now = o.now != 0 ? o.now : std::time(nullptr);

  const GpuNodes gpu_nodes = generate_nodes(store, o, now);
  stats.nodes = o.nodes;
  const std::vector<std::string> ns_names = generate_namespaces(store, o);
  GpuSlots slots{gpu_nodes, o.gpus_per_node};

  size_t pods_left = std::max(o.pods, std::max<size_t>(o.jobs, 1));
  for (size_t j = 0; j < o.jobs; ++j) {
    const GeneratedJob g = plan_job(j, o, ns_names, pods_left, rng, now);
    const ResourceType* rt = g.resource(store);
    if (!rt) continue;
    const json container = job_container(g);
    std::vector<PodRole> roles;
    json job = training_job(g, container, roles, rng);
    job["status"] = training_job_status(g);
    const json lean_job = job;
    if (o.real_objects)
      dress_job(job, g.kind == GeneratedJob::Kind::Volcano ? "vc-controller-manager" : "training-operator",
                generated_time(g.created), generated_time(g.state == "Running" ? g.started : g.finished));
    const json owner = controller_owner(store.create(*rt, std::move(job)));
    ++stats.jobs;
    json launcher_owner;
    if (g.kind == GeneratedJob::Kind::MPI && batch_jobs) {
      json launcher = mpi_launcher_job(g, owner, container);
      if (o.real_objects)
        dress_job(launcher, "kube-controller-manager", generated_time(g.created), generated_time(g.started));
      launcher_owner = controller_owner(store.create(*batch_jobs, std::move(launcher)));
    }
    for (const auto& role : roles) {
      if (!pods) break;
      const bool is_launcher = role.labels.value("training.kubeflow.org/job-role", "") == "launcher";
      const int slot = g.state == "Running" && !is_launcher ? slots.take() : -1;
      const size_t node_idx = slot >= 0 ? static_cast<size_t>(slot) : rng() % std::max<size_t>(gpu_nodes.size(), 1);
      PodPlace place;
      if (!gpu_nodes.empty()) {
        place.node = gpu_nodes[node_idx].first;
        place.host_ip = gpu_nodes[node_idx].second;
      }
      place.pod_ip = generated_ip(stats.pods, 200);
      place.gpu = slot >= 0;
      json pod = training_pod(g, role, container, is_launcher && !launcher_owner.is_null() ? launcher_owner : owner, place);
      if (o.real_objects) dress_training_pod(pod, g, lean_job, role);
      store.create(*pods, std::move(pod));
      ++stats.pods;
    }
  }
  GeneratedCluster cluster{ns_names, gpu_nodes, [&slots] { return slots.take(); }, rng, now};
  generate_trainjobs(store, o, cluster, stats);
  return stats;
}

}  // namespace kubesim
