// The distributed contract as a pure function: cluster DNS from inside a pod (Services,
// hostname.subdomain records, the publication of ready endpoints) and the verdict on a pod
// of a job, with the texts and timeouts of PyTorch (socket.cpp, TCPStore.cpp) and OpenMPI.
#include <catch2/catch.hpp>

#include "kubesim/controllers/context.h"
#include "kubesim/controllers/rendezvous.h"

using namespace kubesim;
using json = nlohmann::json;
using State = RendezvousVerdict::State;

namespace {

const std::string kNow = "2023-11-14T22:13:30Z";
const std::string kLongAgo = "2023-11-14T22:13:00Z";

struct PodSpec {
  std::string name;
  std::string script;  // run as sh -c
  std::vector<std::pair<std::string, std::string>> env;
  std::string ready_since = kLongAgo;  // "" = not ready
  std::string hostname, subdomain;
  std::string job = "job";
  int index = 0;
};

std::shared_ptr<const json> make_pod(const PodSpec& s, int ip) {
  json env = json::array();
  for (const auto& [k, v] : s.env) env.push_back({{"name", k}, {"value", v}});
  json spec = {{"containers", json::array({{{"name", "pytorch"},
                                             {"image", "pytorch/pytorch"},
                                             {"command", json::array({"sh", "-c", s.script})},
                                             {"env", env}}})}};
  if (!s.hostname.empty()) spec["hostname"] = s.hostname;
  if (!s.subdomain.empty()) spec["subdomain"] = s.subdomain;
  json conditions = json::array();
  conditions.push_back({{"type", "Ready"},
                        {"status", s.ready_since.empty() ? "False" : "True"},
                        {"lastTransitionTime", s.ready_since.empty() ? kLongAgo : s.ready_since}});
  return std::make_shared<const json>(
      json{{"metadata",
            {{"name", s.name},
             {"namespace", "default"},
             {"labels",
              {{"training.kubeflow.org/job-name", s.job},
               {"training.kubeflow.org/operator-name", "pytorchjob-controller"},
               {"training.kubeflow.org/replica-index", std::to_string(s.index)},
               {"app", s.job}}}}},
           {"spec", spec},
           {"status",
            {{"phase", "Running"}, {"podIP", "10.244.0." + std::to_string(ip)}, {"conditions", conditions}}}});
}

std::shared_ptr<const json> service(const std::string& name, json selector, bool headless = true,
                                    bool not_ready = false) {
  json spec = {{"selector", std::move(selector)}};
  if (headless) spec["clusterIP"] = "None";
  if (not_ready) spec["publishNotReadyAddresses"] = true;
  return std::make_shared<const json>(
      json{{"metadata", {{"name", name}, {"namespace", "default"}}}, {"spec", spec}});
}

struct World {
  PodList pods, services;
  std::chrono::milliseconds timeout{0};
  void add(const PodSpec& s) { pods.push_back(make_pod(s, static_cast<int>(pods.size()) + 2)); }
  const json& pod(const std::string& name) const {
    for (const auto& p : pods)
      if ((*p)["metadata"]["name"] == name) return *p;
    FAIL("no pod " << name);
    return *pods.front();
  }
  RendezvousVerdict judge(const std::string& name) const {
    RendezvousInput in;
    in.pod = &pod(name);
    in.pods = pods;
    in.services = services;
    in.now = parse_time(kNow);
    in.timeout = timeout;
    return judge_rendezvous(in);
  }
  std::vector<std::string> resolve(const std::string& host, const std::string& from) const {
    ClusterDns dns(pods, services, parse_time(kNow));
    std::vector<std::string> out;
    for (const json* p : dns.resolve(host, pod(from))) out.push_back((*p)["metadata"]["name"]);
    return out;
  }
};

// A PyTorchJob as the training-operator makes it: NAME-master-0 (rank 0) and workers, one
// per-replica Service each, the envvar.go variables.
World pytorch_job(int workers, const std::string& script, int world_size) {
  World w;
  for (int i = 0; i <= workers; ++i) {
    const std::string name = i == 0 ? "job-master-0" : "job-worker-" + std::to_string(i - 1);
    w.add({name,
           script,
           {{"MASTER_ADDR", "job-master-0"},
            {"MASTER_PORT", "23456"},
            {"WORLD_SIZE", std::to_string(world_size)},
            {"RANK", std::to_string(i)},
            {"PET_MASTER_ADDR", "job-master-0"},
            {"PET_MASTER_PORT", "23456"},
            {"PET_NNODES", std::to_string(workers + 1)},
            {"PET_NODE_RANK", std::to_string(i)}},
           kLongAgo,
           "",
           "",
           "job",
           i});
    w.services.push_back(service(name, {{"training.kubeflow.org/job-name", "job"},
                                        {"training.kubeflow.org/replica-index", std::to_string(i)}}));
  }
  return w;
}

}  // namespace

TEST_CASE("DNS: a Service names its ready pods one second after they became Ready", "[rendezvous][dns]") {
  World w = pytorch_job(1, "python t.py", 2);
  CHECK(w.resolve("job-master-0", "job-worker-0") == std::vector<std::string>{"job-master-0"});
  for (const char* fqdn : {"job-master-0.default", "job-master-0.default.svc", "job-master-0.default.svc.cluster.local",
                           "job-master-0.default.svc.cluster.local."})
    CHECK(w.resolve(fqdn, "job-worker-0") == std::vector<std::string>{"job-master-0"});
  // Ready this very second: not published yet; not ready at all: never (no publishNotReadyAddresses).
  World fresh = pytorch_job(1, "python t.py", 2);
  fresh.pods[0] = make_pod({"job-master-0", "python t.py", {}, kNow, "", "", "job", 0}, 2);
  CHECK(fresh.resolve("job-master-0", "job-worker-0").empty());
  fresh.pods[0] = make_pod({"job-master-0", "python t.py", {}, "", "", "", "job", 0}, 2);
  CHECK(fresh.resolve("job-master-0", "job-worker-0").empty());
  // Other namespaces, unknown names and bare pod hostnames do not resolve.
  CHECK(w.resolve("job-master-0.other", "job-worker-0").empty());
  CHECK(w.resolve("nope", "job-worker-0").empty());
}

TEST_CASE("DNS: hostname.subdomain through a headless Service; own names and loopback locally",
          "[rendezvous][dns]") {
  World w;
  for (int i = 0; i < 2; ++i)
    w.add({"dist-" + std::to_string(i) + "-xyz12", "torchrun t.py", {}, i == 0 ? kNow : kLongAgo,
           "dist-" + std::to_string(i), "dist", "dist", i});
  w.services.push_back(service("dist", {{"app", "dist"}}, true, true));
  // publishNotReadyAddresses: published one second after the pod got its IP, ready or not.
  CHECK(w.resolve("dist-1.dist", "dist-0-xyz12") == std::vector<std::string>{"dist-1-xyz12"});
  CHECK(w.resolve("dist-1.dist.default.svc.cluster.local", "dist-0-xyz12") ==
        std::vector<std::string>{"dist-1-xyz12"});
  CHECK(w.resolve("dist-0.dist", "dist-1-xyz12").empty());  // became Ready at this instant
  // The pod's own hostname and FQDN are in its /etc/hosts; loopback is the pod itself.
  CHECK(w.resolve("dist-0", "dist-0-xyz12") == std::vector<std::string>{"dist-0-xyz12"});
  CHECK(w.resolve("dist-0.dist.default.svc.cluster.local", "dist-0-xyz12") ==
        std::vector<std::string>{"dist-0-xyz12"});
  CHECK(w.resolve("127.0.0.1", "dist-1-xyz12") == std::vector<std::string>{"dist-1-xyz12"});
  CHECK(w.resolve("localhost", "dist-1-xyz12") == std::vector<std::string>{"dist-1-xyz12"});
  // A pod's bare hostname is not a DNS name for the others.
  CHECK(w.resolve("dist-1", "dist-0-xyz12").empty());
  // A Service that is not headless has no hostname records; the Service name itself names
  // every endpoint (getaddrinfo returns them all).
  World plain = w;
  plain.services = {service("dist", {{"app", "dist"}}, false, true)};
  CHECK(plain.resolve("dist-1.dist", "dist-0-xyz12").empty());
  CHECK(plain.resolve("dist", "dist-0-xyz12").size() == 1);  // dist-0 is not published yet
}

TEST_CASE("a PyTorchJob whose ranks all reach the master's store is formed", "[rendezvous][judge]") {
  const World w = pytorch_job(2, "python /root/mnist.py", 3);
  for (const char* name : {"job-master-0", "job-worker-0", "job-worker-1"}) {
    const auto v = w.judge(name);
    CHECK(v.state == State::Formed);
    CHECK(v.members.size() == 3);
  }
  const World t = pytorch_job(2, "torchrun --nproc-per-node=4 train.py", 12);
  CHECK(t.judge("job-worker-1").state == State::Formed);
}

TEST_CASE("WORLD_SIZE counting 8 processes with 2 pods of plain python: rank 0 waits, then TCPStore's timeout",
          "[rendezvous][judge]") {
  const World w = pytorch_job(1, "python train.py", 8);
  const auto master = w.judge("job-master-0");
  REQUIRE(master.state == State::Waiting);
  CHECK(master.give_up_after == std::chrono::seconds(1801));  // default_pg_timeout, elapsed > timeout
  CHECK(master.fail_lines.back() ==
        "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 2/8 clients joined.");
  const auto worker = w.judge("job-worker-0");
  REQUIRE(worker.state == State::Waiting);
  CHECK(worker.fail_lines.back() == "torch.distributed.DistStoreError: Socket Timeout");
}

TEST_CASE("a master address that does not resolve: getaddrinfo warnings, then the connect timeout",
          "[rendezvous][judge]") {
  World w = pytorch_job(1, "torchrun --master_addr=job-master train.py", 2);
  const auto v = w.judge("job-worker-0");
  REQUIRE(v.state == State::Waiting);
  REQUIRE(v.wait_lines.size() == 1);
  CHECK(v.wait_lines[0] ==
        "[W socket.cpp] [c10d] The IPv6 network addresses of (job-master, 23456) cannot be retrieved "
        "(gai error: -2 - Name or service not known).");
  CHECK(v.give_up_after == std::chrono::seconds(900));
  CHECK(v.fail_lines.back() ==
        "torch.distributed.DistNetworkError: The client socket has timed out after 900000ms while trying to "
        "connect to (job-master, 23456).");
  // The master's own client cannot reach it either.
  CHECK(w.judge("job-master-0").state == State::Waiting);
  w.timeout = std::chrono::seconds(30);  // kubesim --rendezvous-timeout
  CHECK(w.judge("job-worker-0").give_up_after == std::chrono::seconds(30));
  CHECK(w.judge("job-worker-0").fail_lines.back().find("after 30000ms") != std::string::npos);
}

TEST_CASE("the master address must name the rank-0 node, and node ranks must cover 0..N-1 once",
          "[rendezvous][judge]") {
  // Every pod points at worker-0, whose node rank is 1: nothing listens there.
  const World wrong = pytorch_job(1, "torchrun --master_addr=job-worker-0 train.py", 2);
  const auto v = wrong.judge("job-master-0");
  REQUIRE(v.state == State::Waiting);
  CHECK(v.wait_lines.at(0) == "[I socket.cpp] [c10d] No socket on (job-worker-0, 23456) is listening yet, will retry.");
  // Two pods both with node rank 0.
  const World dup = pytorch_job(1, "torchrun --node_rank=0 train.py", 2);
  const auto m = dup.judge("job-master-0");
  REQUIRE(m.state == State::Waiting);
  CHECK(m.reason.find("duplicate ranks") != std::string::npos);
  // The ports must agree too.
  const World port = pytorch_job(1, "torchrun --master_port=$RANK$RANK train.py", 2);
  CHECK(port.judge("job-worker-0").state == State::Waiting);
}

TEST_CASE("a rank that is not running yet keeps the others waiting", "[rendezvous][judge]") {
  World w = pytorch_job(1, "python train.py", 2);
  json pending = *w.pods[1];
  pending["status"] = {{"phase", "Pending"}};
  w.pods[1] = std::make_shared<const json>(pending);
  const auto v = w.judge("job-master-0");
  REQUIRE(v.state == State::Waiting);
  CHECK(v.fail_lines.back().find("1/2 clients joined") != std::string::npos);
}

TEST_CASE("what kubesim cannot judge is left alone", "[rendezvous][judge]") {
  CHECK(pytorch_job(1, "bash /root/run.sh", 2).judge("job-master-0").state == State::NotJudged);
  CHECK(pytorch_job(1, "horovodrun -np 2 python train.py", 2).judge("job-master-0").state == State::NotJudged);
}
