#include "kubesim/kube_version.h"

#include <regex>
#include <stdexcept>

namespace kubesim {

std::string KubeVersion::git_version() const {
  return "v" + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

nlohmann::json KubeVersion::info() const {
  nlohmann::json v = {{"major", std::to_string(major)},
                      {"minor", std::to_string(minor)},
                      {"gitVersion", git_version()},
                      {"gitCommit", ""},
                      {"gitTreeState", "clean"},
                      {"buildDate", ""},
                      {"goVersion", ""},
                      {"compiler", "gc"},
                      {"platform", "linux/amd64"}};
  if (major == 1 && minor == 31 && patch == 0) {  // the release kubesim has always reported
    v["gitCommit"] = "9edcffcde5595e8a5b1a35f88c421764e575afce";
    v["buildDate"] = "2024-08-13T07:28:49Z";
    v["goVersion"] = "go1.22.5";
  }
  return v;
}

KubeVersion parse_kubernetes_version(const std::string& text) {
  static const std::regex re(R"(v?(\d+)\.(\d+)(?:\.(\d+))?)");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    throw std::invalid_argument("--kubernetes-version \"" + text +
                                "\": expected MAJOR.MINOR such as 1.26 or 1.31.2");
  KubeVersion v;
  try {
    v.major = std::stoi(m[1]);
    v.minor = std::stoi(m[2]);
    v.patch = m[3].matched ? std::stoi(m[3]) : 0;
  } catch (const std::out_of_range&) {
    throw std::invalid_argument("--kubernetes-version \"" + text + "\": number too large");
  }
  if (v.major != 1 || v.minor < 21)
    throw std::invalid_argument("--kubernetes-version \"" + text +
                                "\": kubesim emulates Kubernetes 1.21 or newer");
  return v;
}

}  // namespace kubesim
