// Runs trainctl commands in-process: parses argv through the real command tree with a fake
// client, no user config file, a fixed clock (2024-05-01T10:00:00Z), UTC local time, and test streams.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "cmd/commands.h"
#include "cmd/factory.h"
#include "jobs/job_fixtures.h"
#include "jobs/time.h"
#include "support/fake_client.h"

struct Harness {
  trainctl::GlobalOptions globals;
  std::shared_ptr<trainctl::testing::FakeClient> client = std::make_shared<trainctl::testing::FakeClient>();
  trainctl::Factory factory;

  explicit Harness(bool tty = false, int width = 200)
      : factory(trainctl::IOStreams::test(tty, width), &globals) {
    ::setenv("TZ", "UTC", 1);
    ::tzset();
    globals.namespace_ = "default";
    factory.set_client(client);
    const auto now = *trainctl::jobs::parse_time(fixtures::kNow);
    factory.set_clock([now] { return now; });
    factory.set_user_config({});  // no config file of the machine's user
    factory.set_metrics_source({std::nullopt, "no Prometheus found in the cluster"});  // tests set one
  }

  // Runs `trainctl ARGS...` through the whole command tree, as main does; exceptions of the
  // command propagate.
  void run(const std::vector<std::string>& args) {
    CLI::App app{"trainctl", "trainctl"};
    trainctl::setup_all(app, factory, globals);
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  }

  std::string out() { return factory.io().out_text(); }
  std::string err() { return factory.io().err_text(); }
};

// Paths of the reads list issues in namespace default.
namespace paths {
inline const std::string kPyTorchJobs = "/apis/kubeflow.org/v1/namespaces/default/pytorchjobs?limit=100";
inline const std::string kMPIJobs = "/apis/kubeflow.org/v2beta1/namespaces/default/mpijobs?limit=100";
inline const std::string kVolcanoJobs = "/apis/batch.volcano.sh/v1alpha1/namespaces/default/jobs?limit=100";
inline const std::string kBatchJobs =
    "/apis/batch/v1/namespaces/default/"
    "jobs?labelSelector=app%3Dpytorchjob%2Ctrainctl.io%2Foperator%3Dnone&limit=100";
inline const std::string kTFJobs = "/apis/kubeflow.org/v1/namespaces/default/tfjobs?limit=100";
inline const std::string kTrainJobs =
    "/apis/trainer.kubeflow.org/v1alpha1/namespaces/default/trainjobs?limit=100";
inline const std::string kJobSetPods =
    "/api/v1/namespaces/default/pods?labelSelector=jobset.sigs.k8s.io%2Fjobset-name&limit=100";
inline const std::string kTrainingPods =
    "/api/v1/namespaces/default/pods?labelSelector=training.kubeflow.org%2Fjob-name&limit=100";
// The pods of older training-operator and pytorch-operator releases (jobs/legacy_pods.h).
inline const std::string kLegacyPods =
    "/api/v1/namespaces/default/pods?labelSelector=group-name%3Dkubeflow.org%2C%21training.kubeflow.org%2Fjob-"
    "name&limit=100";
inline const std::string kVolcanoPods =
    "/api/v1/namespaces/default/pods?labelSelector=volcano.sh%2Fjob-name&limit=100";
inline const std::string kBatchPods =
    "/api/v1/namespaces/default/pods?labelSelector=job-name%2C%21jobset.sigs.k8s.io%2Fjobset-name%2C%21training."
    "kubeflow.org%2Fjob-name&limit=100";
}  // namespace paths
