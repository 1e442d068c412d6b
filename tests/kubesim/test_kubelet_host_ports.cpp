// Pods on the host network share their node's ports (kubelet_host_ports.cpp): a real kubelet
// admits two host-network pods whose sshd listen on the same port, since neither declares a
// hostPort (kubernetes pkg/kubelet/lifecycle/predicate.go GeneralPredicates ->
// pkg/scheduler/framework/plugins/nodeports fitsPorts; HostPortInfo.CheckConflict ignores
// port 0); the second sshd cannot bind (openssh-portable sshd.c server_listen) and exits 255.
#include "test_controllers_fixture.h"

using namespace kubesim;
using namespace kubesim::testing;

namespace {

constexpr const char* kNodeA = "cn-huhehaote.192.168.0.31";
constexpr const char* kNodeB = "cn-huhehaote.192.168.0.32";

json sshd_pod(const std::string& name, const std::string& node, bool host_network,
              json command = json::array({"/usr/sbin/sshd", "-De"})) {
  json spec = {{"nodeName", node},
               {"restartPolicy", "OnFailure"},
               {"containers", json::array({{{"name", "worker"}, {"image", "mpioperator/base:v0.8.0"},
                                            {"command", std::move(command)}}})}};
  if (host_network) spec["hostNetwork"] = true;
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"name", name}, {"namespace", "default"}, {"annotations", {{"kubesim.trainctl.io/outcome", "run-forever"}}}}},
          {"spec", spec}};
}

bool ready(const json& pod) {
  const json* c = find_condition(pod, "Ready");
  return c != nullptr && (*c)["status"] == "True";
}

std::vector<std::string> texts(const std::vector<LogLine>& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines) out.push_back(l.text);
  return out;
}

}  // namespace

TEST_CASE("host network: a second sshd on the node cannot bind its port, is restarted, never Ready",
          "[controllers][kubelet][upstream]") {
  SimFixture f;
  f.create("", "v1", "pods", sshd_pod("first", kNodeA, true));
  f.step(5s);
  REQUIRE(ready(f.pod("first")));
  // The pod's address is its node's (status.hostIP).
  CHECK(f.pod("first")["status"]["podIP"] == f.pod("first")["status"]["hostIP"]);

  f.create("", "v1", "pods", sshd_pod("second", kNodeA, true));
  f.create("", "v1", "pods", sshd_pod("other-node", kNodeB, true));
  f.create("", "v1", "pods", sshd_pod("pod-network", kNodeA, false));
  f.create("", "v1", "pods", sshd_pod("other-port", kNodeA, true, json::array({"/usr/sbin/sshd", "-D", "-p", "2222"})));
  f.step(5s);
  for (const char* fine : {"first", "other-node", "pod-network", "other-port"}) {
    INFO(fine);
    CHECK(ready(f.pod(fine)));
  }
  const json second = f.pod("second");
  CHECK_FALSE(ready(second));
  CHECK(phase(second) == "Running");  // OnFailure: the kubelet restarts the container
  const json& cs = second["status"]["containerStatuses"][0];
  CHECK(cs["lastState"]["terminated"]["exitCode"] == 255);
  CHECK(cs["lastState"]["terminated"]["reason"] == "Error");
  CHECK(cs["state"]["waiting"]["reason"] == "CrashLoopBackOff");
  CHECK(texts(f.logs.lines("default", "second", "worker")) ==
        std::vector<std::string>{"Bind to port 22 on 0.0.0.0 failed: Address already in use.",
                                 "Bind to port 22 on :: failed: Address already in use.",
                                 "Cannot bind any address."});

  // Still taken at the next attempt; free once the first pod is gone.
  f.step(12s);
  CHECK_FALSE(ready(f.pod("second")));
  CHECK(f.pod("second")["status"]["containerStatuses"][0]["restartCount"] == 2);
  DeleteOptions now;
  now.grace_period_seconds = 0;
  f.store.remove(f.pods(), "default", "first", now);
  f.step(1s);
  REQUIRE_FALSE(f.find("", "v1", "pods", "first"));
  f.step(12s);
  CHECK(ready(f.pod("second")));
}

TEST_CASE("host network: sshd with -f and no port on the command line is not judged", "[controllers][kubelet]") {
  SimFixture f;
  const json cmd = json::array({"/usr/sbin/sshd", "-De", "-f", "/home/mpiuser/.sshd_config"});
  f.create("", "v1", "pods", sshd_pod("a", kNodeA, true, cmd));
  f.create("", "v1", "pods", sshd_pod("b", kNodeA, true, cmd));
  f.step(5s);
  CHECK(ready(f.pod("a")));
  CHECK(ready(f.pod("b")));
}

TEST_CASE("host network, restartPolicy Never: the pod that cannot bind fails with 255", "[controllers][kubelet]") {
  SimFixture f;
  f.create("", "v1", "pods", sshd_pod("holder", kNodeA, true, json::array({"sshd", "-D", "-oPort=2022"})));
  f.step(5s);
  json late = sshd_pod("late", kNodeA, true, json::array({"/usr/sbin/sshd", "-D", "-o", "Port 2022"}));
  late["spec"]["restartPolicy"] = "Never";
  f.create("", "v1", "pods", late);
  f.step(5s);
  const json pod = f.pod("late");
  CHECK(phase(pod) == "Failed");
  CHECK(pod["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] == 255);
  CHECK(texts(f.logs.lines("default", "late", "worker")).front() ==
        "Bind to port 2022 on 0.0.0.0 failed: Address already in use.");
}
