#include "print/wait_view.h"

#include "print/failure_view.h"

namespace trainctl::print {

nlohmann::ordered_json wait_json(const WaitView& w) {
  nlohmann::ordered_json j;
  j["name"] = w.name;
  j["namespace"] = w.namespace_;
  j["kind"] = w.kind;
  j["status"] = w.status ? nlohmann::ordered_json(jobs::status_name(*w.status)) : nlohmann::ordered_json();
  j["result"] = w.result;
  j["failure"] = w.failure ? failure_json(*w.failure) : nlohmann::ordered_json();
  return j;
}

}  // namespace trainctl::print
