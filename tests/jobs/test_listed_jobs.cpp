// ListedJobs, the compact entries list holds a whole cluster in: the jobs it builds equal
// what folding every pod into JobPods and build_job make, whatever the order objects and pods
// come in, for jobs of every kind and chief candidates of several tasks, ranks and ages.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <tuple>

#include "core/string_store.h"
#include "job_fixtures.h"
#include "jobs/build_job.h"
#include "jobs/job_pods.h"
#include "jobs/job_query.h"
#include "jobs/job_summary.h"
#include "jobs/listed_jobs.h"
#include "jobs/pod_summary.h"

using namespace fixtures;
using namespace trainctl::jobs;

namespace {

// A job object of kinds[kind], or a pod (kind unused).
struct Item {
  bool is_job;
  size_t kind;
  json object;
};

std::vector<const JobKind*> listed_kinds() {
  std::vector<const JobKind*> kinds;
  for (const auto& k : all_kinds()) kinds.push_back(&k);
  return kinds;
}

// Jobs of `kinds` for the pods of a list: the owners the list finds for each pod.
std::vector<std::pair<size_t, std::string>> owners(const std::vector<const JobKind*>& kinds,
                                                   const PodSummary& pod) {
  std::vector<std::pair<size_t, std::string>> found;
  for (size_t k = 0; k < kinds.size(); ++k) {
    std::string job = pod_job_of_kind(*kinds[k], pod);
    if (!job.empty()) found.emplace_back(k, std::move(job));
  }
  return found;
}

// What list did before its entries were compact: a JobSummary and a JobPods per job, every
// candidate kept, each job built by build_job, sorted by sort_newest_first.
JobList reference(const std::vector<const JobKind*>& kinds, const std::vector<Item>& items, bool instances) {
  struct Entry {
    std::optional<JobSummary> job;
    JobPods pods;
  };
  std::map<std::tuple<size_t, std::string, std::string>, Entry> listed;
  auto entry = [&](size_t k, const std::string& ns, const std::string& name) -> Entry& {
    return listed.try_emplace({k, ns, name}, Entry{std::nullopt, JobPods(instances)}).first->second;
  };
  for (const auto& item : items) {
    if (item.is_job) {
      JobSummary s = summarize_job(*kinds[item.kind], item.object);
      if (!s.selected) continue;
      if (!instances) s.uid.clear();
      entry(item.kind, s.namespace_, s.name).job = std::move(s);
      continue;
    }
    const PodSummary pod = summarize_pod(item.object, false);
    for (const auto& [k, job] : owners(kinds, pod)) entry(k, pod.namespace_, job).pods.add(*kinds[k], pod);
  }
  JobList jobs;
  for (auto& [key, e] : listed)
    if (e.job) jobs.push_back(build_job(*kinds[std::get<0>(key)], *e.job, std::move(e.pods), now()));
  sort_newest_first(jobs);
  return jobs;
}

void add(ListedJobs& listed, const std::vector<const JobKind*>& kinds, const std::vector<Item>& items) {
  for (const auto& item : items) {
    if (item.is_job) {
      JobSummary s = summarize_job(*kinds[item.kind], item.object);
      if (s.selected) listed.add_job(item.kind, std::move(s));
      continue;
    }
    const PodSummary pod = summarize_pod(item.object, false);
    for (const auto& [k, job] : owners(kinds, pod)) listed.add_pod(k, job, pod);
  }
}

std::string shown(const TrainingJob& j) { return j.to_json().dump() + " reason=" + j.reason; }

const char* pick(std::mt19937& rng, std::initializer_list<const char*> from) {
  return from.begin()[std::uniform_int_distribution<size_t>(0, from.size() - 1)(rng)];
}

int between(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// Few distinct times, so that jobs and pods tie on them.
std::string a_time(std::mt19937& rng) {
  return "2024-05-01T09:5" + std::to_string(between(rng, 0, 3)) + ":00Z";
}

json kubeflow_status(std::mt19937& rng, const std::string& kind) {
  const std::string at = a_time(rng);
  switch (between(rng, 0, 3)) {
    case 0:
      return json::object();
    case 1:
      return {{"startTime", at}, {"conditions", json::array({condition("Running", "True", at)})}};
    case 2:
      return {{"startTime", at},
              {"completionTime", "2024-05-01T09:59:00Z"},
              {"conditions", json::array({condition("Succeeded", "True", "2024-05-01T09:59:00Z")})}};
    default:
      return {{"startTime", at},
              {"conditions", json::array({condition("Failed", "True", "2024-05-01T09:59:00Z",
                                                    kind + pick(rng, {"Failed", "BackoffLimit"}))})}};
  }
}

json a_job(std::mt19937& rng, const std::string& type, const std::string& name, const std::string& ns) {
  const std::string created = a_time(rng);
  json j;
  if (type == "pytorchjob") {
    j = pytorchjob(name, created, between(rng, 1, 3), between(rng, 0, 2), kubeflow_status(rng, "PyTorchJob"),
                   ns);
    if (between(rng, 0, 3) == 0) {
      j["spec"]["pytorchReplicaSpecs"].erase("Master");
      j["spec"]["elasticPolicy"] = {{"minReplicas", 1}, {"maxReplicas", between(rng, 2, 4)}};
    }
  } else if (type == "mpijob") {
    json status = kubeflow_status(rng, "MPIJob");
    if (between(rng, 0, 2) == 0) status["launcherStatus"] = pick(rng, {"Succeeded", "Failed", "Running"});
    j = mpijob(name, created, between(rng, 1, 2), between(rng, 0, 2), status, ns);
  } else if (type == "tfjob") {
    j = tfjob(name, created, between(rng, 0, 1), between(rng, 1, 2), 1, between(rng, 0, 1) == 1,
              kubeflow_status(rng, "TFJob"), ns);
  } else if (type == "volcanojob") {
    json state = json();
    if (between(rng, 0, 3) > 0)
      state = {{"phase", pick(rng, {"Pending", "Running", "Completed", "Failed", "Aborted"})},
               {"lastTransitionTime", "2024-05-01T09:58:00Z"},
               {"reason", pick(rng, {"", "PodFailed", "TaskCompleted"})}};
    j = volcanojob(name, created, state, ns);
    if (between(rng, 0, 1)) std::swap(j["spec"]["tasks"][0], j["spec"]["tasks"][1]);
  } else {
    json status = json::object();
    if (between(rng, 0, 1))
      status = {{"startTime", created},
                {"completionTime", "2024-05-01T09:59:00Z"},
                {"conditions", json::array({{{"type", "Complete"}, {"status", "True"}}})}};
    j = batchjob(name, created, status, ns);
  }
  if (between(rng, 0, 4) == 0) j["metadata"]["deletionTimestamp"] = "2024-05-01T09:59:30Z";
  if (between(rng, 0, 2) == 0) j["spec"]["runPolicy"]["schedulingPolicy"]["priorityClass"] = "high";
  return j;
}

json labels_of(std::mt19937& rng, const std::string& type, const std::string& job) {
  if (type == "pytorchjob") return pytorch_labels(job, pick(rng, {"master", "worker"}), between(rng, 0, 1));
  if (type == "mpijob") return mpi_labels(job, pick(rng, {"launcher", "worker"}));
  if (type == "tfjob")
    return tf_labels(job, pick(rng, {"chief", "master", "worker", "ps"}), between(rng, 0, 1));
  if (type == "volcanojob")
    return volcano_labels(job, pick(rng, {"pserver", "trainer", ""}), between(rng, 0, 1));
  return batch_labels(job, between(rng, 0, 1));
}

json a_pod(std::mt19937& rng, const std::string& type, const std::string& job, const std::string& ns, int n) {
  const std::string phase = pick(rng, {"Pending", "Pending", "Running", "Running", "Succeeded", "Failed"});
  const std::string node =
      phase == "Pending" && between(rng, 0, 1) ? "" : "node-" + std::to_string(between(rng, 1, 4));
  json p = pod(job + "-" + std::to_string(n), labels_of(rng, type, job), phase, between(rng, 0, 2), node, ns,
               a_time(rng));
  if (type == "volcanojob" && p["metadata"]["labels"]["volcano.sh/task-spec"] == "")
    p["metadata"]["labels"].erase("volcano.sh/task-spec");
  if (phase == "Pending" && !node.empty())
    p["status"]["containerStatuses"] = json::array(
        {{{"name", "pytorch"}, {"ready", false}, {"state", {{"waiting", {{"reason", "ErrImagePull"}}}}}}});
  if (between(rng, 0, 2) == 0) p["spec"]["priorityClassName"] = pick(rng, {"low", "urgent"});
  if (between(rng, 0, 5) == 0) p["metadata"]["annotations"]["requestGPUsOfJobOwner"] = "8";
  return p;
}

// Jobs of every kind in two namespaces, 0-5 pods each, some pods of no listed job; shuffled.
std::vector<Item> a_cluster(std::mt19937& rng, const std::vector<const JobKind*>& kinds) {
  std::vector<Item> items;
  for (int n = 0; n < 30; ++n) {
    const size_t k = static_cast<size_t>(between(rng, 0, static_cast<int>(kinds.size()) - 1));
    const std::string type = kinds[k]->name == "batchjob" ? "batch" : kinds[k]->type;
    const std::string ns = pick(rng, {"default", "team-a"});
    const std::string name = "j" + std::to_string(between(rng, 0, 12));  // names repeat across kinds
    const bool has_object = between(rng, 0, 9) > 0;
    if (has_object) items.push_back({true, k, a_job(rng, type, name, ns)});
    const int pods = between(rng, 0, 5);
    for (int p = 0; p < pods; ++p) items.push_back({false, 0, a_pod(rng, type, name, ns, n * 10 + p)});
  }
  std::shuffle(items.begin(), items.end(), rng);
  return items;
}

}  // namespace

TEST_CASE("ListedJobs builds what JobPods and build_job build, in any order of objects and pods") {
  const auto kinds = listed_kinds();
  for (unsigned seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    const auto items = a_cluster(rng, kinds);
    for (bool instances : {false, true}) {
      CAPTURE(instances);
      const JobList expected = reference(kinds, items, instances);
      ListedJobs listed(kinds, instances, now());
      add(listed, kinds, items);
      listed.sort_newest_first();
      REQUIRE(listed.size() == expected.size());
      bool elastic = false;
      for (size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        CHECK(shown(listed.job(i)) == shown(expected[i]));
        CHECK(shown(listed.take(i)) == shown(expected[i]));
        elastic = elastic || expected[i].elastic.has_value();
      }
      CHECK(listed.any_elastic() == elastic);
    }
  }
}

TEST_CASE("ListedJobs: a list read again from the start forgets the first reading") {
  const auto kinds = listed_kinds();
  std::mt19937 rng(7);
  const auto first = a_cluster(rng, kinds);
  const auto second = a_cluster(rng, kinds);
  ListedJobs listed(kinds, true, now());
  add(listed, kinds, first);
  listed.clear();
  add(listed, kinds, second);
  listed.sort_newest_first();
  const JobList expected = reference(kinds, second, true);
  REQUIRE(listed.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) CHECK(shown(listed.take(i)) == shown(expected[i]));
}

TEST_CASE("ListedJobs: Volcano's chief is of the first task, whichever task's pods came first") {
  const JobKind& volcano = kind_named("volcanojob");
  const json job =
      volcanojob("v", "2024-05-01T09:50:00Z", {{"phase", "Running"}});  // tasks: pserver, trainer
  const json trainer = pod("v-trainer-0", volcano_labels("v", "trainer", 0), "Running", 1, "node-2");
  const json older = pod("v-pserver-0", volcano_labels("v", "pserver", 0), "Running", 0, "node-1", "default",
                         "2024-05-01T09:40:00Z");
  const json newer = pod("v-pserver-0b", volcano_labels("v", "pserver", 0), "Running", 0, "node-3");
  for (bool job_first : {true, false}) {
    ListedJobs listed({&volcano}, false, now());
    if (job_first) listed.add_job(0, summarize_job(volcano, job));
    for (const auto* p : {&trainer, &older, &newer}) listed.add_pod(0, "v", summarize_pod(*p, false));
    if (!job_first) listed.add_job(0, summarize_job(volcano, job));
    listed.sort_newest_first();
    REQUIRE(listed.size() == 1);
    const TrainingJob j = listed.job(0);
    CHECK(j.chief_name == "v-pserver-0b");  // the newer of the first task's two
    CHECK(j.chief_node_ip == "192.168.0.33");
  }
}

TEST_CASE("ListedJobs: among candidates that tie, the first seen wins, whatever task it is of") {
  // The pserver pod that beats the first one comes after the pod of no task it ties with:
  // JobPods' scan keeps the pod of no task.
  const JobKind& volcano = kind_named("volcanojob");
  json no_task = pod("v-x-0", volcano_labels("v", "pserver", 0), "Running", 0, "node-2");
  no_task["metadata"]["labels"].erase("volcano.sh/task-spec");
  const std::vector<Item> items = {
      {true, 0, volcanojob("v", "2024-05-01T09:50:00Z", {{"phase", "Running"}})},
      {false, 0, pod("v-pserver-0", volcano_labels("v", "pserver", 0), "Pending", 0)},
      {false, 0, no_task},
      {false, 0, pod("v-pserver-0b", volcano_labels("v", "pserver", 0), "Running", 0, "node-3")}};
  const JobList expected = reference({&volcano}, items, false);
  REQUIRE(expected.size() == 1);
  CHECK(expected[0].chief_name == "v-x-0");
  ListedJobs listed({&volcano}, false, now());
  add(listed, {&volcano}, items);
  listed.sort_newest_first();
  REQUIRE(listed.size() == 1);
  CHECK(shown(listed.job(0)) == shown(expected[0]));
}

TEST_CASE("ListedJobs: a reason set on a job is the one it is built with") {
  const JobKind& pytorch = kind_named("pytorchjob");
  ListedJobs listed({&pytorch}, false, now());
  listed.add_job(0, summarize_job(pytorch, pytorchjob("a", "2024-05-01T09:50:00Z", 1, 1)));
  listed.add_job(0, summarize_job(pytorch, pytorchjob("b", "2024-05-01T09:51:00Z", 1, 1)));
  listed.add_pod(0, "b",
                 summarize_pod(pod("b-pod", pytorch_labels("b", "worker", 3), "Running", 1, "node-1")));
  listed.sort_newest_first();
  REQUIRE(listed.size() == 2);
  listed.set_reason(1, "ExceededQuota");
  CHECK(listed.job(0).name == "b");
  CHECK(listed.job(0).reason.empty());
  CHECK(listed.job(1).reason == "ExceededQuota");
  CHECK(listed.job(0).chief_name == "b-pod");  // its only pod, though not a candidate
}

TEST_CASE("StringStore: kept strings stay readable; interned equal strings are one ref") {
  trainctl::StringStore store;
  std::vector<trainctl::StrRef> refs;
  for (int i = 0; i < 20000; ++i) refs.push_back(store.keep("name-" + std::to_string(i)));
  const std::string long_text(200000, 'x');  // longer than a block
  const auto big = store.keep(long_text);
  for (int i = 0; i < 20000; ++i)
    CHECK(store.view(refs[static_cast<size_t>(i)]) == "name-" + std::to_string(i));
  CHECK(store.view(big) == long_text);
  CHECK(store.intern("team-a") == store.intern(std::string("team-") + "a"));
  CHECK_FALSE(store.intern("team-a") == store.intern("team-b"));
  // The same copy by number: one number per text, 0 for "", read back as the text.
  const std::uint32_t a = store.intern_id("team-a");
  CHECK(a != 0);
  CHECK(store.intern_id(std::string("team-") + "a") == a);
  CHECK(store.intern_id("team-b") != a);
  CHECK(store.intern_id("") == 0);
  CHECK(store.view_id(a) == "team-a");
  CHECK(store.view_id(0).empty());
  CHECK(store.view(store.intern("team-a")) == store.view_id(a));
  CHECK(store.keep("").empty());
  CHECK(store.view(store.intern("")).empty());
  store.clear();
  CHECK(store.view(store.intern("again")) == "again");
}
