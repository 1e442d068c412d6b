#include "doctor/probe.h"

#include <algorithm>

#include "core/errors.h"
#include "kube/resource.h"

namespace trainctl::doctor {

namespace {

std::string resources_key(const std::string& group, const std::string& version) {
  return "discovery:" + group + "/" + version;
}

}  // namespace

void Probe::ask(const std::string& key, kube::Request request) {
  if (std::find(m_keys.begin(), m_keys.end(), key) != m_keys.end()) return;
  m_keys.push_back(key);
  m_requests.push_back(std::move(request));
}

void Probe::get(const std::string& key, const std::string& path) {
  kube::Request r;
  r.path = path;
  ask(key, std::move(r));
}

void Probe::send(kube::Client& client) {
  const auto results = client.send_all(m_requests);
  for (size_t i = 0; i < results.size(); ++i) {
    Answer a;
    if (results[i].error) {
      try {
        std::rethrow_exception(results[i].error);
      } catch (const ApiError& e) {
        a.status = e.http_status();
        a.error = e.what();
      } catch (const std::exception& e) {
        a.error = e.what();
      }
    } else {
      a.status = results[i].response.status;
      a.body = nlohmann::json::parse(results[i].response.body, nullptr, false);
      if (a.body.is_discarded()) a.body = nullptr;
    }
    m_answers[m_keys[i]] = std::move(a);
    m_results[m_keys[i]] = results[i];
  }
}

const kube::Client::Result& Probe::result(const std::string& key) const {
  static const kube::Client::Result none{{}, std::make_exception_ptr(Error("not asked"))};
  const auto it = m_results.find(key);
  return it == m_results.end() ? none : it->second;
}

const Answer& Probe::answer(const std::string& key) const {
  static const Answer none{0, nullptr, "not asked"};
  const auto it = m_answers.find(key);
  return it == m_answers.end() ? none : it->second;
}

void ask_resources(Probe& probe, const std::string& group, const std::string& version) {
  probe.get(resources_key(group, version), kube::api_resource_list_path(group, version));
}

bool serves(const Probe& probe, const std::string& group, const std::string& version, const std::string& plural) {
  const Answer& a = probe.answer(resources_key(group, version));
  if (!a.ok() || !a.body.is_object()) return false;
  for (const auto& r : a.body.value("resources", nlohmann::json::array()))
    if (r.is_object() && r.value("name", "") == plural) return true;
  return false;
}

std::vector<std::string> item_names(const Answer& list) {
  std::vector<std::string> out;
  if (!list.ok() || !list.body.is_object()) return out;
  for (const auto& item : list.body.value("items", nlohmann::json::array()))
    if (item.is_object()) out.push_back(item.value("metadata", nlohmann::json::object()).value("name", ""));
  return out;
}

std::string joined(const std::vector<std::string>& items, const std::string& none) {
  if (items.empty()) return none;
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

}  // namespace trainctl::doctor
