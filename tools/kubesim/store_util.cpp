// Status errors with kube-apiserver's wording.
#include "kubesim/store.h"

namespace kubesim {

namespace {

std::string qualified(const ResourceType& rt) {
  return rt.group.empty() ? rt.plural : rt.plural + "." + rt.group;
}

json details_for(const ResourceType& rt, const std::string& name) {
  json d = {{"name", name}};
  if (!rt.group.empty()) d["group"] = rt.group;
  d["kind"] = rt.plural;
  return d;
}

}  // namespace

json StatusError::to_status() const {
  json md = json::object();
  if (!list_continue.empty()) md["continue"] = list_continue;
  json s = {{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", md}, {"status", "Failure"}, {"message", message}};
  if (!reason.empty()) s["reason"] = reason;  // StatusReasonUnknown is "", omitted
  if (!details.empty()) s["details"] = details;
  s["code"] = code;
  return s;
}

StatusError not_found(const ResourceType& rt, const std::string& name) {
  return StatusError(404, "NotFound", qualified(rt) + " \"" + name + "\" not found", details_for(rt, name));
}

StatusError already_exists(const ResourceType& rt, const std::string& name) {
  return StatusError(409, "AlreadyExists", qualified(rt) + " \"" + name + "\" already exists",
                     details_for(rt, name));
}

StatusError conflict(const ResourceType& rt, const std::string& name, const std::string& why) {
  return StatusError(409, "Conflict",
                     "Operation cannot be fulfilled on " + qualified(rt) + " \"" + name + "\": " + why,
                     details_for(rt, name));
}

StatusError too_old_resource_version(uint64_t rv, uint64_t oldest_kept) {
  return StatusError(
      410, "Expired",
      "too old resource version: " + std::to_string(rv) + " (" + std::to_string(oldest_kept - 1) + ")",
      json::object());
}

StatusError continue_expired(const std::string& inconsistent_continue) {
  StatusError e(
      410, "Expired",
      "The provided continue parameter is too old to display a consistent list result. You can start a "
      "new list without the continue parameter, or use the continue token in this response to retrieve "
      "the remainder of the results. Continuing with the provided token results in an inconsistent list "
      "- objects that were created, modified, or deleted between the time the first chunk was returned "
      "and now may show up in the list.",
      json::object());
  e.list_continue = inconsistent_continue;
  return e;
}

const char* event_type_name(EventType t) {
  switch (t) {
    case EventType::Added: return "ADDED";
    case EventType::Modified: return "MODIFIED";
    case EventType::Deleted: return "DELETED";
  }
  return "ERROR";
}

}  // namespace kubesim
