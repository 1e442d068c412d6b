#include "support/yaml_judges.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "support/ci.h"
#include "support/paths.h"

namespace trainctl::testing {

namespace {

struct Run {
  int status = -1;
  std::string out;
};

Run run(const std::string& cmd) {
  Run r;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) r.out.append(buf, n);
  r.status = pclose(pipe);
  return r;
}

bool available(const std::string& check, const std::string& what) {
  if (std::system((check + " >/dev/null 2>&1").c_str()) == 0) return true;
  unavailable(what + " is not installed");
  return false;
}

std::string write_temp(const std::string& text) {
  static const std::string dir = make_temp_dir("yaml-judge");
  static int n = 0;
  const std::string path = dir + "/doc" + std::to_string(++n) + ".yaml";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Several JSON values one after the other (kubectl prints one object per document).
std::vector<nlohmann::json> json_values(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  while ((in >> std::ws).peek() != EOF) {
    nlohmann::json v;
    in >> v;
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

bool have_pyyaml() { return available("python3 -c 'import yaml'", "python3-yaml (PyYAML)"); }

bool have_kubectl(const std::string& kubectl) { return available("command -v " + kubectl, kubectl); }

std::vector<std::string> installed_kubectls() {
  std::vector<std::string> out;
  for (const std::string name : {"kubectl", "kubectl.1.27", "kubectl.1.28", "kubectl.1.29", "kubectl.1.30",
                                 "kubectl.1.31", "kubectl.1.32", "kubectl.1.33"})
    if (std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0) out.push_back(name);
  return out;
}

std::vector<nlohmann::json> pyyaml_read_all(const std::string& yaml) {
  const std::string file = write_temp(yaml);
  const Run r = run("python3 -c 'import json, sys, yaml\n"
                    "docs = [d for d in yaml.safe_load_all(open(sys.argv[1], encoding=\"utf-8\")) if d is not None]\n"
                    "print(json.dumps(docs))' " + file + " 2>&1");
  INFO("PyYAML: " << r.out);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out).get<std::vector<nlohmann::json>>();
}

std::vector<bool> pyyaml_reads_plain_as_string(const std::vector<std::string>& texts) {
  const std::string file = write_temp(nlohmann::json(texts).dump());
  const Run r = run("python3 -c 'import json, sys, yaml\n"
                    "def same(t):\n"
                    "    try:\n"
                    "        return yaml.safe_load(\"k: \" + t) == {\"k\": t}\n"
                    "    except Exception:\n"
                    "        return False\n"
                    "print(json.dumps([same(t) for t in json.load(open(sys.argv[1]))]))' " + file + " 2>&1");
  INFO("PyYAML: " << r.out);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out).get<std::vector<bool>>();
}

std::vector<nlohmann::json> kubectl_read_all(const std::string& yaml, const std::string& kubectl) {
  const std::string file = write_temp(yaml);
  const std::string config = write_temp("apiVersion: v1\nkind: Config\n");
  const Run r = run(kubectl + " --kubeconfig " + config + " patch --local -f " + file +
                    " --type=merge -p '{}' -o json 2>&1");
  INFO(kubectl << ": " << r.out);
  REQUIRE(r.status == 0);
  return json_values(r.out);
}

}  // namespace trainctl::testing
