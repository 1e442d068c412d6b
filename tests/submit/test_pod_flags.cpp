// Arena's pod-level flags: --image-pull-policy, --device, --rdma, --hostNetwork, --hostIPC,
// --hostPID. Each reaches every pod template of every kind, and nothing is rendered when the
// flag is not given.
#include <catch2/catch.hpp>

#include "submit_testing.h"

using namespace trainctl::testing;
using nlohmann::json;

TEST_CASE("pod flags reach the master and the workers of a PyTorchJob", "[flags]") {
  auto objs = submit_objects("pytorch", {"--name=pf", "--workers=2", kImage, "--image-pull-policy=IfNotPresent",
                                         "--device=amd.com/gpu=2", "--device=example.com/fpga=1", "--rdma",
                                         "--hostNetwork", "--hostIPC", "--host-pid", "python train.py"});
  for (const char* replica : {"Master", "Worker"}) {
    INFO(replica);
    const json& spec = pod_spec(objs[0], replica);
    CHECK(spec["hostNetwork"] == true);
    CHECK(spec["dnsPolicy"] == "ClusterFirstWithHostNet");
    CHECK(spec["hostIPC"] == true);
    CHECK(spec["hostPID"] == true);
    const json& c = main_container(objs[0], replica);
    CHECK(c["imagePullPolicy"] == "IfNotPresent");
    CHECK(c["securityContext"]["capabilities"]["add"] == json::array({"IPC_LOCK"}));
    for (const char* side : {"requests", "limits"}) {
      const json& r = c["resources"][side];
      CHECK(r["amd.com/gpu"] == "2");
      CHECK(r["example.com/fpga"] == "1");
      CHECK(r["rdma/hca"] == "1");
    }
  }
}

TEST_CASE("without pod flags nothing of them is rendered; images are pulled Always, as Arena", "[flags]") {
  auto objs = submit_objects("mpi", {"--name=pf", "--workers=2", kImage, "mpirun python train.py"});
  for (const char* replica : {"Launcher", "Worker"}) {
    INFO(replica);
    const json& spec = pod_spec(objs[0], replica);
    CHECK_FALSE(spec.contains("hostNetwork"));
    CHECK_FALSE(spec.contains("hostIPC"));
    CHECK_FALSE(spec.contains("hostPID"));
    const json& c = main_container(objs[0], replica);
    CHECK(c["imagePullPolicy"] == "Always");  // Arena's --image-pull-policy default
    CHECK_FALSE(c.contains("securityContext"));
  }
}

TEST_CASE("pod flags on MPI, Volcano and operator-free PyTorch", "[flags]") {
  auto mpi = submit_objects("mpi", {"--name=pf", kImage, "--image-pull-policy=Never", "--hostNetwork",
                                    "mpirun python train.py"});
  CHECK(main_container(mpi[0], "Launcher")["imagePullPolicy"] == "Never");
  CHECK(pod_spec(mpi[0], "Worker")["hostNetwork"] == true);
  auto vc = submit_objects("volcano", {"--name=pf", kImage, "--task=trainer:2", "--device=amd.com/gpu=1",
                                       "--imagePullPolicy=Always", "python train.py"});
  CHECK(main_container(vc[0], "trainer")["resources"]["limits"]["amd.com/gpu"] == "1");
  CHECK(main_container(vc[0], "trainer")["imagePullPolicy"] == "Always");
  auto none = submit_objects("pytorch", {"--name=pf", "--workers=2", "--operator=none", kImage, "--rdma",
                                         "python train.py"});
  const json& job = object_of_kind(none, "Job");
  CHECK(main_container(job, "")["resources"]["limits"]["rdma/hca"] == "1");
}
