// Hostile values arrive byte for byte: in the rendered objects, through the YAML printed by
// --dry-run, and through -o json.
#include <catch2/catch.hpp>

#include "render/render.h"
#include "submit_testing.h"
#include "support/yaml_judges.h"
#include "yaml/write.h"

using namespace trainctl;
using namespace trainctl::testing;
using nlohmann::json;

namespace {

std::vector<std::string> hostile_values() {
  std::string big;
  while (big.size() < 10 * 1024) big += "echo \"step: {{n}}\" # ünïcødé 😀 'q' \\ \t\n";
  return {
      "python -c 'print(\"hi\")'",
      "line1\nline2\n\nline4\r\n",
      "key: value",
      "- item",
      "{{name}} {{{image}}} {{#env}}x{{/env}} {{>partial}} {{=<% %>=}}",
      "# not a comment",
      "a #b",
      "&anchor *alias !tag %directive @at `tick`",
      "[1, 2] {a: b}",
      "true",
      "0x1F",
      "",
      "   leading and trailing   ",
      "ünïcødé 中文 עברית 😀 \u00a0nbsp \u2028ls \u0085nel \ufeffbom",
      "control \x01\x02\x1f del \x7f",
      "cr\rcr \r\n nel\xc2\x85 nel \xc2\x85\xc2\x85 ls\xe2\x80\xa8 ps \xe2\x80\xa9 del\x7f",
      "\r",
      "a \xc2\x85 b",
      "back\\slash \\n not a newline",
      "--- \n...\n",
      big,
  };
}

}  // namespace

TEST_CASE("hostile command, env and annotation values arrive byte for byte", "[hostile]") {
  std::vector<json> printed;  // every object --dry-run printed, judged below
  for (const auto& v : hostile_values()) {
    INFO("value: " << json(v).dump());
    std::vector<std::string> args = {"--name=hostile",     "--image=busybox",
                                     "--sync-mode=git",    "--sync-source=https://example.com/r.git",
                                     "--env=HOSTILE=" + v, "--annotation=example.com/note=" + v};
    if (!v.empty()) args.push_back(v);
    for (const std::string kind : {"pytorch", "mpi", "volcano"}) {
      INFO(kind);
      if (v.empty() && kind != "volcano") continue;  // pytorch and mpi need a command
      std::vector<std::string> a = args;
      if (kind == "volcano") a.erase(a.begin() + 2, a.begin() + 4);  // no code sync on volcano
      auto objs = render_submit(parse_submit(kind, a));
      const json& job = objs[0];
      const std::string replica = kind == "pytorch" ? "Master" : kind == "mpi" ? "Launcher" : "task";
      const json& c = main_container(job, replica);
      if (!v.empty()) {
        CHECK(c["command"][2].get<std::string>() == v);
      } else {
        CHECK_FALSE(c.contains("command"));
      }
      CHECK(env_value(c, "HOSTILE").get<std::string>() == v);
      CHECK(job["metadata"]["annotations"]["example.com/note"].get<std::string>() == v);
      CHECK(pod_spec(job, replica).at("containers").size() == 1);
      if (kind != "volcano") CHECK(env_value(pod_spec(job, replica)["initContainers"][0], "HOSTILE") == v);

      printed.insert(printed.end(), objs.begin(), objs.end());
      // -o json.
      CHECK(json::parse(json(objs).dump()) == json(objs));
    }
  }
  // What --dry-run prints is what PyYAML and kubectl (go-yaml, as `kubectl apply -f -` reads
  // it) read: the same objects, every byte of every value.
  const std::string stream = yaml::to_yaml_stream(printed);
  auto judge = [&](const std::string& who, const std::vector<json>& read) {
    REQUIRE(read.size() == printed.size());
    for (size_t i = 0; i < printed.size(); ++i) {
      INFO(who << ": " << printed[i]["kind"] << " " << printed[i]["metadata"]["name"]);
      CHECK(read[i] == printed[i]);
    }
  };
  if (have_pyyaml()) judge("PyYAML", pyyaml_read_all(stream));
  if (have_kubectl()) judge("kubectl", kubectl_read_all(stream));
}

TEST_CASE("hostile values in --task commands and keys of annotations stay data", "[hostile]") {
  auto objs = render_submit(parse_submit("volcano", {"--name=v", "--task=a:1:busybox:echo 'x: {{y}}' # z",
                                                     "--task=b:1:busybox:1.36:sh -c \"a:b\""}));
  CHECK(main_container(objs[0], "a")["command"][2] == "echo 'x: {{y}}' # z");
  CHECK(main_container(objs[0], "b")["image"] == "busybox:1.36");
  CHECK(main_container(objs[0], "b")["command"][2] == "sh -c \"a:b\"");
}

TEST_CASE("the hostile objects pass the real schemas", "[hostile]") {
  const auto values = hostile_values();
  auto objs = render_submit(parse_submit("pytorch", {"--name=hostile", "--image=busybox", "--workers=2",
                                                     "--env=A=" + values.back(), values.back()}));
  require_valid(objs);
}
