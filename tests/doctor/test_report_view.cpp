// How the doctor report reads: aligned words in a pipe or on a terminal whose locale is not
// UTF-8, ✓ ✗ ! · on a UTF-8 terminal (in colour when colour is on), the why and fix of what
// does not work beneath it, the verdict last; the JSON document's shape.
#include <catch2/catch.hpp>

#include "core/iostreams.h"
#include "doctor/report_view.h"

using namespace trainctl;
using namespace trainctl::doctor;

namespace {

Report sample() {
  Report r;
  r.server = "https://k8s.example:6443";
  r.context = "prod";
  r.kubernetes_version = "1.31";
  r.namespace_ = "team-a";
  r.default_kind = "PyTorchJob";
  r.default_command = "trainctl submit pytorch";
  r.api_requests = 58;
  r.round_trips = 2;
  r.add({Section::JobApis, "api.pytorchjob", "PyTorchJob", Status::Ok, "kubeflow.org/v1"});
  r.add({Section::JobApis, "api.mpijob", "MPIJob", Status::Missing, "only kubeflow.org/v1", "v2beta1 is needed",
         "install the mpi-operator"});
  r.add({Section::Gpus, "gpu.mig", "MIG devices", Status::Info, "none"});
  r.add({Section::Metrics, "metrics.prometheus", "Prometheus", Status::Warning, "none found", "GPU(Util) is N/A",
         "--prometheus URL"});
  return r;
}

std::string view(const Report& r, bool tty, bool utf8, bool color) {
  IOStreams io = IOStreams::test(tty);
  io.set_unicode(utf8);
  io.set_color(color);
  write_report(io.out(), r, io);
  return io.out_text();
}

}  // namespace

TEST_CASE("doctor report: words in a pipe, each problem with why and fix", "[doctor][view]") {
  Report r = sample();
  r.ready = true;
  const std::string text = view(r, false, true, false);  // a UTF-8 locale, but a pipe
  CHECK(text ==
        "Cluster:    https://k8s.example:6443 (context prod, Kubernetes 1.31)\n"
        "Namespace:  team-a\n"
        "Checked:    58 requests to the API server in one round, then one query to Prometheus\n"
        "\n"
        "Job APIs\n"
        "  ok       PyTorchJob  kubeflow.org/v1\n"
        "  missing  MPIJob      only kubeflow.org/v1\n"
        "                       why: v2beta1 is needed\n"
        "                       fix: install the mpi-operator\n"
        "\n"
        "GPUs\n"
        "  info     MIG devices  none\n"
        "\n"
        "GPU metrics\n"
        "  warning  Prometheus  none found\n"
        "                       why: GPU(Util) is N/A\n"
        "                       fix: --prometheus URL\n"
        "\n"
        "Ready: trainctl submit pytorch can create PyTorchJobs in namespace team-a.\n");
}

TEST_CASE("doctor report: symbols on a UTF-8 terminal, in colour when colour is on", "[doctor][view]") {
  Report r = sample();
  r.not_ready_because = {"MPIJob: only kubeflow.org/v1"};
  const std::string plain_tty = view(r, true, false, false);
  CHECK(plain_tty.find("  missing  MPIJob") != std::string::npos);
  CHECK(plain_tty.find("✗") == std::string::npos);
  const std::string utf8 = view(r, true, true, false);
  CHECK(utf8.find("  ✓  PyTorchJob  kubeflow.org/v1\n") != std::string::npos);
  CHECK(utf8.find("  ✗  MPIJob      only kubeflow.org/v1\n                 why: v2beta1 is needed\n") != std::string::npos);
  CHECK(utf8.find("  !  Prometheus") != std::string::npos);
  CHECK(utf8.find("  ·  MIG devices") != std::string::npos);
  CHECK(utf8.find("\x1b[") == std::string::npos);
  CHECK(utf8.find("Not ready: trainctl submit pytorch cannot run PyTorchJobs in namespace team-a:\n"
                  "  - MPIJob: only kubeflow.org/v1\n") != std::string::npos);
  const std::string coloured = view(r, true, true, true);
  CHECK(coloured.find("\x1b[") != std::string::npos);
}

TEST_CASE("doctor report: text from the cluster is shown escaped", "[doctor][view]") {
  Report r = sample();
  r.findings[1].reason = "refused: \x1b[31mred\x1b[0m";
  const std::string text = view(r, false, false, false);
  CHECK(text.find("\x1b") == std::string::npos);
  CHECK(text.find("refused: \\x1b[31mred") != std::string::npos);
}

TEST_CASE("doctor report: the JSON document", "[doctor][view]") {
  Report r = sample();
  r.not_ready_because = {"x"};
  const auto j = r.to_json();
  CHECK(j["cluster"]["namespace"] == "team-a");
  CHECK(j["defaultKind"]["kind"] == "PyTorchJob");
  CHECK(j["ready"] == false);
  CHECK(j["apiRequests"] == 58);
  CHECK(j["roundTrips"] == 2);
  CHECK(j["findings"][1]["id"] == "api.mpijob");
  CHECK(j["findings"][1]["section"] == "jobApis");
  CHECK(j["findings"][1]["status"] == "missing");
  CHECK(j["findings"][3]["section"] == "metrics");
}

TEST_CASE("a UTF-8 locale is told as setlocale reads the environment", "[core][locale]") {
  CHECK(locale_is_utf8(nullptr, nullptr, "en_US.UTF-8"));
  CHECK(locale_is_utf8(nullptr, nullptr, "C.utf8"));
  CHECK(locale_is_utf8(nullptr, "de_DE.UTF-8@euro", "C"));
  CHECK_FALSE(locale_is_utf8("C", nullptr, "en_US.UTF-8"));  // LC_ALL wins
  CHECK_FALSE(locale_is_utf8("", "", "POSIX"));
  CHECK(locale_is_utf8("", "", "en_GB.utf-8"));  // empty ones do not count
  CHECK_FALSE(locale_is_utf8(nullptr, nullptr, nullptr));
  CHECK_FALSE(locale_is_utf8(nullptr, nullptr, "en_US.ISO-8859-1"));
}
