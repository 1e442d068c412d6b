#include "submit/api_choice.h"

#include "core/errors.h"
#include "kube/resource.h"

namespace trainctl::submit {

using nlohmann::json;

namespace {

enum class Served { Yes, No, Unknown };

Served serves(const kube::Client::Result& r, const std::string& plural) {
  if (r.error) {
    try {
      std::rethrow_exception(r.error);
    } catch (const ApiError& e) {
      return e.is_not_found() ? Served::No : Served::Unknown;
    } catch (const Error&) {
      return Served::Unknown;
    }
  }
  const json list = json::parse(r.response.body, nullptr, false);
  if (!list.is_object()) return Served::Unknown;
  for (const auto& res : list.value("resources", json::array()))
    if (res.is_object() && res.value("name", "") == plural) return Served::Yes;
  return Served::No;
}

}  // namespace

bool serves_only_trainer_v2(kube::Client& client) {
  std::vector<kube::Request> requests(2);
  requests[0].path = kube::api_resource_list_path("kubeflow.org", "v1");
  requests[1].path = kube::api_resource_list_path("trainer.kubeflow.org", "v1alpha1");
  const auto results = client.send_all(requests);
  return serves(results[0], "pytorchjobs") == Served::No && serves(results[1], "trainjobs") == Served::Yes;
}

}  // namespace trainctl::submit
