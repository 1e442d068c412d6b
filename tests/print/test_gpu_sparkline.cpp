// Sparklines of GPU utilisation (gpu_sparkline.h): block elements on a UTF-8 terminal, ASCII
// otherwise, a fixed 0-100 % scale, gaps for missing samples; the section's table and the
// JSON shape docs/json-output.md documents; the UTF-8 decision as tmux makes it.
#include <catch2/catch.hpp>

#include "core/iostreams.h"
#include "print/gpu_sparkline.h"

using namespace trainctl::print;
using trainctl::IOStreams;
using trainctl::locale_is_utf8;
namespace metrics = trainctl::metrics;
using std::chrono::seconds;

namespace {

const std::chrono::system_clock::time_point kT0{seconds(1'700'000'000)};

metrics::UtilizationHistory history() {
  metrics::UtilizationHistory h;
  h.window = {kT0, kT0 + seconds(60), seconds(20)};
  metrics::GpuHistory g;
  g.gpu.node = "gpu-a";
  g.gpu.gpu = "0";
  g.gpu.ns = "default";
  g.gpu.pod = "p-0";
  g.columns = {std::nullopt, 100.0, 50.0, 0.0};
  g.min = 0;
  g.mean = 50;
  g.max = 100;
  g.under_since = kT0 + seconds(60);
  h.gpus.push_back(g);
  return h;
}

}  // namespace

TEST_CASE("sparkline: eight levels over 0-100 %, a space where no sample is", "[print][sparkline]") {
  const std::vector<std::optional<double>> cols = {0.0, 12.4, 12.5, 37.5, 50.0, 62.5, 75.0, 87.5, 100.0, std::nullopt, 140.0};
  CHECK(sparkline(cols, false) == "__.:=+*## #");
  CHECK(sparkline(cols, true) == "▁▁▂▄▅▆▇██ █");
}

TEST_CASE("UTF-8 locale: the first of LC_ALL, LC_CTYPE, LANG that is set", "[print][sparkline]") {
  CHECK(locale_is_utf8(nullptr, nullptr, "en_US.UTF-8"));
  CHECK(locale_is_utf8(nullptr, "C.utf8", "C"));
  CHECK_FALSE(locale_is_utf8("C", "en_US.UTF-8", "en_US.UTF-8"));
  CHECK(locale_is_utf8("", "", "de_DE.Utf-8"));
  CHECK_FALSE(locale_is_utf8(nullptr, nullptr, nullptr));
  CHECK_FALSE(locale_is_utf8(nullptr, nullptr, "POSIX"));
}

TEST_CASE("the section: one row per GPU, glyphs for the terminal", "[print][sparkline]") {
  const auto h = history();
  auto plain = IOStreams::test(false);
  CHECK(job_gpu_history_text(h, plain) ==
        "GPU utilisation, last 1m (20s a column, 0-100%):\n"
        "INSTANCE  GPU  UTILISATION  MIN   MEAN   MAX     UNDER 5%\n"
        "p-0       0     #=_         0.0%  50.0%  100.0%  0s\n");
  auto tty = IOStreams::test(true);
  CHECK(job_gpu_history_text(h, tty).find(" █▅▁ ") != std::string::npos);
  tty.set_unicode(false);  // a terminal whose locale is not UTF-8
  CHECK(job_gpu_history_text(h, tty).find(" #=_ ") != std::string::npos);
  CHECK(node_gpu_history_text(h, "gpu-b", plain).empty());
  CHECK(node_gpu_history_text(h, "gpu-a", plain).find("  default/p-0  0 ") != std::string::npos);
}

TEST_CASE("the JSON: the window, and each GPU's samples as [unix seconds, percent]", "[print][sparkline]") {
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  add_gpu_history(doc, history());
  CHECK(doc.dump() ==
        R"({"gpuUtilizationHistory":{"start":"2023-11-14T22:13:20Z","end":"2023-11-14T22:14:20Z","stepSeconds":20,)"
        R"("threshold":5.0,"gpus":[{"namespace":"default","instance":"p-0","node":"gpu-a","gpu":"0","migInstance":null,)"
        R"("min":0.0,"mean":50.0,"max":100.0,"underThresholdSince":"2023-11-14T22:14:20Z",)"
        R"("points":[[1700000020,100.0],[1700000040,50.0],[1700000060,0.0]]}]}})");
  add_gpu_history(doc, std::nullopt);
  CHECK(doc["gpuUtilizationHistory"].is_null());
}
