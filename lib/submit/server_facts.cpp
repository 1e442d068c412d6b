#include "submit/server_facts.h"

#include <cctype>
#include <regex>

#include "core/errors.h"
#include "core/log.h"
#include "kube/resource.h"
#include "submit/submit_kind.h"

namespace trainctl::submit {

using nlohmann::json;

namespace {

// The CustomResourceDefinition of a custom resource, named PLURAL.GROUP.
std::string crd_path(const kube::Resource& r) {
  return kube::custom_resource_definitions().object_path("", r.plural + "." + r.group);
}

// The body of a read, or null when it failed in a way that leaves the fact unknown.
json body_or_null(const kube::Client::Result& r, const std::string& what) {
  if (r.error) {
    try {
      std::rethrow_exception(r.error);
    } catch (const ApiError& e) {
      // 404: not installed (the create will say so); 403: not allowed to read CRDs.
      log::debug("cannot read {} ({}): assuming a current release", what, e.what());
      return nullptr;
    }
  }
  json j = json::parse(r.response.body, nullptr, false);
  if (!j.is_object()) {
    log::debug("the answer for {} is not a JSON object: assuming a current release", what);
    return nullptr;
  }
  return j;
}

}  // namespace

namespace {

// The walk of crd_has_field and crd_declares_field: `loose` takes an object without declared
// properties (or one preserving unknown fields), and a version the CRD does not serve, as
// accepting the field.
bool crd_field(const json& crd, const std::string& version, const std::string& path, bool loose) {
  const json& versions = crd.contains("spec") ? crd["spec"].value("versions", json::array()) : json::array();
  for (const auto& v : versions) {
    if (!v.is_object() || v.value("name", "") != version) continue;
    const json* schema = &v;
    for (const char* key : {"schema", "openAPIV3Schema"}) {
      if (!schema->is_object() || !schema->contains(key)) return loose;  // no structural schema: anything goes
      schema = &(*schema)[key];
    }
    size_t start = 0;
    while (start <= path.size()) {
      const size_t dot = path.find('.', start);
      const std::string field = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (!schema->is_object() || schema->value("x-kubernetes-preserve-unknown-fields", false)) return loose;
      const auto props = schema->find("properties");
      if (props == schema->end() || !props->is_object()) return loose;
      const auto it = props->find(field);
      if (it == props->end()) return false;
      schema = &*it;
      if (dot == std::string::npos) return true;
      start = dot + 1;
    }
    return true;
  }
  return loose;  // the version is not served: the create fails on its own terms
}

}  // namespace

bool crd_has_field(const json& crd, const std::string& version, const std::string& path) {
  return crd_field(crd, version, path, true);
}

bool crd_declares_field(const json& crd, const std::string& version, const std::string& path) {
  return crd_field(crd, version, path, false);
}

std::pair<int, int> parse_server_version(const json& version) {
  static const std::regex re("v?([0-9]+)\\.([0-9]+).*");
  std::smatch m;
  const std::string git = version.is_object() ? version.value("gitVersion", "") : "";
  if (std::regex_match(git, m, re)) return {std::stoi(m[1].str()), std::stoi(m[2].str())};
  // Older servers and some distributions fill only major/minor ("1", "27+").
  try {
    if (!version.is_object()) return {0, 0};
    std::string minor = version.value("minor", "");
    while (!minor.empty() && !std::isdigit(static_cast<unsigned char>(minor.back()))) minor.pop_back();
    return {std::stoi(version.value("major", "")), std::stoi(minor)};
  } catch (const std::exception&) {
    return {0, 0};
  }
}

ServerFacts read_server_facts(kube::Client& client, const Plan& p) {
  ServerFacts facts;
  const SubmitKind& kind = *p.submit_kind;
  enum class Ask { Crd, Version };
  std::vector<Ask> asks;
  std::vector<kube::Request> requests;
  auto ask = [&](Ask what, const std::string& path) {
    asks.push_back(what);
    kube::Request r;
    r.path = path;
    requests.push_back(std::move(r));
  };
  if (kind.reads_crd(p)) ask(Ask::Crd, crd_path(kind.job.resource));
  if (kind.rules.reads_server_version) ask(Ask::Version, kube::kVersionPath);
  if (requests.empty()) return facts;

  auto results = client.send_all(requests);
  for (size_t i = 0; i < asks.size(); ++i) {
    const json body = body_or_null(results[i], requests[i].path);
    if (body.is_null()) continue;
    switch (asks[i]) {
      case Ask::Crd:
        kind.read_crd(body, facts);
        break;
      case Ask::Version: {
        const auto [major, minor] = parse_server_version(body);
        if (major > 0) {
          facts.pod_index_label = major > 1 || minor >= 28;
          facts.indexed_job_hostnames = major > 1 || minor >= 22;
          facts.server_version = std::to_string(major) + "." + std::to_string(minor);
        }
        break;
      }
    }
  }
  return facts;
}

std::vector<std::string> apply_server_facts(const ServerFacts& facts, Plan& p) {
  std::vector<std::string> notes;
  p.submit_kind->apply_facts(facts, p, notes);
  // Only a kind whose CRD was read can lack these fields (SubmitKind::read_crd).
  if (!facts.schedule_timeout_field && p.schedule_timeout_seconds) {
    p.schedule_timeout_seconds.reset();
    notes.push_back("the installed " + p.kind->resource.kind +
                    " CRD has no runPolicy.schedulingPolicy.scheduleTimeoutSeconds (an older operator): "
                    "--schedule-timeout is not sent");
  }
  p.pod_index_label = facts.pod_index_label;
  return notes;
}

}  // namespace trainctl::submit
